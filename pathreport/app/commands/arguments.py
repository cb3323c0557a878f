"""Argument shapes the sub-commands share."""

from __future__ import annotations

import argparse


def add_choice(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    flag: str,
    choices: tuple[str, ...],
    help: str | None = None,
) -> None:
    """Add ``flag`` taking one of ``choices``, the first being the default.

    Writing the default once, as the first choice, keeps it from drifting out of the choices.
    """
    parser.add_argument(flag, choices=choices, default=choices[0], help=help)
