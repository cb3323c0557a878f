"""The one decoder every generator is evaluated with: batched greedy and beam search.

Why a shared decoder: in the reference implementation each model carried its own copy of beam
search with its own temperature, length and constraint settings, so "identical decoding" across
models was not true. Here decoding settings are global configuration and this module is the only
place that turns logits into reports.

How it is fast: all slides of a batch and all K beams of each slide advance together as R = B x K
rows; the slide is encoded once; memory keys/values are projected once per slide (see
:mod:`pathreport.generation.nn`); self-attention keys/values are cached; and the loop stops as soon as no
slide can change its answer (every beam has ended, or, without a length penalty, the best ended
beam already beats every live beam, whose scores can only fall).

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
from pathreport.generation.nn import DecoderCache


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
    b = len(batch)
    k = cfg.beam_size
    device = batch.features.device
    rows = b * k
    cache = DecoderCache()
    history = torch.full((rows, 1), bos_id, dtype=torch.long, device=device)
    scores = torch.zeros(b, k, device=device, dtype=torch.float32)
    scores[:, 1:] = float("-inf")  # all beams start identical: keep one until they diverge
    ended = torch.zeros(b, k, dtype=torch.bool, device=device)
    lengths = torch.zeros(b, k, dtype=torch.long, device=device)
    repeatable = None
    if repeatable_ids:
        repeatable = torch.as_tensor(list(repeatable_ids), dtype=torch.long, device=device)

    for step in range(max_len + 1):
        logits = model.decode(state, history[:, -1:], cache)[:, -1].float()
        logp = F.log_softmax(logits / cfg.temperature, dim=-1)
        vocab = logp.shape[-1]
        _constrain(logp, history, step, cfg, bos_id=bos_id, eos_id=eos_id, pad_id=pad_id, unk_id=unk_id,
                   force_eos=step == max_len, repeatable=repeatable)
        # Frozen beams continue with <pad> at no cost.
        flat_ended = ended.view(rows)
        if flat_ended.any():
            logp[flat_ended] = float("-inf")
            logp[flat_ended, pad_id] = 0.0

        candidates = (scores.unsqueeze(-1) + logp.view(b, k, vocab)).view(b, k * vocab)
        scores, flat_index = candidates.topk(k, dim=-1)
        beam_index = torch.div(flat_index, vocab, rounding_mode="floor")
        tokens = flat_index % vocab
        row_index = (beam_index + torch.arange(b, device=device).unsqueeze(1) * k).view(rows)

        history = torch.cat([history.index_select(0, row_index), tokens.view(rows, 1)], dim=1)
        cache.reorder(row_index)
        was_ended = ended.gather(1, beam_index)
        lengths = lengths.gather(1, beam_index) + (~was_ended).long()
        ended = was_ended | (tokens == eos_id)
        if _all_settled(scores, ended, cfg.length_penalty):
            break

    final = scores / _length_norm(lengths, cfg.length_penalty)
    best = final.argmax(dim=-1)
    best_rows = (best + torch.arange(b, device=device) * k).tolist()
    out = []
    for row in best_rows:
        seq = []
        for tok in history[row, 1:].tolist():
            if tok in (eos_id, pad_id):
                break
            seq.append(tok)
        out.append(seq)
    return out


def _constrain(logp: Tensor, history: Tensor, step: int, cfg: DecodingConfig, *, bos_id: int, eos_id: int,
               pad_id: int, unk_id: int | None, force_eos: bool, repeatable: Tensor | None = None) -> None:
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
    """Forbid tokens that would complete a trigram already present in each row of ``seq``."""
    if seq.shape[1] < 3:
        return
    last2 = seq[:, -2:]  # (R, 2)
    firsts, seconds, thirds = seq[:, :-2], seq[:, 1:-1], seq[:, 2:]
    hits = (firsts == last2[:, :1]) & (seconds == last2[:, 1:])  # (R, T-2)
    rows, cols = hits.nonzero(as_tuple=True)
    if rows.numel():
        logp[rows, thirds[rows, cols]] = float("-inf")


def _length_norm(lengths: Tensor, alpha: float) -> Tensor:
    if alpha == 0:
        return torch.ones_like(lengths, dtype=torch.float32)
    return ((5.0 + lengths.float()) / 6.0) ** alpha


def _all_settled(scores: Tensor, ended: Tensor, alpha: float) -> bool:
    """True when no slide of the batch can still change its best hypothesis."""
    if bool(ended.all()):
        return True
    if alpha != 0:
        return False
    neg_inf = torch.tensor(float("-inf"), device=scores.device)
    best_ended = torch.where(ended, scores, neg_inf).max(dim=-1).values
    best_live = torch.where(ended, neg_inf, scores).max(dim=-1).values
    return bool((best_ended >= best_live).all())
