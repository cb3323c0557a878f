"""The batch every generator receives: many slides, padded, with masks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from torch import Tensor


@dataclass
class SlideBatch:
    """B slides with their patch bags padded to the longest bag and reports to the longest report.

    Attributes:
        ids: slide ids, in batch order.
        features: (B, N, D) main-stream patch features (the benchmark encoder), zero-padded.
        mask: (B, N) bool, True for real patches. Every slide has at least one real patch.
        coords: (B, N, 2) int64 level-0 patch coordinates (zeros where the file had none).
        streams: extra inputs declared by the generator. Patch-level streams are (B, N, D_s) and
            share ``mask`` (their files are checked to have the same patch count as the main
            stream); slide-level streams are (B, D_s).
        tokens: (B, T) report token ids ``<bos> ... <eos>`` padded with ``<pad>``; None when
            decoding slides without references.
        references: raw reference reports (never cleaned), for writing predictions.
    """

    ids: list[str]
    features: Tensor
    mask: Tensor
    coords: Tensor
    streams: dict[str, Tensor] = field(default_factory=dict)
    tokens: Tensor | None = None
    references: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.ids)

    def to(self, device: torch.device | str, non_blocking: bool = False) -> SlideBatch:
        return self._apply(lambda t: t.to(device, non_blocking=non_blocking))

    def pin_memory(self) -> SlideBatch:
        """Page-locked copies of the tensors. ``DataLoader(pin_memory=True)`` calls this in its
        pinning thread (it leaves objects without the method unpinned), so that the copy to a GPU
        needs no staging copy."""
        return self._apply(lambda t: t.pin_memory())

    def _apply(self, fn: Callable[[Tensor], Tensor]) -> SlideBatch:
        return SlideBatch(
            ids=self.ids,
            features=fn(self.features),
            mask=fn(self.mask),
            coords=fn(self.coords),
            streams={k: fn(v) for k, v in self.streams.items()},
            tokens=None if self.tokens is None else fn(self.tokens),
            references=self.references,
        )

    def select(self, index: list[int]) -> SlideBatch:
        """A sub-batch (used to check that batching does not change a slide's result)."""
        idx = torch.as_tensor(index, dtype=torch.long)
        n_max = int(self.mask[idx].sum(1).max())
        tokens = None
        if self.tokens is not None:
            tokens = self.tokens[idx]
        return SlideBatch(
            ids=[self.ids[i] for i in index],
            features=self.features[idx, :n_max],
            mask=self.mask[idx, :n_max],
            coords=self.coords[idx, :n_max],
            streams={
                k: (v[idx, :n_max] if v.dim() == 3 else v[idx]) for k, v in self.streams.items()
            },
            tokens=tokens,
            references=[self.references[i] for i in index] if self.references else [],
        )
