"""Learned diagnosis vocabulary: phrases from TRAINING references, frozen next to the schema.

The curated vocabularies of a schema cover the common diagnoses; a dataset always has a tail of
rarer ones ("sclerosing pneumocytoma", "amyloidosis"). ``pathreport crqs build-vocab`` reads the
training split only, finds the diagnosis phrase of every reference the curated schema cannot name,
keeps phrases seen at least ``min_count`` times, and writes them to ``crqs/<dataset>.vocab.json``.
The schema loader adds them to the field (curated synonyms always win) and folds the file into the
schema digest, so a summary records which vocabulary scored it.

Unlike the reference implementation, nothing is ever learned from the predictions being scored
(there a case's score depended on the other predictions in the file) and nothing is rebuilt
while scoring.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

from pathreport.evaluation.crqs.extractors import get_extractor
from pathreport.evaluation.crqs.schema import Schema
from pathreport.evaluation.crqs.text import normalise_phrase

VOCAB_FORMAT_VERSION = 1
_ITEM_NUMBER = re.compile(r"^\s*(?:\d{1,2}|[a-z])\s*[.)]\s*", re.IGNORECASE)
_PHRASE_END = re.compile(
    r"[,;:(\[.]|\s-\s|\bwith\b|\bwithout\b|\bfavou?r\b|\bcomprising\b|\binvolving\b", re.IGNORECASE
)
_LEADING_NEGATION = re.compile(r"^(?:no|not|negative|without|free)\b")
MAX_PHRASE_WORDS = 6


def read_train_reports(split_file: str | os.PathLike) -> list[str]:
    """The ``train`` reports of a split JSON ``{"train": [{"id", "report"}], ...}``."""
    path = Path(split_file)
    if not path.is_file():
        raise FileNotFoundError(f"Split file {path} does not exist.")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not valid JSON ({err.msg} at line {err.lineno}).") from None
    if not isinstance(data, dict) or not isinstance(data.get("train"), list):
        found = sorted(data) if isinstance(data, dict) else type(data).__name__
        raise ValueError(
            f'{path}: expected a split file {{"train": [{{"id", "report"}}], ...}}; '
            f"found keys {found}. "
            "The vocabulary is learned from the training split only."
        )
    reports = []
    for i, item in enumerate(data["train"]):
        if not isinstance(item, dict) or not isinstance(item.get("report"), str):
            raise ValueError(
                f"{path}: train[{i}] must be an object with a string 'report', found {item!r:.80}."
            )
        reports.append(item["report"])
    return reports


def diagnosis_phrase(report: str) -> str | None:
    """The head phrase of a report's first diagnosis line, normalised (None if there is none).

    REG-style reports put the specimen before ";" and the diagnosis after it; prose reports
    start with the diagnosis or state it after "Diagnosis:". The phrase ends at the first
    comma, parenthesis, colon, "with" or "favor" (grades and findings follow those).
    """
    body = report.split(";", 1)[1] if ";" in report.split("\n", 1)[0] else report
    if ":" in body.split("\n", 1)[0] and len(body.split(":", 1)[0].split()) <= 4:
        body = body.split(":", 1)[1]
    for line in body.splitlines():
        line = _ITEM_NUMBER.sub("", line).strip()
        if not line:
            continue
        head = _PHRASE_END.split(line, maxsplit=1)[0]
        phrase = normalise_phrase(head)
        words = phrase.split()
        if not words or len(words) > MAX_PHRASE_WORDS or _LEADING_NEGATION.match(phrase):
            return None
        if not any(ch.isalpha() for ch in phrase):
            return None
        return phrase
    return None


def build_vocab(
    schema: Schema, reports: list[str], *, field: str = "diagnosis", min_count: int = 2
) -> dict[str, Any]:
    """Phrases for ``field`` that the curated schema does not know, counted over ``reports``."""
    if field not in schema.field_names:
        raise ValueError(
            f"Schema '{schema.name}' has no field '{field}'; fields: "
            f"{', '.join(schema.field_names)}."
        )
    if min_count < 1:
        raise ValueError(f"min_count must be at least 1, found {min_count}.")
    extractor = get_extractor("rule", schema)
    counts: Counter[str] = Counter()
    unmatched = 0
    for report in reports:
        if field in extractor.extract(report):
            continue
        unmatched += 1
        phrase = diagnosis_phrase(report)
        if phrase:
            counts[phrase] += 1
    phrases = {p: p for p, c in sorted(counts.items()) if c >= min_count}
    return {
        "format_version": VOCAB_FORMAT_VERSION,
        "schema": schema.name,
        "schema_version": schema.version,
        "field": field,
        "min_count": min_count,
        "n_reports": len(reports),
        "n_unmatched_reports": unmatched,
        "counts": {p: counts[p] for p in phrases},
        "fields": {field: phrases},
    }


def write_vocab(
    vocab: dict[str, Any], path: str | os.PathLike, *, source: str | os.PathLike | None = None
) -> Path:
    """Write the frozen vocabulary (with the source file's name and checksum) as JSON."""
    path = Path(path)
    if source is not None:
        data = Path(source).read_bytes()
        vocab = {
            **vocab,
            "built_from": {
                "file": Path(source).name,
                "sha256": hashlib.sha256(data).hexdigest(),
                "split": "train",
            },
        }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(vocab, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
