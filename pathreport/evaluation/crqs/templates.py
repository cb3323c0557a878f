"""Replacement templates ("\\1 type") as functions, for the rewrites that run on every report.

``Pattern.sub`` given a template string with a group reference calls back into Python to parse
it on each call, also when nothing matches, which is most calls: a rewrite of the normalisation
runs on every report and changes few. Given a function, ``sub`` calls Python only per match.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_GROUP_REFERENCE = re.compile(r"\\(\d)")


def expander(template: str) -> Callable[[re.Match], str]:
    """The replacement function of ``template``: each ``\\N`` is group N, or "" if it did not
    take part in the match (as ``Pattern.sub`` fills a template)."""
    parts = _GROUP_REFERENCE.split(template)
    literals, groups = parts[0::2], [int(number) for number in parts[1::2]]
    pieces = list(zip(groups, literals[1:]))
    first = literals[0]

    def expand(match: re.Match) -> str:
        out = first
        for group, literal in pieces:
            out += (match[group] or "") + literal
        return out

    return expand
