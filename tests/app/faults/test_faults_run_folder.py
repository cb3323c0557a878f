"""One run per folder: a live run's folder, a finished run's folder and an unwritable folder are
refused before any compute, and the earlier run's results stay as they were."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from pathreport.app.run_folder import LOCK_NAME, RunFolder
from pathreport.errors import RunFolderError
from tests.conftest import FAST_RUN, TINY_DATA, compose_train
from tests.helpers.faults import snapshot


def _train(out, *overrides):
    from pathreport.app.run import train

    return train(
        compose_train(
            [*TINY_DATA, *FAST_RUN, "model=most_frequent", "eval.metrics=[nlg]", *overrides], out
        )
    )


def test_a_finished_run_folder_is_refused_unless_overwrite(tmp_path):
    out = tmp_path / "run"
    _train(out, "seed=0")
    before = snapshot(out)
    assert json.loads((out / "run.json").read_text())["status"] == "completed"
    with pytest.raises(
        RunFolderError,
        match=r"already holds a finished run \(model most_frequent.*seed 0.*overwrite=true",
    ):
        _train(out, "seed=1", "test=false")
    assert snapshot(out) == before  # nothing of the first run changed or lost
    _train(out, "seed=1", "test=false", "overwrite=true")
    after = json.loads((out / "run.json").read_text())
    assert after["status"] == "completed" and after["seed"] == 1
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == ["baseline.ckpt"]
    assert not (out / "metrics").exists()  # the first run's results went with overwrite=true
    assert not (out / LOCK_NAME).exists()


def test_a_folder_held_by_a_live_run_is_refused(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (out / LOCK_NAME).write_text(
            json.dumps({"pid": other.pid, "host": socket.gethostname(), "started": "now"})
        )
        with pytest.raises(
            RunFolderError,
            match=rf"in use by another run \(pid {other.pid} on this host.*hydra\.run\.dir",
        ):
            _train(out, "test=false")
        assert (
            not (out / "run.json").exists() and (out / LOCK_NAME).exists()
        )  # the owner's lock is kept
    finally:
        other.kill()
        other.wait()
    # the owner is gone: its lock is stale and the next run takes the folder over
    _train(out, "test=false")
    assert json.loads((out / "run.json").read_text())["status"] == "completed"


def test_a_lock_from_another_host_is_never_taken_over(tmp_path):
    folder = RunFolder(tmp_path / "run")
    folder.path.mkdir()
    folder.lock_file.write_text(
        json.dumps({"pid": 1, "host": "some-other-node", "started": "then"})
    )
    with pytest.raises(
        RunFolderError, match=r"pid 1 on host some-other-node.*delete .*\.pathreport\.lock"
    ):
        folder.acquire()


def test_an_unwritable_run_folder_stops_before_compute(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the run folder's parent should be")
    with pytest.raises(
        RunFolderError, match=r"Cannot write to .*not-a-folder/run.*hydra\.run\.dir"
    ):
        _train(blocker / "run")


def test_an_unfinished_run_folder_is_reused_only_to_resume_it(tmp_path):
    folder = RunFolder(tmp_path / "run")
    folder.acquire()
    folder.claim(overwrite=False, resuming=False, what={"model": "migen", "seed": 0})
    folder.finish("interrupted")
    folder.release()
    again = RunFolder(tmp_path / "run")
    again.acquire()
    with pytest.raises(
        RunFolderError, match=r"unfinished run \(status interrupted.*ckpt_path=last"
    ):
        again.claim(overwrite=False, resuming=False, what={})
    again.claim(overwrite=False, resuming=True, what={"model": "migen"})
    again.release()
    assert os.listdir(tmp_path / "run") == ["run.json"]


def test_an_uncreatable_hydra_run_dir_is_one_message_before_hydra_starts(
    tmp_path, monkeypatch, capsys
):
    """Hydra creates the run folder itself (and would fail with a traceback): checked before it."""
    from pathreport.app.entry import hydra_entry
    from pathreport.app.run import train

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(
        sys, "argv", ["train.py", "model=most_frequent", f"hydra.run.dir={blocker / 'run'}"]
    )
    with pytest.raises(SystemExit) as stop:
        hydra_entry(train, config_name="train")
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert f"Cannot write to {blocker / 'run'} ({blocker} is a file, not a folder)" in err
    assert "hydra.run.dir=<folder>" in err and "Traceback" not in err
