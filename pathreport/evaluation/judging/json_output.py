"""Reading a judge's answer as JSON: bounded local repair, then a check against a small schema.

LLMs wrap JSON in prose or code fences, leave trailing commas, or answer with Python literals.
:func:`extract_json` repairs exactly those cases and nothing more (a wrong answer must fail, not
be guessed). :func:`check_schema` validates the subset of JSON Schema that the prompt files use
(``type``, ``properties``, ``required``, ``items``, ``enum``), so the parser of each prompt is data
that is versioned with the prompt.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
}


class JudgeOutputError(ValueError):
    """A judge answer that is not the JSON the prompt asked for (the message says what is wrong)."""


def extract_json(text: str) -> Any:
    """The first JSON object or array in ``text``, after bounded repairs.

    Raises:
        JudgeOutputError: no JSON value can be read.
    """
    if not isinstance(text, str) or not text.strip():
        raise JudgeOutputError("the answer is empty")
    fenced = _FENCE.search(text)
    candidates = [fenced.group(1)] if fenced else []
    span = _balanced_span(text)
    if span:
        candidates.append(span)
    if not candidates:
        if "{" in text or "[" in text:
            raise JudgeOutputError("the JSON in the answer is cut off or its brackets do not match")
        raise JudgeOutputError("the answer contains no JSON object or array")
    last_error = ""
    for candidate in candidates:
        for variant in _repairs(candidate.strip()):
            try:
                return json.loads(variant)
            except json.JSONDecodeError as err:
                last_error = f"{err.msg} at character {err.pos}"
    raise JudgeOutputError(f"the JSON in the answer cannot be parsed ({last_error})")


def _repairs(text: str) -> list[str]:
    """The text, then the same with trailing commas removed, then with Python literals as JSON."""
    no_commas = _TRAILING_COMMA.sub(r"\1", text)
    literal = re.sub(r"\b(True|False|None)\b", lambda m: _PY_LITERALS[m.group(1)], no_commas)
    variants = [text, no_commas, literal]
    if '"' not in literal and "'" in literal:
        variants.append(literal.replace("'", '"'))
    return list(dict.fromkeys(variants))


def _balanced_span(text: str) -> str | None:
    """First ``{`` or ``[`` to its matching bracket (strings respected); None if unclosed."""
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        return None
    start = min(starts)
    stack: list[str] = []
    in_string = escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack or stack.pop() != ch:
                return None
            if not stack:
                return text[start : i + 1]
    return None


def check_schema(value: Any, schema: dict[str, Any], where: str = "the answer") -> None:
    """Raise :class:`JudgeOutputError` naming the first place where ``value`` breaks ``schema``."""
    kind = schema.get("type")
    if kind is not None:
        allowed = _TYPES[kind]
        if not isinstance(value, allowed) or (
            kind in ("number", "integer") and isinstance(value, bool)
        ):
            raise JudgeOutputError(f"{where} must be a JSON {kind}, found {json.dumps(value)[:80]}")
    if "enum" in schema and not any(_same(value, option) for option in schema["enum"]):
        raise JudgeOutputError(
            f"{where} must be one of {schema['enum']}, found {json.dumps(value)[:80]}"
        )
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                raise JudgeOutputError(f"{where} lacks the field '{key}'")
        for key, sub in (schema.get("properties") or {}).items():
            if key in value:
                check_schema(value[key], sub, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            check_schema(item, schema["items"], f"{where}[{i}]")


def _same(value: Any, option: Any) -> bool:
    if isinstance(option, (int, float)) and not isinstance(option, bool):
        return (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and abs(value - option) < 1e-9
        )
    return value == option
