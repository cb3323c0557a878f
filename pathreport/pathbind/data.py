"""The two PathBind data formats, read from JSON Lines and validated before any model runs.

The public release's schema is not stated in the paper, so these are pathreport's own formats
(documented in ``docs/pathbind.md``). Every problem is reported with the file, line, item id, field,
expected and found values, and the fix; all problems of a file are listed at once so that one pass
fixes them.

VQA line::

    {"id": "q1", "image": "img/q1.png", "question": "...", "options": {"A": "...", "B": "..."},
     "answer": "B", "dimension": "D2", "source": "PathMMU", "component": "PathBind-VQA"}

``options`` may also be a list (lettered A, B, ...). A yes/no item has no ``options`` and an answer
``yes`` or ``no``. ``dimension`` (D1-D6), ``component`` and ``subset`` (the pool of same-subset
replacement images; defaults to ``source``) are optional.

Grounding line::

    {"id": "g1", "image": "img/g1.png", "expression": "...", "box": [x1, y1, x2, y2],
     "split": "testA"}
"""

from __future__ import annotations

import json
import math
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pathreport.errors import PathreportError
from pathreport.io import jsonl_values
from pathreport.pathbind.images import image_size

DIMENSIONS = ("D1", "D2", "D3", "D4", "D5", "D6")
DIMENSION_NAMES = {  # [paper] Section 4.2, Table B.7
    "D1": "Coarse tissue / organ recognition",
    "D2": "Cell morphology",
    "D3": "Cell-stroma interaction",
    "D4": "Spatial localization",
    "D5": "Diagnostic reasoning",
    "D6": "Stain & IHC interpretation",
}
YES_NO = ("yes", "no")
MAX_REPORTED_ERRORS = 25


@dataclass(frozen=True)
class VQAItem:
    """One question. ``options`` is None for yes/no items, whose answer is ``yes`` or ``no``."""

    id: str
    image: Path
    question: str
    options: dict[str, str] | None
    answer: str
    source: str
    dimension: str | None = None
    component: str | None = None
    subset: str | None = None

    @property
    def qtype(self) -> str:
        return "yesno" if self.options is None else "mc"

    @property
    def pool(self) -> str:
        """The subset whose images replace this item's in the same/cross-subset conditions."""
        return self.subset or self.source


@dataclass(frozen=True)
class GroundingItem:
    """One (image, expression, box) sample. ``box`` is (x1, y1, x2, y2) in pixels."""

    id: str
    image: Path
    expression: str
    box: tuple[float, float, float, float]
    split: str
    image_size: tuple[int, int]


class DataFormatError(PathreportError, ValueError):
    """A data file that does not follow the documented format; the message lists every problem."""


class _Problems:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.messages: list[str] = []

    def add(self, line: int, item_id: str | None, message: str) -> None:
        where = f"{self.path}:{line}" + (f" (id {item_id!r})" if item_id is not None else "")
        self.messages.append(f"{where}: {message}")

    def raise_if_any(self, what: str) -> None:
        if not self.messages:
            return
        shown = self.messages[:MAX_REPORTED_ERRORS]
        more = len(self.messages) - len(shown)
        tail = f"\n  ... and {more} more" if more > 0 else ""
        raise DataFormatError(
            (
                f"{len(self.messages)} problem(s) in the {what} file {self.path} (format: "
                "docs/pathbind.md):\n  "
            )
            + "\n  ".join(shown)
            + tail
        )


def _json_lines(path: Path, problems: _Problems) -> Iterator[tuple[int, dict[str, Any]]]:
    if not path.is_file():
        raise FileNotFoundError(f"{path} does not exist; pass the JSON Lines file of your data.")
    for number, row in jsonl_values(path.read_text(encoding="utf-8")):
        if isinstance(row, json.JSONDecodeError):
            problems.add(
                number,
                None,
                f"not valid JSON ({row.msg} at column {row.colno}); write one JSON object "
                "per line.",
            )
        elif not isinstance(row, dict):
            problems.add(number, None, f"expected a JSON object, found {type(row).__name__}.")
        else:
            yield number, row


def _text(
    row: dict[str, Any],
    key: str,
    line: int,
    item_id: str | None,
    problems: _Problems,
    *,
    required: bool = True,
) -> str | None:
    value = row.get(key)
    if value is None:
        if required:
            problems.add(line, item_id, f"field '{key}' is missing; add it (a non-empty string).")
        return None
    if not isinstance(value, str) or not value.strip():
        problems.add(line, item_id, f"field '{key}' must be a non-empty string, found {value!r}.")
        return None
    return value.strip()


