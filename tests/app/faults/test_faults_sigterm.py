"""SIGTERM during training (a scheduler's pre-emption, ``kill``): the process exits non-zero, the
run folder says it was interrupted, last.ckpt is intact and ``ckpt_path=last`` resumes it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from pathreport import paths
from pathreport.generation.checkpoints import load_checkpoint
from tests.conftest import FAST_RUN, TINY_DATA, compose_train
from tests.helpers.faults import assert_user_error

# Endless training (no early stop) of a smoke-size model: only the signal ends it.
ENDLESS = [
    *TINY_DATA,
    *FAST_RUN,
    "model=migen",
    "model.d_model=16",
    "eval.metrics=[nlg]",
    "trainer.max_epochs=100000",
    "callbacks.early_stopping.enabled=false",
]


def test_sigterm_exits_non_zero_marks_the_run_interrupted_and_resumes(tmp_path):
    from pathreport.app.run import train

    out = tmp_path / "run"
    env = {k: v for k, v in os.environ.items() if k != "HYDRA_FULL_ERROR"}
    proc = subprocess.Popen(
        [sys.executable, str(paths.PROJECT_ROOT / "train.py"), *ENDLESS, f"hydra.run.dir={out}"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    last = out / "checkpoints" / "last.ckpt"
    deadline = time.time() + 240
    while not last.exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.2)
    assert last.exists(), proc.stderr.read() if proc.poll() is not None else "no checkpoint in time"
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=120)

    assert proc.returncode == 143
    assert_user_error(
        proc.returncode,
        stderr,
        "stopped by SIGTERM",
        "last.ckpt is kept",
        "ckpt_path=last",
        stdout=stdout,
    )
    run = json.loads((out / "run.json").read_text())
    assert run["status"] == "interrupted" and run["stopped_by"] == "SIGTERM"
    assert run["last_checkpoint"] == str(last)
    stopped_epoch = load_checkpoint(last)["epoch"]  # intact: it loads, through the safe loader

    # resume in the same folder, for two more epochs
    cfg = compose_train(
        [*ENDLESS, f"trainer.max_epochs={stopped_epoch + 3}", "ckpt_path=last", "test=false"], out
    )
    train(cfg)
    assert load_checkpoint(last)["epoch"] == stopped_epoch + 2
    assert json.loads((out / "run.json").read_text())["status"] == "completed"
    assert not list((out / "checkpoints").glob("last-v*.ckpt"))  # no second run's files mixed in
