"""Transformer parts shared by the generators, built for batched, masked, cached decoding.

Two conventions make one decoder serve every generator:

* **Rows.** A generator's per-slide state (memory tokens, masks) has B rows, one per slide. The
  decoder works on R = B x K rows, one per hypothesis (K beams per slide, slide-major). Cross-
  attention folds the K hypotheses of a slide into its query axis (:func:`fold_rows`), so memory
  is never copied per beam and its key/value projections are computed once per slide.
* **Cache.** :class:`DecoderCache` holds per-hypothesis tensors (self-attention keys and values,
  reordered by beam search) apart from per-slide tensors (memory projections, never reordered).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
import torch.nn.functional as F
from torch import Tensor, nn


class DecoderCache:
    """Incremental-decoding state of one batch.

    Attributes:
        per_row: tensors with R rows (one per hypothesis); beam search reorders them.
        per_slide: tensors with B rows (one per slide), e.g. projected memory; never reordered.
        length: number of target positions already processed (the next position's index).
    """

    def __init__(self) -> None:
        self.per_row: dict[str, Tensor] = {}
        self.per_slide: dict[str, tuple[Tensor, ...]] = {}
        self.length = 0

    def reorder(self, index: Tensor) -> None:
        """Keep hypotheses ``index`` (R entries) in that order."""
        self.per_row = {k: v.index_select(0, index) for k, v in self.per_row.items()}

    def slide_tensors(self, key: str, make: Callable[[], tuple[Tensor, ...]]) -> tuple[Tensor, ...]:
        """Per-slide tensors (e.g. a memory's keys and values), computed by ``make`` on first use."""
        if key not in self.per_slide:
            self.per_slide[key] = make()
        return self.per_slide[key]

    def append(self, key: str, value: Tensor, dim: int = 2) -> Tensor:
        """Concatenate ``value`` to the per-row tensor ``key`` along ``dim`` and return the result."""
        if key in self.per_row:
            value = torch.cat([self.per_row[key], value], dim=dim)
        self.per_row[key] = value
        return value


def fold_rows(x: Tensor, batch: int) -> Tensor:
    """(B*K, T, D) -> (B, K*T, D): put a slide's hypotheses on the query axis."""
    rows, t, d = x.shape
    if rows == batch:
        return x
    if rows % batch:
        raise ValueError(f"{rows} query rows cannot be split evenly over {batch} slides.")
    return x.reshape(batch, (rows // batch) * t, d)


def unfold_rows(x: Tensor, rows: int) -> Tensor:
    """Inverse of :func:`fold_rows`: (B, K*T, D) -> (B*K, T, D)."""
    b, kt, d = x.shape
    if rows == b:
        return x
    return x.reshape(rows, kt * b // rows, d)


class MultiHeadAttention(nn.Module):
    """Multi-head attention with separate q/k/v/out projections (as in R2Gen and its descendants).

    Keys and values may be projected once and reused (:meth:`project_kv`), and the query may have
    K times more rows than the keys (beam hypotheses of the same slide).
    """

    def __init__(self, d_model: int, heads: int, dropout: float = 0.1) -> None:
        super().__init__()
        if d_model % heads:
            raise ValueError(f"d_model={d_model} is not divisible by heads={heads}.")
        self.heads = heads
        self.d_head = d_model // heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = dropout

    def _split(self, x: Tensor) -> Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.heads, self.d_head).transpose(1, 2)

    def project_kv(self, memory: Tensor) -> tuple[Tensor, Tensor]:
        """Keys and values of ``memory`` (B, T, D), split into heads: 2 x (B, H, T, Dh)."""
        return self._split(self.k_proj(memory)), self._split(self.v_proj(memory))

    def attend(self, query: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None, causal: bool = False) -> Tensor:
        """Attend with pre-projected keys/values.

        Args:
            query: (R, Tq, D) with R a multiple of the key rows B (hypotheses of the same slide).
            k, v: (B, H, Tk, Dh).
            mask: (B, Tk) True for keys that may be attended to, or (B, Tq, Tk) / (Tq, Tk).
            causal: add a causal mask (self-attention over a sequence processed at once).
        """
        rows = query.shape[0]
        batch = k.shape[0]
        q = self._split(self.q_proj(fold_rows(query, batch)))
        attn_mask = None
        if mask is not None:
            attn_mask = mask[:, None, None, :] if mask.dim() == 2 else (mask[:, None] if mask.dim() == 3 else mask)
        if causal:
            tq, tk = q.shape[2], k.shape[2]
            causal_mask = torch.ones(tq, tk, dtype=torch.bool, device=q.device).tril(diagonal=tk - tq)
            attn_mask = causal_mask if attn_mask is None else (attn_mask & causal_mask)
        out = F.scaled_dot_product_attention(
            q, k, v, attn_mask=attn_mask, dropout_p=self.dropout if self.training else 0.0
        )
        out = out.transpose(1, 2).reshape(batch, -1, self.heads * self.d_head)
        return self.out_proj(unfold_rows(out, rows))

    def forward(self, query: Tensor, memory: Tensor, mask: Tensor | None = None, causal: bool = False) -> Tensor:
        k, v = self.project_kv(memory)
        return self.attend(query, k, v, mask=mask, causal=causal)


class FeedForward(nn.Module):
    """Position-wise feed-forward block (Linear, activation, dropout, Linear)."""

    def __init__(self, d_model: int, d_ff: int, dropout: float = 0.1, activation: str = "relu") -> None:
        super().__init__()
        self.w_1 = nn.Linear(d_model, d_ff)
        self.w_2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)
        self.activation = {"relu": F.relu, "gelu": F.gelu}[activation]

    def forward(self, x: Tensor) -> Tensor:
        return self.w_2(self.dropout(self.activation(self.w_1(x))))


class SinusoidalPositions(nn.Module):
    """Fixed sine/cosine position table, added with an offset (for incremental decoding)."""

    def __init__(self, d_model: int, max_len: int = 4096) -> None:
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        table = torch.zeros(max_len, d_model)
        table[:, 0::2] = torch.sin(position * div)
        table[:, 1::2] = torch.cos(position * div)
        self.register_buffer("table", table, persistent=False)

    def forward(self, x: Tensor, offset: int = 0) -> Tensor:
        t = x.shape[1]
        if offset + t > self.table.shape[0]:
            raise ValueError(f"Sequence of {offset + t} positions exceeds the table's {self.table.shape[0]}.")
        return x + self.table[offset : offset + t].to(x.dtype)


class EncoderLayer(nn.Module):
    """Pre-norm transformer encoder layer over a masked token sequence."""

    def __init__(self, d_model: int, heads: int, d_ff: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, heads, dropout)
        self.ff = FeedForward(d_model, d_ff, dropout)
        self.norm1 = nn.LayerNorm(d_model, eps=1e-6)
        self.norm2 = nn.LayerNorm(d_model, eps=1e-6)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: Tensor, mask: Tensor | None) -> Tensor:
        h = self.norm1(x)
        x = x + self.drop(self.self_attn(h, h, mask=mask))
        return x + self.drop(self.ff(self.norm2(x)))


class DecoderLayer(nn.Module):
    """Pre-norm transformer decoder layer: causal self-attention, memory attention, feed-forward."""

    def __init__(self, d_model: int, heads: int, d_ff: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, heads, dropout)
        self.cross_attn = MultiHeadAttention(d_model, heads, dropout)
        self.ff = FeedForward(d_model, d_ff, dropout)
        self.norm1 = nn.LayerNorm(d_model, eps=1e-6)
        self.norm2 = nn.LayerNorm(d_model, eps=1e-6)
        self.norm3 = nn.LayerNorm(d_model, eps=1e-6)
        self.drop = nn.Dropout(dropout)

    def forward(
        self,
        x: Tensor,
        memory: Tensor,
        memory_mask: Tensor | None,
        cache: DecoderCache | None = None,
        name: str = "",
    ) -> Tensor:
        h = self.norm1(x)
        k, v = self.self_attn.project_kv(h)
        if cache is not None:
            k = cache.append(f"{name}.k", k)
            v = cache.append(f"{name}.v", v)
        x = x + self.drop(self.self_attn.attend(h, k, v, causal=True))
        h = self.norm2(x)
        if cache is not None:
            mk, mv = cache.slide_tensors(f"{name}.memory_kv", lambda: self.cross_attn.project_kv(memory))
        else:
            mk, mv = self.cross_attn.project_kv(memory)
        x = x + self.drop(self.cross_attn.attend(h, mk, mv, mask=memory_mask))
        return x + self.drop(self.ff(self.norm3(x)))


class TextDecoder(nn.Module):
    """The report decoder of R2Gen-style generators: scaled embeddings, sinusoidal positions,
    pre-norm decoder layers over the slide memory, final norm, vocabulary projection.

    ``embed_hook`` lets a generator add to the token embeddings before the layers (HistGen adds its
    cross-modal memory response there).
    """

    def __init__(
        self,
        vocab_size: int,
        d_model: int,
        heads: int,
        d_ff: int,
        num_layers: int,
        dropout: float = 0.1,
        max_len: int = 1024,
    ) -> None:
        super().__init__()
        self.d_model = d_model
        self.embed = nn.Embedding(vocab_size, d_model)
        self.positions = SinusoidalPositions(d_model, max_len)
        self.layers = nn.ModuleList(DecoderLayer(d_model, heads, d_ff, dropout) for _ in range(num_layers))
        self.norm = nn.LayerNorm(d_model, eps=1e-6)
        self.logit = nn.Linear(d_model, vocab_size)
        self.drop = nn.Dropout(dropout)

    def embed_tokens(self, tokens: Tensor, offset: int = 0) -> Tensor:
        return self.drop(self.positions(self.embed(tokens) * math.sqrt(self.d_model), offset))

    def forward(
        self,
        tokens: Tensor,
        memory: Tensor,
        memory_mask: Tensor | None,
        cache: DecoderCache | None = None,
        embed_hook: Callable[[Tensor], Tensor] | None = None,
    ) -> Tensor:
        """Logits (R, T, V) for ``tokens`` (R, T); with a cache, ``tokens`` are only the new ones."""
        offset = cache.length if cache is not None else 0
        x = self.embed_tokens(tokens, offset)
        if embed_hook is not None:
            x = embed_hook(x)
        for i, layer in enumerate(self.layers):
            x = layer(x, memory, memory_mask, cache, name=f"dec{i}")
        if cache is not None:
            cache.length += tokens.shape[1]
        return self.logit(self.norm(x))


def count_parameters(module: nn.Module, trainable_only: bool = True) -> int:
    return sum(p.numel() for p in module.parameters() if p.requires_grad or not trainable_only)
