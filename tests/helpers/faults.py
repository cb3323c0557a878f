"""What every fault-injection case checks: the exit status, a message that names the culprit and
the fix, no Python traceback for a user error, and that no earlier result changed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pathreport import paths


def run_script(
    script: str, *args: str, cwd: Path, timeout: float = 300
) -> subprocess.CompletedProcess:
    """``python <script> args`` as a user runs it (no HYDRA_FULL_ERROR: user errors are short)."""
    env = {k: v for k, v in os.environ.items() if k != "HYDRA_FULL_ERROR"}
    return subprocess.run(
        [sys.executable, str(paths.PROJECT_ROOT / script), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def assert_user_error(code: int, stderr: str, *needles: str, stdout: str = "") -> None:
    """A user error: non-zero exit, each of ``needles`` in stderr, no traceback anywhere."""
    assert code != 0, stderr[-2000:]
    assert "Traceback" not in stderr and "Traceback" not in stdout, stderr[-3000:]
    for needle in needles:
        assert needle in stderr, f"{needle!r} not in stderr:\n{stderr[-2000:]}"


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its content, to prove a failure changed nothing."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }
