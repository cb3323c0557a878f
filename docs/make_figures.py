"""Regenerate the README's results table and three figures from real runs on the synthetic dataset.

    python docs/make_figures.py                              # runs the sweep below, then draws
    python docs/make_figures.py --runs logs/train/multiruns/<time>   # draws from a finished sweep

It does what a user does: ``python train.py -m seed=0,1,2 model=<every model and baseline>
encoder=uni2`` with each model's default settings (the README's one-command runs, three seeds),
``pathreport results collect`` on the sweep folder, ``pathreport results figures`` and
``pathreport results table`` (mean ± std over seeds, with each run's wall-clock time). On 2 CPU
cores the sweep takes about 70 minutes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MODELS = "most_frequent,nearest_neighbor,migen,histgen,bigen,scout,slide_llm"
TABLE_METRICS = "BLEU_1,BLEU_4,METEOR,ROUGE_L,CIDEr,CRQS,KIR,HR,wall_seconds"
CLI = [sys.executable, "-m", "pathreport.app.cli"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=Path, help="a finished sweep folder to draw from (default: run the sweep)"
    )
    parser.add_argument(
        "--work", type=Path, help="folder for the sweep and the table (default: a temporary folder)"
    )
    parser.add_argument(
        "--models", default=MODELS, help="comma-separated models (default: all, with baselines)"
    )
    parser.add_argument("--seeds", default="0,1,2", help="comma-separated seeds (default: 0,1,2)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures", help="figure folder")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="pathreport-figures-"))
    runs = args.runs
    if runs is None:
        runs = work / "runs"
        _run(
            [
                sys.executable,
                str(ROOT / "train.py"),
                "-m",
                f"seed={args.seeds}",
                f"model={args.models}",
                "encoder=uni2",
                "logger=none",
                f"hydra.sweep.dir={runs}",
            ]
        )
    table = work / "results.csv"
    _run([*CLI, "results", "collect", str(runs), "--out", str(table), "--fresh"])
    _run(
        [
            *CLI,
            "results",
            "figures",
            "--table",
            str(table),
            "--out",
            str(args.out),
            "--formats",
            "png",
        ]
    )
    _run(
        [
            *CLI,
            "results",
            "table",
            "--table",
            str(table),
            "--by",
            "model",
            "--metrics",
            TABLE_METRICS,
        ]
    )
    return 0


def _run(command: list[str]) -> None:
    print("$", " ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main())
