"""Predictions files: the hand-off between decoding and evaluation.

pathreport writes JSON Lines, one object per slide: ``{"id", "reference", "prediction"}`` plus the
optional ``model``, ``encoder`` and ``dataset``. The reference is the RAW report text (never the
tokenizer-cleaned one), because clinical fields must be extracted from what the pathologist wrote.
The reference implementation's ``{id: {"pred", "target"}}`` JSON is read too.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pathreport.errors import PathreportError
from pathreport.io import read_jsonl

OPTIONAL_FIELDS = ("model", "encoder", "dataset")


@dataclass(frozen=True)
class PredictionRecord:
    """One slide's generated report next to its reference."""

    id: str
    reference: str
    prediction: str
    model: str | None = None
    encoder: str | None = None
    dataset: str | None = None

    def to_json(self) -> dict:
        return {
            k: v
            for k, v in asdict(self).items()
            if v is not None or k in ("id", "reference", "prediction")
        }


def evaluated_set_digest(ids: Sequence[str]) -> str:
    """Short fingerprint of the evaluated slides, so tables can prove models saw the same slides."""
    return hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()[:16]


def run_identity(cfg: Any) -> dict[str, str]:
    """What a run's predictions and summaries are tagged with: ``{"model", "encoder", "dataset"}``
    (the :data:`OPTIONAL_FIELDS`), read from a train config (``model.name``, ``encoder.name``,
    ``data.name``), so every file a run writes names the same three."""
    return {
        "model": cfg["model"]["name"],
        "encoder": cfg["encoder"]["name"],
        "dataset": cfg["data"]["name"],
    }


class PredictionsFormatError(PathreportError, ValueError):
    """A predictions file that cannot be read; the message names the file, the line and the fix."""


def read_predictions(path: str | os.PathLike) -> list[PredictionRecord]:
    """Read a predictions file in either supported format (detected from its content)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"Predictions file {path} does not exist.")
    text = read_utf8(path)
    stripped = text.lstrip()
    if not stripped:
        raise PredictionsFormatError(
            f"{path} is empty: expected JSON Lines with id, reference, prediction."
        )
    if stripped.startswith("{"):
        # Either one JSON object (reference-implementation format) or JSON Lines.
        try:
            whole = json.loads(text)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict) and not {"id", "reference", "prediction"} <= set(whole):
            return _from_reference_format(whole, path)
    return _from_jsonl(text, path)


def read_utf8(path: Path) -> str:
    """The file's text; bytes that are not UTF-8 stop with the file, line and column named."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise PredictionsFormatError(
            f"{path}:{line}: not UTF-8 text (byte 0x{data[err.start]:02x} at column {column}). "
            "Save the file as UTF-8, e.g. `iconv -f latin1 -t utf-8 old > new` for a Latin-1 "
            "file."
        ) from None


def _from_jsonl(text: str, path: Path) -> list[PredictionRecord]:
    records: list[PredictionRecord] = []
    seen: dict[str, int] = {}
    for lineno, obj in read_jsonl(
        path,
        text,
        error=PredictionsFormatError,
        hint='write one {"id", "reference", "prediction"} object per line',
    ):
        if not isinstance(obj, dict):
            raise PredictionsFormatError(
                f"{path}:{lineno}: expected a JSON object, found {type(obj).__name__}."
            )
        missing = [k for k in ("id", "reference", "prediction") if k not in obj]
        if missing:
            raise PredictionsFormatError(
                f"{path}:{lineno}: missing field(s) {missing}; each line needs "
                '{"id", "reference", "prediction"}.'
            )
        record = _make_record(obj, f"{path}:{lineno}")
        if record.id in seen:
            raise PredictionsFormatError(
                f"{path}:{lineno}: slide id {record.id!r} already appeared on "
                f"line {seen[record.id]}; each slide must be predicted once."
            )
        seen[record.id] = lineno
        records.append(record)
    return records


def _from_reference_format(obj: dict, path: Path) -> list[PredictionRecord]:
    records = []
    for slide_id, value in obj.items():
        if not isinstance(value, dict) or "pred" not in value or "target" not in value:
            raise PredictionsFormatError(
                f"{path}: entry {slide_id!r} must be an object with 'pred' and 'target' (the "
                "reference implementation's format) or the file must be JSON Lines "
                '{"id", "reference", "prediction"}.'
            )
        records.append(
            _make_record(
                {"id": slide_id, "reference": value["target"], "prediction": value["pred"]},
                f"{path}[{slide_id!r}]",
            )
        )
    return records


def _make_record(obj: dict, where: str) -> PredictionRecord:
    for key in ("id", "reference", "prediction"):
        if not isinstance(obj[key], str):
            raise PredictionsFormatError(
                f"{where}: field {key!r} must be a string, found {type(obj[key]).__name__} "
                f"({obj[key]!r})."
            )
    extra = {k: obj.get(k) for k in OPTIONAL_FIELDS if obj.get(k) is not None}
    return PredictionRecord(
        id=obj["id"], reference=obj["reference"], prediction=obj["prediction"], **extra
    )


def write_predictions(path: str | os.PathLike, records: Iterable[PredictionRecord]) -> Path:
    """Write JSON Lines atomically, sorted by id (so files from different runs diff cleanly)."""
    from pathreport.io import write_jsonl

    return write_jsonl(path, [record.to_json() for record in sorted(records, key=lambda r: r.id)])
