"""Transformer parts shared by the generators, built for batched, masked, cached decoding.

Two conventions make one decoder serve every generator:

* **Rows.** A generator's per-slide state (memory tokens, masks) has B rows, one per slide. The
  decoder works on R = B x K rows, one per hypothesis (K beams per slide, slide-major). Cross-
  attention folds the K hypotheses of a slide into its query axis (:func:`fold_rows`), so memory
  is never copied per beam and its key/value projections are computed once per slide.
* **Cache.** :class:`DecoderCache` holds per-hypothesis tensors (self-attention keys and values,
  preallocated, written in place and reordered by beam search) apart from per-slide tensors
  (memory projections, never reordered) and tensors every slide shares; slides whose answer is
  settled leave all of them (:meth:`DecoderCache.keep_slides`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.utils.checkpoint import checkpoint


class RowBuffer:
    """A per-hypothesis tensor that grows along one axis inside preallocated storage.

    Why: decoding appends one position per step to every hypothesis. Concatenating copies the whole
    history at every step, and so does reordering it into a fresh tensor; here a step writes its new
    positions in place, and beam selection moves only what it must (see :meth:`reorder`).

    Args:
        first: the first positions, (R, ..., T, ...) with the growing axis at ``dim``.
        dim: the growing axis.
        capacity: positions to reserve; the storage doubles when a longer sequence arrives.
    """

    def __init__(self, first: Tensor, dim: int, capacity: int | None = None) -> None:
        self.dim = dim % first.dim()
        self.filled = 0
        self.storage = self._allocate(first, max(capacity or 0, 2 * first.shape[self.dim], 16))
        self._spare: Tensor | None = None
        self.append(first)

    def _allocate(self, like: Tensor, capacity: int, rows: int | None = None) -> Tensor:
        shape = list(like.shape)
        shape[0] = like.shape[0] if rows is None else rows
        shape[self.dim] = capacity
        return like.new_empty(shape)

    @property
    def capacity(self) -> int:
        return self.storage.shape[self.dim]

    def view(self) -> Tensor:
        """The positions written so far (a view of the storage, valid until the next call)."""
        return self.storage.narrow(self.dim, 0, self.filled)

    def append(self, value: Tensor) -> Tensor:
        """Write ``value``'s positions after the last ones and return every position so far."""
        end = self.filled + value.shape[self.dim]
        if end > self.capacity:
            grown = self._allocate(self.storage, max(2 * end, 2 * self.capacity))
            grown.narrow(self.dim, 0, self.filled).copy_(self.view())
            self.storage, self._spare = grown, None
        self.storage.narrow(self.dim, self.filled, value.shape[self.dim]).copy_(value)
        self.filled = end
        return self.view()

    def reorder(self, index: Tensor, moved: Tensor | None = None) -> None:
        """Row r takes the positions of row ``index[r]`` (same number of rows).

        With ``moved`` (the rows where ``index[r] != r``, known on a CPU at no cost) only those rows
        are copied, when they are fewer than half (a copy out and a copy back); otherwise the whole
        history is gathered into a second buffer that then swaps with the first (one pass, no
        allocation, no device synchronisation).
        """
        if moved is not None and 2 * moved.numel() < index.numel():
            if moved.numel():
                current = self.view()
                current.index_copy_(0, moved, current.index_select(0, index.index_select(0, moved)))
            return
        if self._spare is None or self._spare.shape != self.storage.shape:
            self._spare = torch.empty_like(self.storage)
        torch.index_select(self.view(), 0, index, out=self._spare.narrow(self.dim, 0, self.filled))
        self.storage, self._spare = self._spare, self.storage

    def keep(self, index: Tensor) -> None:
        """Keep rows ``index`` only (fewer rows: finished slides leave the batch)."""
        kept = self._allocate(self.storage, self.capacity, rows=index.shape[0])
        torch.index_select(self.view(), 0, index, out=kept.narrow(self.dim, 0, self.filled))
        self.storage, self._spare = kept, None


