"""Training in bf16 mixed precision and with a compiled generator on CPU, via train.py's config."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import pytest
import torch

from pathreport.generation.lit import ReportModule
from pathreport.registry import GENERATORS
from tests.conftest import smoke_overrides
from tests.helpers.generators import build, make_batch


@cache
def _compile_unsupported() -> str | None:
    """Why torch.compile cannot run here (None: it can)."""
    try:
        compiled = torch.compile(lambda x: x * 2 + 1, backend="aot_eager")
        ok = torch.equal(compiled(torch.ones(3)), torch.full((3,), 3.0))
    except Exception as err:  # any failure of the compiler stack means unsupported here
        return f"torch.compile does not run on this platform: {type(err).__name__}: {err}"
    return None if ok else "torch.compile gives wrong results on this platform"


needs_compile = pytest.mark.skipif(
    _compile_unsupported() is not None, reason=str(_compile_unsupported())
)


def _spy_training_steps(monkeypatch) -> list[tuple[bool, torch.dtype, torch.dtype]]:
    """Record, for every training step: autocast on, its dtype, and the dtype of the loss."""
    seen = []
    original = ReportModule.training_step

    def spy(self, batch, batch_idx):
        loss = original(self, batch, batch_idx)
        seen.append(
            (
                torch.is_autocast_enabled("cpu"),
                torch.get_autocast_dtype("cpu"),
                self.generator.decode(self.generator.encode(batch), batch.tokens[:, :-1]).dtype,
            )
        )
        return loss

    monkeypatch.setattr(ReportModule, "training_step", spy)
    return seen


def test_bf16_mixed_precision_trains_on_a_cpu(tiny_train, monkeypatch):
    seen = _spy_training_steps(monkeypatch)
    summary, _ = tiny_train(
        "model=migen",
        *smoke_overrides("migen"),
        "trainer.precision=bf16-mixed",
        "trainer.max_epochs=1",
        "test=false",
    )
    assert seen and all(
        s == (True, torch.bfloat16, torch.bfloat16) for s in seen
    )  # the model ran in bf16
    assert math.isfinite(summary["val/loss"])


@needs_compile
def test_compiled_generator_loss_and_gradients_equal_eager(tmp_path):
    entry = GENERATORS.get("histgen")
    batch = make_batch(entry, dtype=torch.float32)
    results = []
    for compiled in (False, True):
        model = build(entry, tmp_path, dtype=torch.float32, dropout=0.0).train()
        loss_fn = torch.compile(model.loss, backend="aot_eager") if compiled else model.loss
        loss, _ = loss_fn(batch)
        loss.backward()
        results.append(
            (loss.detach(), [p.grad.clone() for p in model.parameters() if p.grad is not None])
        )
    (eager, eager_grads), (comp, comp_grads) = results
    torch.testing.assert_close(comp, eager, rtol=1e-5, atol=1e-6)
    assert len(comp_grads) == len(eager_grads) > 0
    for a, b in zip(comp_grads, eager_grads, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-6)


@needs_compile
def test_compile_switch_trains_through_torch_compile(tiny_train):
    from torch._dynamo.utils import counters

    counters.clear()
    # One batch per split (each new shape compiles again), one epoch.
    summary, _ = tiny_train(
        "model=histgen",
        *smoke_overrides("histgen"),
        "compile.enabled=true",
        "compile.backend=aot_eager",
        "trainer.max_epochs=1",
        "test=false",
        "data.batch_size=64",
        "data.eval_batch_size=64",
    )
    assert counters["stats"]["unique_graphs"] > 0  # the loss was traced and compiled
    assert math.isfinite(summary["val/loss"])
    checkpoint = torch.load(
        Path(summary["best_checkpoint"]), map_location="cpu", weights_only=False
    )
    assert not any(
        "_orig_mod" in k for k in checkpoint["state_dict"]
    )  # eager names: loadable without compile
