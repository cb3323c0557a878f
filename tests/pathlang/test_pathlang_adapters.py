"""VLM adapters: registration, the transformers CLIP path end to end, and install hints."""

from __future__ import annotations

import importlib
import importlib.metadata
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from pathreport import discovery
from pathreport.data.trident import write_features
from pathreport.pathlang.benchmark import run_pathlang
from pathreport.pathlang.config import PathLangConfig
from pathreport.pathlang.corpus import load_corpus
from pathreport.pathlang.slides import load_slide_set
from pathreport.pathlang.vlm import MissingDependency
from pathreport.registry import VLMS

PAPER_MODELS = (
    "conch",
    "plip",
    "keep",
    "pathgen_clip",
    "patho_clip",
    "mi_zero",
    "quiltnet",
    "musk",
    "biomedclip",
)


def test_adapters_for_the_nine_paper_models_are_registered_with_their_sources() -> None:
    for name in (*PAPER_MODELS, "precomputed", "hf_clip"):
        entry = VLMS.get(name)
        assert entry.metadata["kind"] == "dual-encoder"
        assert {"paper", "upstream", "licence", "weights"} <= set(entry.metadata)
        doc = sys.modules[entry.obj.__module__].__doc__
        assert "Licence" in doc or "licence" in doc.lower()
        assert "Deviation" in doc or "deviation" in doc.lower()
    from pathreport.registry import EVALUATORS

    assert EVALUATORS.get("pathlang").metadata["kind"] == "vlm-dual-encoder"


def test_importing_pathlang_stays_cheap() -> None:
    code = (
        "import sys, pathreport.pathlang; print(sorted(m for m in ('transformers', 'PIL', "
        "'h5py', 'open_clip', 'timm', 'scipy', 'pandas') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"


@pytest.fixture(scope="module")
def tiny_clip(tmp_path_factory) -> str:
    """A randomly initialised CLIP with a byte-level tokenizer, saved like a hub checkpoint."""
    from tokenizers import pre_tokenizers
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel, CLIPTokenizer

    folder = tmp_path_factory.mktemp("tiny_clip")
    vocab = {"<|startoftext|>": 0, "<|endoftext|>": 1}
    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    vocab.update({c: i + 2 for i, c in enumerate(alphabet)})
    vocab.update({c + "</w>": i + 2 + len(alphabet) for i, c in enumerate(alphabet)})
    config = CLIPConfig(
        text_config={
            "vocab_size": len(vocab),
            "hidden_size": 32,
            "intermediate_size": 48,
            "num_hidden_layers": 1,
            "num_attention_heads": 2,
            "max_position_embeddings": 24,
            "bos_token_id": 0,
            "eos_token_id": 1,
            "pad_token_id": 1,
        },
        vision_config={
            "image_size": 32,
            "patch_size": 16,
            "hidden_size": 32,
            "intermediate_size": 48,
            "num_hidden_layers": 1,
            "num_attention_heads": 2,
        },
        projection_dim=16,
    )
    CLIPModel(config).save_pretrained(folder)
    CLIPTokenizer(vocab=vocab, merges=[]).save_pretrained(folder)
    CLIPImageProcessor(
        size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32}
    ).save_pretrained(folder)
    return str(folder)


def test_tiny_clip_adapter_tiles_in_embeddings_out_benchmark_runs(tiny_clip: str, tmp_path) -> None:
    adapter = VLMS.get("plip").obj(tiny_clip, batch_size=8)
    rng = np.random.default_rng(0)
    ds = load_corpus().dataset("camelyon16")
    labels = {}
    for i in range(4):
        tiles = rng.integers(0, 256, size=(10, 40, 48, 3), dtype=np.uint8)
        embeddings = adapter.encode_image(tiles)  # two batches
        assert embeddings.shape == (10, 16) and embeddings.dtype == np.float32
        write_features(tmp_path / "slides" / f"s{i}.h5", embeddings, coords=np.zeros((10, 2)))
        labels[f"s{i}"] = ds.classes[i % 2]
    (tmp_path / "labels.csv").write_text(
        "slide_id,label\n" + "".join(f"{s},{c}\n" for s, c in labels.items())
    )
    text = adapter.encode_text(
        ["normal lymph node", "A much longer prompt that the 24-token context cannot hold whole."]
    )
    assert text.shape == (2, 16)
    assert (
        adapter.describe()["n_truncated_texts"] == 1 and adapter.describe()["context_length"] == 24
    )

    slides = load_slide_set(tmp_path / "slides", tmp_path / "labels.csv", ds, expected_dim=16)
    adapter.batch_size = 256
    result = run_pathlang(
        slides,
        ds,
        adapter,
        config=PathLangConfig(bootstrap_resamples=50, t3_ensemble_draws=5),
        model="tiny",
    )
    summary = result.summary()
    assert summary["n_slides"] == 4 and set(summary["results"]) == {"t1", "t2", "t3", "t4"}
    assert summary["manifest"]["vlm"]["adapter"] == "plip"
    assert (
        summary["manifest"]["vlm"]["n_truncated_texts"] > 0
    )  # long PathLang prompts exceed 24 tokens


def test_hf_clip_adapter_without_weights_says_how_to_get_them(tmp_path) -> None:
    with pytest.raises(
        MissingDependency, match="could not load its weights from .*--vlm-checkpoint"
    ):
        VLMS.get("hf_clip").obj(str(tmp_path / "missing"))


