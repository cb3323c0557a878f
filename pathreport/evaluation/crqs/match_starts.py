"""Search a report for a pattern only where its leading lookaheads hold.

Python's regular-expression engine tries a pattern at every position of a text unless the
pattern begins with a literal. The number-led node-count patterns ("3 of 12 lymph nodes ...")
cannot: they begin with lookaheads such as ``(?=\\d|one|tw|...)`` that pick out the start of a
number, and each of them cost a full pass over every TCGA report, although a report has only
about a dozen such positions. :class:`StartFinder` runs a pattern's leading positive lookaheads
once per report (patterns that share them share the pass) and tries the pattern only at the
positions where they hold.

The matches are exactly those of ``pattern.finditer(text)``: a match can only begin where the
pattern's own leading lookaheads hold, the positions are tried left to right, each at or after the
end of the previous match, and the engine checks the whole pattern at each of them. Patterns that
can match the empty string are searched as before.

Many other patterns begin with a lookbehind that keeps them from starting inside a word
("(?<![a-z])(?:negative|positive)"). That guard costs more than it saves: the engine skips ahead
to the positions where a pattern's first character can occur only when the pattern begins with
that character, so a leading assertion makes it try every position. :class:`GuardedSearch`
searches the pattern without its leading assertions and checks them only where that search
finds a match, when the rest of the pattern begins with one of a few literal characters; on
TCGA-length reports such a pattern runs in 0.1-0.8 of the time.

Where the guard rules out a letter before the match, the match begins right after a character
that is not a letter (or at the text's start). :class:`WordStartSearch` lets the engine skip to
those characters, which a leading character class allows it to do and an assertion does not, and
tries the pattern only where its body matches after one: about a fifth of a report's positions
instead of all of them (0.5-0.8 of the time of the plain or guarded search on TCGA-length
reports). The shared pass of :class:`StartFinder` looks at word starts the same way.
"""

from __future__ import annotations

import re

from pathreport.evaluation.crqs.anchors import parsed

# A tried position costs about as much as a dozen positions of the engine's own scan; with more
# candidates than one per this many characters the plain scan is cheaper (and gives the same).
_CHARS_PER_CANDIDATE = 12
_ASSERTION_OPENERS = ("(?=", "(?!", "(?<=", "(?<!")
# A body that can begin with more characters than this matches at so many positions inside
# words that the leading assertions, which fail there at once, are the better filter (measured
# on TCGA-length reports: 2-8 first characters ran in 0.1-0.8 of the time, 9 or more in 1.0-1.9).
_MAX_FIRST_CHARACTERS = 8
_LETTERS = frozenset(range(ord("a"), ord("z") + 1))
_WORD_CHARACTERS = _LETTERS | frozenset(range(ord("0"), ord("9") + 1))
_WORD_START = "(?<![a-z0-9])"
_SEPARATOR = "[^a-z0-9]"  # the character before a word start, consumed
_NOT_A_LETTER = "[^a-z]"
_ONE_CHARACTER = re.compile(r"\(\?=(?:\[(?:[^\]\\]|\\.)*\]|\\?.)\)")


