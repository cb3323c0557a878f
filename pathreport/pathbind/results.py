"""Small file helpers shared by the two protocols: run records, JSON Lines, versions, checksums.

Final summaries and tables go through ``pathreport.evaluation.evaluate.write_evaluation`` like every
other evaluator; this module holds only what is specific to long model runs (answers appended as
they are produced, so an interrupted run resumes where it stopped).
"""

from __future__ import annotations

import hashlib
import json
import platform
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pathreport.io import jsonable, write_json
from pathreport.io import read_jsonl as read_json_lines


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def versions() -> dict[str, str | None]:
    """Versions of the packages that can change a number."""
    import numpy
    import torch

    from pathreport import __version__

    found: dict[str, str | None] = {
        "pathreport": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "torch": torch.__version__,
    }
    for name in ("transformers", "PIL"):
        try:
            module = __import__(name)
            found[name if name != "PIL" else "pillow"] = getattr(module, "__version__", None)
        except ImportError:
            found[name if name != "PIL" else "pillow"] = None
    return found


def append_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    with open(path, "a", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(jsonable(row), ensure_ascii=False) + "\n")
        f.flush()


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """Rows of a JSON Lines file; a truncated last line (an interrupted write) is ignored."""
    rows = read_json_lines(
        path,
        error=ValueError,
        hint="the file is damaged, delete it and rerun",
        truncated_tail_ok=True,
    )
    return iter([row for _, row in rows])


def start_run(out_dir: Path, settings: dict[str, Any], records: str, resume: bool) -> None:
    """Create the run folder, or check that a resumed run uses the same settings.

    ``records`` is the incremental file (answers or per-sample scores): continuing it with other
    settings would mix two experiments in one table, so that is refused.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    run_file = out_dir / "run.json"
    if (out_dir / records).exists():
        if not resume:
            raise ValueError(
                f"{out_dir / records} already exists; pass --resume to continue that run, or "
                "choose another --out."
            )
        previous = json.loads(run_file.read_text(encoding="utf-8")) if run_file.exists() else {}
        fresh = json.loads(json.dumps(jsonable(settings)))
        differing = sorted(
            k
            for k in set(previous) | set(fresh)
            if k != "versions" and previous.get(k) != fresh.get(k)
        )
        if differing:
            raise ValueError(
                f"Cannot resume {out_dir}: its settings differ in {differing}; rerun with "
                "the original settings or use another --out."
            )
        return
    write_json(run_file, settings)
