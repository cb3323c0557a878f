"""The one decoder every generator is evaluated with: batched greedy and beam search.

Why a shared decoder: in the reference implementation each model carried its own copy of beam
search with its own temperature, length and constraint settings, so "identical decoding" across
models was not true. Here decoding settings are global configuration and this module is the only
place that turns logits into reports.

How it is fast: all slides of a batch and all K beams of each slide advance together as R = B x K
rows; the slide is encoded once; memory keys/values are projected once per slide (see
:mod:`pathreport.generation.nn`); self-attention keys/values live in preallocated buffers written in
place, and beam selection moves only the rows it changes. A slide is settled as soon as it cannot
change its answer (every beam has ended, or, without a length penalty, the best ended beam already
beats every live beam, whose scores can only fall); settled slides leave the batch, so a short
report does not wait for the longest one, and the loop ends when none is left. On an accelerator the
settled flags are read only every few steps (:data:`SETTLED_CHECK_EVERY`; reading one waits for the
device); in between a settled slide is frozen in place, so its answer is the same.

Beam bookkeeping: a beam that emits ``<eos>`` is frozen (it may only continue with ``<pad>`` at no
cost), so ended and live hypotheses compete for the K slots on their accumulated log-probability.
With ``beam_size: 1`` the same code is greedy search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor

from pathreport.data.batch import SlideBatch
from pathreport.generation.nn import DecoderCache, RowBuffer, moved_rows, slide_rows


@dataclass
class DecodingConfig:
    """Decoding settings, shared by every generator of a comparison.

    Attributes:
        beam_size: beams per slide; 1 is greedy search. The paper's runs used 3.
        max_len: most tokens generated per report (``<eos>`` excluded); None takes the dataset's
            ``max_report_tokens``.
        min_len: ``<eos>`` is forbidden before this many tokens.
        length_penalty: GNMT alpha for the final choice among beams, score / ((5 + len) / 6)^alpha;
            0 keeps raw log-probabilities (the reference setting).
        block_trigrams: forbid a token that would repeat a trigram already in the hypothesis.
        block_repeat: forbid emitting the previous token again (the reference
            ``decoding_constraint``); pieces inside a word (``repeatable_ids`` of :func:`generate`)
            are exempt.
        suppress_unk: never emit ``<unk>``.
        temperature: divides logits before the log-softmax (the reference used 0.7 inside beam
            search; 1.0 leaves the model's distribution unchanged).
        batch_size: slides decoded together at test time (None: the data config's eval batch).
    """

    beam_size: int = 3
    max_len: int | None = None
    min_len: int = 1
    length_penalty: float = 0.0
    block_trigrams: bool = False
    block_repeat: bool = True
    suppress_unk: bool = True
    temperature: float = 1.0
    batch_size: int | None = None

    def __post_init__(self) -> None:
        if self.beam_size < 1:
            raise ValueError(f"decoding.beam_size must be >= 1, found {self.beam_size}.")
        if self.temperature <= 0:
            raise ValueError(f"decoding.temperature must be > 0, found {self.temperature}.")
        if self.max_len is not None and self.max_len < 1:
            raise ValueError(f"decoding.max_len must be >= 1 or null, found {self.max_len}.")


def report_length(decoding: DecodingConfig | Any, max_report_tokens: int) -> int:
    """The most tokens to generate per report: ``decoding.max_len``, else the dataset's
    ``max_report_tokens`` (resolved here only, for training runs and re-evaluations alike)."""
    return int(decoding.max_len or max_report_tokens)


#: Steps between two looks at which slides are settled, by device type (``default``: any other).
#: Reading a flag from an accelerator waits for every queued step, so doing it at every token
#: stalls the device; settled slides are frozen on the device in between (their beams stay as they
#: are), so the answer does not depend on these numbers. On a CPU the look is free.
SETTLED_CHECK_EVERY = {"cpu": 1, "default": 8}


@torch.no_grad()
def generate(
    model: torch.nn.Module,
    batch: SlideBatch,
    cfg: DecodingConfig,
    *,
    max_len: int,
    bos_id: int,
    eos_id: int,
    pad_id: int,
    unk_id: int | None = None,
    repeatable_ids: Sequence[int] | None = None,
) -> list[list[int]]:
    """Decode one batch; returns per slide the best hypothesis's token ids (no specials).

    ``repeatable_ids`` are tokens that ``block_repeat`` never forbids: a subword tokenizer's pieces
    that continue a word, which may repeat in ordinary spelling (``mam|m|m|otome``); a word-level
    tokenizer has none.
    """
    state = model.encode(batch)
    k = cfg.beam_size
    device = batch.features.device
    b = len(batch)
    cache = DecoderCache(capacity=max_len + 1)
    history = RowBuffer(
        torch.full((b * k, 1), bos_id, dtype=torch.long, device=device), dim=1, capacity=max_len + 2
    )
    scores = torch.zeros(b, k, device=device, dtype=torch.float32)
    scores[:, 1:] = float("-inf")  # all beams start identical: keep one until they diverge
    ended = torch.zeros(b, k, dtype=torch.bool, device=device)
    lengths = torch.zeros(b, k, dtype=torch.long, device=device)
    settled = torch.zeros(b, dtype=torch.bool, device=device)
    repeatable = None
    if repeatable_ids:
        repeatable = torch.as_tensor(list(repeatable_ids), dtype=torch.long, device=device)
    check_every = SETTLED_CHECK_EVERY.get(device.type, SETTLED_CHECK_EVERY["default"])
    active = list(range(b))  # batch position of each slide still decoded
    out: list[list[int]] = [[] for _ in range(b)]
    beams = torch.arange(k, device=device)

    for step in range(max_len + 1):
        b = len(active)
        rows = b * k
        logits = model.decode(state, history.view()[:, -1:], cache)[:, -1].float()
        logp = F.log_softmax(logits / cfg.temperature, dim=-1)
        vocab = logp.shape[-1]
        _constrain(
            logp,
            history.view(),
            step,
            cfg,
            bos_id=bos_id,
            eos_id=eos_id,
            pad_id=pad_id,
            unk_id=unk_id,
            force_eos=step == max_len,
            repeatable=repeatable,
        )
        # Frozen beams continue with <pad> at no cost.
        flat_ended = ended.view(rows, 1)
        logp.masked_fill_(flat_ended, float("-inf"))
        logp[:, pad_id].masked_fill_(flat_ended.squeeze(1), 0.0)

        candidates = (scores.unsqueeze(-1) + logp.view(b, k, vocab)).view(b, k * vocab)
        top_scores, flat_index = candidates.topk(k, dim=-1)
        # A settled slide stays as it is (only between two looks at the flags on an accelerator).
        frozen = settled.unsqueeze(1)
        scores = torch.where(frozen, scores, top_scores)
        beam_index = torch.where(frozen, beams, torch.div(flat_index, vocab, rounding_mode="floor"))
        tokens = torch.where(frozen, pad_id, flat_index % vocab)
        was_ended = ended.gather(1, beam_index)
        lengths = lengths.gather(1, beam_index) + (~(was_ended | frozen)).long()
        ended = was_ended | (tokens == eos_id)
        if k > 1:  # with one beam the order never changes
            row_index = (beam_index + torch.arange(b, device=device).unsqueeze(1) * k).view(rows)
            history.reorder(row_index, moved_rows(row_index))
            cache.reorder(row_index)
        history.append(tokens.view(rows, 1))
        settled = settled | _settled(scores, ended, cfg.length_penalty)
        if step % check_every and step < max_len:
            continue
        flags = settled.tolist() if step < max_len else [True] * b  # out of length: all answered
        if not any(flags):
            continue
        _take_answers(
            out,
            active,
            flags,
            history.view(),
            scores,
            lengths,
            cfg.length_penalty,
            eos_id=eos_id,
            pad_id=pad_id,
        )
        if all(flags):
            break
        keep = torch.tensor([i for i, done in enumerate(flags) if not done], device=device)
        keep_rows = (keep.unsqueeze(1) * k + beams).view(-1)
        state = {
            name: slide_rows(value, keep, b, f"state['{name}']") for name, value in state.items()
        }
        cache.keep_slides(keep, keep_rows, b)
        history.keep(keep_rows)
        scores, ended, lengths, settled = (
            t.index_select(0, keep) for t in (scores, ended, lengths, settled)
        )
        active = [slide for slide, done in zip(active, flags, strict=True) if not done]
    return out


def _take_answers(
    out: list[list[int]],
    active: list[int],
    settled: list[bool],
    history: Tensor,
    scores: Tensor,
    lengths: Tensor,
    alpha: float,
    *,
    eos_id: int,
    pad_id: int,
) -> None:
    """Write the best hypothesis of every settled slide into ``out`` (by its batch position)."""
    k = scores.shape[1]
    best = (scores / _length_norm(lengths, alpha)).argmax(dim=-1).tolist()
    for i, (slide, done) in enumerate(zip(active, settled, strict=True)):
        if not done:
            continue
        seq = []
        for tok in history[i * k + best[i], 1:].tolist():
            if tok in (eos_id, pad_id):
                break
            seq.append(tok)
        out[slide] = seq


def _constrain(
    logp: Tensor,
    history: Tensor,
    step: int,
    cfg: DecodingConfig,
    *,
    bos_id: int,
    eos_id: int,
    pad_id: int,
    unk_id: int | None,
    force_eos: bool,
    repeatable: Tensor | None = None,
) -> None:
    """Apply the decoding constraints in place to (R, V) log-probabilities."""
    neg_inf = float("-inf")
    logp[:, pad_id] = neg_inf
    logp[:, bos_id] = neg_inf
    if cfg.suppress_unk and unk_id is not None:
        logp[:, unk_id] = neg_inf
    if step < cfg.min_len:
        logp[:, eos_id] = neg_inf
    if cfg.block_repeat and step > 0:
        previous = history[:, -1:]
        blocked = logp.gather(1, previous).fill_(neg_inf)
        if repeatable is not None:
            # A piece inside a word may follow itself: keep its log-probability.
            exempt = torch.isin(previous, repeatable)
            blocked = torch.where(exempt, logp.gather(1, previous), blocked)
        logp.scatter_(1, previous, blocked)
    if cfg.block_trigrams and history.shape[1] >= 3:
        _block_trigrams(logp, history[:, 1:])
    if force_eos:
        # Out of length: every live hypothesis ends here.
        keep = logp[:, eos_id].clone()
        logp.fill_(neg_inf)
        logp[:, eos_id] = torch.where(torch.isfinite(keep), keep, torch.zeros_like(keep))


def _block_trigrams(logp: Tensor, seq: Tensor) -> None:
    """Forbid tokens that would complete a trigram already present in each row of ``seq`` (counted
    by a scatter rather than listed, so that the device is never waited for)."""
    if seq.shape[1] < 3:
        return
    last2 = seq[:, -2:]  # (R, 2)
    firsts, seconds, thirds = seq[:, :-2], seq[:, 1:-1], seq[:, 2:]
    hits = (firsts == last2[:, :1]) & (seconds == last2[:, 1:])  # (R, T-2)
    counts = torch.zeros(logp.shape, dtype=torch.long, device=logp.device).scatter_add_(
        1, thirds, hits.long()
    )
    logp.masked_fill_(counts > 0, float("-inf"))


def _length_norm(lengths: Tensor, alpha: float) -> Tensor:
    if alpha == 0:
        return torch.ones_like(lengths, dtype=torch.float32)
    return ((5.0 + lengths.float()) / 6.0) ** alpha


def _settled(scores: Tensor, ended: Tensor, alpha: float) -> Tensor:
    """Per slide, True when its best hypothesis can no longer change: every beam has ended, or,
    without a length penalty, the best ended beam already beats every live one (whose scores can
    only fall)."""
    all_ended = ended.all(dim=-1)
    if alpha != 0:
        return all_ended
    neg_inf = torch.tensor(float("-inf"), device=scores.device)
    best_ended = torch.where(ended, scores, neg_inf).max(dim=-1).values
    best_live = torch.where(ended, neg_inf, scores).max(dim=-1).values
    return all_ended | (best_ended >= best_live)
