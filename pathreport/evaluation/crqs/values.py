"""Value parsers and match rules: from a matched snippet to a canonical value, back to a verdict.

A schema field names a *parser* (how a captured snippet becomes a canonical value) and its *type*
decides the match rule. Canonical values are plain strings (or floats for numeric fields), so they
print as JSON and compare exactly; only three structured types compare on more than equality:

* ``numeric``: within the field's absolute or relative tolerance;
* ``gleason``: "3+4=7", "7 (3+4)" and "Gleason's score 7 (3+4)" are all ``3+4=7``. When one report
  gives the patterns and the other only the sum, the sums are compared (the less specific report is
  not wrong, only less specific); when both give patterns, 3+4 and 4+3 differ (grade group 2 vs 3);
* ``count``: lymph nodes "2/14" vs "present": the involvement status is compared, and the counts too
  when both reports give them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10}
NUMBER_WORDS = {
    "zero": 0, "no": 0, "none": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "single": 1,
}  # fmt: skip
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90}  # fmt: skip

_SPACES = re.compile(r"[\s_\-]+")
_STRIP = " \t\n.,;:()[]{}\"'"
_GLEASON_PAIR = re.compile(r"([1-5])\s*\+\s*([1-5])")
_GLEASON_SUM = re.compile(r"(?<![\d+])(10|[2-9])(?![\d+])")
_NUMBER_TOKEN = re.compile(r"\d{1,3}|[a-z]+(?: [a-z]+| \d(?!\d))?")
_COUNT_SEPARATOR = re.compile(r"/|\bout of\b|\bof\b")
_ARTICLES = re.compile(r"\b(?:the|a|an|total)\b")  # "one of the three", "of a total 12"
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_STAGE = re.compile(r"(y?r?p?)\s*t\s*([0-4]|is|x|a(?![a-z]))\s*([a-d]?)(?:\s*\((m|\d+)\))?")


class ValueParseError(ValueError):
    """A captured snippet that the field's parser cannot read (the match is then ignored)."""


def clean_text(raw: str) -> str:
    """Lower case, single spaces, no surrounding punctuation: the key used for synonym lookup.

    A lone minus sign stays: it is a value of its own ("PR-", "ER (-)").
    """
    key = _SPACES.sub(" ", raw.lower()).strip(_STRIP).strip()
    return key or ("-" if "-" in raw else "")


def to_int(raw: str) -> int:
    """An integer written in digits, roman numerals or English words ("II", "2", "two")."""
    token = clean_text(raw)
    if token.isdigit():
        return int(token)
    if token in ROMAN:
        return ROMAN[token]
    if token in NUMBER_WORDS:
        return NUMBER_WORDS[token]
    tens, _, unit = token.partition(" ")  # "twenty-six" (hyphens are spaces after clean_text)
    if unit.isdigit() and len(unit) == 1:  # "twenty-6": the unit written as a digit
        return TENS[tens] + int(unit) if tens in TENS else _not_a_number(raw)
    if tens in TENS and (
        not unit or (NUMBER_WORDS.get(unit, 10) < 10 and unit not in ("no", "none"))
    ):
        return TENS[tens] + (NUMBER_WORDS[unit] if unit else 0)
    return _not_a_number(raw)


def _not_a_number(raw: str) -> int:
    raise ValueParseError(f"not a number: {raw!r}")


def parse_ordinal(raw: str) -> str:
    """Grades and scores: "II", "2", "two" -> "2"; anything else is returned cleaned."""
    token = clean_text(raw)
    try:
        return str(to_int(token))
    except ValueParseError:
        return token


def parse_gleason(raw: str) -> str:
    """Gleason score: "3+4=7", "7 (3+4)", "3 + 4", "score 7" -> "3+4=7" or "7" (sum only)."""
    text = raw.lower()
    pair = _GLEASON_PAIR.search(text)
    if pair:
        primary, secondary = int(pair.group(1)), int(pair.group(2))
        return f"{primary}+{secondary}={primary + secondary}"
    total = _GLEASON_SUM.search(text)
    if total:
        return total.group(1)
    raise ValueParseError(f"not a Gleason score: {raw!r}")


def parse_count(raw: str) -> str:
    """Involved / examined counts: "2/14", "2 of the 14", "two of twenty-six", "6 lymph nodes out
    of a total of 37" -> "k/n": the first number is the involved count, the first number after
    the last "of" / "out of" / "/" the examined count."""
    text = clean_text(raw)
    seps = list(_COUNT_SEPARATOR.finditer(text))
    if not seps:
        return str(to_int(text))
    involved = _first_number(text[: seps[0].start()])
    examined = _first_number(_ARTICLES.sub(" ", text[seps[-1].end() :]))
    if involved is None or examined is None:
        raise ValueParseError(f"not a count: {raw!r}")
    return f"{involved}/{examined}"