def _item_id(
    row: dict[str, Any], line: int, problems: _Problems, seen: dict[str, int]
) -> str | None:
    value = row.get("id")
    if value is None or (isinstance(value, str) and not value.strip()) or isinstance(value, bool):
        problems.add(line, None, "field 'id' is missing or empty; give every line a unique id.")
        return None
    if not isinstance(value, (str, int)):
        problems.add(line, None, f"field 'id' must be a string or an integer, found {value!r}.")
        return None
    item_id = str(value)
    if item_id in seen:
        problems.add(
            line,
            item_id,
            f"id is not unique: line {seen[item_id]} has the same id; rename one of them.",
        )
        return None
    seen[item_id] = line
    return item_id


def _image_path(
    row: dict[str, Any], line: int, item_id: str | None, root: Path, problems: _Problems
) -> Path | None:
    key = "image_path" if "image_path" in row and "image" not in row else "image"
    relative = _text(row, key, line, item_id, problems)
    if relative is None:
        return None
    path = Path(relative).expanduser()
    if not path.is_absolute():
        path = root / path
    if not path.is_file():
        problems.add(
            line,
            item_id,
            f"field '{key}' is {relative!r} but {path} does not exist; fix the path or pass "
            "--images with the folder the image paths are relative to.",
        )
        return None
    return path


class _Reader:
    """Lines of a data file, with checks all formats share: JSON, a unique id, an existing image."""

    def __init__(self, path: str | Path, images_root: str | Path | None) -> None:
        self.path = Path(path)
        self.root = Path(images_root) if images_root is not None else self.path.parent
        self.problems = _Problems(self.path)
        self.seen: dict[str, int] = {}

    def rows(self) -> Iterator[tuple[int, dict[str, Any], str | None, Path | None]]:
        """(line number, row, id or None, image path or None) per line; problems are recorded."""
        for line, row in _json_lines(self.path, self.problems):
            item_id = _item_id(row, line, self.problems, self.seen)
            yield line, row, item_id, _image_path(row, line, item_id, self.root, self.problems)


def _options(
    row: dict[str, Any], line: int, item_id: str | None, problems: _Problems
) -> tuple[bool, dict[str, str] | None]:
    raw = row.get("options")
    if raw is None:
        return True, None
    if isinstance(raw, list):
        if len(raw) > 26:
            problems.add(
                line,
                item_id,
                f"field 'options' has {len(raw)} entries; at most 26 (A-Z) are allowed.",
            )
            return False, None
        raw = dict(zip(string.ascii_uppercase[: len(raw)], raw, strict=True))
    if not isinstance(raw, dict) or len(raw) < 2:
        problems.add(
            line,
            item_id,
            "field 'options' must map letters to texts (at least two), "
            f"found {row.get('options')!r}.",
        )
        return False, None
    options: dict[str, str] = {}
    for letter, text in raw.items():
        key = str(letter).strip().upper()
        if not re.fullmatch(r"[A-Z]", key):
            problems.add(
                line,
                item_id,
                f"option key {letter!r} is not a single letter A-Z; use keys 'A', 'B', ...",
            )
            return False, None
        if not isinstance(text, str) or not text.strip():
            problems.add(line, item_id, f"option {key} must be a non-empty string, found {text!r}.")
            return False, None
        options[key] = text.strip()
    return True, dict(sorted(options.items()))


def _answer(
    row: dict[str, Any],
    options: dict[str, str] | None,
    line: int,
    item_id: str | None,
    problems: _Problems,
) -> str | None:
    value = row.get("answer")
    if not isinstance(value, str) or not value.strip():
        problems.add(
            line, item_id, f"field 'answer' must be an option letter (or yes/no), found {value!r}."
        )
        return None
    answer = value.strip()
    if options is None:
        if answer.lower() not in YES_NO:
            problems.add(
                line,
                item_id,
                f"field 'answer' is {answer!r} but the item has no 'options', so it must be "
                "'yes' or 'no'; add the options or fix the answer.",
            )
            return None
        return answer.lower()
    letter = answer.upper()
    if letter not in options:
        problems.add(
            line,
            item_id,
            f"field 'answer' is {answer!r}, which is not among the options ({', '.join(options)}); "
            "set it to the letter of the correct option.",
        )
        return None
    return letter


