"""Writing result files: atomically, and as plain JSON.

Every file a run or an evaluator writes goes through these helpers, so that a crash (or a second
process writing the same file under DDP) never leaves half a file where a reader looks, and so
that numpy scalars and non-finite floats always become plain JSON the same way.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any


def jsonable(value: Any) -> Any:
    """Plain-JSON form of ``value``: numpy/torch scalars become numbers, NaN and Inf become null."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "item") and callable(value.item) and getattr(value, "ndim", 1) == 0:
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` to a temporary sibling, then move it over ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False, suffix=".tmp",
                                     newline="") as f:
        f.write(text)
        tmp = f.name
    os.replace(tmp, path)
    return path


def write_json(path: str | os.PathLike, data: Any, *, indent: int | None = 2) -> Path:
    """``data`` as JSON (through :func:`jsonable`; other objects as their string), atomically."""
    text = json.dumps(jsonable(data), indent=indent, ensure_ascii=False, default=str)
    return atomic_write_text(path, text + "\n")


def write_jsonl(path: str | os.PathLike, rows: list[Any]) -> Path:
    """One JSON object per line, atomically."""
    lines = [json.dumps(jsonable(row), ensure_ascii=False) for row in rows]
    return atomic_write_text(path, "".join(line + "\n" for line in lines))