def _first_number(text: str) -> int | None:
    """The first number written in digits or words ("twenty six" is one number)."""
    for m in _NUMBER_TOKEN.finditer(text):
        for candidate in (m.group(0), m.group(0).split(" ")[0]):
            try:
                return to_int(candidate)
            except ValueParseError:
                continue
    return None


def parse_number(raw: str) -> float:
    """The first number of a snippet, decimal comma accepted ("2,5" -> 2.5); a snippet without
    digits may be one number in words ("thirty-two" -> 32.0)."""
    m = _NUMBER.search(raw)
    if not m:
        try:
            return float(to_int(raw))
        except ValueParseError:
            raise ValueParseError(f"no number in {raw!r}") from None
    return float(m.group(0).replace(",", "."))


def parse_size(raw: str) -> float:
    """Greatest dimension of "3.5 x 2.0 x 1.5" (decimal comma accepted): tumour size convention."""
    numbers = [float(m.group(0).replace(",", ".")) for m in _NUMBER.finditer(raw)]
    if not numbers:
        raise ValueParseError(f"no number in {raw!r}")
    return max(numbers)


def parse_stage(raw: str) -> str:
    """Pathological T stage: "pT2a", "pt 2a", "ypT3", "pTa" -> "pt2a", "ypt3", "pta"."""
    m = _STAGE.search(raw.lower())
    if not m:
        raise ValueParseError(f"not a T stage: {raw!r}")
    prefix = m.group(1) or "p"
    return f"{prefix}t{m.group(2)}{m.group(3)}"


PARSERS: dict[str, Callable[[str], object]] = {
    "text": clean_text,
    "ordinal": parse_ordinal,
    "gleason": parse_gleason,
    "count": parse_count,
    "number": parse_number,
    "size": parse_size,
    "stage": parse_stage,
}


# -- match rules -------------------------------------------------------------------------------
def gleason_match(a: str, b: str) -> bool:
    """Equal patterns when both reports give them; otherwise equal sums."""
    if a == b:
        return True
    if "=" in a and "=" in b:
        return False
    return a.rsplit("=", 1)[-1] == b.rsplit("=", 1)[-1]


def _count_parts(value: str) -> tuple[bool, int | None, int | None]:
    if value == "present":
        return True, None, None
    if value == "absent":
        return False, None, None
    involved, _, examined = value.partition("/")
    k = int(involved)
    return k > 0, k, int(examined) if examined else None


def examined_part(value: Any) -> str | None:
    """The examined number of a full count ("2/63" -> "63"); None for a status or a bare number."""
    try:
        examined = _count_parts(value)[2] if isinstance(value, str) else None
    except ValueError:
        return None
    return None if examined is None else str(examined)


def count_match(a: str, b: str) -> bool:
    """Same involvement status, and the same counts wherever both reports state them."""
    if a == b:
        return True
    try:
        pa, ka, na = _count_parts(a)
        pb, kb, nb = _count_parts(b)
    except ValueError:
        return False
    if pa != pb:
        return False
    if ka is not None and kb is not None and ka != kb:
        return False
    return not (na is not None and nb is not None and na != nb)


