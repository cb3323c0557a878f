"""Which schema patterns can match a report, decided before any of them runs.

Each pattern has anchor sets: literal strings derived from its parsed regex, of which every
match must contain one member of each set ("(positive|negative) for ... idh" needs one of
{positive, negative} AND "idh"). A pattern runs only on reports that contain every set, which
skips most patterns on most reports.

Finding which of several hundred anchors occur in a report is itself costly: a substring test
costs about a microsecond per anchor on a 1,000-character report, and one pass of a regular
expression shaped like the anchors' trie about 0.13 microseconds per character, which was a
seventh of the extraction time of a REG-length report. :class:`AnchorIndex` uses the fact that
most anchors consist of letters and digits only ("carcinoma", "idh", "pn0"): such an anchor occurs
in a text exactly when it occurs inside one of the text's words, and reports draw their words
from a small vocabulary. The anchors inside each distinct word are found once (the trie pass,
over that word only) and remembered, so a report costs about one dictionary lookup per distinct
word. An anchor with other characters ("her2/neu", "lamina propria", "%") gets a substring test,
and only when its longest run of letters and digits was found inside some word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

try:  # Python 3.11+
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # Python 3.10
    import sre_parse as _sre_parse  # type: ignore[no-redef]

AnchorSets = list[tuple[str, ...]]
# The prefix of a word-start anchor: "^er" is "er" where no letter precedes it (at the start of
# a run of letters and digits, or after a digit inside one).
WORD_START = "^"
# A maximal run of ASCII letters and digits. Any character class would do, as long as the anchors
# made only of it are looked up inside its runs and every other anchor is tested as a substring;
# this one is the quickest to scan (the text is lower case), and few anchors leave it.
_WORD_RUN = re.compile(r"[a-z0-9]+")
# Words remembered per schema: a report vocabulary is a few thousand words, and text that is no
# report (100 KB of random characters) must not grow the memory without bound.
_MAX_REMEMBERED_WORDS = 50_000
_MAX_REMEMBERED_WORD_LENGTH = 40
_MAX_REMEMBERED_SETS = 10_000  # of the anchors inside a report's words (about 1 KB each)
_MAX_REMEMBERED_REPORT_WORDS = 60  # reports longer than REG's one-liners are not remembered


def anchor_sets(pattern: re.Pattern, limit: int = 3) -> list[tuple[str, ...]]:
    """The most selective any-of anchor sets that a match must ALL contain (best first).

    "(positive|negative) for ... idh" needs one of {positive, negative} AND "idh": requiring
    both skips the pattern on the many reports that say "negative" but never "idh".
    """
    tree = parsed(pattern)
    if tree is None:
        return []
    usable = [s for s in _required(tree) if min(_anchor_weight(a) for a in s) >= 2]
    usable = list(dict.fromkeys(usable))
    usable.sort(key=lambda s: (-min(_anchor_weight(a) for a in s), len(s)))
    return usable[:limit]


def parsed(pattern: re.Pattern):
    """The engine's parse tree of ``pattern``, or None: the analyses built on it only speed
    extraction up, so a parser that changed with the Python version disables them."""
    try:
        return _sre_parse.parse(pattern.pattern, pattern.flags)
    except Exception:  # noqa: BLE001 - see above
        return None


def _required(seq) -> list[tuple[str, ...]]:
    """Anchor sets (any-of tuples) that a match of the parsed sequence ``seq`` must contain.

    A run of letters and digits that no letter may precede ("(?<![a-z])er", "er(?<![a-z]er)")
    is a word-start anchor, written ``WORD_START + run``: "er" starts a word in "ER positive"
    but occurs inside "cancer" and "other", which would run the rule on most reports.
    """
    found: list[tuple[str, ...]] = []
    run: list[str] = []
    starts_word = False  # the run began right after a "no letter before" lookbehind
    previous_forbids_letter = False  # the last item was such a lookbehind

    def flush() -> None:
        if run:
            literal = "".join(run)
            word_start = starts_word and _WORD_RUN.fullmatch(literal) is not None
            found.append((WORD_START + literal if word_start else literal,))
            run.clear()

    for op, av in seq:
        name = str(op)
        if name == "LITERAL":
            if not run:
                starts_word = previous_forbids_letter
            run.append(chr(av))
            previous_forbids_letter = False
            continue
        if name == "ASSERT_NOT" and av[0] == -1:
            letters = _forbidden_letter_then(av[1])
            if letters and run and letters == "".join(run):
                starts_word = True  # "er(?<![a-z]er)": the run itself starts a word
                continue
            flush()
            previous_forbids_letter = letters == ""  # "(?<![a-z])er": the next run does
            continue
        previous_forbids_letter = False
        flush()
        if name == "SUBPATTERN":
            found.extend(_required(av[-1]))
        elif name in ("MAX_REPEAT", "MIN_REPEAT") and av[0] >= 1:
            found.extend(_required(av[2]))
        elif name == "BRANCH":
            options = [_best_anchor(_required(alt)) for alt in av[1]]
            if all(options):
                found.append(tuple(a for opt in options for a in opt))  # type: ignore[union-attr]
    flush()
    return found


def _forbidden_letter_then(body) -> str | None:
    """For a lookbehind body "[a-z]" followed by literals ("[a-z]er"), the literals ("er", or
    "" for the bare class); None for any other body. The class must hold every lower-case
    letter (the text is lower case), so that what precedes a match is no letter."""
    items = list(body)
    if not items or str(items[0][0]) != "IN":
        return None
    ranges = [av for op, av in items[0][1] if str(op) == "RANGE"]
    if not any(lo <= ord("a") and ord("z") <= hi for lo, hi in ranges):
        return None
    if any(str(op) == "NEGATE" for op, _ in items[0][1]):
        return None
    chars = []
    for op, av in items[1:]:
        if str(op) != "LITERAL":
            return None
        chars.append(chr(av))
    return "".join(chars)


def _anchor_weight(anchor: str) -> int:
    """How selective a literal is: its length for words; rare symbols ("+", "%") count as 4."""
    if any(ch.isalnum() for ch in anchor):
        return len(anchor)
    return 1 if set(anchor) <= set(" :,.;-()/'") else 4


def _best_anchor(sets: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    return max(sets, key=lambda s: (min(_anchor_weight(a) for a in s), -len(s)), default=None)


class AnchorIndex:
    """The patterns (by index) whose anchor sets all occur in a text; build once per schema."""

    def __init__(self, rule_anchor_sets: Sequence[AnchorSets]) -> None:
        # A rule is enabled by its first (most selective) set and confirmed by the others;
        # rules without anchors always run.
        self._unanchored = [k for k, sets in enumerate(rule_anchor_sets) if not sets]
        self._rules_by_anchor: dict[str, list[int]] = {}
        self._confirm: dict[int, tuple[frozenset[str], ...]] = {}
        anchors: set[str] = set()
        for k, sets in enumerate(rule_anchor_sets):
            if not sets:
                continue
            for anchor in sets[0]:
                self._rules_by_anchor.setdefault(anchor, []).append(k)
            if len(sets) > 1:
                self._confirm[k] = tuple(frozenset(s) for s in sets[1:])
            anchors.update(a for s in sets for a in s)
        self._anchors = frozenset(anchors)
        # Word-start anchors are looked for where a word starts, or after a digit inside one.
        word_start = {a for a in anchors if a.startswith(WORD_START)}
        self._word_starts = frozenset(a[len(WORD_START) :] for a in word_start)
        self._word_start_lengths = sorted({len(a) for a in self._word_starts})
        # Looked for inside words: the word anchors, and of every other anchor its longest run
        # of letters and digits (its key), without which it cannot occur.
        inside_words = {a for a in anchors if _WORD_RUN.fullmatch(a)}
        self._spanning_by_key: dict[str, list[str]] = {}
        self._symbols: list[str] = []  # anchors without a word character ("+", "%")
        for anchor in sorted(anchors - inside_words - word_start):
            runs = _WORD_RUN.findall(anchor)
            if runs:
                self._spanning_by_key.setdefault(max(runs, key=len), []).append(anchor)
            else:
                self._symbols.append(anchor)
        self._keys = frozenset(self._spanning_by_key)
        inside_words |= self._keys
        # Each position of a word yields the longest string that starts there; the strings that
        # are prefixes of it start there too.
        self._finder = (
            re.compile(f"(?=({_trie_regex(_trie(inside_words))}))") if inside_words else None
        )
        self._prefixes = {
            a: tuple(a[:n] for n in range(1, len(a) + 1) if a[:n] in inside_words)
            for a in inside_words
        }
        self._in_word: dict[str, tuple[frozenset[str], frozenset[int]]] = {}
        # Reports draw their words from a small vocabulary, so many share the same anchors
        # inside their words (REG 2025's 5,924 training reports have 462 such sets): the rules
        # those words enable, and the substring tests left to do, are kept per set of them.
        self._by_entries: dict[frozenset, tuple[frozenset[str], frozenset[int], tuple]] = {}
        self._active_by_key: dict[tuple[frozenset, tuple[str, ...]], tuple[int, ...]] = {}

    def present(self, text: str) -> set[str]:
        """The anchors that occur in ``text`` (as ``{a for a in anchors if a in text}``)."""
        return self._found(text)[0] & self._anchors

    def active(self, text: str, words: Sequence[str] | None = None) -> tuple[int, ...]:
        """Indices of the patterns that may match ``text``, in ascending order.

        ``words``, if given, must be the text's maximal runs of ASCII letters and digits (an
        ASCII report's words, as the extractor has already split them), which saves a scan.
        The answer depends only on the anchors inside the text's words and on which of the
        remaining substring tests hold, so for a short report (a REG-style one-liner; longer
        ones rarely share theirs) it is remembered by those two.
        """
        runs = _WORD_RUN.findall(text) if words is None else words
        if len(runs) > _MAX_REMEMBERED_REPORT_WORDS:  # a long report rarely shares its set
            return self._confirmed(*self._found(text, runs))
        entries = frozenset(map(self._in_word.get, runs))
        if None in entries:  # a word not seen before (or too long to keep): the full pass
            return self._confirmed(*self._found(text, runs))
        base = self._by_entries.get(entries)
        if base is None:
            base = self._from_entries(entries)
        found, enabled, to_test = base
        in_text = tuple(filter(text.__contains__, to_test))  # no Python frame per anchor
        key = (entries, in_text)
        active = self._active_by_key.get(key)
        if active is None:
            if in_text:
                found = found.union(in_text)
                rules_by_anchor = self._rules_by_anchor
                enabled = enabled.union(*[rules_by_anchor.get(a, ()) for a in in_text])
            active = self._confirmed(found, enabled)
            if len(self._active_by_key) < _MAX_REMEMBERED_SETS:
                self._active_by_key[key] = active
        return active

    def _from_entries(self, entries: frozenset) -> tuple[frozenset[str], frozenset[int], tuple]:
        """(strings inside the words, rules they enable, anchors left to test in the text) for
        the words' remembered entries, remembered in turn."""
        found = frozenset().union(*[strings for strings, _ in entries])
        enabled = frozenset(self._unanchored).union(*[rules for _, rules in entries])
        base = (found, enabled, self._to_test(found))
        if len(self._by_entries) < _MAX_REMEMBERED_SETS:
            self._by_entries[entries] = base
        return base

    def _to_test(self, found: set[str] | frozenset[str]) -> tuple[str, ...]:
        """The anchors that need a substring test: those whose key was found inside a word
        ("lamina propria" once "propria" was), and the symbols ("%", "+")."""
        spanning = self._spanning_by_key
        return (
            *(a for key in self._keys.intersection(found) for a in spanning[key]),
            *self._symbols,
        )

    def _confirmed(self, present: set[str] | frozenset[str], enabled) -> tuple[int, ...]:
        """The enabled rules, in ascending order, whose other anchor sets are all present."""
        confirm = self._confirm
        active = []
        for k in sorted(enabled):
            more = confirm.get(k)
            if more is not None:
                for options in more:
                    if present.isdisjoint(options):
                        break
                else:
                    active.append(k)
            else:
                active.append(k)
        return tuple(active)

    def _found(self, text: str, runs: Sequence[str] | None = None) -> tuple[set[str], set[int]]:
        """(the strings found: every anchor in ``text`` and some keys; the rules they enable)."""
        remembered = self._in_word
        words = set(_WORD_RUN.findall(text) if runs is None else runs)
        # One dictionary lookup per word; most reports use only words seen before, and then
        # the pass over the unseen words is skipped.
        known = [entry for entry in map(remembered.get, words) if entry is not None]
        found: set[str] = set().union(*[strings for strings, _ in known])
        enabled: set[int] = set(self._unanchored).union(*[rules for _, rules in known])
        if len(known) < len(words):
            for word in words.difference(remembered):  # new words, or words too long to keep
                strings, rules = self._inside(word)
                found.update(strings)
                enabled.update(rules)
        rules_by_anchor = self._rules_by_anchor
        for anchor in filter(text.__contains__, self._to_test(found)):
            found.add(anchor)
            enabled.update(rules_by_anchor.get(anchor, ()))
        return found, enabled

    def _inside(self, word: str) -> tuple[frozenset[str], frozenset[int]]:
        """The word anchors and keys inside ``word`` (one trie pass over it) and the rules they
        enable, remembered."""
        inside: set[str] = set()
        if self._finder is not None:
            for longest in self._finder.findall(word):
                if longest:
                    inside.update(self._prefixes[longest])
        if self._word_starts:
            starts = [0, *(i + 1 for i, ch in enumerate(word) if ch.isdigit())]
            inside.update(
                WORD_START + word[p : p + n]
                for p in starts
                for n in self._word_start_lengths
                if word[p : p + n] in self._word_starts
            )
        rules_by_anchor = self._rules_by_anchor
        result = (
            frozenset(inside),
            frozenset(k for string in inside for k in rules_by_anchor.get(string, ())),
        )
        if len(self._in_word) < _MAX_REMEMBERED_WORDS and len(word) <= _MAX_REMEMBERED_WORD_LENGTH:
            self._in_word[word] = result
        return result


def _trie(words: set[str]) -> dict:
    root: dict = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}  # a complete anchor ends here
    return root


def _trie_regex(node: dict) -> str:
    """A regex matching the longest trie word at a position (longer branches are tried first)."""
    branches = [re.escape(ch) + _trie_regex(child) for ch, child in sorted(node.items()) if ch]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body