class DecoderCache:
    """Incremental-decoding state of one batch.

    Attributes:
        rows: per-hypothesis buffers (R rows; self-attention keys and values), reordered by beam
            search and written in place.
        per_slide: tensors with B rows (one per slide), e.g. projected memory; never reordered, but
            compacted when slides leave the batch.
        shared: tensors that do not depend on the slide (a learned memory matrix's projections).
        external: objects holding per-hypothesis state of their own (see :meth:`external_state`).
        length: number of target positions already processed (the next position's index).
        capacity: positions to reserve per hypothesis (the decoder's longest sequence), or None.
    """

    def __init__(self, capacity: int | None = None) -> None:
        self.rows: dict[str, RowBuffer] = {}
        self.per_slide: dict[str, tuple[Tensor, ...]] = {}
        self.shared: dict[str, tuple[Tensor, ...]] = {}
        self.external: dict[str, Any] = {}
        self.length = 0
        self.capacity = capacity

    @property
    def per_row(self) -> dict[str, Tensor]:
        """The per-hypothesis tensors as they stand (views of the buffers)."""
        return {key: buf.view() for key, buf in self.rows.items()}

    def reorder(self, index: Tensor) -> None:
        """Keep hypotheses ``index`` (R entries) in that order.

        Beam search only ever picks among a slide's own hypotheses (``index[r] // K == r // K``),
        which an external cache may rely on (a prefix shared by a slide's hypotheses never moves).
        On a CPU only the rows that change are copied (finding them costs nothing there); on an
        accelerator the history is gathered in one pass without waiting for the device.
        """
        moved = moved_rows(index)
        for buf in self.rows.values():
            buf.reorder(index, moved)
        for state in self.external.values():
            state.reorder(index)

    def keep_slides(self, slides: Tensor, rows: Tensor, batch: int) -> None:
        """Keep only slides ``slides`` (indices into the current ``batch`` slides) and their
        hypotheses ``rows``.

        Why: a slide whose answer is settled would otherwise cost a full step until the batch's
        longest report ends. External states receive ``reorder(rows)`` with fewer rows than they
        hold: they keep those rows, in that order.
        """
        for buf in self.rows.values():
            buf.keep(rows)
        for key, tensors in self.per_slide.items():
            self.per_slide[key] = tuple(
                slide_rows(t, slides, batch, f"cache.slide_tensors('{key}')") for t in tensors
            )
        for state in self.external.values():
            state.reorder(rows)

    def external_state(self, key: str, make: Callable[[], Any]) -> Any:
        """Per-hypothesis state kept by someone else (a language model's own key/value cache), made
        by ``make`` on first use; it must have a ``reorder(index)`` method, which :meth:`reorder`
        calls, so that it follows beam selection in place instead of being copied here, and which
        :meth:`keep_slides` calls with fewer rows when slides leave the batch."""
        if key not in self.external:
            self.external[key] = make()
        return self.external[key]

    def slide_tensors(self, key: str, make: Callable[[], tuple[Tensor, ...]]) -> tuple[Tensor, ...]:
        """Per-slide tensors with B rows (e.g. a memory's keys and values), computed by ``make`` on
        first use."""
        if key not in self.per_slide:
            self.per_slide[key] = make()
        return self.per_slide[key]

    def shared_tensors(
        self, key: str, make: Callable[[], tuple[Tensor, ...]]
    ) -> tuple[Tensor, ...]:
        """Tensors that every slide shares (no slide axis), computed by ``make`` on first use."""
        if key not in self.shared:
            self.shared[key] = make()
        return self.shared[key]

    def append(self, key: str, value: Tensor, dim: int = 2) -> Tensor:
        """Append ``value`` to per-row tensor ``key`` on ``dim``; returns all positions so far."""
        buf = self.rows.get(key)
        if buf is None:
            self.rows[key] = RowBuffer(value, dim, self.capacity)
            return self.rows[key].view()
        return buf.append(value)


def moved_rows(index: Tensor) -> Tensor | None:
    """Rows whose hypothesis changes (``index[r] != r``) on a CPU, where finding them is free; None
    on an accelerator, where it would wait for the device."""
    if index.device.type != "cpu":
        return None
    return (index != torch.arange(index.shape[0])).nonzero().squeeze(1)


def slide_rows(tensor: Tensor, slides: Tensor, batch: int, what: str) -> Tensor:
    """Rows ``slides`` of a per-slide tensor, which must have one row per slide of the batch (the
    decoder drops finished slides from every per-slide tensor, so it must know which row is
    whose)."""
    if not isinstance(tensor, Tensor) or tensor.dim() == 0 or tensor.shape[0] != batch:
        found = (
            f"shape {tuple(tensor.shape)}" if isinstance(tensor, Tensor) else type(tensor).__name__
        )
        raise ValueError(
            f"{what}: expected a tensor with one row per slide of the batch ({batch}), "
            f"found {found}; a generator's state and cache.slide_tensors hold per-slide tensors "
            "only, and tensors that do not depend on the slide belong in cache.shared_tensors."
        )
    return tensor.index_select(0, slides)


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


