"""Slides with their reports, read from TRIDENT feature files, and batching with masks."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.data import Dataset

from pathreport.data.batch import SlideBatch
from pathreport.data.feature_cache import SplitFeatureCache
from pathreport.data.splits import SplitEntry
from pathreport.data.text import TextTokenizer, Tokenizer
from pathreport.data.trident import FeatureFileError, read_features

#: Longest report in tokens (without <bos>/<eos>) when a dataset config does not say: the reference
#: implementation's ``max_seq_length``. The training target is cut there and the decoder stops
#: there.
DEFAULT_MAX_REPORT_TOKENS = 320

PATCH_SAMPLING = ("first", "random", "all")
MAIN_STREAM = "patch"


@dataclass
class FeatureSource:
    """Where one input stream's files are and how to read them.

    Attributes:
        name: ``patch`` for the main stream, otherwise the generator's stream name.
        folder: folder holding ``<slide_id>.h5``.
        kind: ``patch`` (N x D, same patches as the main stream), ``slide`` or ``concept`` (D).
        key: HDF5 dataset name.
        dim: expected dimension, or None to take it from the first file (concept streams).
        origin: what the folder is, for error messages (e.g. "encoder uni2").
    """

    name: str
    folder: Path
    kind: str = "patch"
    key: str = "features"
    dim: int | None = None
    origin: str = ""

    def path(self, slide_id: str) -> Path:
        return self.folder / f"{slide_id}.h5"

    @property
    def per_patch(self) -> bool:
        return self.kind == "patch"


@dataclass
class BagPolicy:
    """Which patches of a bag are used.

    Attributes:
        max_patches: upper bound on patches per slide (None: no bound).
        sampling: ``first`` keeps the first ``max_patches`` in file order (the reference setting,
            spatially biased); ``random`` draws a random subset, fresh every epoch in training and
            fixed per slide in evaluation (kept in file order); ``all`` ignores ``max_patches``.
    """

    max_patches: int | None = None
    sampling: str = "first"

    def __post_init__(self) -> None:
        if self.sampling not in PATCH_SAMPLING:
            raise ValueError(
                f"data.patch_sampling must be one of {PATCH_SAMPLING}, found {self.sampling!r}."
            )
        if self.max_patches is not None and self.max_patches < 1:
            raise ValueError(f"data.max_patches must be >= 1 or null, found {self.max_patches}.")

    def select(self, n: int, *, train: bool, seed: int, index: int) -> np.ndarray | None:
        """Indices of the patches to keep, or None for all of them."""
        if self.sampling == "all" or self.max_patches is None or n <= self.max_patches:
            return None
        if self.sampling == "first":
            return np.arange(self.max_patches)
        if train:  # the global torch RNG: reproducible under seed_everything, new every epoch
            chosen = torch.randperm(n)[: self.max_patches].numpy()
        else:
            chosen = np.random.default_rng([seed, index]).permutation(n)[: self.max_patches]
        return np.sort(chosen)


class SlideReportDataset(Dataset):
    """One item per slide: its features (all streams) and its tokenized report.

    Args:
        entries: the split's slides (ids and raw reports).
        sources: the main stream first, then the generator's extra streams.
        tokenizer: the shared tokenizer (training targets are cleaned; the raw report is kept).
        max_report_tokens: longer reports are truncated (without ``<eos>``, so the model is never
            taught that a truncated report is finished).
        bag: patch selection policy.
        train: training mode (random sampling varies per epoch).
        seed: base seed for evaluation-time sampling.
        caches: float16 copies of some streams' files (stream name -> cache), read instead of the
            HDF5 files (``data.feature_cache``).
    """

    def __init__(
        self,
        entries: list[SplitEntry],
        sources: list[FeatureSource],
        tokenizer: TextTokenizer,
        *,
        max_report_tokens: int,
        bag: BagPolicy,
        train: bool,
        seed: int = 0,
        caches: dict[str, SplitFeatureCache] | None = None,
    ) -> None:
        if not sources or sources[0].name != MAIN_STREAM:
            raise ValueError("The first feature source must be the main patch stream.")
        self.entries = entries
        self.sources = sources
        self.tokenizer = tokenizer
        self.max_report_tokens = max_report_tokens
        self.bag = bag
        self.train = train
        self.seed = seed
        self.caches = dict(caches or {})
        self._per_patch = {s.name for s in sources[1:] if s.per_patch}
        self.tokens: list[list[int]] = []
        self.truncated: list[str] = []
        for entry in entries:
            ids, cut = tokenizer.encode(entry.report, max_report_tokens)
            seq = [tokenizer.bos_id, *ids] + ([] if cut else [tokenizer.eos_id])
            self.tokens.append(seq)
            if cut:
                self.truncated.append(entry.id)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.entries]

    def __getitem__(self, index: int) -> dict[str, Any]:
        entry = self.entries[index]
        main = self.sources[0]
        feats, coords = self._read(main, index)
        if coords is None:
            coords = np.zeros((feats.shape[0], 2), dtype=np.int64)
        streams: dict[str, np.ndarray] = {}
        for source in self.sources[1:]:
            extra, _ = self._read(source, index)
            if source.per_patch and extra.shape[0] != feats.shape[0]:
                raise FeatureFileError(
                    f"{source.path(entry.id)}: stream '{source.name}' has {extra.shape[0]} "
                    f"patches but the main features ({main.path(entry.id)}) "
                    f"have {feats.shape[0]}; both must come from the same patch coordinates."
                )
            streams[source.name] = extra
        keep = self.bag.select(feats.shape[0], train=self.train, seed=self.seed, index=index)
        if keep is not None:
            feats, coords = feats[keep], coords[keep]
            streams = {k: (v[keep] if k in self._per_patch else v) for k, v in streams.items()}
        return {
            "id": entry.id,
            "report": entry.report,
            "features": feats,
            "coords": coords,
            "streams": streams,
            "tokens": self.tokens[index],
        }

    def _read(self, source: FeatureSource, index: int) -> tuple[np.ndarray, np.ndarray | None]:
        """One stream of slide ``index``: from its cache if it has one, else from its HDF5 file."""
        cache = self.caches.get(source.name)
        if cache is not None:
            return cache.read(index)
        main = source is self.sources[0]
        data = read_features(
            source.path(self.entries[index].id),
            expected_dim=source.dim,
            key=source.key,
            slide_level=not source.per_patch,
            with_coords=main,
        )
        return data.features, data.coords


def collate_slides(
    items: list[dict[str, Any]],
    per_patch_streams: frozenset[str] = frozenset(),
    pad_id: int = Tokenizer.PAD,
) -> SlideBatch:
    """Pad bags to the longest in the batch (with a mask) and reports to the longest report.

    A slide without tissue (N = 0) is refused or skipped when the data is set up
    (``data.on_empty_bag``); should one reach this function, it gets one all-zero patch, so that
    attention always has a key.
    """
    b = len(items)
    dim = items[0]["features"].shape[1]
    n_max = max(1, *(it["features"].shape[0] for it in items))
    features = torch.zeros(b, n_max, dim)
    mask = torch.zeros(b, n_max, dtype=torch.bool)
    coords = torch.zeros(b, n_max, 2, dtype=torch.long)
    streams: dict[str, torch.Tensor] = {}
    for name in items[0]["streams"]:
        first = items[0]["streams"][name]
        if name in per_patch_streams:
            streams[name] = torch.zeros(b, n_max, first.shape[-1])
        else:
            streams[name] = torch.zeros(b, first.shape[-1])
    t_max = max(len(it["tokens"]) for it in items)
    tokens = torch.full((b, t_max), pad_id, dtype=torch.long)
    for i, it in enumerate(items):
        n = it["features"].shape[0]
        if n:
            features[i, :n] = torch.from_numpy(it["features"])
            coords[i, :n] = torch.from_numpy(it["coords"])
        mask[i, : max(n, 1)] = True
        for name, value in it["streams"].items():
            if name in per_patch_streams:
                if n:
                    streams[name][i, :n] = torch.from_numpy(value)
            else:
                streams[name][i] = torch.from_numpy(value)
        tokens[i, : len(it["tokens"])] = torch.tensor(it["tokens"])
    return SlideBatch(
        ids=[it["id"] for it in items],
        features=features,
        mask=mask,
        coords=coords,
        streams=streams,
        tokens=tokens,
        references=[it["report"] for it in items],
    )


class Collator:
    """Picklable collate function (DataLoader workers need one) that knows the per-patch streams and
    the tokenizer's padding id."""

    def __init__(self, sources: list[FeatureSource], pad_id: int = Tokenizer.PAD) -> None:
        self.per_patch = frozenset(s.name for s in sources[1:] if s.per_patch)
        self.pad_id = pad_id

    def __call__(self, items: list[dict[str, Any]]) -> SlideBatch:
        return collate_slides(items, self.per_patch, self.pad_id)


