"""Training cost per slide at large patch counts: time and peak memory of forward + backward + step.

Decoding runs without dropout, so PyTorch's fused attention kernels serve it on every device. A
training step is different on a CPU: with attention dropout, ``scaled_dot_product_attention``
falls back to its math kernel, which keeps every layer's (heads x N x N) scores for the backward
pass. This benchmark measures what a training step costs at N patches with the attention of
``pathreport.generation.nn.attention`` (query blocks under checkpointing, ``blocked``) and with the
plain kernel call (``plain``, what the generators did before), each in a fresh process so that its
peak memory (max RSS) is its own.

Generators are built at their reference size (1536-d UNI2-h features, vocabulary 348) with random
weights; each step trains on one slide of N patches and a 40-token report (AdamW). A step at 64
patches warms up first.

    python benchmarks/train_patches.py                                   # MI-Gen, 1,000 and 10,000
    python benchmarks/train_patches.py --models migen histgen --patches 2500 5000 --steps 2
    python benchmarks/train_patches.py --attention plain --memory-limit-gib 8

``--memory-limit-gib`` caps each process's address space, so a setting that would need more memory
than the machine can spare fails in its own process instead of pushing others out of memory.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time

MODES = ("blocked", "plain")


def run_one(
    model: str, patches: int, attention: str, steps: int, tokens: int, threads: int, precision: str
) -> dict:
    import torch

    from pathreport import nn as pr_nn
    from pathreport.data.batch import SlideBatch
    from pathreport.generation.generator import GeneratorContext
    from pathreport.registry import GENERATORS

    if threads:
        torch.set_num_threads(threads)
    if attention == "plain":
        pr_nn.ATTENTION_BLOCK_SCORES = None
    torch.manual_seed(0)
    entry = GENERATORS.get(model)
    ctx = GeneratorContext(vocab_size=348, feature_dim=1536, max_report_tokens=tokens)
    generator = entry.obj(entry.config(), ctx).train()
    optimizer = torch.optim.AdamW(generator.parameters(), lr=1e-5)

    def batch_of(n: int) -> SlideBatch:
        target = torch.randint(4, 348, (1, tokens + 2))
        target[:, 0], target[:, -1] = ctx.bos_id, ctx.eos_id
        return SlideBatch(
            ids=["bench"],
            features=torch.randn(1, n, 1536),
            mask=torch.ones(1, n, dtype=torch.bool),
            coords=torch.zeros(1, n, 2, dtype=torch.long),
            tokens=target,
        )

    def step(batch: SlideBatch) -> float:
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=precision == "bf16-mixed"):
            loss, _ = generator.loss(batch)
        loss.backward()
        optimizer.step()
        return float(loss)

    step(batch_of(64))
    batch = batch_of(patches)
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        loss = step(batch)
        times.append(time.perf_counter() - start)
    return {
        "model": model,
        "patches": patches,
        "attention": attention,
        "precision": precision,
        "step_s": round(min(times), 3),
        "loss": round(loss, 3),
        "peak_rss_gib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2),
        "threads": torch.get_num_threads(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=["migen"])
    parser.add_argument("--patches", nargs="+", type=int, default=[1000, 10000])
    parser.add_argument("--attention", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--precision", default="32-true", choices=["32-true", "bf16-mixed"])
    parser.add_argument(
        "--steps", type=int, default=1, help="timed steps per case; the fastest is reported"
    )
    parser.add_argument("--tokens", type=int, default=40, help="report length in tokens")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument(
        "--memory-limit-gib",
        type=float,
        default=0,
        help="cap each case's address space (0: no cap); a case above it is reported as failed",
    )
    parser.add_argument("--json", default=None, help="also write the rows to this file")
    parser.add_argument(
        "--one", nargs=3, metavar=("MODEL", "PATCHES", "ATTENTION"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)

    if args.one:
        if args.memory_limit_gib:
            limit = int(args.memory_limit_gib * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        row = run_one(
            args.one[0],
            int(args.one[1]),
            args.one[2],
            args.steps,
            args.tokens,
            args.threads,
            args.precision,
        )
        print(json.dumps(row))
        return 0

    from decode_patches import run_fresh  # this folder's scripts import each other

    rows = []
    print(
        f"one slide per step, {args.tokens}-token report, {args.precision}, AdamW; fresh "
        "process per case"
    )
    print(f"{'model':8} {'patches':>7} {'attention':>9} {'step s':>8} {'peak RSS GiB':>12}")
    for model in args.models:
        for patches in args.patches:
            for mode in args.attention:
                options = {
                    "steps": args.steps,
                    "tokens": args.tokens,
                    "threads": args.threads,
                    "precision": args.precision,
                    "memory-limit-gib": args.memory_limit_gib,
                }
                row, done = run_fresh(__file__, [model, patches, mode], options)
                if row is None:
                    last = (done.stderr.strip().splitlines() or ["?"])[-1][:200]
                    print(
                        f"{model:8} {patches:>7} {mode:>9} FAILED (exit {done.returncode}): {last}",
                        flush=True,
                    )
                    rows.append(
                        {"model": model, "patches": patches, "attention": mode, "failed": last}
                    )
                    continue
                rows.append(row)
                print(
                    f"{model:8} {patches:>7} {mode:>9} {row['step_s']:>8} "
                    f"{row['peak_rss_gib']:>12}",
                    flush=True,
                )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