@pytest.mark.parametrize(
    ("adapter", "blocked", "hint"),
    [
        ("quiltnet", "open_clip", "pip install open_clip_torch"),
        ("biomedclip", "open_clip", "pip install open_clip_torch"),
        (
            "conch",
            "conch.open_clip_custom",
            "pip install git\\+https://github.com/mahmoodlab/CONCH.git",
        ),
        ("keep", "timm", "timm torchvision"),
        ("musk", "musk", "pip install git\\+https://github.com/lilab-stanford/MUSK.git"),
    ],
)
def test_adapters_name_the_package_to_install(
    monkeypatch, adapter: str, blocked: str, hint: str
) -> None:
    monkeypatch.setitem(sys.modules, blocked, None)  # importing it now raises ImportError
    with pytest.raises(MissingDependency, match=hint):
        VLMS.get(adapter).obj()


@pytest.mark.parametrize("adapter", ["pathgen_clip", "patho_clip"])
def test_gated_open_clip_adapters_say_where_the_weights_are(adapter: str, tmp_path) -> None:
    with pytest.raises(MissingDependency, match="huggingface.co/.*--vlm-checkpoint"):
        VLMS.get(adapter).obj()
    with pytest.raises(MissingDependency, match="cannot find the weights file"):
        VLMS.get(adapter).obj(str(tmp_path / "nope.pt"))


def test_mi_zero_adapter_needs_its_source_folder_and_checkpoint(tmp_path) -> None:
    with pytest.raises(MissingDependency, match="git clone https://github.com/mahmoodlab/MI-Zero"):
        VLMS.get("mi_zero").obj(str(tmp_path / "epoch_50.pt"))
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "factory.py").write_text("")
    with pytest.raises(MissingDependency, match="epoch_50.pt"):
        VLMS.get("mi_zero").obj(str(tmp_path / "epoch_50.pt"), repo_dir=str(tmp_path))


def test_precomputed_adapter_reads_embeddings_by_exact_string(tmp_path) -> None:
    from pathreport.pathlang.text_store import save_text_embeddings

    path = save_text_embeddings(tmp_path / "t.npz", {"Tumor": np.ones(4), "tumor": np.arange(4.0)})
    adapter = VLMS.get("precomputed").obj(text_embeddings=str(path))
    np.testing.assert_array_equal(
        adapter.encode_text(["tumor", "Tumor"]), [np.arange(4.0), np.ones(4)]
    )
    with pytest.raises(KeyError, match="--list-texts"):
        adapter.encode_text(["TUMOR"])
    with pytest.raises(TypeError, match="no image encoder"):
        adapter.encode_image(np.zeros((1, 8, 8, 3), dtype=np.uint8))


TENTH = textwrap.dedent('''
    """A tenth VLM in one file (test plug-in). Licence: none. Deviations: none."""
    import numpy as np
    from pathreport import VLMS
    from pathreport.pathlang.vlm import VLMAdapter

    @VLMS.register("tenth_vlm", paper="test", upstream="", weights="", licence="none", install="")
    class TenthAdapter(VLMAdapter):
        name = "tenth_vlm"

        def _encode_text(self, texts):
            return np.stack([np.eye(8)[len(t) % 8] + 0.1 for t in texts])
''')


def test_a_tenth_vlm_is_one_file(tmp_path) -> None:
    path = tmp_path / "tenth_vlm.py"
    path.write_text(TENTH)
    try:
        discovery.load_plugin_file(path)
        adapter = VLMS.get("tenth_vlm").obj()
        ds = load_corpus().dataset("tcga_gbmlgg")
        from pathreport.pathlang.slides import SlideSet

        tiles = {f"s{i}": np.random.default_rng(i).normal(size=(15, 8)) for i in range(4)}
        slides = SlideSet.from_arrays(tiles, {f"s{i}": ("LGG", "GBM")[i % 2] for i in range(4)}, ds)
        result = run_pathlang(
            slides, ds, adapter, config=PathLangConfig(tasks=("t1", "t4")), model="tenth_vlm"
        )
        assert result.summary()["manifest"]["vlm"]["adapter"] == "tenth_vlm"
    finally:
        VLMS.remove("tenth_vlm")


def test_third_party_adapters_register_through_the_entry_point_group(monkeypatch) -> None:
    from pathreport.pathlang.adapters.precomputed import PrecomputedAdapter

    module = type(sys)("third_party_vlm")
    module.Adapter = type("ThirdPartyAdapter", (PrecomputedAdapter,), {"name": "third_party"})
    monkeypatch.setitem(sys.modules, "third_party_vlm", module)
    point = importlib.metadata.EntryPoint(
        name="third_party", value="third_party_vlm:Adapter", group="pathreport.vlms"
    )
    monkeypatch.setattr(
        discovery, "entry_points", lambda group: [point] if group == "pathreport.vlms" else []
    )
    try:
        discovery._load_entry_points()
        assert VLMS.get("third_party").obj is module.Adapter
    finally:
        VLMS.remove("third_party")
    assert VLMS.get("biomedclip").provider.endswith(
        "pathlang/adapters/biomedclip.py"
    )  # built-ins still there