def total_count(
    values: list[str],
    *,
    repeats_are_parts: bool = False,
    labels: list[str | None] | None = None,
) -> str:
    """One count for a report that states several ("0/5 right; 1/7 left; total 1/12" -> "1/12").

    Repeated statements of the same count are one count, and so is a bare number that repeats a
    full count's involved number ("metastases in two lymph nodes (2/7)"); a count that equals
    the sum of the others is the report's total (of two or more others, its examined number
    alone must equal theirs); otherwise the counts add up ("0/5" and "1/7"
    -> "1/12"). An involved number stated without its examined nodes beside counts that are all
    negative adds to them ("two nodes positive; 0/10" -> "2/12"): the negative nodes are others.
    Counts win over a bare status; without counts a stated ``present`` wins.
    With ``repeats_are_parts`` equal counts are kept apart: each biopsy part states its own
    cores ("1/2" for the right mid and "1/2" for the left base add up to "2/4"); a bare number
    stated again is still one count.

    ``labels`` (one per value, or None) name the part a count belongs to ("right", "left
    base"): an equal count stated for another named part is a part of its own ("0/3" for the
    right and for the left pelvic nodes add up to "0/6"), never the other's restatement.
    """
    named = labels if labels is not None else [None] * len(values)
    stated = [
        (v, lab) for v, lab in zip(values, named, strict=True) if v not in ("present", "absent")
    ]
    counts_labelled = _bare_once(stated) if repeats_are_parts else _one_per_part(stated)
    counts = [v for v, _ in counts_labelled]
    if not counts:
        return "present" if "present" in values else values[0]
    # Two equal counts of differently named parts: neither is the total of the other.
    two_parts = (
        len(counts_labelled) == 2
        and None not in (counts_labelled[0][1], counts_labelled[1][1])
        and counts_labelled[0][1] != counts_labelled[1][1]
    )
    parts = [_count_parts(v)[1:] for v in counts]
    full = {k for k, n in parts if n is not None}
    kept = [
        (c, k, n) for c, (k, n) in zip(counts, parts, strict=True) if n is not None or k not in full
    ]
    if len(kept) == 1:
        return kept[0][0]
    involved = [k or 0 for _, k, _ in kept]
    examined = [n for *_, n in kept]
    if None not in examined and not two_parts:
        whole = sum(examined)  # type: ignore[arg-type]
        for i, (count, *_) in enumerate(kept):
            if 2 * examined[i] == whole and (  # type: ignore[operator]
                2 * involved[i] == sum(involved) or len(kept) > 2
            ):
                # The stated total of the other counts. With two or more parts the examined
                # numbers alone identify it: a report whose parts' involved counts do not add up
                # ("2/63: 2/43 and 2/20") still states 2/63 as its total.
                return count
        for count, k, n in kept:
            # The total beside a breakdown of its positive groups only: "3/31; paraesophageal
            # 2/8; left gastric 1/6" leaves the negative groups' nodes unnamed.
            if len(kept) > 2 and k and 2 * k == sum(involved) and 2 * n >= whole:  # type: ignore[operator]
                return count
    if None in examined and all(n is None or k == 0 for _, k, n in kept) and any(examined):
        # "Two lymph nodes contain metastases; ten are negative": the negative nodes are others,
        # so the involved and the negative counts make up the nodes examined (2/12).
        positive = sum(k or 0 for _, k, n in kept if n is None)
        return f"{positive}/{positive + sum(n for *_, n in kept if n is not None)}"
    return breakdown_count([count for count, *_ in kept])


def _bare_once(stated: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """Every full count ("1/2" of each biopsy part), but a bare number once: "in 2 chips" in the
    description and "present in 2 chips" in the conclusion name no part and restate one count."""
    full = [s for s in stated if "/" in s[0]]
    return full + _one_per_part([s for s in stated if "/" not in s[0]])


def _one_per_part(stated: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """Each count once, unless it is stated again for another named part (see ``total_count``);
    a restatement without a name, or a count first stated without one, stays one count."""
    kept: list[tuple[str, str | None]] = []
    parts_of: dict[str, set[str | None]] = {}
    for value, label in stated:
        seen = parts_of.get(value)
        if seen is None:
            parts_of[value] = {label}
            kept.append((value, label))
        elif label is not None and None not in seen and label not in seen:
            seen.add(label)
            kept.append((value, label))
    return kept


def breakdown_count(parts: list[str]) -> str:
    """The count that a breakdown adds up to ("2R 0/3, 4R 0/2, 11R 0/2" -> "0/7").

    Unlike the counts of separate statements, equal parts of one breakdown are different
    stations, so none is taken for a repeat of another. A part that is the sum of all the
    others is the breakdown's stated total ("right 0/11, left 0/8; 0/19 in total" -> "0/19").
    """
    split = [_count_parts(v)[1:] for v in parts]
    involved = sum(k or 0 for k, _ in split)
    if any(n is None for _, n in split):
        return str(involved)
    examined = sum(n for _, n in split)  # type: ignore[misc]
    if len(split) >= 3:
        for k, n in split:
            if 2 * (k or 0) == involved and 2 * n == examined:  # type: ignore[operator]
                return f"{k or 0}/{n}"
    return f"{involved}/{examined}"


def numeric_match(a: float, b: float, *, absolute: float | None, relative: float | None) -> bool:
    """Within the absolute tolerance, or within the relative tolerance of the reference ``a``."""
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return a == b
    diff = abs(float(a) - float(b))
    if absolute is not None and diff <= absolute + 1e-9:
        return True
    if relative is not None and diff <= relative * abs(float(a)) + 1e-9:
        return True
    return (absolute is None and relative is None) and math.isclose(a, b)
