"""Building any registered generator at its smoke size, and small padded batches for it.

Shared by the generator tests so that a new generator file is covered without new test code: the
extra streams a generator declares get small dimensions, and a config with a ``bank_path`` (a
knowledge bank) gets a small bank written for it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import torch

from pathreport.data.batch import SlideBatch
from pathreport.generation.generator import GeneratorContext
from pathreport.knowledge_bank import KnowledgeBank, save_bank
from pathreport.registry import GENERATORS, Entry

VOCAB = 23
PAD, BOS, EOS, UNK = 0, 1, 2, 3
FEATURE_DIM = 10
STREAM_DIMS = {"patch": 7, "slide": 9, "concept": 5}
BANK_DIM = 6


def trainable_entries() -> list[Entry]:
    return [e for e in GENERATORS.entries() if getattr(e.obj, "trainable", False)]


def smoke_context(entry: Entry) -> GeneratorContext:
    """A tiny context; each declared stream gets a small dimension that depends on its kind."""
    dims = {name: STREAM_DIMS[spec.kind] + i for i, (name, spec) in enumerate(sorted(entry.obj.streams.items()))}
    return GeneratorContext(
        vocab_size=VOCAB, feature_dim=FEATURE_DIM, pad_id=PAD, bos_id=BOS, eos_id=EOS, unk_id=UNK,
        stream_dims=dims, max_report_tokens=12,
    )


def smoke_config(entry: Entry, tmp_path: Path, **overrides: object):
    """The entry's smoke config; a ``bank_path`` field gets a freshly written small bank."""
    values = dict(entry.smoke)
    fields = {f.name for f in dataclasses.fields(entry.config)}
    if "bank_path" in fields and "bank_path" not in overrides:
        generator = torch.Generator().manual_seed(7)
        bank = KnowledgeBank(embeddings=torch.randn(11, BANK_DIM, generator=generator), text_encoder="random")
        values["bank_path"] = str(save_bank(bank, tmp_path / f"{entry.name}_bank.pt"))
    values.update(overrides)
    return entry.config(**values)


def build(entry: Entry, tmp_path: Path, seed: int = 0, dtype: torch.dtype = torch.float64, **overrides: object):
    torch.manual_seed(seed)
    model = entry.obj(smoke_config(entry, tmp_path, **overrides), smoke_context(entry))
    return model.to(dtype).eval()


def make_batch(
    entry: Entry, sizes: tuple[int, ...] = (9, 1, 14), report_lengths: tuple[int, ...] = (5, 8, 2),
    seed: int = 1, dtype: torch.dtype = torch.float64,
) -> SlideBatch:
    """Slides with ``sizes`` real patches (padded to the longest, padding filled with NOISE so that
    a generator that forgets the mask is caught) and reports of ``report_lengths`` tokens."""
    g = torch.Generator().manual_seed(seed)
    ctx = smoke_context(entry)
    b, n = len(sizes), max(sizes)
    mask = torch.arange(n)[None, :] < torch.tensor(sizes)[:, None]
    features = torch.randn(b, n, ctx.feature_dim, generator=g, dtype=dtype)
    streams = {}
    for name, spec in entry.obj.streams.items():
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
        ids=[f"slide{i}" for i in range(b)], features=features, mask=mask, coords=coords, streams=streams,
        tokens=tokens, references=[f"report {i}" for i in range(b)],
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