def _dimension(
    row: dict[str, Any], line: int, item_id: str | None, problems: _Problems
) -> str | None:
    value = row.get("dimension")
    if value is None:
        return None
    text = str(value).strip().upper()
    if text not in DIMENSIONS:
        problems.add(
            line,
            item_id,
            f"field 'dimension' is {value!r}; expected one of {', '.join(DIMENSIONS)} or null.",
        )
        return None
    return text


def read_vqa(path: str | Path, images_root: str | Path | None = None) -> list[VQAItem]:
    """Read and validate a VQA JSON Lines file.

    Args:
        path: the questions file.
        images_root: folder that relative image paths start from (default: the file's folder).
    """
    reader = _Reader(path, images_root)
    problems = reader.problems
    items: list[VQAItem] = []
    for line, row, item_id, image in reader.rows():
        question = _text(row, "question", line, item_id, problems)
        ok, options = _options(row, line, item_id, problems)
        answer = _answer(row, options, line, item_id, problems) if ok else None
        source = _text(row, "source", line, item_id, problems)
        dimension = _dimension(row, line, item_id, problems)
        component = _text(row, "component", line, item_id, problems, required=False)
        subset = _text(row, "subset", line, item_id, problems, required=False)
        if None in (item_id, image, question, answer, source):
            continue
        items.append(
            VQAItem(item_id, image, question, options, answer, source, dimension, component, subset)
        )
    problems.raise_if_any("VQA")
    if not items:
        raise DataFormatError(f"The VQA file {reader.path} holds no questions.")
    return items


def _box(
    row: dict[str, Any],
    box_format: str,
    size: tuple[int, int] | None,
    line: int,
    item_id: str | None,
    problems: _Problems,
) -> tuple[float, float, float, float] | None:
    raw = row.get("box")
    if (
        not isinstance(raw, (list, tuple))
        or len(raw) != 4
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw)
    ):
        problems.add(
            line,
            item_id,
            "field 'box' must be four numbers "
            f"[{'x1, y1, x2, y2' if box_format == 'xyxy' else 'x, y, w, h'}] in pixels, "
            f"found {raw!r}.",
        )
        return None
    a, b, c, d = (float(v) for v in raw)
    x1, y1, x2, y2 = (a, b, c, d) if box_format == "xyxy" else (a, b, a + c, b + d)
    if not (x2 > x1 and y2 > y1):
        problems.add(
            line,
            item_id,
            f"field 'box' {list(raw)} ({box_format}) has no area; x2 must exceed x1 and y2 "
            "exceed y1 (is --box-format right?).",
        )
        return None
    if not _covers_a_pixel_centre(x1, x2) or not _covers_a_pixel_centre(y1, y2):
        problems.add(
            line,
            item_id,
            f"field 'box' {list(raw)} covers no pixel centre (pixel i spans [i, i+1)); widen "
            "the box.",
        )
        return None
    if size is None:
        return None
    width, height = size
    if x1 < 0 or y1 < 0 or x2 > width or y2 > height:
        problems.add(
            line,
            item_id,
            f"field 'box' {list(raw)} ({box_format}) reaches outside the {width}x{height} image "
            f"(x must lie in [0, {width}], y in [0, {height}]); fix the box or its format "
            "(--box-format).",
        )
        return None
    return x1, y1, x2, y2


def _covers_a_pixel_centre(low: float, high: float) -> bool:
    """True when some centre i + 0.5 lies in [low, high) (as ``metrics.box_mask`` rasterises)."""
    first = math.ceil(low - 0.5)
    return first + 0.5 < high


def read_grounding(
    path: str | Path, images_root: str | Path | None = None, box_format: str = "xyxy"
) -> list[GroundingItem]:
    """Read and validate a grounding JSON Lines file (boxes are checked against the image size)."""
    reader = _Reader(path, images_root)
    problems = reader.problems
    items: list[GroundingItem] = []
    for line, row, item_id, image in reader.rows():
        expression = _text(row, "expression", line, item_id, problems)
        split = _text(row, "split", line, item_id, problems)
        size = None
        if image is not None:
            try:
                size = image_size(image)
            except OSError as err:
                problems.add(line, item_id, f"cannot read image {image}: {err}; replace the file.")
        box = _box(row, box_format, size, line, item_id, problems)
        if None in (item_id, image, expression, split, box, size):
            continue
        items.append(GroundingItem(item_id, image, expression, box, split, size))
    problems.raise_if_any("grounding")
    if not items:
        raise DataFormatError(f"The grounding file {reader.path} holds no samples.")
    return items
