"""Shared test setup: an isolated cache, offline W&B, and small synthetic-data configs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _isolated_environment(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Generated data goes to a per-session cache (or PATHREPORT_TEST_CACHE, to reuse it between
    local runs); W&B never goes online; no user plug-in folder leaks in."""
    cache = os.environ.get("PATHREPORT_TEST_CACHE") or tmp_path_factory.mktemp("pathreport-cache")
    os.environ["PATHREPORT_CACHE"] = str(cache)
    os.environ["WANDB_MODE"] = "offline"
    os.environ["WANDB_SILENT"] = "true"
    os.environ.pop("PATHREPORT_PLUGIN_PATH", None)
    os.environ.setdefault("HYDRA_FULL_ERROR", "1")


# A synthetic dataset small enough for a training run in a few seconds.
TINY_DATA = [
    "data.synthetic.n_slides=30",
    "data.synthetic.min_patches=4",
    "data.synthetic.max_patches=12",
    "data.batch_size=4",
    "data.eval_batch_size=8",
    "data.max_report_tokens=40",
]

# A run that finishes fast: two epochs, no progress bar, greedy decoding.
FAST_RUN = [
    "trainer.max_epochs=2",
    "trainer.accelerator=cpu",
    "trainer.enable_model_summary=false",
    "callbacks.progress_bar=none",
    "logger=none",
    "decoding.beam_size=2",
]


def smoke_overrides(model: str) -> list[str]:
    """``model.<key>=<value>`` overrides giving the registered generator its tiny smoke config."""
    from pathreport.registry import GENERATORS

    entry = GENERATORS.get(model)
    return [f"model.{k}={v}" for k, v in entry.smoke.items()]


def compose_train(overrides: list[str], output_dir: Path) -> object:
    """The composed ``train.py`` config for ``overrides``, writing into ``output_dir``."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    from pathreport import paths
    from pathreport.app.entry import prepare

    prepare()
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(paths.CONFIGS_DIR), version_base="1.3"):
        cfg = compose(config_name="train", overrides=[*overrides, f"paths.output_dir={output_dir}"])
    return cfg


@pytest.fixture
def tiny_train(tmp_path: Path):
    """Run ``train`` in-process on the tiny synthetic dataset; returns (summary, run dir)."""
    from pathreport.app.run import train

    def run(*overrides: str, name: str = "run", synthetic: bool = True) -> tuple[dict, Path]:
        out = tmp_path / name
        cfg = compose_train([*(TINY_DATA if synthetic else []), *FAST_RUN, *overrides], out)
        return train(cfg), out

    return run
