"""Small text helpers shared by the check-set edits: case-preserving replacement, report units.

The check-set generator edits real report text with its OWN patterns, written from the report
wording and not from the CRQS schemas, so that a check set never mirrors the extractor it tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# A top-level numbered list marker at the start of a line: "1. ", "2. " ("1)" marks sub-lists).
LIST_MARKER = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>\d{1,2}\.)[ \t]+", re.M)
# A header line naming organ and procedure: "Stomach, endoscopic biopsy;" or
# "A. Left lung, lobectomy:".
HEADER_LINE = re.compile(r"^[ \t]*[A-Za-z][^\n]{0,80}[;:][ \t]*$", re.M)


def match_case(template: str, replacement: str) -> str:
    """``replacement`` written in the case of ``template`` (UPPER, Capitalised or as given)."""
    letters = [c for c in template if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return replacement.upper()
    if template[:1].isupper() and replacement[:1].islower():
        return replacement[:1].upper() + replacement[1:]
    if template[:1].islower() and replacement[:1].isupper() and not replacement[:2].isupper():
        return replacement[:1].lower() + replacement[1:]
    return replacement


def replace_span(text: str, start: int, end: int, replacement: str) -> str:
    """``text`` with ``text[start:end]`` replaced, keeping the case of the replaced words."""
    return text[:start] + match_case(text[start:end], replacement) + text[end:]


def lines_with_offsets(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, line) for every line of ``text``, end excluding the newline."""
    pos = 0
    for line in text.split("\n"):
        yield pos, pos + len(line), line
        pos += len(line) + 1


# A sentence ends at '.', '!' or '?' followed by white space and a capital letter or a newline;
# never after a number or a single letter ("1. Ductal carcinoma" and "a. Margins" are list items).
SENTENCE_END = re.compile(r"(?<=[^\d\s][.!?])(?<!\b[A-Za-z]\.)(?:[ \t]+(?=[A-Z(\"])|[ \t]*\n+)")


def sentences_with_offsets(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, sentence) for the sentences of prose text; together they cover the text."""
    start = 0
    for m in SENTENCE_END.finditer(text):
        if text[start : m.start()].strip():
            yield start, m.start(), text[start : m.start()]
        start = m.end()
    if text[start:].strip():
        yield start, len(text), text[start:]


def renumber(text: str) -> str:
    """Renumber top-level numbered list items 1, 2, 3... keeping each item's marker style."""
    counter = iter(range(1, 100))

    def _next(m: re.Match) -> str:
        marker = m.group("marker")
        number = str(next(counter))
        new = re.sub(r"\d{1,2}", number, marker, count=1)
        return f"{m.group('indent')}{new} "

    return LIST_MARKER.sub(_next, text)


def list_items(text: str) -> list[tuple[int, int]]:
    """(start, end) of each numbered list item, an item running to the next marker or the end."""
    starts = [m.start() for m in LIST_MARKER.finditer(text)]
    if len(starts) < 2:
        return []
    # the last item ends at a blank line (a following note) or at the end of the text
    blank = re.compile(r"\n[ \t]*\n").search(text, starts[-1])
    last_end = blank.start() if blank else len(text.rstrip())
    ends = [e - 1 if text[e - 1] == "\n" else e for e in starts[1:]] + [last_end]
    return [(s, e) for s, e in zip(starts, ends, strict=True)]


def mask_digits(text: str) -> str:
    """Lower-cased ``text`` with whitespace collapsed and every number replaced by '#'."""
    return re.sub(r"\d+(?:\.\d+)?", "#", " ".join(text.lower().split()))