#: Largest score matrix (batch x heads x queries x keys) that :func:`attention` lets PyTorch's math
#: kernel hold at once: 2^24 scores, 64 MiB in float32. None: never split into query blocks.
ATTENTION_BLOCK_SCORES: int | None = 1 << 24


def attention(
    q: Tensor, k: Tensor, v: Tensor, attn_mask: Tensor | None, dropout_p: float
) -> Tensor:
    """Scaled dot-product attention that never holds a whole score matrix for a long bag.

    ``F.scaled_dot_product_attention`` runs a fused kernel that never materialises the
    (B, H, Tq, Tk) scores (flash or memory-efficient on CUDA, flash on CPU), except for dropout on
    a CPU, i.e. training: there it falls back to the math kernel, which keeps the scores, the
    softmax and the dropout mask of every layer for the backward pass (several 1.6 GB matrices per
    MI-Gen layer at 10,000 patches). In that case the queries go through in blocks of at most
    :data:`ATTENTION_BLOCK_SCORES` scores, each under activation checkpointing: a block's scores
    exist only while it is computed, and again in the backward pass, with the same dropout mask
    (checkpointing restores the random state). Softmax normalises each query row over all keys,
    so the blocks compute the same function (tested against the unsplit kernel).

    Args:
        q, k, v: (B, H, T, Dh) queries, keys and values.
        attn_mask: boolean mask broadcastable to (B, H, Tq, Tk) (True: may attend), or None.
        dropout_p: attention dropout (0 outside training).
    """
    b, h, tq, tk = q.shape[0], q.shape[1], q.shape[2], k.shape[2]
    limit = ATTENTION_BLOCK_SCORES
    if dropout_p == 0.0 or q.device.type != "cpu" or limit is None or b * h * tq * tk <= limit:
        return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, dropout_p=dropout_p)
    return blocked_attention(q, k, v, attn_mask, dropout_p, rows=max(1, limit // (b * h * tk)))


def blocked_attention(
    q: Tensor, k: Tensor, v: Tensor, attn_mask: Tensor | None, dropout_p: float, *, rows: int
) -> Tensor:
    """:func:`attention` over blocks of ``rows`` queries, each checkpointed when gradients flow."""
    tq = q.shape[2]
    track = torch.is_grad_enabled() and any(t.requires_grad for t in (q, k, v))
    blocks = []
    for start in range(0, tq, rows):
        block_mask = attn_mask
        if attn_mask is not None and attn_mask.dim() >= 2 and attn_mask.shape[-2] != 1:
            block_mask = attn_mask[..., start : start + rows, :]
        args = (q[:, :, start : start + rows], k, v, block_mask, dropout_p)
        blocks.append(
            checkpoint(_attention_block, *args, use_reentrant=False)
            if track
            else _attention_block(*args)
        )
    return torch.cat(blocks, dim=2)


def _attention_block(
    q: Tensor, k: Tensor, v: Tensor, attn_mask: Tensor | None, dropout_p: float
) -> Tensor:
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, dropout_p=dropout_p)


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

    def split_heads(self, x: Tensor) -> Tensor:
        """(B, T, D) -> (B, H, T, Dh), for a module that computes its own attention weights."""
        b, t, _ = x.shape
        return x.view(b, t, self.heads, self.d_head).transpose(1, 2)

    def project_kv(self, memory: Tensor) -> tuple[Tensor, Tensor]:
        """Keys and values of ``memory`` (B, T, D), split into heads: 2 x (B, H, T, Dh)."""
        return self.split_heads(self.k_proj(memory)), self.split_heads(self.v_proj(memory))

    def attend(
        self, query: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None, causal: bool = False
    ) -> Tensor:
        """Attend with pre-projected keys/values.

        Args:
            query: (R, Tq, D) with R a multiple of the key rows B (hypotheses of the same slide).
            k, v: (B, H, Tk, Dh).
            mask: (B, Tk) True for keys that may be attended to, or (B, Tq, Tk) / (Tq, Tk).
            causal: add a causal mask (self-attention over a sequence processed at once).
        """
        rows = query.shape[0]
        batch = k.shape[0]
        q = self.split_heads(self.q_proj(fold_rows(query, batch)))
        attn_mask = None
        if mask is not None:
            attn_mask = (
                mask[:, None, None, :]
                if mask.dim() == 2
                else (mask[:, None] if mask.dim() == 3 else mask)
            )
        if causal:
            tq, tk = q.shape[2], k.shape[2]
            causal_mask = torch.ones(tq, tk, dtype=torch.bool, device=q.device).tril(
                diagonal=tk - tq
            )
            attn_mask = causal_mask if attn_mask is None else (attn_mask & causal_mask)
        out = attention(q, k, v, attn_mask, self.dropout if self.training else 0.0)
        out = out.transpose(1, 2).reshape(batch, -1, self.heads * self.d_head)
        return self.out_proj(unfold_rows(out, rows))

    def forward(
        self, query: Tensor, memory: Tensor, mask: Tensor | None = None, causal: bool = False
    ) -> Tensor:
        k, v = self.project_kv(memory)
        return self.attend(query, k, v, mask=mask, causal=causal)


class FeedForward(nn.Module):
    """Position-wise feed-forward block (Linear, activation, dropout, Linear)."""

    def __init__(
        self, d_model: int, d_ff: int, dropout: float = 0.1, activation: str = "relu"
    ) -> None:
        super().__init__()
        self.w_1 = nn.Linear(d_model, d_ff)
        self.w_2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)
        self.activation = {"relu": F.relu, "gelu": F.gelu}[activation]

    def forward(self, x: Tensor) -> Tensor:
        return self.w_2(self.dropout(self.activation(self.w_1(x))))


