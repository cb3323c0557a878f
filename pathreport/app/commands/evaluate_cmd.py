"""``pathreport evaluate``: score a predictions file with any registered report evaluators.

Writes ``summary.json``, ``per_case.jsonl`` and one CSV per table (``fields.csv`` for CRQS) into
``--out``, through the same evaluation function as the test stage of ``train.py``, so a number in
a paper table can be recomputed from the predictions file alone.

``--out`` is written anew as a whole (:func:`pathreport.io.replaced_folder`): a non-empty folder
is refused unless ``--overwrite``, and with it the results are built in a temporary folder beside
``--out`` that replaces it only when complete, so files of two evaluations never mix and a failed
evaluation loses nothing. The inputs, the dataset name and the output folder are checked before
any metric runs.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from pathreport.app.commands.arguments import add_choice
from pathreport.errors import UserError
from pathreport.io import read_jsonl


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evaluate",
        help="score a predictions file (NLG metrics, CRQS, any registered evaluator)",
        description=(
            "Score generated reports against their references. Reads pathreport's JSON Lines "
            '({"id", "reference", "prediction"}) or the reference implementation\'s '
            '{id: {"pred", "target"}} JSON.'
        ),
    )
    parser.add_argument(
        "--predictions",
        required=True,
        type=Path,
        help="predictions file (JSON Lines or {id: {pred, target}} JSON)",
    )
    parser.add_argument(
        "--dataset",
        help=(
            "dataset name; selects the CRQS schema crqs/<dataset>.yaml (default: the "
            "records' 'dataset' field)"
        ),
    )
    parser.add_argument(
        "--out",
        required=True,
        type=Path,
        help="output folder for summary.json, per_case.jsonl and fields.csv",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace a non-empty --out folder (by default it is refused)",
    )
    parser.add_argument(
        "--metrics",
        default="nlg,crqs",
        help=(
            "comma-separated report evaluators, any of `pathreport list evaluators` "
            "(default: nlg,crqs)"
        ),
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="EVALUATOR.KEY=VALUE",
        help="an evaluator option (repeatable), e.g. "
        "reg2025_score.embedding_model=/models/biobert-v1.1; `pathreport list evaluators -v` "
        "lists each evaluator's options",
    )
    crqs = parser.add_argument_group("CRQS")
    crqs.add_argument(
        "--schema", type=Path, help="a CRQS schema file to use instead of crqs/<dataset>.yaml"
    )
    add_choice(
        crqs,
        "--formula",
        ("subtractive", "eq6"),
        help="aggregate: subtractive (paper A.7 and code, default) or eq6 (paper Eq. 6)",
    )
    crqs.add_argument(
        "--weights",
        help="w1,w2,w3,w4 for CFC,KIR,HR,CDS (default 0.3,0.4,0.2,3.2; paper profile: the "
        "paper's 0.3,0.4,0.2,0.4)",
    )
    add_choice(
        crqs,
        "--on-empty-reference",
        ("vacuous", "zero", "skip"),
        help=(
            "score of a case whose reference has no extractable field (default: vacuous, CFC "
            "= KIR = 1)"
        ),
    )
    crqs.add_argument("--extractor", default="rule", help="extractor backend (default: rule)")
    crqs.add_argument(
        "--schema-profile",
        default="complete",
        help="field set: complete (default) or paper (the paper's own field lists, unweighted)",
    )
    crqs.add_argument(
        "--field-weighting",
        choices=("severity", "uniform"),
        help="severity (fields weighted by clinical severity) or uniform (the paper's counts); "
        "default: uniform with --schema-profile paper, else severity",
    )
    crqs.add_argument(
        "--bootstrap",
        type=int,
        default=1000,
        help="bootstrap resamples for the CRQS confidence interval (0 disables)",
    )
    crqs.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    nlg = parser.add_argument_group("NLG")
    add_choice(
        nlg,
        "--nlg-normalization",
        ("ptb", "simple"),
        help="text normalisation before BLEU/METEOR/ROUGE/CIDEr (ptb needs Java)",
    )
    nlg.add_argument(
        "--no-meteor", action="store_true", help="skip METEOR (it starts a Java process)"
    )
    nlg.add_argument(
        "--nlg-max-words",
        type=int,
        default=None,
        help="score each prediction's first N words with the NLG metrics (default 1000; cut "
        "predictions are counted in summary.json as n_nlg_truncated_predictions)",
    )
    sel = parser.add_argument_group("evaluated set")
    sel.add_argument(
        "--references",
        type=Path,
        help=(
            "split JSON {split: [{id, report}]} or JSON Lines {id, report}: the evaluated "
            "set and its raw reference reports"
        ),
    )
    sel.add_argument(
        "--split", default="test", help="split of --references to evaluate (default: test)"
    )
    sel.add_argument(
        "--missing-as-empty",
        action="store_true",
        help=(
            "score slides of the evaluated set that have no prediction as empty reports "
            "instead of failing"
        ),
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathreport.data.predictions import read_predictions
    from pathreport.evaluation.evaluate import (
        align_to_references,
        evaluate_records,
        write_evaluation,
    )
    from pathreport.io import replaced_folder

    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
    if not metrics:
        raise UserError("--metrics is empty; give e.g. nlg, crqs or nlg,crqs.")
    options = selected_options(args, metrics)
    if args.dataset is not None and args.schema is None:
        check_dataset_name(args.dataset)
    records = read_predictions(args.predictions)
    if args.references is not None:
        references = read_references(args.references, args.split)
        records = align_to_references(
            records,
            references,
            missing_as_empty=args.missing_as_empty,
            source=f"{args.references} [{args.split}]",
        )
    dataset = args.dataset or _dataset_of(records)
    with replaced_folder(args.out, overwrite=args.overwrite) as folder:
        result = evaluate_records(records, dataset=dataset, metrics=metrics, options=options)
        result.summary["predictions"] = str(args.predictions)
        written = write_evaluation(result, folder)
    written = {name: args.out / path.name for name, path in written.items()}
    print(format_summary(result.summary))
    for metric, reason in result.unavailable.items():
        print(f"note: {metric} unavailable: {reason}")
    for name, path in written.items():
        print(f"wrote {name}: {path}")
    return 0


def selected_options(args: argparse.Namespace, metrics: list[str]) -> dict[str, dict[str, Any]]:
    """Options of the selected evaluators: the CRQS and NLG flags, then every ``--option``.

    Checked here, before the predictions are read, so a typo fails at once.
    """
    from pathreport.evaluation.nlg import MAX_WORDS
    from pathreport.evaluation.options import check_selection, parse_option_args

    flags: dict[str, dict[str, Any]] = {
        "crqs": {
            "schema": args.schema,
            "formula": args.formula,
            "weights": args.weights,
            "on_empty_reference": args.on_empty_reference,
            "extractor": args.extractor,
            "profile": args.schema_profile,
            "weighting": args.field_weighting,
            "n_bootstrap": args.bootstrap,
            "seed": args.seed,
        },
        "nlg": {
            "normalization": args.nlg_normalization,
            "meteor": not args.no_meteor,
            "max_words": args.nlg_max_words or MAX_WORDS,
        },
    }
    options = {m: dict(flags.get(m, {})) for m in metrics}
    for name, values in parse_option_args(args.option).items():
        options.setdefault(name, {}).update(values)
    check_selection(metrics, options)
    return options


def check_dataset_name(name: str) -> None:
    """Stop on a dataset name that is neither a registered dataset nor a CRQS schema (a typo would
    otherwise label the summary with it and leave CRQS unavailable)."""
    from pathreport.discovery import discover
    from pathreport.evaluation.crqs.schema import available_schemas
    from pathreport.registry import DATASETS, did_you_mean

    discover()
    known = sorted(set(DATASETS.names()) | set(available_schemas()))
    if name not in known:
        hint = did_you_mean(name, known)
        raise UserError(
            f"Unknown dataset '{name}' (--dataset). {hint + ' ' if hint else ''}Known "
            f"datasets: {', '.join(known)}. For a dataset of your own, also pass its CRQS schema "
            "with --schema <file>."
        )


def read_references(path: Path, split: str) -> dict[str, str]:
    """id -> raw reference report, from a split JSON (``split`` key) or JSON Lines {id, report}."""
    from pathreport.data.predictions import read_utf8

    if not path.is_file():
        raise FileNotFoundError(f"References file {path} does not exist.")
    text = read_utf8(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict):
        if split not in data:
            raise UserError(
                f"{path}: no split {split!r}; the file has {sorted(data)}. Pass --split with "
                "one of them."
            )
        items = data[split]
    else:
        items = [obj for _, obj in read_jsonl(path, text)]
    refs: dict[str, str] = {}
    for i, item in enumerate(items):
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("id"), str)
            or not isinstance(item.get("report"), str)
        ):
            raise UserError(
                f"{path}: entry {i} of {split!r} must be an object with string 'id' and "
                f"'report', found {item!r:.100}."
            )
        if item["id"] in refs:
            raise UserError(f"{path}: slide id {item['id']!r} appears twice in {split!r}.")
        refs[item["id"]] = item["report"]
    if not refs:
        raise UserError(f"{path}: split {split!r} is empty; nothing to evaluate.")
    return refs


def _dataset_of(records: list) -> str | None:
    names = {r.dataset for r in records if r.dataset}
    return names.pop() if len(names) == 1 else None


def format_summary(summary: dict[str, Any]) -> str:
    """A short, aligned view of the headline numbers (the JSON holds everything)."""
    from pathreport.evaluation.options import declared_metrics

    keys = [k for k in declared_metrics() if k in summary]
    width = max([9, *(len(k) for k in keys)])
    lines = [f"dataset: {summary.get('dataset')}   cases: {summary.get('n_cases')}"]
    for key in keys:
        if key in summary:
            value = summary[key]
            lines.append(f"  {key:<{width}} {'n/a' if value is None else f'{value:.4f}'}")
    ci = summary.get("CRQS_CI95")
    if ci:
        lines.append(f"  CRQS 95% CI [{ci[0]:.4f}, {ci[1]:.4f}] (bootstrap over cases)")
    return "\n".join(lines)
