"""``pathreport pathlang``: run the PathLang benchmark, list its texts, or build results tables.

Three modes of one command:

* run (default): ``pathreport pathlang --vlm conch --dataset camelyon16 --slides DIR --labels CSV
  --out DIR``
* texts: ``pathreport pathlang --list-texts --dataset camelyon16`` prints every string a run encodes
  (to embed them elsewhere for the ``precomputed`` adapter);
* tables: ``pathreport pathlang --table RUN_DIR [RUN_DIR ...] --out DIR`` writes the paper's
  model x dataset tables (Markdown and CSV) and the aggregation-sensitivity tables.

Every option of :class:`pathreport.pathlang.config.PathLangConfig` is a flag of the same name.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import MISSING, fields
from typing import Any

from pathreport.errors import UserError
from pathreport.pathlang.config import CHOICES, TASKS, PathLangConfig

_HELP = {
    "tasks": "task families to run",
    "ratios": "Hybrid Top-K ratios r",
    "include_mean": "also run query-independent mean pooling",
    "k_min": "K_min of Hybrid Top-K",
    "normalize_tiles": "L2-normalise tile embeddings before averaging",
    "fixed_setting": "setting of the non-oracle report (top1, top5, top10, top50, mean)",
    "auc_scores": "AUC on raw cosines or softmax rows",
    "auc_softmax_scale": "logit scale before the softmax (auc_scores=softmax)",
    "t2_text_pool": "I2T candidates: positives of all datasets or of this one",
    "t2_selection_metric": "metric selecting each T2 direction's oracle setting",
    "i2i_query": "text query conditioning I2I slide embeddings under Top-K",
    "t3_selection": "metric selecting the T3 oracle setting",
    "t3_ensemble_draws": "random prompt subsets per ensemble size",
    "seed": "seed of ensemble draws and bootstrap",
    "bootstrap_resamples": "bootstrap resamples for P.C./PSS intervals",
    "std_ddof": "delta degrees of freedom of standard deviations",
    "t4_set3_candidate": "Set 3 target: ground truth or label-specific string",
    "t4_set4_pool": "Set 4 pool: as printed (19) or one entry per label (20)",
    "t4_duplicates": "duplicated pool strings: each takes a rank, or merged",
    "device": "torch device for aggregation (and the VLM)",
    "workers": "slides scored in parallel (0: one per torch thread on CPU)",
    "text_batch_size": "strings per text-encoder call",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "pathlang",
        help="PathLang benchmark of dual-encoder VLMs (run, --list-texts, --table)",
        description=(
            "Run PathLang (T1-T4) for one VLM on one dataset, list the texts it encodes, or "
            "build results tables from several runs. Options and their defaults: "
            "docs/pathlang.md."
        ),
    )
    mode = parser.add_argument_group("what to do")
    mode.add_argument(
        "--table", nargs="+", metavar="RUN", help="build results tables from these run folders"
    )
    mode.add_argument(
        "--list-texts", action="store_true", help="print every text a run on --dataset encodes"
    )
    run = parser.add_argument_group("run")
    run.add_argument("--vlm", help="VLM adapter name (pathreport list vlms)")
    run.add_argument(
        "--dataset",
        help="dataset name (panda, unitopatho, camelyon16, camelyon17, tcga_gbmlgg, or yours)",
    )
    run.add_argument(
        "--slides", help="folder of <slide_id>.h5 tile embeddings (TRIDENT layout, joint VLM space)"
    )
    run.add_argument("--labels", help="CSV with columns slide_id,label")
    run.add_argument("--out", help="output folder (run results, or tables with --table)")
    run.add_argument(
        "--prompts", help="prompts file merged over the shipped corpus (new datasets, replacements)"
    )
    run.add_argument(
        "--vlm-checkpoint", help="weights location for the adapter (hub id, folder or file)"
    )
    run.add_argument(
        "--vlm-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="extra adapter option (repeatable), e.g. architecture=ViT-B-16",
    )
    run.add_argument(
        "--text-embeddings", help="text-embedding file for the precomputed adapter (.npz or .json)"
    )
    run.add_argument("--model-name", help="model name in the results (default: the adapter name)")
    run.add_argument(
        "--skip-missing",
        action="store_true",
        help="leave out labelled slides without a file or tiles (listed in summary.json)",
    )
    tables = parser.add_argument_group("tables (--table)")
    tables.add_argument(
        "--view",
        choices=("oracle", "fixed"),
        default="oracle",
        help="which setting's values to tabulate",
    )
    tables.add_argument("--tables", nargs="+", metavar="NAME", help="table names (default: all)")
    options = parser.add_argument_group("benchmark options (PathLangConfig)")
    _add_config_flags(options)
    parser.set_defaults(func=run_command)


def _add_config_flags(group: argparse._ArgumentGroup) -> None:
    for f in fields(PathLangConfig):
        flag = "--" + f.name.replace("_", "-")
        default = f.default if f.default is not MISSING else None
        help_text = f"{_HELP.get(f.name, f.name)} (default: {_show(default)})"
        if isinstance(default, bool):
            group.add_argument(
                flag,
                dest=f.name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=help_text,
            )
        elif f.name == "tasks":
            group.add_argument(
                flag, dest=f.name, nargs="+", choices=TASKS, default=None, help=help_text
            )
        elif f.name == "ratios":
            group.add_argument(
                flag, dest=f.name, nargs="+", type=float, default=None, help=help_text
            )
        else:
            group.add_argument(
                flag,
                dest=f.name,
                type=type(default),
                choices=CHOICES.get(f.name),
                default=None,
                help=help_text,
            )


def _show(value: Any) -> str:
    return " ".join(map(str, value)) if isinstance(value, tuple) else str(value)


def config_from_args(args: argparse.Namespace) -> PathLangConfig:
    """The run options: defaults, overridden by the flags the user gave."""
    given = {
        f.name: getattr(args, f.name)
        for f in fields(PathLangConfig)
        if getattr(args, f.name, None) is not None
    }
    return PathLangConfig(**given)


def run_command(args: argparse.Namespace) -> int:
    from pathreport.pathlang.vlm import MissingDependency

    try:
        if args.table:
            return _tables(args, UserError)
        if args.list_texts:
            return _list_texts(args, UserError)
        return _run(args, UserError)
    except MissingDependency as err:
        raise UserError(str(err)) from None


def _require(args: argparse.Namespace, names: list[str], error: type[Exception], mode: str) -> None:
    missing = ["--" + n.replace("_", "-") for n in names if not getattr(args, n)]
    if missing:
        raise error(f"{mode} needs {', '.join(missing)}.")


def _run(args: argparse.Namespace, error: type[Exception]) -> int:
    _require(args, ["vlm", "dataset", "slides", "labels", "out"], error, "A PathLang run")
    from pathreport.pathlang.benchmark import run_pathlang
    from pathreport.pathlang.corpus import load_corpus
    from pathreport.pathlang.slides import load_slide_set
    from pathreport.registry import VLMS

    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    config = config_from_args(args)
    corpus = load_corpus(args.prompts)
    dataset = corpus.dataset(args.dataset)
    adapter_cls = VLMS.get(args.vlm).obj
    options = _adapter_options(args.vlm_option, error)
    if args.text_embeddings:
        options["text_embeddings"] = args.text_embeddings
    adapter = adapter_cls(args.vlm_checkpoint, device=config.device, **options)
    slides = load_slide_set(args.slides, args.labels, dataset, skip_missing=args.skip_missing)
    result = run_pathlang(
        slides, dataset, adapter, config=config, corpus=corpus, model=args.model_name or args.vlm
    )
    written = result.write(args.out)
    print(_headline(result.summary()))
    print(f"Wrote {len(written)} files to {args.out} (summary: {written['summary']}).")
    return 0


def _adapter_options(items: list[str], error: type[Exception]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise error(f"--vlm-option expects KEY=VALUE, found {item!r}.")
        try:
            options[key.replace("-", "_")] = json.loads(value)
        except json.JSONDecodeError:
            options[key.replace("-", "_")] = value
    return options


def _list_texts(args: argparse.Namespace, error: type[Exception]) -> int:
    _require(args, ["dataset"], error, "--list-texts")
    import numpy as np

    from pathreport.pathlang.benchmark import TASK_CLASSES
    from pathreport.pathlang.corpus import load_corpus
    from pathreport.pathlang.queries import QueryBank
    from pathreport.pathlang.tasks.base import TaskContext

    config = config_from_args(args)
    corpus = load_corpus(args.prompts)
    bank = QueryBank()
    ctx = TaskContext(
        corpus.dataset(args.dataset), corpus, config, bank, np.zeros(0, dtype=np.int64), []
    )
    for name, task in TASK_CLASSES.items():
        if name in config.tasks:
            task(ctx)
    for text in bank.required_texts():
        print(text)
    return 0


def _tables(args: argparse.Namespace, error: type[Exception]) -> int:
    _require(args, ["out"], error, "--table")
    from pathreport.pathlang.tables import load_runs, write_tables

    runs = load_runs(args.table)
    markdown, written = write_tables(runs, args.out, names=args.tables, view=args.view)
    print(markdown)
    print(f"Wrote {len(written)} files to {args.out}.")
    return 0


def _headline(summary: dict[str, Any]) -> str:
    """A few oracle numbers for the terminal; everything else is in the files."""
    lines = [
        f"PathLang {summary['model']} on {summary['dataset_key']} ({summary['n_slides']} slides); "
        "oracle = best setting per unit on the evaluation labels (upper bound)"
    ]
    picks = {
        "t1": [("classification", ("accuracy", "auc", "macro_f1"))],
        "t2": [(u, ("mrr", "ndcg")) for u in ("i2i", "i2t", "t2i")],
        "t3": [("paraphrase", ("v1.mean_accuracy", "v1.pss", "v2.mean_accuracy", "v2.pss"))],
        "t4": [(u, ("recall@1", "mean_recall")) for u in ("set1", "set2", "set3", "set4")],
    }
    for task, units in picks.items():
        results = summary["results"].get(task, {})
        for unit, metrics in units:
            if unit not in results:
                continue
            for view in ("oracle", "fixed"):
                values = results[unit][view]
                shown = []
                for m in metrics:
                    v: Any = values
                    for part in m.split("."):
                        v = v.get(part) if isinstance(v, dict) else None
                    shown.append(f"{m}={v:.3f}" if isinstance(v, (int, float)) else f"{m}=n/a")
                lines.append(f"  {task}.{unit} [{view}: {values['setting']}] " + " ".join(shown))
    return "\n".join(lines)
