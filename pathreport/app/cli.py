"""The ``pathreport`` command.

Each sub-command lives in its own module under :mod:`pathreport.app.commands` and exposes
``register(subparsers)``; this file only assembles them, so adding a command never touches the
others. Plug-ins add theirs through the ``COMMANDS`` registry (BiGen's ``pathreport bigen`` lives
beside its model). Command modules import their heavy dependencies inside the handler, which
keeps ``pathreport --help`` fast.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys

from pathreport import __version__
from pathreport.errors import USER_ERRORS, UserError
from pathreport.registry import COMMANDS

__all__ = ["UserError", "build_parser", "main"]  # UserError: imported from here by older commands

COMMAND_MODULES: tuple[str, ...] = (
    "pathreport.app.commands.list_cmd",
    "pathreport.app.commands.evaluate_cmd",
    "pathreport.app.commands.crqs_cmd",
    "pathreport.app.commands.results_cmd",
    "pathreport.app.commands.pathlang_cmd",
    "pathreport.app.commands.pathbind_cmd",
    "pathreport.app.commands.splits_cmd",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pathreport",
        description="Benchmark pathology report generators and pathology vision-language models.",
    )
    parser.add_argument("--version", action="version", version=f"pathreport {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="<command>")
    for module_name in COMMAND_MODULES:
        if importlib.util.find_spec(module_name) is not None:
            importlib.import_module(module_name).register(subparsers)
    add_plugin_commands(subparsers)
    return parser


def add_plugin_commands(subparsers: argparse._SubParsersAction) -> None:
    """One sub-command per entry of the ``COMMANDS`` registry (after plug-in discovery).

    Raises:
        UserError: a plug-in's command has the name of a built-in one.
    """
    for entry in COMMANDS.entries():
        if entry.name in subparsers.choices:
            raise UserError(
                f"The command '{entry.name}' of {entry.provider} has the name of a built-in "
                "pathreport command; rename it in its @COMMANDS.register(...)."
            )
        entry.obj(subparsers.add_parser(entry.name, help=entry.metadata.get("help", "")))


def main(argv: list[str] | None = None) -> int:
    try:
        parser = build_parser()
    except USER_ERRORS as err:  # a plug-in that cannot load, or a command name taken twice
        print(f"pathreport: error: {err}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        result = args.func(args)
    except (*USER_ERRORS, ValueError, KeyError) as err:  # ValueError/KeyError: argument values
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"pathreport {args.command}: error: {message}", file=sys.stderr)
        return 2
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
