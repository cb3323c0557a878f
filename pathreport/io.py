"""Reading JSON Lines, and writing result files: atomically, and as plain JSON.

Every file a run or an evaluator writes goes through these helpers, so that a crash (or a second
process writing the same file under DDP) never leaves half a file where a reader looks, and so
that numpy scalars and non-finite floats always become plain JSON the same way. Files get the
mode a plain ``open`` would give them (the umask's), and whole output folders can be replaced at
once (:func:`replaced_folder`).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pathreport.errors import RunFolderError, UserError


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


def current_umask() -> int:
    """The process's file-creation mask (read without changing it where Linux allows)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: set and restore
    os.umask(mask)
    return mask


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` to a temporary sibling, then move it over ``path``.

    The temporary file is created private (0600), so its mode is set to what a plain ``open``
    would give (0666 minus the umask) before it takes the result's name.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, delete=False, suffix=".tmp", newline=""
    ) as f:
        f.write(text)
        tmp = f.name
    try:
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_json(path: str | os.PathLike, data: Any, *, indent: int | None = 2) -> Path:
    """``data`` as JSON (through :func:`jsonable`; other objects as their string), atomically."""
    text = json.dumps(jsonable(data), indent=indent, ensure_ascii=False, default=str)
    return atomic_write_text(path, text + "\n")


def jsonl_values(text: str) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) of each non-empty line; a line that is not JSON gives its
    :class:`json.JSONDecodeError` as the value, for readers that list every bad line at once."""
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                yield lineno, json.loads(line)
            except json.JSONDecodeError as err:
                yield lineno, err


def read_jsonl(
    path: str | os.PathLike,
    text: str | None = None,
    *,
    error: type[Exception] = UserError,
    hint: str = "write one JSON value per line",
    truncated_tail_ok: bool = False,
) -> list[tuple[int, Any]]:
    """(line number, parsed value) for each non-empty line of a JSON Lines file.

    The one JSON Lines reader of the package (predictions, per-case scores, references, check sets,
    PathBind answers); :func:`write_jsonl` is its writer.

    Args:
        path: the file (named in errors).
        text: its content, when the caller has already read it.
        error: the exception raised for a bad line (a :class:`UserError` unless the caller's file
            format has its own).
        hint: how to fix a bad line, appended to the message.
        truncated_tail_ok: drop a bad LAST line instead of raising (an append-only file whose
            writer was interrupted mid-line).

    Raises:
        ``error``: a line that is not valid JSON, named by file and line number.
    """
    if text is None:
        text = Path(path).read_text(encoding="utf-8")
    rows = list(jsonl_values(text))
    out = []
    for i, (lineno, value) in enumerate(rows):
        if isinstance(value, json.JSONDecodeError):
            if truncated_tail_ok and i == len(rows) - 1:
                break
            raise error(f"{path}:{lineno}: not valid JSON ({value.msg}); {hint}.") from None
        out.append((lineno, value))
    return out


def write_jsonl(path: str | os.PathLike, rows: list[Any]) -> Path:
    """One JSON object per line, atomically."""
    lines = [json.dumps(jsonable(row), ensure_ascii=False) for row in rows]
    return atomic_write_text(path, "".join(line + "\n" for line in lines))


@contextmanager
def replaced_folder(
    out: str | os.PathLike, *, overwrite: bool, option: str = "--out"
) -> Iterator[Path]:
    """Build an output folder anew beside ``out``, then put it in ``out``'s place.

    Yields a temporary sibling folder to write into; when the block ends without an error, it
    replaces ``out`` (the previous folder is removed only once the new one is in place), else it
    is deleted and ``out`` is left as it was. So a folder never mixes files of two evaluations
    (a stale ``fields.csv`` next to a new summary), and a failed or interrupted evaluation loses
    nothing. A non-empty ``out`` is refused unless ``overwrite``: a folder may hold results the
    user still needs, and replacing it is a decision the user makes.

    Everything is checked before the caller computes anything: a refused or unwritable ``out``
    stops at once, with ``option`` named in the message.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RunFolderError(
            f"{option} {out} is a file, not a folder; choose a folder with {option}."
        )
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        held = sorted(p.name for p in out.iterdir())
        raise RunFolderError(
            f"{option} {out} already holds files "
            f"({', '.join(held[:6])}{', ...' if len(held) > 6 else ''}); writing into it would "
            f"mix two evaluations. Choose another {option}, or pass --overwrite to replace the "
            "folder."
        )
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    except OSError as err:
        raise RunFolderError(
            f"Cannot write to {out.parent} ({err.strerror or err}); choose a writable "
            f"folder with {option}."
        ) from None
    try:
        os.chmod(tmp, 0o777 & ~current_umask())
        yield tmp
        old = None
        if out.exists():
            old = out.with_name(f".{out.name}.{os.getpid()}.old")
            os.replace(out, old)
        try:
            os.replace(tmp, out)
        except OSError:
            if old is not None:
                os.replace(old, out)
            raise
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
