"""``pathreport bigen build-bank``: BiGen's knowledge bank from a dataset's training reports.

Registered in the ``COMMANDS`` registry when BiGen's plug-in file is loaded; the CLI makes
the ``bigen`` sub-command and this module fills it. The handler imports torch and the text
encoders only when it runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pathreport import COMMANDS, DATASETS, TEXT_ENCODERS, UserError


@COMMANDS.register("bigen", help="BiGen utilities (knowledge bank)")
def bigen_command(parser: argparse.ArgumentParser) -> None:
    """Fill ``pathreport bigen``: its ``build-bank`` sub-command."""
    commands = parser.add_subparsers(dest="bigen_command", metavar="<bigen command>")
    build = commands.add_parser(
        "build-bank",
        help="embed the sentences of the TRAINING reports into BiGen's knowledge bank",
        description=(
            "Split the training reports of a split file into short sentences, keep each distinct "
            "sentence once, embed them with a registered text encoder (`pathreport list "
            "text_encoders`) and save the (T, D) bank. Validation and test reports are never "
            "read into the bank."
        ),
    )
    build.add_argument("--dataset", required=True, help="dataset name (as in data=<name>)")
    build.add_argument(
        "--split-file",
        required=True,
        type=Path,
        help='split JSON ({"train"|"val"|"test": [{"id", "report"}]})',
    )
    build.add_argument(
        "--text-encoder",
        required=True,
        help="registered text encoder: conch (the paper's), minilm, hashing, ...",
    )
    build.add_argument(
        "--out",
        type=Path,
        default=None,
        help=(
            "bank file (default: <cache>/banks/<dataset>/<encoder>.pt, where training looks for it)"
        ),
    )
    build.add_argument(
        "--encoder-arg",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=(
            "option for the text encoder's constructor, e.g. checkpoint=<CONCH "
            "pytorch_model.bin>; repeatable"
        ),
    )
    build.set_defaults(func=run_build_bank)
    parser.set_defaults(func=lambda _args: parser.print_help() or 2)


def run_build_bank(args: argparse.Namespace) -> int:
    from pathreport.data.splits import load_splits

    from .knowledge_bank import build_bank, default_bank_path, file_sha256, save_bank

    DATASETS.get(args.dataset)  # unknown names answer with close matches
    TEXT_ENCODERS.get(args.text_encoder)
    encoder_args = _parse_encoder_args(args.encoder_arg)
    splits = load_splits(args.split_file)
    if not splits.train:
        raise UserError(
            f"{args.split_file}: the 'train' split is empty; the bank is built from training "
            "reports only."
        )
    out = args.out or default_bank_path(args.dataset, args.text_encoder)
    try:
        bank = build_bank((e.report for e in splits.train), args.text_encoder, **encoder_args)
    except ImportError as err:
        raise UserError(str(err)) from None
    except TypeError as err:  # a wrong --encoder-arg name
        raise UserError(
            f"text encoder '{args.text_encoder}' rejected the options {encoder_args}: {err}"
        ) from None
    bank.source = {
        "dataset": args.dataset,
        "split_file": Path(args.split_file).name,
        "split_sha256": file_sha256(args.split_file),
        "train_reports": str(len(splits.train)),
    }
    path = save_bank(bank, out)
    print(
        f"Knowledge bank: {len(bank.sentences)} sentences from {len(splits.train)} training "
        f"reports, {bank.dim}-d ({args.text_encoder}) -> {path}\nTrain BiGen with it: "
        f"model.bank_path={path}",
        file=sys.stdout,
    )
    return 0


def _parse_encoder_args(pairs: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--encoder-arg expects KEY=VALUE, found {pair!r}.")
        out[key.strip()] = _literal(value)
    return out


def _literal(value: str) -> object:
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    return value
