"""``pathreport splits verify``: is this split file the benchmark's split, and is it sound?"""

from __future__ import annotations

import argparse
from pathlib import Path

from pathreport.errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "splits", help="check split files against the benchmark's fixed splits"
    )
    commands = parser.add_subparsers(dest="splits_command", metavar="<splits command>")
    verify = commands.add_parser(
        "verify",
        help="checksum, counts and integrity (no slide or patient in two splits, no empty report)",
    )
    verify.add_argument(
        "--dataset", required=True, help="dataset name (splits/<dataset>/split.yaml)"
    )
    verify.add_argument("--split-file", required=True, type=Path)
    verify.set_defaults(func=run_verify)
    parser.set_defaults(func=lambda _args: parser.print_help() or 2)


def run_verify(args: argparse.Namespace) -> int:
    from pathreport.data.splits import fixed_split_record, load_splits
    from pathreport.registry import DATASETS

    pattern = DATASETS.get(args.dataset).obj.get(
        "patient_id_pattern"
    )  # unknown names: close matches
    record = fixed_split_record(args.dataset)
    if record is None:
        raise UserError(
            f"No fixed split is recorded for '{args.dataset}' (splits/{args.dataset}/split.yaml)."
        )
    splits = load_splits(
        args.split_file, patient_id_pattern=pattern
    )  # raises on integrity problems
    counts = splits.counts()
    print(
        f"{args.split_file}: sha256 {splits.sha256}; train/val/test = "
        f"{counts['train']}/{counts['val']}/{counts['test']}; integrity checks passed."
    )
    problems = []
    if record.get("sha256") and record["sha256"] != splits.sha256:
        problems.append(f"checksum differs from the benchmark's ({record['sha256']})")
    if record.get("counts") and record["counts"] != counts:
        problems.append(f"counts differ from the benchmark's {record['counts']}")
    if problems:
        print(
            f"NOT the fixed {args.dataset} split ({record.get('source', 'unknown source')}): "
            + "; ".join(problems)
            + "."
        )
        return 1
    if record.get("sha256"):
        print(f"This is the fixed {args.dataset} split ({record['source']}).")
    else:
        print(
            f"No checksum is recorded for {args.dataset}; record yours in "
            f"splits/{args.dataset}/split.yaml."
        )
    return 0
