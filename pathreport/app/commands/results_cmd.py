"""``pathreport results``: collect run summaries into one table, print the paper's tables, compare
two systems with a paired bootstrap, and draw the paper's figures.

    pathreport results collect logs/                      # or wandb:<entity>/<project>
    pathreport results table --dataset reg2025 --by model  # --by encoder, --format latex|csv
    pathreport results compare histgen:uni2 bigen:uni2 --dataset reg2025
    pathreport results figures --out results/figures

Every command reads the table at ``results/results.csv`` (or ``$PATHREPORT_RESULTS``) unless given
``--table``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "results",
        help="results across runs: collect, list, table, compare, figures",
        description=(
            "Gather every run's summary into one results table and read it: the paper's tables "
            "(method-wise and encoder-wise, mean ± std over seeds), paired bootstrap comparisons "
            "and figures."
        ),
    )
    commands = parser.add_subparsers(
        dest="results_command", metavar="<results command>", required=True
    )
    _collect_parser(commands)
    _list_parser(commands)
    _table_parser(commands)
    _compare_parser(commands)
    _figures_parser(commands)


def _split_and_output(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--split", default="test", help="split (default: test)")
    parser.add_argument(
        "--output", type=Path, help=f"write the {what} to this file instead of standard output"
    )


def _table_option(
    parser: argparse.ArgumentParser, *names: str, help_text: str | None = None
) -> None:
    parser.add_argument(
        *(names or ("--table",)),
        dest="table",
        type=Path,
        default=None,
        help=help_text
        or "results table to read (default: results/results.csv or $PATHREPORT_RESULTS)",
    )


def _collect_parser(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "collect",
        help="gather run summaries into the results table (idempotent)",
        description="Find every run summary under the given folders (metrics/<split>.json of "
        "train.py/eval.py runs, summary.json of `pathreport evaluate`, local W&B runs) or in a "
        "W&B project (wandb:<entity>/<project>) and add them to the results table. A run already "
        "in the table is replaced by its fresh numbers; other runs are kept.",
    )
    p.add_argument(
        "sources",
        nargs="*",
        default=["logs"],
        help="run folders, log folders, summary files, or wandb:<entity>/<project> (default: logs)",
    )
    _table_option(
        p,
        "--out",
        "--table",
        help_text="results table to write (default: results/results.csv or "
        "$PATHREPORT_RESULTS; .parquet needs pyarrow)",
    )
    p.add_argument(
        "--fresh",
        action="store_true",
        help="start a new table instead of adding to the existing one",
    )
    p.add_argument(
        "--skip-invalid",
        action="store_true",
        help="collect the valid summaries and list the malformed ones instead of stopping",
    )
    p.add_argument(
        "-v", "--verbose", action="store_true", help="list every ignored file and duplicate"
    )
    fill = p.add_argument_group(
        "values for runs whose files do not state them (never override a file)"
    )
    fill.add_argument("--dataset")
    fill.add_argument("--model")
    fill.add_argument("--encoder")
    fill.add_argument("--seed", type=int)
    p.set_defaults(func=run_collect)


def _list_parser(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("list", help="list the runs in the results table")
    _table_option(p)
    p.add_argument("--dataset", help="only this dataset")
    p.add_argument("--split", help="only this split")
    p.set_defaults(func=run_list)


def _table_parser(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "table",
        help="print the paper's tables (method-wise or encoder-wise)",
        description=(
            "Method-wise (--by model, averaged across encoders), encoder-wise (--by encoder, "
            "averaged across methods) or detailed (--by model,encoder) tables: mean ± std over "
            "seeds, best value per column in bold (lowest for HR and CDS), runs per cell, notes "
            "on anything that makes cells not comparable. Without --dataset: one table per "
            "dataset."
        ),
    )
    _table_option(p)
    p.add_argument("--dataset", help="dataset to show (default: one table per dataset)")
    p.add_argument(
        "--by",
        default="model",
        choices=("model", "encoder", "model,encoder"),
        help="rows (default: model)",
    )
    _split_and_output(p, "table")
    p.add_argument(
        "--metrics", help="comma-separated columns (default: BLEU-1..4, ROUGE-L, METEOR, CRQS)"
    )
    p.add_argument(
        "--format", default="markdown", choices=("markdown", "latex", "csv"), help="output format"
    )
    p.add_argument("--digits", type=int, default=3, help="decimals shown (default: 3)")
    p.set_defaults(func=run_table)


def _compare_parser(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "compare",
        help="paired bootstrap comparison of two systems on the same slides",
        description=(
            "Difference A - B of mean per-slide scores with a paired bootstrap confidence "
            "interval (resampling slides) and a two-sided p-value. A system is a run folder (or "
            "a folder of its seeds), or a selector into the results table: model:encoder[:seed] "
            "or model=...,encoder=...[,seed=...,dataset=...]."
        ),
    )
    p.add_argument("a", help="system A")
    p.add_argument("b", help="system B")
    _table_option(p)
    p.add_argument("--dataset", help="dataset of both systems (for selectors)")
    _split_and_output(p, "result")
    p.add_argument(
        "--metrics", help="comma-separated metrics (default: BLEU-4, METEOR, ROUGE-L, CRQS)"
    )
    p.add_argument(
        "--n-bootstrap", type=int, default=10_000, help="bootstrap resamples (default: 10000)"
    )
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: 0)")
    p.add_argument("--confidence", type=float, default=0.95, help="interval level (default: 0.95)")
    p.add_argument(
        "--allow-different-sets",
        action="store_true",
        help=(
            "compare on the slides both systems scored when their slide sets differ "
            "(default: refuse)"
        ),
    )
    p.add_argument(
        "--format", default="markdown", choices=("markdown", "csv", "json"), help="output format"
    )
    p.set_defaults(func=run_compare)


def _figures_parser(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "figures", help="METEOR vs CRQS scatter, CRQS bars by encoder, field recall heat maps"
    )
    _table_option(p)
    p.add_argument(
        "--out",
        type=Path,
        default=Path("results") / "figures",
        help="folder for the figures (default: results/figures)",
    )
    p.add_argument(
        "--kinds",
        default="scatter,bars,fields",
        help="comma-separated: scatter, bars, fields (default: all)",
    )
    p.add_argument(
        "--dataset", action="append", help="only this dataset (repeatable; default: all)"
    )
    p.add_argument("--split", default="test", help="split (default: test)")
    p.add_argument("--x", default="METEOR", help="scatter x metric (default: METEOR)")
    p.add_argument("--y", default="CRQS", help="scatter y metric (default: CRQS)")
    p.add_argument("--metric", default="CRQS", help="bar metric (default: CRQS)")
    p.add_argument(
        "--ci",
        default="auto",
        choices=("auto", "seeds", "cases"),
        help=(
            "bar whiskers: t interval over seeds, bootstrap over slides, or auto (seeds when >= 3)"
        ),
    )
    p.add_argument("--formats", default="png,pdf", help="file formats (default: png,pdf)")
    p.set_defaults(func=run_figures)


def run_collect(args: argparse.Namespace) -> int:
    from pathreport.results.collect import CollectOutcome, Defaults, collect_local
    from pathreport.results.store import (
        default_table_path,
        empty_table,
        read_table,
        upsert,
        write_table,
    )
    from pathreport.results.wandb_runs import collect_wandb_project

    table_path = args.table or default_table_path()
    defaults = Defaults(
        dataset=args.dataset, model=args.model, encoder=args.encoder, seed=args.seed
    )
    outcome = CollectOutcome()
    local = [s for s in args.sources if not s.startswith("wandb:")]
    for source in args.sources:
        if source.startswith("wandb:"):
            project = source.removeprefix("wandb:").strip("/")
            runs, ignored = collect_wandb_project(
                project, download_dir=table_path.parent / "wandb", defaults=defaults
            )
            outcome.runs += runs
            outcome.ignored += ignored
        elif not Path(source).exists():
            raise FileNotFoundError(
                f"{source}: no such file or folder to collect from (for a W&B project write "
                "wandb:<entity>/<project>)."
            )
    if local:
        outcome.extend(collect_local(local, defaults=defaults, skip_invalid=args.skip_invalid))
    outcome.runs = _drop_wandb_copies(outcome)
    existing = empty_table() if args.fresh or not table_path.is_file() else read_table(table_path)
    merged, report = upsert(existing, outcome.runs)
    write_table(merged, table_path)
    print(
        f"collected {len(outcome.runs)} run(s) from {', '.join(args.sources)}: {len(report.new)} "
        f"new, {len(report.updated)} updated, {len(report.unchanged)} unchanged"
    )
    print(f"results table {table_path}: {report.total_runs} run(s)")
    _print_left_out("ignored (not report summaries)", outcome.ignored, args.verbose)
    _print_left_out("not counted twice", outcome.duplicates, args.verbose)
    _print_left_out("SKIPPED (malformed)", outcome.invalid, True)
    return 0


def _drop_wandb_copies(outcome: Any) -> list[Any]:
    """A W&B project run that is also a collected run folder is the same run: keep the files."""
    from_files = {r.key for r in outcome.runs if r.source == "files"}
    kept = []
    for run in outcome.runs:
        if run.source == "wandb" and run.key in from_files:
            outcome.duplicates.append((run.summary, f"same run as the metrics files of {run.run}"))
        else:
            kept.append(run)
    return kept


def _print_left_out(title: str, items: list[tuple[str, str]], verbose: bool) -> None:
    if not items:
        return
    print(f"{title}: {len(items)}" + ("" if verbose else " (--verbose lists them)"))
    if verbose:
        for path, reason in items:
            print(f"  {path}: {reason}")


def run_list(args: argparse.Namespace) -> int:
    from pathreport.results.store import read_table

    frame = read_table(args.table)
    runs = frame.drop_duplicates(["run", "split"])
    if args.dataset:
        runs = runs[runs["dataset"] == args.dataset]
    if args.split:
        runs = runs[runs["split"] == args.split]
    columns = [
        "dataset",
        "split",
        "model",
        "encoder",
        "seed",
        "n_cases",
        "evaluated_set",
        "source",
        "run",
    ]
    rows = [
        [("" if _missing(v) else str(v)) for v in values]
        for values in runs[columns].itertuples(index=False)
    ]
    if not rows:
        print("No runs.")
        return 0
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
    print("  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip())
    for row in rows:
        print("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip())
    return 0


def _missing(value: Any) -> bool:
    try:
        return value is None or value != value or str(value) == "<NA>"
    except (TypeError, ValueError):
        return False


def run_table(args: argparse.Namespace) -> int:
    from pathreport.results.metrics import parse_metric_list
    from pathreport.results.render import render
    from pathreport.results.store import read_table
    from pathreport.results.views import build_views

    frame = read_table(args.table)
    metrics = parse_metric_list(args.metrics, ()) or None
    views = build_views(frame, by=args.by, dataset=args.dataset, split=args.split, metrics=metrics)
    text = render(views, args.format, digits=args.digits)
    _emit(text, args.output)
    if args.format != "markdown":
        for view in views:
            for note in view.notes:
                print(f"note ({view.dataset}): {note}", file=sys.stderr)
    return 0


def _emit(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    print(f"wrote {output}")


def run_compare(args: argparse.Namespace) -> int:
    from pathreport.results.compare import (
        compare_systems,
        comparison_markdown,
        comparison_records,
        resolve_system,
    )
    from pathreport.results.metrics import COMPARE_METRICS, parse_metric_list
    from pathreport.results.store import default_table_path, read_table

    table_path = args.table or default_table_path()
    table = None
    if not (Path(args.a).exists() and Path(args.b).exists()) and table_path.is_file():
        table = read_table(table_path)
    a = resolve_system(args.a, table, split=args.split, dataset=args.dataset)
    b = resolve_system(args.b, table, split=args.split, dataset=args.dataset)
    result = compare_systems(
        a,
        b,
        metrics=parse_metric_list(args.metrics, COMPARE_METRICS),
        n_resamples=args.n_bootstrap,
        seed=args.seed,
        confidence=args.confidence,
        allow_different_sets=args.allow_different_sets,
    )
    if args.format == "markdown":
        text = comparison_markdown(result)
    elif args.format == "json":
        text = (
            json.dumps(
                {
                    "records": comparison_records(result),
                    "notes": result.notes,
                    "n_resamples": result.n_resamples,
                    "seed": result.seed,
                },
                indent=2,
            )
            + "\n"
        )
    else:
        text = _records_csv(comparison_records(result))
    _emit(text, args.output)
    return 0


def _records_csv(records: list[dict[str, Any]]) -> str:
    import csv
    import io

    columns = list(dict.fromkeys(k for r in records for k in r))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return buffer.getvalue()


def run_figures(args: argparse.Namespace) -> int:
    from pathreport.results.figures import make_figures
    from pathreport.results.metrics import canonical_metric
    from pathreport.results.store import read_table

    frame = read_table(args.table)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    formats = [f.strip().lstrip(".") for f in args.formats.split(",") if f.strip()]
    outputs = make_figures(
        frame,
        args.out,
        kinds=kinds,
        split=args.split,
        datasets=args.dataset,
        x=canonical_metric(args.x),
        y=canonical_metric(args.y),
        metric=canonical_metric(args.metric),
        ci=args.ci,
        formats=formats,
    )
    for output in outputs:
        for dataset, stats in sorted(output.stats.items()):
            rho = stats["spearman"]
            print(
                f"{dataset}: Spearman rho({args.x}, {args.y}) "
                f"= {'n/a' if rho != rho else f'{rho:.3f}'} over {stats['n']} model x encoder "
                "points"
            )
        for note in output.notes:
            print(f"note: {note}")
        for path in output.paths:
            print(f"wrote {path}")
    return 0
