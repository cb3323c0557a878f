"""Extractor backends: E(R) = {(field, value)} for one schema, swappable by name.

The scoring code only needs ``extract_many(texts) -> [dict field -> canonical value]``, so an
extractor is any class built as ``Backend(schema, **options)`` with that method. The rule-based
backend (``rule``) is built in; a language-model backend can be registered later with
``@EXTRACTORS.register("llm")`` on an ``LLMExtractor`` class without touching the scoring code.
Such a backend should return raw values and pass them through :meth:`FieldSpec.canonicalize` so
that its answers use the same canonical vocabulary (and therefore the same match rules) as the
rule backend.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pathreport.evaluation.crqs.schema import Schema
from pathreport.registry import EXTRACTORS

Fields = dict[str, Any]


@dataclass(frozen=True)
class Finding:
    """Why a field got its value: the text that matched and how negation was resolved."""

    field: str
    value: Any
    start: int
    end: int
    snippet: str
    source: str  # "term", "pattern", "mention" (negation-only phrase), "implied" or "unlisted"
    negated: bool = False
    cue: str | None = None
    selected: bool = False

    def to_json(self) -> dict[str, Any]:
        out = {
            "field": self.field,
            "value": self.value,
            "text": self.snippet,
            "span": [self.start, self.end],
            "source": self.source,
        }
        if self.negated:
            out["negated_by"] = self.cue
        if self.selected:
            out["selected"] = True
        return out


class Extractor(Protocol):
    """What the scoring code needs from a backend."""

    schema: Schema

    def extract(self, text: str) -> Fields: ...

    def extract_many(self, texts: Sequence[str]) -> list[Fields]: ...


_instances: dict[tuple, Any] = {}
_lock = threading.Lock()


def get_extractor(name: str, schema: Schema, **options: Any) -> Extractor:
    """The backend ``name`` for ``schema`` (built once per schema version and options)."""
    backend = EXTRACTORS.get(name).obj
    key = (name, schema.name, schema.digest, tuple(sorted(options.items())))
    with _lock:
        if key not in _instances:
            _instances[key] = backend(schema, **options)
        return _instances[key]
