"""Dataset splits: reading the formats in use, and checking their integrity.

Accepted formats (detected from content):

* the paper authors' JSON: ``{"train"|"val"|"test": [{"id", "report"}, ...]}``;
* HistGen's annotation JSON: the same, each entry also carrying ``image_path`` and ``split``;
* pathreport's own files (``splits/<dataset>/``): the same JSON, entries may carry ``patient_id``.

Integrity is checked before anything is computed: every entry has a non-empty id and report, no
slide appears twice, and no patient appears in two splits (patients come from ``patient_id`` or from
the dataset's ``patient_id_pattern``, e.g. the first 12 characters of a TCGA barcode).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pathreport.errors import PathreportError

SPLIT_NAMES = ("train", "val", "test")
_SPLIT_ALIASES = {"validation": "val", "valid": "val", "dev": "val"}


class SplitError(PathreportError, ValueError):
    """A split file that is malformed or leaks slides or patients across splits."""


@dataclass(frozen=True)
class SplitEntry:
    id: str
    report: str
    patient_id: str | None = None


@dataclass
class Splits:
    """The entries of each split and where they came from."""

    train: list[SplitEntry]
    val: list[SplitEntry]
    test: list[SplitEntry]
    source: str = ""
    sha256: str = ""

    def __getitem__(self, name: str) -> list[SplitEntry]:
        if name not in SPLIT_NAMES:
            raise KeyError(f"Unknown split {name!r}; choose from {SPLIT_NAMES}.")
        return getattr(self, name)

    def counts(self) -> dict[str, int]:
        return {name: len(self[name]) for name in SPLIT_NAMES}


def fixed_split_record(dataset: str) -> dict | None:
    """The benchmark's record of a dataset's fixed split (``splits/<dataset>/split.yaml``): source,
    checksum and counts; None when the dataset has no recorded split."""
    import yaml

    from pathreport import paths

    path = paths.SPLITS_DIR / dataset / "split.yaml"
    return (yaml.safe_load(path.read_text()) or {}) if path.is_file() else None


def load_splits(path: str | os.PathLike, *, patient_id_pattern: str | None = None) -> Splits:
    """Read and check a split file (see the module docstring for formats)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(
            f"Split file {path} does not exist. Set data.splits=<path to the split JSON> "
            '({"train"|"val"|"test": [{"id", "report"}]}).'
        )
    raw_bytes = path.read_bytes()
    try:
        raw = json.loads(raw_bytes)
    except json.JSONDecodeError as err:
        raise SplitError(f"{path} is not valid JSON ({err.msg} at line {err.lineno}).") from None
    splits = parse_splits(raw, str(path), patient_id_pattern=patient_id_pattern)
    splits.sha256 = hashlib.sha256(raw_bytes).hexdigest()
    return splits


def parse_splits(
    raw: object, source: str = "<splits>", *, patient_id_pattern: str | None = None
) -> Splits:
    """Build :class:`Splits` from parsed JSON and check integrity."""
    grouped: dict[str, list[SplitEntry]] = {name: [] for name in SPLIT_NAMES}
    if isinstance(raw, list):  # a flat HistGen-style list with a "split" per entry
        for i, item in enumerate(raw):
            split = _split_name(
                item.get("split") if isinstance(item, dict) else None, f"{source}[{i}]"
            )
            grouped[split].append(_entry(item, f"{source}[{i}]", patient_id_pattern))
    elif isinstance(raw, dict):
        unknown = [k for k in raw if _SPLIT_ALIASES.get(k, k) not in SPLIT_NAMES]
        if unknown:
            raise SplitError(
                f"{source}: unknown split name(s) {unknown}; expected keys {list(SPLIT_NAMES)}."
            )
        for key, items in raw.items():
            split = _SPLIT_ALIASES.get(key, key)
            if not isinstance(items, list):
                raise SplitError(
                    f"{source}: '{key}' must be a list of {{id, report}} objects, "
                    f"found {type(items).__name__}."
                )
            for i, item in enumerate(items):
                where = f"{source}['{key}'][{i}]"
                if isinstance(item, dict) and item.get("split") not in (None, key, split):
                    raise SplitError(
                        f"{where}: entry says split={item['split']!r} but is listed under '{key}'."
                    )
                grouped[split].append(_entry(item, where, patient_id_pattern))
    else:
        raise SplitError(
            f"{source}: expected a JSON object with train/val/test lists, "
            f"found {type(raw).__name__}."
        )
    splits = Splits(**grouped, source=source)
    check_integrity(splits)
    return splits


def _split_name(value: object, where: str) -> str:
    name = _SPLIT_ALIASES.get(str(value), str(value))
    if name not in SPLIT_NAMES:
        raise SplitError(f"{where}: split {value!r} is not one of {SPLIT_NAMES}.")
    return name


def _entry(item: object, where: str, patient_id_pattern: str | None) -> SplitEntry:
    if not isinstance(item, dict):
        raise SplitError(f"{where}: expected an object with 'id' and 'report', found {item!r:.80}.")
    slide_id = item.get("id")
    report = item.get("report")
    if not isinstance(slide_id, str) or not slide_id.strip():
        raise SplitError(
            f"{where}: 'id' must be a non-empty string (the slide file's stem), found {slide_id!r}."
        )
    if not isinstance(report, str):
        raise SplitError(
            f"{where} (slide {slide_id}): 'report' must be a string, found {type(report).__name__}."
        )
    if not report.strip():
        raise SplitError(
            f"{where}: slide {slide_id} has an empty report. Remove the slide from the split "
            "or supply its report."
        )
    patient = item.get("patient_id") or item.get("patient")
    if patient is None and patient_id_pattern:
        match = re.match(patient_id_pattern, slide_id)
        patient = (
            match.group(1) if match and match.groups() else (match.group(0) if match else None)
        )
    return SplitEntry(
        id=slide_id, report=report, patient_id=str(patient) if patient is not None else None
    )


def check_integrity(splits: Splits) -> None:
    """No slide twice anywhere; no patient in two splits."""
    where_slide: dict[str, str] = {}
    where_patient: dict[str, str] = {}
    problems: list[str] = []
    for name in SPLIT_NAMES:
        for entry in splits[name]:
            if entry.id in where_slide:
                problems.append(
                    f"slide {entry.id} is in '{where_slide[entry.id]}' and again in '{name}'"
                )
            where_slide.setdefault(entry.id, name)
            if entry.patient_id is not None:
                first = where_patient.setdefault(entry.patient_id, name)
                if first != name:
                    problems.append(
                        f"patient {entry.patient_id} has slides in '{first}' and '{name}' "
                        f"(e.g. {entry.id})"
                    )
    if problems:
        shown = "; ".join(list(dict.fromkeys(problems))[:10])
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        raise SplitError(f"{splits.source}: split integrity violated: {shown}{more}.")