class StartFinder:
    """Where a pattern's matches can begin: its leading lookaheads, and whether a letter before
    the start is ruled out by a leading ``(?<![...a-z...])``."""

    __slots__ = ("after_separator", "lookaheads", "no_letter_before")

    def __init__(
        self,
        lookaheads: re.Pattern,
        no_letter_before: bool,
        after_separator: re.Pattern | None = None,
    ) -> None:
        self.lookaheads = lookaheads
        self.no_letter_before = no_letter_before
        # The lookaheads behind a character that is neither letter nor digit: the same
        # positions (one on) for lookaheads that forbid a letter or digit before them.
        self.after_separator = after_separator

    @classmethod
    def of(cls, pattern: re.Pattern, compiled: dict[str, re.Pattern]) -> StartFinder | None:
        """The finder of ``pattern``, or None where the plain scan is used.

        ``compiled`` maps lookahead sources to their compiled form, so that patterns with the
        same leading lookaheads share one pass per report.
        """
        tree = parsed(pattern)
        if tree is None or tree.getwidth()[0] == 0:  # empty matches follow finditer's own rules
            return None
        lookaheads = [p for p in _leading_assertions(pattern.pattern) if p.startswith("(?=")]
        if all(_ONE_CHARACTER.fullmatch(p) for p in lookaheads):
            return None  # none, or only "(?=[mfsp])": most positions pass, the plain scan wins
        source = "".join(lookaheads)
        rejected = _rejected_before(tree)
        after_separator = None
        if rejected >= _WORD_CHARACTERS:
            # No match starts after a letter or digit, so neither does any candidate: the pass
            # skips the inside of words and numbers (every position of which its lookaheads
            # would otherwise try), by the engine's own skip to the characters between words.
            # Patterns that share this guard share the pass, and no candidate needs the letter
            # test.
            after_separator = _compiled(_SEPARATOR + source, pattern.flags, compiled)
            source = _WORD_START + source
        return cls(
            _compiled(source, pattern.flags, compiled),
            rejected >= _LETTERS and not rejected >= _WORD_CHARACTERS,
            after_separator,
        )

    def matches(
        self, pattern: re.Pattern, text: str, starts: dict[re.Pattern, list[int]]
    ) -> list[re.Match]:
        """``list(pattern.finditer(text))``; ``starts`` caches the positions per report."""
        positions = starts.get(self.lookaheads)
        if positions is None:
            if self.after_separator is None:
                positions = [m.start() for m in self.lookaheads.finditer(text)]
            else:
                positions = [m.start() + 1 for m in self.after_separator.finditer(text)]
                if self.lookaheads.match(text) is not None:
                    positions.insert(0, 0)  # no character before the text's start
            starts[self.lookaheads] = positions
        if len(positions) * _CHARS_PER_CANDIDATE > len(text):
            return list(pattern.finditer(text))
        found = []
        end = 0
        match = pattern.match
        if self.no_letter_before:
            for p in positions:
                if p < end or (p and "a" <= text[p - 1] <= "z"):
                    continue
                m = match(text, p)
                if m is not None:
                    found.append(m)
                    end = m.end()
            return found
        for p in positions:
            if p >= end and (m := match(text, p)) is not None:
                found.append(m)
                end = m.end()
        return found


class GuardedSearch:
    """A pattern searched without its leading lookarounds, which are checked at each match.

    ``(?<![a-z])negative`` matches at a position exactly where the lookbehind holds and
    ``negative`` matches there: the assertions consume nothing, so the body's match at that
    position is the pattern's. The leftmost position where both hold is found by searching the
    body from the last match's end and, where the assertions fail, again one character on.
    """

    __slots__ = ("body", "guard")

    def __init__(self, body: re.Pattern, guard: re.Pattern) -> None:
        self.body = body
        self.guard = guard

    @classmethod
    def of(cls, pattern: re.Pattern) -> GuardedSearch | None:
        """The guarded search of ``pattern``, or None where the plain scan is used: no leading
        assertion, a body that can match the empty string (finditer's own rules apply), groups
        inside the assertions, or a body whose first character is not one of a few literals."""
        guard_source, body_source = _guard_and_body(pattern.pattern)
        if not guard_source:
            return None
        try:
            body = re.compile(body_source, pattern.flags)
            guard = re.compile(guard_source, pattern.flags)
        except re.error:
            return None
        tree = parsed(body)
        if (
            tree is None
            or tree.getwidth()[0] == 0
            or guard.groups
            or body.groupindex != pattern.groupindex
        ):
            return None
        first = first_characters(tree)
        if first is None or len(first) > _MAX_FIRST_CHARACTERS:
            return None  # the body could start almost anywhere: the assertions filter better
        return cls(body, guard)

    def matches(
        self, pattern: re.Pattern, text: str, starts: dict[re.Pattern, list[int]]
    ) -> list[re.Match]:
        """``list(pattern.finditer(text))`` (``pattern`` and ``starts`` keep the interface of
        :meth:`StartFinder.matches`)."""
        search, holds = self.body.search, self.guard.match
        found = []
        at = 0
        while (m := search(text, at)) is not None:
            start = m.start()
            if holds(text, start) is None:
                at = start + 1
                continue
            found.append(m)
            at = m.end()  # never empty: the body has a minimum width
        return found


