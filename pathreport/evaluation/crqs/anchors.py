"""Which schema patterns can match a report, decided before any of them runs.

Each pattern has anchor sets: literal strings derived from its parsed regex, of which every
match must contain one member of each set ("(positive|negative) for ... idh" needs one of
{positive, negative} AND "idh"). A pattern runs only on reports that contain every set, which
skips most patterns on most reports.

Testing each of several hundred anchors with a substring search cost about a sixth of the
extraction time on TCGA-length reports. For schemas with many anchors, :class:`AnchorIndex`
instead finds every anchor in one pass: the anchors are compiled into a single regular
expression shaped like their trie, wrapped in a lookahead, so each position of the text yields the
longest anchor that starts there; the anchors that are prefixes of it start there too. The result
is the same set as testing each anchor with ``in``. The pass costs about 0.13 microseconds per
character whatever the number of anchors; a substring test costs about a microsecond per anchor
on a 1,000-character report and a seventh of that on a REG-length one, so with a few dozen
anchors (the REG 2025 schema has 42) the substring tests stay cheaper.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

try:  # Python 3.11+
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # Python 3.10
    import sre_parse as _sre_parse  # type: ignore[no-redef]

AnchorSets = list[tuple[str, ...]]
# From this many enabling anchors on, one trie pass beats a substring test per anchor (measured
# on report text of 60 to 1,000 characters: 42 anchors favour the tests, 350 the pass at every
# length).
_MIN_ANCHORS_FOR_TRIE = 120


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
    """Anchor sets (any-of tuples) that a match of the parsed sequence ``seq`` must contain."""
    found: list[tuple[str, ...]] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            found.append(("".join(run),))
            run.clear()

    for op, av in seq:
        name = str(op)
        if name == "LITERAL":
            run.append(chr(av))
            continue
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


def _anchor_weight(anchor: str) -> int:
    """How selective a literal is: its length for words; rare symbols ("+", "%") count as 4."""
    if any(ch.isalnum() for ch in anchor):
        return len(anchor)
    return 1 if set(anchor) <= set(" :,.;-()/'") else 4


def _best_anchor(sets: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    return max(sets, key=lambda s: (min(_anchor_weight(a) for a in s), -len(s)), default=None)


class AnchorIndex:
    """The patterns (by index) whose anchor sets all occur in a text; build once per schema."""

    def __init__(
        self,
        rule_anchor_sets: Sequence[AnchorSets],
        min_anchors_for_trie: int = _MIN_ANCHORS_FOR_TRIE,
    ) -> None:
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
        self._finder = (
            re.compile(f"(?=({_trie_regex(_trie(anchors))}))")
            if len(self._rules_by_anchor) >= min_anchors_for_trie
            else None
        )
        # The anchors that start where a (longer) anchor starts: its prefixes, itself included.
        self._prefixes = {
            a: tuple(a[:n] for n in range(1, len(a) + 1) if a[:n] in anchors) for a in anchors
        }

    def present(self, text: str) -> set[str]:
        """The anchors that occur in ``text`` (as ``{a for a in anchors if a in text}``)."""
        if self._finder is None:
            return {anchor for anchor in self._prefixes if anchor in text}
        longest = set(self._finder.findall(text))  # group 1 of each match, no match objects
        longest.discard("")
        found: set[str] = set()
        for anchor in longest:
            found.update(self._prefixes[anchor])
        return found

    def active(self, text: str) -> list[int]:
        """Indices of the patterns that may match ``text``, in ascending order."""
        if self._finder is None:
            return self._active_by_substring(text)
        present = self.present(text)
        enabled = set(self._unanchored)
        for anchor in present:
            rules = self._rules_by_anchor.get(anchor)
            if rules is not None:
                enabled.update(rules)
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
        return active

    def _active_by_substring(self, text: str) -> list[int]:
        """``active`` for few anchors: a substring test per enabling anchor, and confirming
        anchors tested only for the rules they would confirm."""
        seen: dict[str, bool] = {}
        enabled = set(self._unanchored)
        for anchor, rules in self._rules_by_anchor.items():
            seen[anchor] = hit = anchor in text
            if hit:
                enabled.update(rules)
        active = []
        for k in sorted(enabled):
            for options in self._confirm.get(k, ()):
                for anchor in options:
                    hit = seen.get(anchor)
                    if hit is None:
                        hit = seen[anchor] = anchor in text
                    if hit:
                        break
                else:
                    break
            else:
                active.append(k)
        return active


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
