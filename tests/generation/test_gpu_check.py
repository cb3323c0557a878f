"""The prepared GPU check: run where a GPU is; at tiny size on the CPU here, so it cannot rot."""

from __future__ import annotations

import importlib.util
import json

import pytest
import torch

from pathreport import paths


@pytest.fixture(scope="module")
def gpu_check():
    spec = importlib.util.spec_from_file_location(
        "gpu_check", paths.PROJECT_ROOT / "benchmarks" / "gpu_check.py"
    )
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def test_gpu_check_measures_every_generator_at_tiny_size(gpu_check, tmp_path):
    result = gpu_check.main(
        [
            "--tiny",
            "--peak-tflops",
            "1",
            "--json",
            str(tmp_path / "check.json"),
            "--markdown",
            str(tmp_path / "check.md"),
        ]
    )
    assert json.loads((tmp_path / "check.json").read_text()) == result
    rows = {row["generator"]: row for row in result["generators"]}
    assert list(rows) == [
        "migen",
        "histgen",
        "bigen",
        "scout",
        "slide_llm (frozen)",
        "slide_llm (lora)",
        "slide_llm (full)",
    ]
    table = (tmp_path / "check.md").read_text()
    for name, row in rows.items():
        assert f"| {name} |" in table
        assert [(t["patches"], t["batch"] == 1) for t in row["training"]] == [
            (24, True),
            (24, False),
            (96, True),
            (96, False),
        ]
        for t in row["training"]:
            assert 1 <= t["batch"] <= 4 and t["step_s"] > 0 and t["tokens_per_s"] > 0
            assert t["gflop_per_step"] > 0 and 0 < t["mfu"] < 1
        assert set(row["decoding"]) == {"REG", "TCGA"}
        assert all(d["slides_per_s"] > 0 and d["slides"] == 3 for d in row["decoding"].values())
    frozen, lora, full = (rows[f"slide_llm ({m})"] for m in ("frozen", "lora", "full"))
    assert frozen["trainable_m"] < lora["trainable_m"] < full["trainable_m"] == full["params_m"]


def test_gpu_check_finds_the_largest_batch_that_fits_and_frees_memory_after_running_out(gpu_check):
    freed = []

    class Fake(gpu_check.Trainer):
        """Steps of more than 5 slides run out of memory."""

        def __init__(self) -> None:
            self.dev = gpu_check.Device("cpu")
            self.dev.free = lambda: freed.append(True)
            self.optimizer = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)

        def _batch(self, slides, patches):
            return slides

        def step(self, slides):
            if slides > 5:
                raise gpu_check.OUT_OF_MEMORY("CUDA out of memory")

    trainer = Fake()
    assert trainer.largest_batch(patches=10, cap=64) == 5
    assert freed, "running out of memory frees the cached memory before the next try"
    assert trainer.largest_batch(patches=10, cap=4) == 4