class SizeBucketBatchSampler:
    """Batches of slides with similar bag sizes, so little compute goes to padding.

    Training (``shuffle=True``): the slides are shuffled (with torch's global generator, so a seeded
    run is reproducible and every epoch differs), cut into chunks of ``bucket_batches`` batches,
    each chunk is sorted by bag size and cut into batches, and the batches are shuffled. Evaluation:
    the slides sorted by bag size (ties by position), cut into batches. A slide's predictions do not
    depend on its batch-mates (generators mask padding), so this only changes speed.
    """

    def __init__(
        self, sizes: list[int], batch_size: int, *, shuffle: bool, bucket_batches: int = 50
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch size must be >= 1, found {batch_size}.")
        self.sizes = list(sizes)
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.bucket_batches = bucket_batches

    def __len__(self) -> int:
        return (len(self.sizes) + self.batch_size - 1) // self.batch_size

    def __iter__(self):
        n, bs = len(self.sizes), self.batch_size
        if not self.shuffle:
            order = sorted(range(n), key=lambda i: (self.sizes[i], i))
            yield from (order[i : i + bs] for i in range(0, n, bs))
            return
        order = torch.randperm(n).tolist()
        chunk = bs * self.bucket_batches
        batches = []
        for start in range(0, n, chunk):
            part = sorted(order[start : start + chunk], key=lambda i: self.sizes[i])
            batches += [part[i : i + bs] for i in range(0, len(part), bs)]
        for j in torch.randperm(len(batches)).tolist():
            yield batches[j]