def sinusoidal_table(length: int, d_model: int) -> Tensor:
    """The (length, d_model) sine/cosine position table of "Attention is all you need"."""
    position = torch.arange(length).unsqueeze(1).float()
    div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
    table = torch.zeros(length, d_model)
    table[:, 0::2] = torch.sin(position * div)
    table[:, 1::2] = torch.cos(position * div)
    return table


class SinusoidalPositions(nn.Module):
    """Fixed sine/cosine position table, added with an offset (for incremental decoding)."""

    def __init__(self, d_model: int, max_len: int = 4096) -> None:
        super().__init__()
        self.register_buffer("table", sinusoidal_table(max_len, d_model), persistent=False)

    def forward(self, x: Tensor, offset: int = 0) -> Tensor:
        t = x.shape[1]
        if offset + t > self.table.shape[0]:
            raise ValueError(
                f"Sequence of {offset + t} positions exceeds the table's {self.table.shape[0]}."
            )
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
        x = x + self.drop(causal_self_attention(self.self_attn, self.norm1(x), cache, name))
        mk, mv = memory_kv(self.cross_attn, memory, cache, f"{name}.memory_kv")
        x = x + self.drop(self.cross_attn.attend(self.norm2(x), mk, mv, mask=memory_mask))
        return x + self.drop(self.ff(self.norm3(x)))


def causal_self_attention(
    attn: MultiHeadAttention, h: Tensor, cache: DecoderCache | None, name: str
) -> Tensor:
    """Causal self-attention of (R, T, D) decoder states, appending keys/values to ``cache``.

    With a cache, ``h`` holds only the new positions and attends to every cached one.
    """
    k, v = attn.project_kv(h)
    if cache is not None:
        k = cache.append(f"{name}.k", k)
        v = cache.append(f"{name}.v", v)
    return attn.attend(h, k, v, causal=True)


def memory_kv(
    attn: MultiHeadAttention, memory: Tensor, cache: DecoderCache | None, key: str
) -> tuple[Tensor, Tensor]:
    """Keys/values of a slide memory for ``attn``: projected once per slide when decoding."""
    if cache is None:
        return attn.project_kv(memory)
    return cache.slide_tensors(key, lambda: attn.project_kv(memory))


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
        self.layers = nn.ModuleList(
            DecoderLayer(d_model, heads, d_ff, dropout) for _ in range(num_layers)
        )
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
        """Logits (R, T, V) of ``tokens`` (R, T); with a cache ``tokens`` are only the new ones."""
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


def xavier_init_(module: nn.Module) -> None:
    """Xavier-uniform initialisation of every matrix (and conv kernel) of ``module``.

    The R2Gen family (MI-Gen, HistGen, BiGen, SCOUT) initialises its transformer this way; biases,
    norms and vectors keep PyTorch's defaults.
    """
    for p in module.parameters():
        if p.dim() > 1:
            nn.init.xavier_uniform_(p)


def square_grid_index(mask: Tensor) -> tuple[Tensor, int]:
    """Where each real token of a slide sits on that slide's own square grid.

    Slide b has n_b real tokens (``mask`` True, in sequence order); they fill a
    ceil(sqrt(n_b)) x ceil(sqrt(n_b)) grid row by row. All grids are placed in the top-left
    corner of one S x S canvas (S the largest side of the batch), so a convolution with zero
    padding sees, around each slide's grid, exactly the zeros it would see on that grid alone.

    Args:
        mask: (B, L) bool, True for real tokens.

    Returns:
        (B, L) flat canvas index (row * S + col) of every token (meaningless where ``mask`` is
        False), and S.
    """
    n = mask.sum(1)
    side = torch.ceil(torch.sqrt(n.double())).long().clamp_min(1)
    # Guard against floating-point error in the square root (side^2 must cover n).
    side = side + (side * side < n).long()
    canvas = int(side.max()) if side.numel() else 1
    rank = mask.long().cumsum(1) - 1
    row = torch.div(rank, side[:, None], rounding_mode="floor")
    col = rank - row * side[:, None]
    return row * canvas + col, canvas


