"""Regenerate the example figures in ``docs/figures/`` from real runs on the synthetic dataset.

    python docs/make_figures.py                  # trains the grid, writes docs/figures/*.png
    python docs/make_figures.py --work figure-runs --epochs 5 --seeds 0,1,2

It does what a user does: ``python train.py -m`` over models x encoders x seeds (small generator
sizes so it runs on a CPU in minutes), ``pathreport results collect`` on the sweep folder, then
``pathreport results figures``, and prints the method-wise table. The numbers are those of tiny
models trained for a few epochs on synthetic slides: the figures show the layout, not findings.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Generator sizes small enough for a CPU; the keys each generator's config accepts.
SMALL = {
    "migen": ["model.d_model=32", "model.d_ff=64", "model.d_vf=32", "model.num_heads=2", "model.num_layers=2"],
    "histgen": ["model.d_model=32", "model.d_ff=64", "model.d_vf=32", "model.num_heads=2", "model.num_layers=2",
                "model.topk=4", "model.prototype_num=6", "model.region_size=4", "model.cmm_size=16"],
    "most_frequent": [],
    "nearest_neighbor": [],
}
CLI = [sys.executable, "-m", "pathreport.app.cli"]
DATA = ["data=synthetic", "data.synthetic.n_slides=60", "data.synthetic.min_patches=4", "data.synthetic.max_patches=12",
        "data.batch_size=4", "data.max_report_tokens=40"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, help="folder for the runs (default: a temporary folder)")
    parser.add_argument("--models", default=",".join(SMALL), help="comma-separated models")
    parser.add_argument("--encoders", default="conch15,uni2", help="comma-separated encoders")
    parser.add_argument("--seeds", default="0,1", help="comma-separated seeds")
    parser.add_argument("--epochs", type=int, default=4, help="training epochs")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures", help="figure folder")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="pathreport-figures-"))
    for model in args.models.split(","):
        _run([sys.executable, str(ROOT / "train.py"), "-m", f"model={model}", f"encoder={args.encoders}",
              f"seed={args.seeds}", *DATA, *SMALL.get(model, []), f"trainer.max_epochs={args.epochs}",
              "trainer.accelerator=cpu", "trainer.enable_model_summary=false", "callbacks.progress_bar=none",
              "logger=none", "decoding.beam_size=3", f"hydra.sweep.dir={work / 'runs' / model}"])
    table = work / "results.csv"
    _run([*CLI, "results", "collect", str(work / "runs"), "--out", str(table), "--fresh"])
    _run([*CLI, "results", "figures", "--table", str(table), "--out", str(args.out), "--formats", "png"])
    _run([*CLI, "results", "table", "--table", str(table), "--by", "model"])
    _run([*CLI, "results", "table", "--table", str(table), "--by", "encoder"])
    return 0


def _run(command: list[str]) -> None:
    print("$", " ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main())
