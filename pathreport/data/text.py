"""Report text: cleaning per dataset style, word-level tokenization, and the shared tokenizer.

Why this is careful: the reference implementation's cleaner deleted every number from 1 to 14 that
was followed by a full stop, so "2.5 cm" became "5 cm" and "Grade Group 2." became
"grade group ." before training AND before clinical scoring. Here cleaning only ever removes list
numbering at the start of a line or sentence, keeps decimals, grades, scores and ratios intact,
and is applied to the model's training targets only: evaluation always uses the raw reference.

The tokenizer is built from the TRAINING split only (the reference built it from all splits, which
leaks the test vocabulary and hides out-of-vocabulary words) and travels inside every checkpoint.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

CLEANING_STYLES = ("reg", "pathology", "none")

# A token is a number with inner points, commas or colons ("2.5", the decimal comma's "3,1", the
# time "10:00"), the "x" between a dimension's numbers ("5.2x4.0x1.3"), a word of letters and digits
# ("grade", "pT2N1", "CIN2", "14", with inner apostrophes: "gleason's"), or any other single
# visible character ("(", ";", "+", "%", "/"). Keeping these whole keeps sizes, stages and grades
# readable in predictions: split, "3,1 cm" came back as "3, 1 cm", "10:00" as "10: 00" and
# "5.2x4.0 cm" as "5.2 x4. 0 cm".
_TOKEN = re.compile(r"\d+(?:[.,:]\d+)+|\d+(?=x\d)|(?<=\d)x(?=\d)|[^\W_]+(?:'[^\W_]+)*|[^\w\s]|_")
# List numbering at the start of the text, a line, or after a sentence end: "1. ", "2) ", "(3) ".
# Not after a colon: "WHO/ISUP grade: 2." is the grade.
_NUMBERING = re.compile(
    r"(?:(?<=^)|(?<=\n)|(?<=[.;!?]\s))[ \t]*\(?\d{1,2}[.)](?=\s+[^\W\d_])", re.MULTILINE
)
# A line that ends without punctuation ("Lymphovascular invasion: Present" in a synoptic list)
# ends its clause: joined to the next line by a space, "... therapy: none lymphovascular invasion:
# present" read as one clause, and "no" reached across it.
_BARE_LINE_END = re.compile(r"(?<=[^\s.,;:!?])[ \t]*(?=\n)")
_HTML_TAG = re.compile(
    r"</?(?:br|p|b|i|u|em|strong|div|span|sup|sub|li|ul|ol|table|tr|td|th|font|hr)"
    r"(?![a-z0-9])[^<>]{0,100}>",
    re.IGNORECASE,
)
# Decoration: markdown marks, braces, pipes, quotes. Brackets stay ("mitoses 2 [14/10 HPF]"), as
# does "#" before a number ("#12u", "sentinel #1").
_STRIP_CHARS = re.compile(r"#(?!\d)|[*^_{}\\|`\"]")
_SPACES = re.compile(r"\s+")

# Detokenization: no space before these, none after the opening ones, none around the joiners.
_NO_SPACE_BEFORE = set(".,;:)]%?!'")
_NO_SPACE_AFTER = set("([<>~#\u2264\u2265")
_JOINERS = set("-/+=x")


def clean_report(text: str, style: str) -> str:
    """Normalise a report for use as a training target.

    Styles:
        ``reg``: REG 2025 reports are short and templated; keep case and punctuation, only collapse
            whitespace (including the newline after the specimen line).
        ``pathology``: free-text TCGA / HistAI reports; additionally unescape HTML and drop its
            tags, end a line that has no closing punctuation with ";" (the line break is
            collapsed), drop list numbering and decorative characters, and lower-case. Signs
            that carry meaning stay: "<50%", "~20%", "[14/10 HPF]", "#12u".
        ``none``: collapse whitespace only.
    """
    if style not in CLEANING_STYLES:
        raise ValueError(f"Unknown cleaning style {style!r}; choose from {CLEANING_STYLES}.")
    if style == "pathology":
        text = _HTML_TAG.sub(" ", html.unescape(text))
        if "\n" in text:
            text = _BARE_LINE_END.sub(";", text)
        text = _NUMBERING.sub(" ", text)
        text = _STRIP_CHARS.sub(" ", text)
        text = text.lower()
    return _SPACES.sub(" ", text).strip()


def split_tokens(text: str) -> list[str]:
    """Words, numbers and punctuation marks of a cleaned report.

    A joiner ("-", "/", "+", "=", a dimension's "x") carries the spaces around it into its token:
    "high-grade" and "3+4" keep "-" and "+", "78 mm - extension" gives " - ", "skin -ve" gives
    " -". The detokenizer glues a bare joiner to its neighbours, so without this "78 mm -
    extension" came back as "78 mm-extension" and "mastectomy + slnb" as "mastectomy+slnb".
    """
    return [_spaced_joiner(text, m) if m[0] in _JOINERS else m[0] for m in _TOKEN.finditer(text)]


def _spaced_joiner(text: str, match: re.Match[str]) -> str:
    """A joiner's token with the spaces beside it in ``text``: "-", " -", "- " or " - "."""
    start, end = match.span()
    before = " " if start > 0 and text[start - 1].isspace() else ""
    after = " " if end < len(text) and text[end].isspace() else ""
    return before + match[0] + after


def join_tokens(tokens: Sequence[str]) -> str:
    """Readable text from tokens: "( tubule formation : 3 )" -> "(tubule formation: 3)".

    A bare joiner glues its neighbours ("high-grade"); a joiner token with spaces ("mm - extension")
    brings its own.
    """
    out: list[str] = []
    glue_next = False
    for tok in tokens:
        joiner = tok.strip() in _JOINERS
        if out and not glue_next and not joiner and tok not in _NO_SPACE_BEFORE:
            out.append(" ")
        out.append(tok)
        glue_next = joiner or tok in _NO_SPACE_AFTER or tok == "'"
    return "".join(out).strip()


def report_ids(ids: Iterable[int], *, pad_id: int, bos_id: int, eos_id: int) -> list[int]:
    """The ids of a report's text: up to the first ``<eos>``, without ``<pad>`` and ``<bos>``."""
    kept = []
    for i in map(int, ids):
        if i == eos_id:
            break
        if i not in (pad_id, bos_id):
            kept.append(i)
    return kept


@dataclass
class Tokenizer:
    """Word-level vocabulary shared by every generator of a comparison.

    Attributes:
        vocab: id -> token; ids 0-3 are ``<pad> <bos> <eos> <unk>``.
        style: the cleaning style applied before splitting.
    """

    vocab: list[str]
    style: str = "reg"

    SPECIALS = ("<pad>", "<bos>", "<eos>", "<unk>")
    PAD, BOS, EOS, UNK = 0, 1, 2, 3

    def __post_init__(self) -> None:
        if tuple(self.vocab[:4]) != self.SPECIALS:
            raise ValueError(
                f"A vocabulary must start with {self.SPECIALS}, found {self.vocab[:4]}."
            )
        if len(set(self.vocab)) != len(self.vocab):
            raise ValueError("The vocabulary has duplicate tokens.")
        if self.style not in CLEANING_STYLES:
            raise ValueError(
                f"Unknown cleaning style {self.style!r}; choose from {CLEANING_STYLES}."
            )
        self._index = {tok: i for i, tok in enumerate(self.vocab)}

    @classmethod
    def build(cls, reports: Iterable[str], *, style: str, min_count: int = 1) -> Tokenizer:
        """Vocabulary of tokens seen at least ``min_count`` times in the training ``reports``."""
        if min_count < 1:
            raise ValueError(f"min_count must be >= 1, found {min_count}.")
        counts = Counter(
            tok for report in reports for tok in split_tokens(clean_report(report, style))
        )
        words = sorted(
            tok for tok, n in counts.items() if n >= min_count and tok not in cls.SPECIALS
        )
        return cls(list(cls.SPECIALS) + words, style)

    def __len__(self) -> int:
        return len(self.vocab)

    def encode(self, report: str, max_tokens: int | None = None) -> tuple[list[int], bool]:
        """Token ids of a report (no specials) and whether it was truncated to ``max_tokens``."""
        ids = [
            self._index.get(tok, self.UNK) for tok in split_tokens(clean_report(report, self.style))
        ]
        if max_tokens is not None and len(ids) > max_tokens:
            return ids[:max_tokens], True
        return ids, False

    def decode(self, ids: Iterable[int]) -> str:
        """Text of token ids; stops at ``<eos>``, skips ``<pad>``/``<bos>``."""
        kept = report_ids(ids, pad_id=self.PAD, bos_id=self.BOS, eos_id=self.EOS)
        return join_tokens([self.vocab[i] if 0 <= i < len(self.vocab) else "<unk>" for i in kept])

    # The ids every tokenizer names (see :class:`TextTokenizer`).
    pad_id, bos_id, eos_id, unk_id = PAD, BOS, EOS, UNK

    def to_dict(self) -> dict:
        return {"vocab": list(self.vocab), "style": self.style}

    @classmethod
    def from_dict(cls, data: dict) -> Tokenizer:
        return cls(list(data["vocab"]), data.get("style", "reg"))


@runtime_checkable
class TextTokenizer(Protocol):
    """What the data layer, the generator context and the decoder need from a tokenizer.

    The word-level :class:`Tokenizer` is the shared one; a generator built on a pretrained language
    model brings that model's own (``ReportGenerator.build_tokenizer``), which is why the special
    ids are attributes of the instance rather than fixed numbers.
    """

    style: str
    pad_id: int
    bos_id: int
    eos_id: int
    unk_id: int | None

    def __len__(self) -> int: ...

    def encode(self, report: str, max_tokens: int | None = None) -> tuple[list[int], bool]: ...

    def decode(self, ids: Iterable[int]) -> str: ...
