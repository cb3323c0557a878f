"""One run per run folder: a lock, a status file, and checks made before any compute.

Two runs writing into one folder silently lose one run's results (``run.json``, predictions and
metrics hold only one; ``checkpoints/`` mixes both), so a run claims its folder first:

* ``.pathreport.lock`` holds the owner's pid and host. A second run is refused while the owner
  lives. When the owner's pid is dead on this host, the lock is stale (the run was killed) and is
  taken over; a lock from another host cannot be checked and is never taken over.
* ``run.json`` carries ``status``: ``running`` while the run works, then ``completed``,
  ``interrupted`` (SIGTERM or Ctrl-C: the last checkpoint is kept and ``ckpt_path=last`` resumes)
  or ``failed`` (with the error). A folder whose run completed is refused unless ``overwrite=true``,
  which removes that run's results first; an interrupted or failed run's folder is accepted only
  to resume it from its own checkpoint.
* Writability is checked by the lock's creation itself, before data is read or a model built.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pathreport.errors import RunFolderError
from pathreport.io import write_json

log = logging.getLogger("pathreport")

LOCK_NAME = ".pathreport.lock"
RUN_FILE = "run.json"
# What a train/eval run writes into its folder; ``overwrite=true`` removes exactly these.
RUN_OUTPUTS = (
    "checkpoints",
    "predictions",
    "metrics",
    "csv",
    "tensorboard",
    "wandb",
    RUN_FILE,
    "manifest.json",
    "config.yaml",
)


def check_writable(folder: Path, *, option: str) -> None:
    """Create ``folder`` and a file in it, or stop with a message naming it and ``option``."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        raise RunFolderError(
            f"Cannot write to {folder} ({err.strerror or err}). Choose a writable folder "
            f"with {option}."
        ) from None


def check_creatable(folder: Path, *, option: str) -> None:
    """Stop unless ``folder`` exists as a writable folder or could be created (its nearest
    existing ancestor is a writable folder); creates nothing."""
    ancestor = folder
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    problem = None
    if not ancestor.is_dir():
        problem = f"{ancestor} is a file, not a folder"
    elif not os.access(ancestor, os.W_OK | os.X_OK):
        problem = f"{ancestor} is not writable"
    if problem:
        raise RunFolderError(
            f"Cannot write to {folder} ({problem}). Choose a writable folder with {option}."
        )


def pid_alive(pid: int) -> bool:
    """Whether a process with ``pid`` exists on this machine."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by another user
        return True
    return True


@dataclass
class RunFolder:
    """The claim of one run on its folder (see the module docstring).

    Args:
        path: the run folder.
        option: how the user chooses another folder, for messages (e.g. ``hydra.run.dir=<dir>``).
    """

    path: Path
    option: str = "hydra.run.dir=<folder>"
    info: dict[str, Any] = field(default_factory=dict)
    _locked: bool = False

    @property
    def lock_file(self) -> Path:
        return self.path / LOCK_NAME

    @property
    def run_file(self) -> Path:
        return self.path / RUN_FILE

    def previous(self) -> dict[str, Any] | None:
        """The earlier run's ``run.json`` in this folder, or None."""
        if not self.run_file.is_file():
            return None
        try:
            data = json.loads(self.run_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"status": "unknown"}
        return data if isinstance(data, dict) else {"status": "unknown"}

    def acquire(self) -> None:
        """Take the lock (checking the folder is writable), or stop naming the live owner."""
        check_writable(self.path, option=self.option)
        owner = {"pid": os.getpid(), "host": socket.gethostname(), "started": _now()}
        for _ in range(2):
            try:
                fd = os.open(self.lock_file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
            except FileExistsError:
                self._handle_existing_lock()
                continue
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(owner, f)
            self._locked = True
            return
        raise RunFolderError(
            f"{self.lock_file}: another run took this folder at the same moment; "
            f"choose another folder with {self.option}."
        )

    def _handle_existing_lock(self) -> None:
        try:
            holder = json.loads(self.lock_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return  # released in between: try again
        except (OSError, ValueError):
            holder = {}
        pid, host = int(holder.get("pid") or 0), str(holder.get("host") or "?")
        if host == socket.gethostname() and not pid_alive(pid):
            log.warning(
                "Taking over the stale lock %s of run pid %d (no longer running).",
                self.lock_file,
                pid,
            )
            self.lock_file.unlink(missing_ok=True)
            return
        where = "this host" if host == socket.gethostname() else f"host {host}"
        raise RunFolderError(
            f"{self.path} is in use by another run (pid {pid} on {where}, "
            f"since {holder.get('started', '?')}); two runs in one folder would overwrite each "
            "other's results. Wait for it to finish or choose another folder "
            f"with {self.option}. If that run no longer exists, delete {self.lock_file}."
        )

    def release(self) -> None:
        """Remove the lock if this process still holds it."""
        if not self._locked:
            return
        try:
            holder = json.loads(self.lock_file.read_text(encoding="utf-8"))
            if int(holder.get("pid", -1)) == os.getpid():
                self.lock_file.unlink()
        except (OSError, ValueError):
            pass
        self._locked = False

    def claim(self, *, overwrite: bool, resuming: bool, what: str) -> None:
        """Refuse a folder holding another run's results (see the module docstring), then mark it
        ``running``. Call after :meth:`acquire`.

        Args:
            overwrite: remove an earlier run's results instead of refusing.
            resuming: this run continues from a checkpoint inside this folder.
            what: identification written to ``run.json`` (model, encoder, dataset, seed, ...).
        """
        previous = self.previous()
        if previous is not None and not overwrite:
            status = previous.get("status", "completed")
            if status == "completed":
                raise RunFolderError(
                    f"{self.path} already holds a finished run ({_describe(previous)}); a new "
                    "run here would mix its results with that run's. Choose another folder "
                    f"with {self.option}, or pass overwrite=true to delete that run's results "
                    "and start again."
                )
            if not resuming:
                raise RunFolderError(
                    f"{self.path} holds an unfinished run "
                    f"(status {status}, {_describe(previous)}). Resume it with ckpt_path=last, "
                    f"choose another folder with {self.option}, or pass overwrite=true to delete "
                    "its results and start again."
                )
        if previous is not None and overwrite:
            log.warning("overwrite=true: removing the earlier run's results in %s.", self.path)
            for name in RUN_OUTPUTS:
                target = self.path / name
                if target.is_dir():
                    shutil.rmtree(target)
                elif target.exists():
                    target.unlink()
        self.info = {
            **what,
            "status": "running",
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": _now(),
        }
        write_json(self.run_file, self.info)

    def finish(self, status: str, **details: Any) -> None:
        """Record the run's final ``status`` (and a summary or an error) in ``run.json``."""
        self.info = {**self.info, **details, "status": status, "finished": _now()}
        write_json(self.run_file, self.info)


def _describe(run: dict[str, Any]) -> str:
    parts = [
        f"{k} {run[k]}" for k in ("model", "encoder", "dataset", "seed") if run.get(k) is not None
    ]
    if run.get("finished"):
        parts.append(f"finished {run['finished']}")
    return ", ".join(parts) or "no details recorded"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")
