"""The ``pathreport`` command.

Each sub-command lives in its own module under :mod:`pathreport.app.commands` and exposes
``register(subparsers)``; this file only assembles them, so adding a command never touches the
others. Command modules import their heavy dependencies inside the handler, which keeps
``pathreport --help`` fast.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys

from pathreport import __version__
from pathreport.errors import USER_ERRORS, UserError

__all__ = ["UserError", "build_parser", "main"]  # UserError: imported from here by older commands

COMMAND_MODULES: tuple[str, ...] = (
    "pathreport.app.commands.list_cmd",
    "pathreport.app.commands.evaluate_cmd",
    "pathreport.app.commands.crqs_cmd",
    "pathreport.app.commands.bigen_cmd",
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
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
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
