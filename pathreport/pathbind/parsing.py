"""Turning a model's free text into an option letter or yes/no.

The paper relies on the fixed ``<answer>...</answer>`` field and says nothing about fallbacks
(App. D, ambiguity A22). Models do not always follow the format, so the parser also accepts a bare
letter, "The answer is (C)", "C. <option text>" and the text of an option instead of its letter. It
never guesses: an answer that matches nothing, or matches two different options, is returned as
unparsed with the reason, so it is counted and reported rather than silently scored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.IGNORECASE | re.DOTALL)
_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.IGNORECASE | re.DOTALL)
_OPEN_ANSWER = re.compile(r"<answer>(.*)$", re.IGNORECASE | re.DOTALL)
_BARE_LETTER = re.compile(
    r"^[\s*_`'\"]*(?:option\s+)?[(\[]?([A-Za-z])[)\]]?[\s.:,;*_`'\"]*$", re.IGNORECASE
)
_LEADING_LETTER = re.compile(r"^[\s*_`'\"]*[(\[]?([A-Z])[)\].:]\s+\S")
_PHRASE = re.compile(
    r"\b(?:answer|option|choice)\b(?:\s+is)?(?:\s*[:\-]\s*|\s+)(?:option\s+|choice\s+)?[(\[]?([A-Z])\b[)\]]?(?![\w'-])",
    re.IGNORECASE,
)
_YES_NO_START = re.compile(r"^[\s*_`'\"(\[]*(yes|no)\b", re.IGNORECASE)
_YES_NO_PHRASE = re.compile(r"\banswer\b(?:\s+is)?\s*[:\-]?\s*[\"'(\[]?(yes|no)\b", re.IGNORECASE)
_WORD_YES_NO = re.compile(r"\b(yes|no)\b", re.IGNORECASE)
_NON_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class ParsedAnswer:
    """What the parser read.

    Attributes:
        value: the option letter (upper case) or ``yes``/``no``; None when unparsed.
        method: which rule matched (``answer_tag``, ``bare_letter``, ``phrase``, ``leading_letter``,
            ``option_text``, ``yes_no``) or ``failed``.
        reason: why parsing failed (empty when it succeeded).
    """

    value: str | None
    method: str
    reason: str = ""

    @property
    def failed(self) -> bool:
        return self.value is None


def _strip_reasoning(text: str) -> str:
    text = _THINK_BLOCK.sub(" ", text)
    if "</think>" in text.lower():  # an unopened or truncated block: keep what follows it
        text = re.split(r"</think>", text, flags=re.IGNORECASE)[-1]
    elif re.search(r"<think>", text, re.IGNORECASE):  # reasoning never closed: no final answer
        text = re.split(r"<think>", text, flags=re.IGNORECASE)[0]
    return text.strip()


def _answer_field(text: str) -> str | None:
    tags = _ANSWER_TAG.findall(text)
    if tags:
        return tags[-1].strip()
    open_tag = _OPEN_ANSWER.search(text)
    return open_tag.group(1).strip() if open_tag else None


def _normalise(text: str) -> str:
    return _NON_WORD.sub(" ", text.lower()).strip()


def _by_option_text(text: str, options: dict[str, str]) -> str | None:
    norm = _normalise(text)
    if not norm:
        return None
    exact = [letter for letter, option in options.items() if _normalise(option) == norm]
    if len(exact) == 1:
        return exact[0]
    padded = f" {norm} "
    contained = [
        letter
        for letter, option in options.items()
        if _normalise(option) and f" {_normalise(option)} " in padded
    ]
    if len(contained) > 1:  # drop options that are part of a longer matching option
        longest = {
            letter
            for letter in contained
            if not any(
                other != letter and _normalise(options[letter]) in _normalise(options[other])
                for other in contained
            )
        }
        contained = sorted(longest)
    return contained[0] if len(contained) == 1 else None


def _letter_in(text: str, options: dict[str, str]) -> tuple[str | None, str, str]:
    """(letter, method, reason) read from one piece of text."""
    bare = _BARE_LETTER.match(text)
    if bare:
        letter = bare.group(1).upper()
        if letter in options:
            return letter, "bare_letter", ""
        return None, "failed", f"letter {letter} is not an option ({', '.join(options)})"
    phrases = [m.group(1).upper() for m in _PHRASE.finditer(text)]
    if phrases:
        letter = phrases[-1]
        if letter in options:
            return letter, "phrase", ""
        return None, "failed", f"letter {letter} is not an option ({', '.join(options)})"
    leading = _LEADING_LETTER.match(text)
    if leading and leading.group(1) in options:
        return leading.group(1), "leading_letter", ""
    letter = _by_option_text(text, options)
    if letter is not None:
        return letter, "option_text", ""
    return None, "failed", "no option letter or option text found"


def parse_choice(raw: str, options: dict[str, str]) -> ParsedAnswer:
    """Read the chosen option letter from a model output."""
    text = _strip_reasoning(raw or "")
    field_text = _answer_field(text)
    if field_text is not None:
        letter, method, reason = _letter_in(field_text, options)
        if letter is not None:
            return ParsedAnswer(
                letter, "answer_tag" if method == "bare_letter" else f"answer_tag+{method}"
            )
        return ParsedAnswer(None, "failed", f"<answer> field {field_text[:40]!r}: {reason}")
    if not text:
        return ParsedAnswer(None, "failed", "empty output (or reasoning without a final answer)")
    letter, method, reason = _letter_in(text, options)
    return ParsedAnswer(letter, method, reason)


def _yes_no_in(text: str) -> str | None:
    start = _YES_NO_START.match(text)
    if start:
        return start.group(1).lower()
    phrases = _YES_NO_PHRASE.findall(text)
    if phrases:
        return phrases[-1].lower()
    words = {w.lower() for w in _WORD_YES_NO.findall(text)}
    return words.pop() if len(words) == 1 else None


def parse_yes_no(raw: str) -> ParsedAnswer:
    """Read ``yes`` or ``no`` from a model output."""
    text = _strip_reasoning(raw or "")
    field_text = _answer_field(text)
    if field_text is not None:
        value = _yes_no_in(field_text)
        if value is not None:
            return ParsedAnswer(value, "answer_tag")
        return ParsedAnswer(
            None, "failed", f"<answer> field {field_text[:40]!r} is neither yes nor no"
        )
    value = _yes_no_in(text)
    if value is not None:
        return ParsedAnswer(value, "yes_no")
    return ParsedAnswer(None, "failed", "no unambiguous yes or no found")


def parse_answer(raw: str, options: dict[str, str] | None) -> ParsedAnswer:
    """Parse a multiple-choice answer, or a yes/no answer when ``options`` is None."""
    return parse_yes_no(raw) if options is None else parse_choice(raw, options)
