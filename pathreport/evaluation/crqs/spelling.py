"""Typing slips in long vocabulary words: "adenocarinoma", "perinueral", "keratinzing".

Reports are typed, dictated and retyped, and a slip in a diagnosis or finding made the word
unknown: "Acinar adenocarinoma" was an unlisted entity and "perinueral invasion identified" no
finding at all, so a report and its correct rewrite disagreed on both. A word that no phrase of
the schema contains is read as the vocabulary word it differs from by one slip, when exactly
one such word exists.

Only the slips that typing makes without changing what a word says count: a letter left out
("keratinzing"), one typed twice or added ("carcinnoma"), and two neighbouring letters swapped
("perinueral"), all inside the word. A letter typed in place of another is not corrected
("injection" is no "infection", "interior" no "anterior"); nor is a change at the first letter,
which is often a prefix ("acellular" is not "cellular", "reaching" not "breaching"), or at the
last, which is grammar ("carcinomas", "infiltrated"). Vocabulary words shorter than nine
letters are never targets, nor typed words shorter than eight: short words are one slip from
too many others ("choroid" is no "chordoid").
"""

from __future__ import annotations

from collections.abc import Iterable

MIN_LENGTH = 9  # the shortest vocabulary word a slip is read as
_CACHE_LIMIT = 50_000  # words remembered, so that 100 KB of random text cannot grow memory


class TypoReader:
    """Reads a word outside the vocabulary as the one vocabulary word it is a slip of."""

    def __init__(self, vocabulary: Iterable[str], targets: Iterable[str] | None = None) -> None:
        """``vocabulary``: the words never corrected; ``targets``: the words a slip is read as
        (by default the vocabulary's)."""
        self._vocabulary = frozenset(vocabulary)
        words = self._vocabulary if targets is None else targets
        targets = [w for w in words if len(w) >= MIN_LENGTH and w.isalpha()]
        self._targets = frozenset(targets)
        # Every target with one inner letter left out: a typed word found here misses that
        # letter, or, where both have the same length, swaps two letters.
        shortened: dict[str, set[str]] = {}
        for word in targets:
            for k in range(1, len(word) - 1):
                shortened.setdefault(word[:k] + word[k + 1 :], set()).add(word)
        self._shortened = shortened
        self._cache: dict[str, str | None] = {}
        # Words outside the vocabulary already read as no slip (most of a report's numbers and
        # common words): one set difference skips them, so a report of known words costs no
        # Python loop.
        self._plain: set[str] = set()

    @property
    def vocabulary(self) -> frozenset[str]:
        return self._vocabulary

    def fixes(self, words: list[str]) -> dict[str, str]:
        """The words of ``words`` that are slips, each with the vocabulary word it is read as."""
        unknown = set(words).difference(self._vocabulary, self._plain)
        if not unknown:
            return {}
        fixes = {}
        for word in unknown:
            fixed = self.read(word) if len(word) >= MIN_LENGTH - 1 else None
            if fixed is not None:
                fixes[word] = fixed
            elif len(self._plain) < _CACHE_LIMIT:
                self._plain.add(word)
        return fixes

    def fix(self, text: str, words: list[str], starts: list[int], ends: list[int]) -> str:
        """``text`` with each slip among its ``words`` (at ``starts``/``ends``) replaced by the
        word it is read as; ``text`` itself when there is none."""
        fixes = self.fixes(words)
        if not fixes:
            return text
        out, last = [], 0
        for word, start, end in zip(words, starts, ends, strict=True):
            if word in fixes:
                out += [text[last:start], fixes[word]]
                last = end
        return "".join(out) + text[last:]

    def read(self, word: str) -> str | None:
        """The vocabulary word ``word`` is a slip of, or None (none, or more than one)."""
        cached = self._cache.get(word, "")
        if cached != "":
            return cached
        found = self._read(word) if word.isalpha() else None
        if len(self._cache) < _CACHE_LIMIT:
            self._cache[word] = found
        return found

    def _read(self, word: str) -> str | None:
        candidates = set(self._shortened.get(word, ()))  # a letter left out
        for k in range(1, len(word) - 1):  # an inner letter added
            shorter = word[:k] + word[k + 1 :]
            if shorter in self._targets:
                candidates.add(shorter)
            for target in self._shortened.get(shorter, ()):  # two neighbours swapped
                if len(target) == len(word) and _swapped(word, target):
                    candidates.add(target)
        candidates = {c for c in candidates if _one_slip(word, c)}
        return candidates.pop() if len(candidates) == 1 else None


def _swapped(a: str, b: str) -> bool:
    """True when ``a`` is ``b`` with two neighbouring inner letters swapped."""
    diffs = [k for k in range(len(a)) if a[k] != b[k]]
    return (
        len(diffs) == 2
        and diffs[1] == diffs[0] + 1
        and diffs[0] >= 1
        and diffs[1] < len(a) - 1
        and a[diffs[0]] == b[diffs[1]]
        and a[diffs[1]] == b[diffs[0]]
    )


def _one_slip(typed: str, target: str) -> bool:
    """True when ``typed`` is ``target`` with one inner letter left out, one added or two
    neighbours swapped (neither the first letter nor the last)."""
    if len(typed) == len(target):
        return _swapped(typed, target)
    longer, shorter = (typed, target) if len(typed) > len(target) else (target, typed)
    if len(longer) != len(shorter) + 1:
        return False
    k = next((k for k in range(len(shorter)) if longer[k] != shorter[k]), len(shorter))
    return 1 <= k < len(longer) - 1 and longer[k + 1 :] == shorter[k:]