class WordStartSearch:
    """A pattern that no letter may precede, tried right after the characters that are not
    letters.

    The engine skips ahead to a character of a leading class without trying the positions in
    between, so ``[^a-z](?=body)`` visits only the characters between words, and finds those
    after which the body matches. The pattern itself (its leading assertions included) is then
    matched one character on: it matches at that position exactly where finditer would find it,
    because a match of the pattern can begin only at the text's start or after a character
    that is not a letter.
    """

    __slots__ = ("lead",)

    def __init__(self, lead: re.Pattern) -> None:
        self.lead = lead

    @classmethod
    def of(cls, pattern: re.Pattern) -> WordStartSearch | None:
        """The word-start search of ``pattern``, or None: a pattern that can match the empty
        string (finditer's own rules apply), may begin after a letter, or has groups inside
        its leading assertions."""
        tree = parsed(pattern)
        if tree is None or tree.getwidth()[0] == 0 or not _rejected_before(tree) >= _LETTERS:
            return None
        assertions, body = _guard_and_body(pattern.pattern)
        try:
            lead = re.compile(f"{_NOT_A_LETTER}(?={body})", pattern.flags)
            if re.compile(assertions, pattern.flags).groups:
                return None
        except re.error:
            return None
        return cls(lead)

    def matches(
        self, pattern: re.Pattern, text: str, starts: dict[re.Pattern, list[int]]
    ) -> list[re.Match]:
        """``list(pattern.finditer(text))`` (``pattern`` and ``starts`` keep the interface of
        :meth:`StartFinder.matches`)."""
        match, search = pattern.match, self.lead.search
        found = []
        m = match(text)  # the text's start: no character before it
        if m is not None:
            found.append(m)
        at = 0 if m is None else m.end() - 1  # the next match begins at m.end() or later
        while (before := search(text, at)) is not None:
            start = before.end()
            m = match(text, start)
            if m is None:
                at = start
            else:
                found.append(m)
                at = m.end() - 1  # never empty: the pattern has a minimum width
        return found


def finder_of(
    pattern: re.Pattern, compiled: dict[str, re.Pattern]
) -> StartFinder | GuardedSearch | WordStartSearch | None:
    """How to search ``pattern``: from its leading lookaheads' positions, without its leading
    assertions (where the rest begins with one of a few literals, which the engine skips to
    faster than to the characters between words), right after the characters that are not
    letters, or (None) with the engine's plain scan."""
    return (
        StartFinder.of(pattern, compiled)
        or GuardedSearch.of(pattern)
        or WordStartSearch.of(pattern)
    )


def _compiled(source: str, flags: int, compiled: dict[str, re.Pattern]) -> re.Pattern:
    """``source`` compiled once per extractor, so that patterns that share it share a pass."""
    if source not in compiled:
        compiled[source] = re.compile(source, flags)
    return compiled[source]


def _guard_and_body(source: str) -> tuple[str, str]:
    """A pattern's source split into its leading lookarounds and the rest."""
    guard = "".join(_leading_assertions(source))
    return guard, source[len(guard) :]


def _leading_assertions(source: str) -> list[str]:
    """The lookaround groups at the very start of a pattern's source, as written."""
    parts = []
    at = 0
    while source.startswith(_ASSERTION_OPENERS, at):
        close = _closing_paren(source, at)
        if close < 0:
            break
        parts.append(source[at : close + 1])
        at = close + 1
    return parts


def _closing_paren(source: str, start: int) -> int:
    """Index of the parenthesis closing the group opened at ``start`` (escapes and classes
    respected), or -1."""
    depth = 0
    for at in _syntax_positions(source, start):
        if source[at] == "(":
            depth += 1
        elif source[at] == ")":
            depth -= 1
            if depth == 0:
                return at
    return -1


def _syntax_positions(source: str, start: int = 0):
    """The positions from ``start`` of the characters of a pattern's source that are syntax:
    neither escaped nor inside a character class (nor a class's own brackets)."""
    at = start
    in_class = False
    while at < len(source):
        ch = source[at]
        if ch == "\\":
            at += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if source.startswith(("[]", "[^]"), at):  # a leading ] is a literal
                at += 2 if source[at + 1] == "]" else 3
                continue
        else:
            yield at
        at += 1


def _rejected_before(tree) -> frozenset[int]:
    """The characters (as code points) that a leading ``(?<![...])`` forbids before a match."""
    rejected: set[int] = set()
    for op, av in tree:
        name = str(op)
        if name not in ("ASSERT", "ASSERT_NOT", "AT"):
            break
        if name == "ASSERT_NOT" and av[0] == -1 and len(av[1]) == 1:
            inner_op, inner = av[1][0]
            if str(inner_op) == "IN":
                for sub_op, sub in inner:
                    if str(sub_op) == "RANGE":
                        rejected.update(range(sub[0], sub[1] + 1))
                    elif str(sub_op) == "LITERAL":
                        rejected.add(sub)
    return frozenset(rejected)


