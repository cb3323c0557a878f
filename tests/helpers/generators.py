"""Building any registered generator at its smoke size, and small padded batches for it.

Shared by the generator tests so that a new generator file is covered without new test code. Only
the generator API's hooks are used: the streams ``input_streams`` declares get small dimensions
(or the one a stream fixes), and ``dataset_resources`` builds whatever the generator needs from a
small generated dataset of a few reports (BiGen's knowledge bank, for example).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from pathreport.data.batch import SlideBatch
from pathreport.data.resources import DatasetInfo
from pathreport.data.streams import StreamSpec
from pathreport.generation.generator import GeneratorConfig, GeneratorContext
from pathreport.registry import GENERATORS, Entry

VOCAB = 23
PAD, BOS, EOS, UNK = 0, 1, 2, 3
#: The special ids as the decoder and GeneratorContext take them.
SPECIAL_IDS = {"pad_id": PAD, "bos_id": BOS, "eos_id": EOS, "unk_id": UNK}
FEATURE_DIM = 10
STREAM_DIMS = {"patch": 7, "slide": 9, "concept": 5}
#: The training reports of the small generated dataset that ``dataset_resources`` builds from.
TRAIN_REPORTS = (
    "Breast, core-needle biopsy; Invasive carcinoma of no special type, grade II.",
    "Prostate, biopsy; Acinar adenocarcinoma. Grade Group 2.",
    "Colon, biopsy; Tubular adenoma with low-grade dysplasia.",
    "Stomach, biopsy; Chronic gastritis. No dysplasia.",
)


def trainable_entries() -> list[Entry]:
    return [e for e in GENERATORS.entries() if getattr(e.obj, "trainable", False)]


def smoke_config(entry: Entry, **overrides: object) -> GeneratorConfig:
    """The entry's smoke config with ``overrides``."""
    return entry.config(**{**entry.smoke, **overrides})


def smoke_streams(entry: Entry, cfg: GeneratorConfig | None = None) -> dict[str, StreamSpec]:
    """The streams the generator reads at ``cfg`` (default: its smoke config)."""
    cfg = cfg if cfg is not None else smoke_config(entry)
    hook = getattr(entry.obj, "input_streams", None)
    return hook(cfg) if hook is not None else dict(entry.obj.streams)


def smoke_resources(entry: Entry, cfg: GeneratorConfig, folder: Path) -> dict[str, str]:
    """What the ``dataset_resources`` hook gives for a generated dataset in ``folder``."""
    hook = getattr(entry.obj, "dataset_resources", None)
    if hook is None:
        return {}
    info = DatasetInfo(
        name="smoke",
        split_file=folder / "splits.json",
        train_reports=TRAIN_REPORTS,
        cache_dir=folder,
        generated_dir=folder,
    )
    return hook(cfg, info)


def smoke_context(
    entry: Entry, cfg: GeneratorConfig | None = None, resources: dict[str, str] | None = None
) -> GeneratorContext:
    """Tiny context: each stream gets its fixed dimension or a small one depending on its kind."""
    streams = sorted(smoke_streams(entry, cfg).items())
    dims = {name: spec.dim or STREAM_DIMS[spec.kind] + i for i, (name, spec) in enumerate(streams)}
    return GeneratorContext(
        vocab_size=VOCAB,
        feature_dim=FEATURE_DIM,
        **SPECIAL_IDS,
        stream_dims=dims,
        max_report_tokens=12,
        resources=dict(resources or {}),
    )


def build(
    entry: Entry,
    tmp_path: Path,
    seed: int = 0,
    dtype: torch.dtype = torch.float64,
    **overrides: object,
):
    """The generator at its smoke size (plus ``overrides``), with the resources its hook builds."""
    cfg = smoke_config(entry, **overrides)
    ctx = smoke_context(entry, cfg, smoke_resources(entry, cfg, tmp_path))
    torch.manual_seed(seed)
    return entry.obj(cfg, ctx).to(dtype).eval()


def make_batch(
    entry: Entry,
    sizes: tuple[int, ...] = (9, 1, 14),
    report_lengths: tuple[int, ...] = (5, 8, 2),
    seed: int = 1,
    dtype: torch.dtype = torch.float64,
) -> SlideBatch:
    """Slides with ``sizes`` real patches (padded to the longest, padding filled with NOISE so that
    a generator that forgets the mask is caught) and reports of ``report_lengths`` tokens."""
    g = torch.Generator().manual_seed(seed)
    ctx = smoke_context(entry)
    b, n = len(sizes), max(sizes)
    mask = torch.arange(n)[None, :] < torch.tensor(sizes)[:, None]
    features = torch.randn(b, n, ctx.feature_dim, generator=g, dtype=dtype)
    streams = {}
    for name, spec in smoke_streams(entry).items():
        dim = ctx.stream_dims[name]
        shape = (b, n, dim) if spec.kind == "patch" else (b, dim)
        streams[name] = torch.randn(*shape, generator=g, dtype=dtype)
    t = max(report_lengths) + 2
    tokens = torch.full((b, t), PAD, dtype=torch.long)
    for i, length in enumerate(report_lengths):
        tokens[i, 0] = BOS
        tokens[i, 1 : length + 1] = torch.randint(UNK + 1, VOCAB, (length,), generator=g)
        tokens[i, length + 1] = EOS
    coords = torch.zeros(b, n, 2, dtype=torch.long)
    return SlideBatch(
        ids=[f"slide{i}" for i in range(b)],
        features=features,
        mask=mask,
        coords=coords,
        streams=streams,
        tokens=tokens,
        references=[f"report {i}" for i in range(b)],
    )


def single(batch: SlideBatch, index: int) -> SlideBatch:
    """Slide ``index`` alone, unpadded, with its report trimmed to its own length."""
    one = batch.select([index])
    assert one.tokens is not None
    length = int((one.tokens[0] != PAD).sum())
    one.tokens = one.tokens[:, :length]
    return one


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Smoke-size models gain nothing from intra-op threads, and on a busy machine waiting for a
    second thread at every small operation costs more than the operation: run them on one."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
