"""How fast the training loader delivers slides from TRIDENT h5 files, with and without the cache.

Writes its own TRIDENT job directory (``--slides`` slides of N patches x 1536 float32, in
TRIDENT's layout: one HDF5 chunk per patch) and a split file, then runs the real training loader
(``ReportDataModule.train_dataloader``: reading, checking, bag policy, collation) for each worker
count, reading the HDF5 files (``h5``) and the float16 feature cache (``cache``). Each setting runs
``--epochs`` epochs; the table shows the last one (persistent workers are started by then) in
slides per second and in MB per second of float32 features delivered (the cache reads half as many
bytes from disk). ``cache build`` is the one-off cost of building the cache, per slide.

By default the files stay in the page cache, as a dataset that fits in memory does after its first
epoch; ``--cold`` evicts them before every epoch (``posix_fadvise``), so that the disk is read.

    python benchmarks/data_throughput.py   # 1,000 and 10,000 patches, 0/2/4 workers
    python benchmarks/data_throughput.py --slides 32 --patches 10000 --workers 0 4 --cold
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

DIM = 1536


def write_job(root: Path, slides: int, patches: int) -> tuple[Path, Path, float]:
    """A TRIDENT job directory with ``slides`` training slides (plus one val and one test slide)."""
    import numpy as np

    from pathreport.data.trident import feature_dir, write_features
    from pathreport.registry import ENCODERS

    folder = feature_dir(root / "job", ENCODERS["uni2"])
    rng = np.random.default_rng(0)
    ids = [f"slide{i:04d}" for i in range(slides + 2)]
    for slide_id in ids:
        coords = np.stack([np.arange(patches) % 100, np.arange(patches) // 100], axis=1) * 512
        write_features(
            folder / f"{slide_id}.h5",
            rng.standard_normal((patches, DIM), dtype=np.float32),
            coords,
            encoder="uni_v2",
        )
    split = {
        "train": [{"id": i, "report": "benign ."} for i in ids[:slides]],
        "val": [{"id": ids[-2], "report": "benign ."}],
        "test": [{"id": ids[-1], "report": "benign ."}],
    }
    split_path = root / "split.json"
    split_path.write_text(json.dumps(split))
    return root / "job", split_path, sum(p.stat().st_size for p in folder.glob("*.h5")) / len(ids)


def evict(paths: list[Path]) -> None:
    """Drop files from the page cache (clean pages only; needs no privileges)."""
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def measure(
    job: Path,
    split: Path,
    cache: Path | None,
    workers: int,
    batch_size: int,
    epochs: int,
    cold: bool,
) -> dict:
    from omegaconf import OmegaConf

    from pathreport.app.config import DataConfig
    from pathreport.data.datamodule import ReportDataModule
    from pathreport.registry import ENCODERS

    cfg = OmegaConf.structured(
        DataConfig(
            name="bench",
            splits=str(split),
            batch_size=batch_size,
            num_workers=str(workers),
            feature_cache=str(cache) if cache else None,
        )
    )
    dm = ReportDataModule(cfg, ENCODERS["uni2"], features_dir=str(job))
    started = time.perf_counter()
    dm.setup()
    setup_s = time.perf_counter() - started
    ds = dm.datasets["train"]
    files = (
        [c.features_path for c in ds.caches.values()] + [c.coords_path for c in ds.caches.values()]
        if ds.caches
        else [dm.sources[0].path(i) for i in ds.ids]
    )
    loader = dm.train_dataloader()
    seconds, patches = [], 0
    for _ in range(epochs):
        if cold:
            evict(files)
        started = time.perf_counter()
        patches = sum(int(batch.mask.sum()) for batch in loader)
        seconds.append(time.perf_counter() - started)
    del loader  # stops persistent workers
    return {
        "slides": len(ds),
        "seconds": seconds,
        "setup_s": setup_s,
        "mb": patches * DIM * 4 / 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--patches", nargs="+", type=int, default=[1000, 10000])
    parser.add_argument("--workers", nargs="+", type=int, default=[0, 2, 4])
    parser.add_argument(
        "--slides", type=int, default=8, help="training slides per size (default 8)"
    )
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument(
        "--epochs", type=int, default=2, help="epochs per setting; the last is reported"
    )
    parser.add_argument("--no-cache", action="store_true", help="measure the h5 files only")
    parser.add_argument(
        "--cold", action="store_true", help="evict the files from the page cache before each epoch"
    )
    parser.add_argument(
        "--dir", default=None, help="where to write the temporary files (default: the system's)"
    )
    parser.add_argument("--json", default=None, help="also write the rows to this file")
    args = parser.parse_args(argv)

    import torch

    rows = []
    print(
        f"{args.slides} slides per size, batch {args.batch_size}, {DIM}-d float32 "
        f"features, {'cold' if args.cold else 'warm'} page cache, {os.cpu_count()} CPUs, torch "
        f"threads {torch.get_num_threads()}"
    )
    print(
        f"{'patches':>7} {'source':>6} {'workers':>7} {'slides/s':>9} {'MB/s':>8} "
        f"{'vs h5, 0 workers':>17}"
    )
    for patches in args.patches:
        with tempfile.TemporaryDirectory(dir=args.dir, prefix="pathreport-data-") as tmp:
            root = Path(tmp)
            job, split, file_bytes = write_job(root, args.slides, patches)
            base = None
            for source in ["h5"] + ([] if args.no_cache else ["cache"]):
                cache = root / "cache" if source == "cache" else None
                if cache is not None:  # the one-off build, timed apart
                    built = measure(job, split, cache, 0, args.batch_size, 0, args.cold)
                    per_slide = built["setup_s"] / (args.slides + 2)
                    disk = sum(p.stat().st_size for p in cache.rglob("*.npy")) / (args.slides + 2)
                    print(
                        f"{patches:>7} {'cache build':>14} {per_slide:>9.3f} s/slide; "
                        f"{disk / 1e6:.1f} MB/slide on disk (h5: {file_bytes / 1e6:.1f})",
                        flush=True,
                    )
                    rows.append(
                        {
                            "patches": patches,
                            "source": "cache build",
                            "s_per_slide": per_slide,
                            "cache_mb_per_slide": disk / 1e6,
                            "h5_mb_per_slide": file_bytes / 1e6,
                        }
                    )
                for workers in args.workers:
                    out = measure(
                        job, split, cache, workers, args.batch_size, args.epochs, args.cold
                    )
                    last = out["seconds"][-1]
                    rate = out["slides"] / last
                    base = base or rate
                    rows.append(
                        {
                            "patches": patches,
                            "source": source,
                            "workers": workers,
                            "slides_per_s": rate,
                            "mb_per_s": out["mb"] / last,
                            "epoch_seconds": out["seconds"],
                        }
                    )
                    print(
                        f"{patches:>7} {source:>6} {workers:>7} {rate:>9.2f} "
                        f"{out['mb'] / last:>8.0f} {rate / base:>16.2f}x",
                        flush=True,
                    )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
        print(f"rows written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
