"""Speed of a full PathLang run: all four tasks under all five aggregation settings.

Generates N slides x T tiles x D-dimensional joint embeddings with a known class structure
(``pathreport.pathlang.synthetic``) for one dataset's prompts (PANDA by default: six classes, the
largest prompt set, so the most query columns), then times ``run_pathlang`` with the paper's
protocol. The target is under 2 minutes for 1,000 x 500 x 512 on 2 CPU cores.

    python benchmarks/pathlang_speed.py                       # 1000 slides x 500 x 512-d, PANDA
    python benchmarks/pathlang_speed.py --threads 2 --h5 DIR  # also through TRIDENT h5 files in DIR

Data generation (and, with ``--h5``, writing the files) is not timed; reading them is. The report
gives wall time, the process's CPU time and the load average, because a busy machine inflates the
wall time: on two idle cores the wall time approaches half the CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time

import numpy as np
import torch

from pathreport.pathlang import synthetic
from pathreport.pathlang.benchmark import run_pathlang
from pathreport.pathlang.corpus import load_corpus
from pathreport.pathlang.slides import SlideSet, load_slide_set


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slides", type=int, default=1000)
    parser.add_argument("--tiles", type=int, default=500)
    parser.add_argument("--dim", type=int, default=512)
    parser.add_argument("--dataset", default="panda")
    parser.add_argument(
        "--threads", type=int, default=None, help="torch threads (default: torch's choice)"
    )
    parser.add_argument(
        "--h5", metavar="DIR", help="write the slides as TRIDENT h5 files in DIR and read them back"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the timings as JSON")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)

    corpus = load_corpus()
    ds = corpus.dataset(args.dataset)
    rng = np.random.default_rng(0)
    y = rng.integers(0, ds.num_classes, args.slides)
    directions = synthetic.class_directions(ds.num_classes, args.dim, seed=0)
    encoder = synthetic.text_encoder(directions, synthetic.class_of_texts(ds), strength=1.0)
    tiles = synthetic.slide_tiles(
        y, directions, n_tiles=args.tiles, signal_fraction=0.05, strength=0.5, seed=1
    )
    ids = [f"slide_{i:05d}" for i in range(args.slides)]
    labels = {s: ds.classes[c] for s, c in zip(ids, y, strict=True)}

    if args.h5:
        from pathreport.data.trident import write_features

        folder = args.h5
        for s, t in zip(ids, tiles, strict=True):
            write_features(
                os.path.join(folder, f"{s}.h5"), t, coords=np.zeros((len(t), 2), dtype=np.int64)
            )
        labels_file = os.path.join(folder, "labels.csv")
        with open(labels_file, "w") as f:
            f.write("slide_id,label\n" + "".join(f"{s},{c}\n" for s, c in labels.items()))
        del tiles
        slides = load_slide_set(folder, labels_file, ds)
    else:
        slides = SlideSet.from_arrays(dict(zip(ids, tiles, strict=True)), labels, ds)

    load_before = os.getloadavg()[0]
    started, cpu_started = time.perf_counter(), time.process_time()
    result = run_pathlang(slides, ds, encoder, model="synthetic")
    total, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        result.write(out)
        write_s = time.perf_counter() - started
    report = {
        "slides": args.slides,
        "tiles_per_slide": args.tiles,
        "dim": args.dim,
        "dataset": ds.key,
        "settings": [s.name for s in result.settings],
        "tasks": list(result.tasks),
        "torch_threads": torch.get_num_threads(),
        "cpu_count": os.cpu_count(),
        "from_h5": bool(args.h5),
        "run_s": round(total, 2),
        "run_cpu_s": round(cpu, 2),
        "write_results_s": round(write_s, 2),
        "load_average_before": round(load_before, 2),
        "load_average_after": round(os.getloadavg()[0], 2),
        **result.manifest["timing"],
        "score_columns": result.manifest["queries"]["score_columns"],
        "t1_accuracy_top1": result.tasks["t1"]
        .units["classification"]
        .per_setting["top1"]["accuracy"],
    }
    print(json.dumps(report, indent=2))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
