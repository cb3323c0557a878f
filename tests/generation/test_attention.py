"""Attention over long bags: query blocks compute what the unsplit kernel computes, gradients
included,
and training on a CPU takes that path only where the fused kernels cannot serve it."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from pathreport.generation import nn as pr_nn
from pathreport.generation.nn import MultiHeadAttention, attention, blocked_attention


def _qkv(b=2, h=2, tq=9, tk=9, d=4, dtype=torch.float64):
    g = torch.Generator().manual_seed(0)
    return [
        torch.randn(b, h, t, d, generator=g, dtype=dtype, requires_grad=True) for t in (tq, tk, tk)
    ]


def _masks(b=2, tq=9, tk=9):
    padding = torch.ones(b, tk, dtype=torch.bool)
    padding[-1, 4:] = False  # the last slide has 4 real patches
    causal = torch.ones(tq, tk, dtype=torch.bool).tril()
    return {
        "none": None,
        "padding": padding[:, None, None, :],
        "causal": causal,
        "per-query": padding[:, None, None, :] & causal,
    }


@pytest.mark.parametrize("name", ["none", "padding", "causal", "per-query"])
@pytest.mark.parametrize("rows", [1, 4, 9])
def test_blocked_attention_equals_the_unsplit_kernel_with_gradients(name, rows):
    mask = _masks()[name]
    q, k, v = _qkv()
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    grads = torch.autograd.grad(expected.square().sum(), (q, k, v))
    got = blocked_attention(q, k, v, mask, 0.0, rows=rows)
    torch.testing.assert_close(got, expected, rtol=1e-12, atol=1e-12)
    for a, b in zip(torch.autograd.grad(got.square().sum(), (q, k, v)), grads, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-12, atol=1e-12)


def test_blocked_attention_backward_reuses_each_blocks_dropout_mask():
    """Checkpointed blocks are recomputed in the backward pass; with another dropout mask there,
    the gradients would differ from those of the same blocks kept in memory."""
    q, k, v = _qkv(b=1, h=2, tq=5, tk=6, d=3)
    mask = _masks(b=1, tq=5, tk=6)["padding"]
    torch.manual_seed(3)
    got = blocked_attention(q, k, v, mask, 0.5, rows=2)
    got_grads = torch.autograd.grad(got.square().sum(), (q, k, v))
    torch.manual_seed(3)
    kept = torch.cat(
        [
            F.scaled_dot_product_attention(q[:, :, s : s + 2], k, v, attn_mask=mask, dropout_p=0.5)
            for s in range(0, 5, 2)
        ],
        dim=2,
    )
    assert not torch.equal(kept, blocked_attention(q, k, v, mask, 0.0, rows=2))  # dropout is on
    torch.testing.assert_close(got, kept, rtol=0, atol=0)
    for a, b in zip(got_grads, torch.autograd.grad(kept.square().sum(), (q, k, v)), strict=True):
        torch.testing.assert_close(a, b, rtol=0, atol=0)


def test_attention_splits_only_training_attention_on_a_cpu_above_the_limit(monkeypatch):
    calls = []
    real = pr_nn.blocked_attention
    monkeypatch.setattr(
        pr_nn, "blocked_attention", lambda *a, **kw: calls.append(kw["rows"]) or real(*a, **kw)
    )
    monkeypatch.setattr(
        pr_nn, "ATTENTION_BLOCK_SCORES", 2 * 2 * 3 * 9
    )  # 3 query rows of 2 slides x 2 heads
    q, k, v = _qkv()
    attention(q, k, v, None, 0.0)  # no dropout: the fused kernel holds no scores
    assert calls == []
    attention(q, k, v, None, 0.1)
    assert calls == [3]
    monkeypatch.setattr(pr_nn, "ATTENTION_BLOCK_SCORES", 2 * 2 * 9 * 9)  # the whole matrix fits
    attention(q, k, v, None, 0.1)
    assert calls == [3]


def test_multi_head_attention_in_training_takes_the_blocked_path_and_learns(monkeypatch):
    monkeypatch.setattr(pr_nn, "ATTENTION_BLOCK_SCORES", 64)
    torch.manual_seed(0)
    layer = MultiHeadAttention(8, 2, dropout=0.1).double()
    x = torch.randn(2, 40, 8, dtype=torch.float64)
    mask = torch.ones(2, 40, dtype=torch.bool)
    mask[0, 30:] = False
    layer.eval()
    with torch.no_grad():
        eval_out = layer(x, x, mask=mask)
    monkeypatch.setattr(pr_nn, "ATTENTION_BLOCK_SCORES", None)
    with torch.no_grad():
        torch.testing.assert_close(
            layer(x, x, mask=mask), eval_out, rtol=0, atol=0
        )  # evaluation: unchanged
    monkeypatch.setattr(pr_nn, "ATTENTION_BLOCK_SCORES", 64)
    layer.train()
    out = layer(x, x, mask=mask)
    out.square().mean().backward()
    assert torch.isfinite(out).all()
    assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in layer.parameters())