def first_characters(tree) -> frozenset[str] | None:
    """The literal characters the engine skips ahead to before trying the parsed pattern
    ``tree``, or None where it tries every position.

    This follows the engine's own rule (CPython's ``_get_charset_prefix``): through leading
    groups, a first literal, an alternation whose every branch starts with a literal, or a
    character class. Classes with ranges or categories count as None here: they let most
    positions through.
    """
    seq = tree
    while seq and str(seq[0][0]) == "SUBPATTERN":
        seq = seq[0][1][-1]
    if not seq:
        return None
    op, av = seq[0]
    name = str(op)
    if name == "LITERAL":
        return frozenset(chr(av))
    if name == "BRANCH":
        firsts = [alternative[0] if alternative else None for alternative in av[1]]
        if any(first is None or str(first[0]) != "LITERAL" for first in firsts):
            return None
        return frozenset(chr(first[1]) for first in firsts)  # type: ignore[index]
    if name == "IN" and all(str(o) == "LITERAL" for o, _ in av):
        return frozenset(chr(a) for _, a in av)
    return None


# The atoms of a simple alternative: a literal character or an escape ("\\s", "\\."), each
# with at most one quantifier. A group whose alternatives are all made of them is factored.
_ATOM = re.compile(r"(?:\\[sdw.]|[a-z0-9 '/:,=&%-])[?*+]?")
_SIMPLE_ALTERNATIVES = re.compile(
    r"(?:\\[sdw.]|[a-z0-9 '/:,=&%-])[?*+]?(?:(?:\\[sdw.]|[a-z0-9 '/:,=&%-])[?*+]?|\|)*"
)
_GROUP_OPENING = re.compile(r"\((?:\?:|\?P<\w+>)")
_PLAIN_CHARACTER = re.compile(r"[a-z0-9'/:,=&%-]")  # one literal character, no quantifier


def factored(pattern: re.Pattern) -> re.Pattern:
    """``pattern`` with each group of simple alternatives written as a tree of their shared
    beginnings: "(?:mild|mildly|moderate|marked)" becomes "(?:m(?:ild(?:|ly)|oderate|arked))".

    The engine tries the alternatives of a group one after another at every position it
    reaches, so a group of fifteen words costs fifteen attempts where one or two fail at the
    first letter; the tree costs one attempt per letter that matches. The matches are exactly
    those of ``pattern``: alternatives that begin with different literal characters cannot both
    match at one position, so only their order among themselves changes, and alternatives that
    share a beginning keep their order. A beginning is shared only as far as it can match in one
    way (literal characters, no quantifier); an alternative that begins otherwise ("\\s*x",
    "u?r", the empty one) stays where it is, and the others are grouped on each side of it.
    """
    source = pattern.pattern
    out = []
    done = 0  # the source up to here is in ``out``
    for at in _syntax_positions(source):
        if at < done or source[at] != "(":
            continue
        opening = _GROUP_OPENING.match(source, at)
        if opening is None:
            continue
        close = _closing_paren(source, at)
        inner = source[opening.end() : close]
        if close > 0 and "|" in inner and _SIMPLE_ALTERNATIVES.fullmatch(inner):
            atoms = [_ATOM.findall(alternative) for alternative in inner.split("|")]
            out += [source[done:at], opening.group(0), _tree(atoms), ")"]
            done = close + 1
    if not out:
        return pattern
    return re.compile("".join(out) + source[done:], pattern.flags)


def _tree(alternatives: list[list[str]]) -> str:
    """The regex of ``alternatives`` (lists of atoms, in order of preference) as a tree of
    their shared beginnings."""
    parts: list[str] = []
    run: dict[str, list[list[str]]] = {}  # alternatives by first atom, since the last barrier
    for atoms in [*alternatives, None]:
        barrier = atoms is None or not atoms or not _PLAIN_CHARACTER.fullmatch(atoms[0])
        if barrier:
            for group in run.values():
                if len(group) == 1:
                    parts.append("".join(group[0]))
                    continue
                shared = 0
                while all(
                    len(a) > shared
                    and a[shared] == group[0][shared]
                    and _PLAIN_CHARACTER.fullmatch(a[shared])
                    for a in group
                ):
                    shared += 1
                rest = _tree([a[shared:] for a in group])
                parts.append(f"{''.join(group[0][:shared])}(?:{rest})")
            run = {}
            if atoms is not None:
                parts.append("".join(atoms))  # it may match where the others do: kept in place
        else:
            run.setdefault(atoms[0], []).append(atoms)
    return "|".join(parts)