class PositionalConvMixer(nn.Module):
    """MI-Gen's PAM: depthwise 2-D convolutions over the token sequence folded into a square grid.

    The output is ``x + conv_k1(x) + conv_k2(x) + ...`` on the grid (kernels 13, 7 and 3 in the
    reference), which gives the tokens a notion of 2-D neighbourhood without coordinates.

    Batching and masking: the reference pads a sequence to a perfect square by repeating its first
    tokens, which makes duplicated tokens attend and be attended to. Here each slide's real tokens
    are laid on their own grid (:func:`square_grid_index`); empty cells are zeros, so a slide's
    result never depends on its batch-mates or on padding. Masked positions of the output are 0.
    """

    def __init__(self, dim: int, kernels: tuple[int, ...] = (13, 7, 3)) -> None:
        super().__init__()
        self.convs = nn.ModuleList(nn.Conv2d(dim, dim, k, 1, k // 2, groups=dim) for k in kernels)

    def forward(self, x: Tensor, mask: Tensor) -> Tensor:
        b, _, d = x.shape
        flat, side = square_grid_index(mask)
        rows, cols = mask.nonzero(as_tuple=True)
        cells = flat[rows, cols]
        canvas = x.new_zeros(b, side * side, d)
        canvas[rows, cells] = x[rows, cols]
        grid = canvas.transpose(1, 2).reshape(b, d, side, side)
        mixed = grid + sum(conv(grid) for conv in self.convs)
        mixed = mixed.reshape(b, d, side * side).transpose(1, 2)
        out = torch.zeros_like(x)
        out[rows, cols] = mixed[rows, cells]
        return out


class GatedSourceFusion(nn.Module):
    """Fuses S attended sources per head and per channel with a context-dependent softmax gate.

    SCOUT's ``MultiHeadGatedFusionV3`` generalised to S sources: each source is projected, a gate
    network that sees the decoder state and every source produces, for each head and channel, a
    softmax over the S sources (with a learnable temperature); the weighted sum is projected, added
    to the state, normalised and refined by a GELU feed-forward with a residual.

    Returns the fused states and the gate weights (R, T, heads, S, d_head), which SCOUT's
    gate-entropy loss regularises.
    """

    def __init__(self, d_model: int, heads: int, sources: int, dropout: float = 0.1) -> None:
        super().__init__()
        if d_model % heads:
            raise ValueError(f"d_model={d_model} is not divisible by heads={heads}.")
        self.heads = heads
        self.sources = sources
        self.temperature = nn.Parameter(torch.tensor(1.0))
        self.source_proj = nn.ModuleList(nn.Linear(d_model, d_model) for _ in range(sources))
        width = (sources + 1) * d_model
        self.gate_net = nn.Sequential(
            nn.Linear(width, width),
            nn.ReLU(),
            nn.Linear(width, sources * d_model),
            nn.ReLU(),
            nn.Linear(sources * d_model, sources * d_model),
            nn.Dropout(dropout),
        )
        self.out_proj = nn.Linear(d_model, d_model)
        self.norm = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(
            nn.Linear(d_model, 4 * d_model),
            nn.GELU(),
            nn.Linear(4 * d_model, d_model),
            nn.Dropout(dropout),
        )

    def forward(self, x: Tensor, sources: list[Tensor]) -> tuple[Tensor, Tensor]:
        r, t, d = x.shape
        h, s = self.heads, self.sources
        if len(sources) != s:
            raise ValueError(f"GatedSourceFusion expects {s} sources, got {len(sources)}.")
        gates = self.gate_net(torch.cat([x, *sources], dim=-1)).view(r, t, h, s, d // h)
        weights = F.softmax(gates / self.temperature, dim=3)
        projected = torch.stack(
            [
                proj(src).view(r, t, h, d // h)
                for proj, src in zip(self.source_proj, sources, strict=True)
            ],
            dim=3,
        )
        fused = (weights * projected).sum(3).reshape(r, t, d)
        out = self.norm(x + self.out_proj(fused))
        return out + self.ffn(out), weights
