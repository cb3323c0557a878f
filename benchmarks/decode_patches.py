"""Decoding time per slide of each generator at large patch counts (CPU by default).

Builds every generator at its reference configuration (vocabulary 348 ids, 1536-d patch features,
the reference stream widths), with random weights, and decodes single slides of N patches with the
shared beam search. Random weights rarely emit <eos>, so every report runs to ``--max-len``
tokens: the figures are the worst case for that length (decoding cost grows linearly with it).
Each (generator, N) runs in a fresh process so that its peak memory (max RSS) is its own. Times
are per slide: ``encode`` (once per slide), ``decode`` (the beam search after it) and their sum;
``--slides K`` decodes K slides together, which amortises reading the decoder weights at every
step (what dominates SCOUT's per-step cost on a CPU).

    python benchmarks/decode_patches.py                       # 1,000 and 10,000 patches, beam 3
    python benchmarks/decode_patches.py --patches 2000 --models scout --max-len 50 --repeats 2

Prints a table and, with ``--json PATH``, writes the rows.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def reference_generator(
    model: str, max_len: int, device: str, overrides: dict | None = None, smoke: bool = False
):
    """The registered generator ``model`` at its reference configuration (vocabulary 348 ids, 1536-d
    patch features, the reference stream widths, a random 2,000-entry knowledge bank where one is
    needed, its own tokenizer where it brings one), with random weights, in eval mode on ``device``.

    ``overrides`` are config fields (slide_llm's ``lm``); ``smoke`` starts from the registered smoke
    sizes instead (seconds on a CPU). Returns the generator and its context.
    """
    import torch

    from pathreport.data.synthetic import generate_cases
    from pathreport.discovery import discover
    from pathreport.generation.generator import GeneratorContext
    from pathreport.registry import GENERATORS

    discover()
    entry = GENERATORS.get(model)
    ref = entry.metadata.get("reference_params", {})
    stream_dims = dict(ref.get("stream_dims", {}))
    for name, spec in entry.obj.streams.items():
        stream_dims.setdefault(name, 512 if spec.kind != "concept" else 66)
    values = {**(entry.smoke or {} if smoke else {}), **(overrides or {})}
    with tempfile.TemporaryDirectory() as tmp:
        if (
            "bank_path" in entry.config.__dataclass_fields__
        ):  # a plain (T, D) tensor is a valid bank file
            torch.save(
                torch.randn(2000, ref.get("config", {}).get("bank_dim", 512)), Path(tmp) / "bank.pt"
            )
            values["bank_path"] = str(Path(tmp) / "bank.pt")
        ctx = GeneratorContext(
            vocab_size=348, feature_dim=1536, stream_dims=stream_dims, max_report_tokens=max_len
        )
        cfg = entry.config(**values)
        tokenizer = entry.obj.build_tokenizer(
            cfg, [r for r, _ in generate_cases(210, seed=0)], "reg"
        )
        if (
            tokenizer is not None
        ):  # a generator with its own tokenizer (slide_llm): its vocabulary and prompt
            ctx = GeneratorContext(
                vocab_size=len(tokenizer),
                feature_dim=1536,
                pad_id=tokenizer.pad_id,
                bos_id=tokenizer.bos_id,
                eos_id=tokenizer.eos_id,
                unk_id=tokenizer.unk_id,
                stream_dims=stream_dims,
                max_report_tokens=max_len,
                tokenizer=tokenizer,
            )
        generator = entry.obj(cfg, ctx).to(device).eval()
    return generator, ctx


def random_batch(generator, ctx, slides: int, patches: int, device: str):
    """``slides`` slides of ``patches`` random 1536-d patches and the generator's extra streams."""
    import torch

    from pathreport.data.batch import SlideBatch

    streams = {}
    for name, spec in type(generator).streams.items():
        dim = ctx.stream_dims[name]
        shape = (slides, patches, dim) if spec.kind == "patch" else (slides, dim)
        streams[name] = torch.randn(*shape, device=device)
    return SlideBatch(
        ids=[f"bench{i}" for i in range(slides)],
        features=torch.randn(slides, patches, 1536, device=device),
        mask=torch.ones(slides, patches, dtype=torch.bool, device=device),
        coords=torch.zeros(slides, patches, 2, dtype=torch.long, device=device),
        streams=streams,
    )


def run_one(
    model: str,
    patches: int,
    beam: int,
    max_len: int,
    repeats: int,
    device: str,
    threads: int,
    slides: int = 1,
) -> dict:
    import torch

    from pathreport.generation.decoding import DecodingConfig, generate
    from pathreport.generation.nn import count_parameters

    if threads:
        torch.set_num_threads(threads)
    torch.manual_seed(0)
    generator, ctx = reference_generator(model, max_len, device)
    batch = random_batch(generator, ctx, slides, patches, device)
    cfg = DecodingConfig(beam_size=beam, block_repeat=True, suppress_unk=True)
    kwargs = {
        "max_len": max_len,
        "bos_id": ctx.bos_id,
        "eos_id": ctx.eos_id,
        "pad_id": ctx.pad_id,
        "unk_id": ctx.unk_id,
    }

    def sync() -> None:
        if device.startswith("cuda"):
            torch.cuda.synchronize()

    with torch.no_grad():  # warm up kernels and allocators on a small slide first
        generate(
            generator,
            batch.select([0]) if patches <= 64 else _head(batch, 64),
            cfg,
            **{**kwargs, "max_len": 2},
        )
    encode_times, total_times, lengths = [], [], []
    for _ in range(repeats):
        with torch.no_grad():
            sync()
            start = time.perf_counter()
            generator.encode(batch)
            sync()
            encode_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            out = generate(generator, batch, cfg, **kwargs)
            sync()
            total_times.append(time.perf_counter() - start)
        lengths.append(len(out[0]))
    best = min(range(repeats), key=lambda i: total_times[i])
    peak_gpu = torch.cuda.max_memory_allocated() / 2**30 if device.startswith("cuda") else None
    return {
        "model": model,
        "patches": patches,
        "slides": slides,
        "beam": beam,
        "tokens": lengths[best],
        "params_m": round(count_parameters(generator, trainable_only=False) / 1e6, 2),
        "trainable_m": round(count_parameters(generator) / 1e6, 2),
        "encode_s": round(encode_times[best] / slides, 3),
        "decode_s": round((total_times[best] - encode_times[best]) / slides, 3),
        "total_s": round(total_times[best] / slides, 3),
        "peak_rss_gib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2),
        "peak_gpu_gib": None if peak_gpu is None else round(peak_gpu, 2),
        "device": device,
        "threads": torch.get_num_threads(),
    }


def _head(batch, n: int):
    """The first slide of ``batch`` cut to its first ``n`` patches."""
    from pathreport.data.batch import SlideBatch

    return SlideBatch(
        ids=batch.ids[:1],
        features=batch.features[:1, :n],
        mask=batch.mask[:1, :n],
        coords=batch.coords[:1, :n],
        streams={k: (v[:1, :n] if v.dim() == 3 else v[:1]) for k, v in batch.streams.items()},
    )


def run_fresh(script: str, case: list[object], options: dict[str, object]):
    """Run ``script --one CASE --option value ...`` in a fresh process, so its peak RSS is its own.

    Returns ``(row, done)``: the JSON row the case printed (None when it failed) and the finished
    process, whose exit code and stderr say why.
    """
    flags = [str(v) for name, value in options.items() for v in (f"--{name}", value)]
    cmd = [sys.executable, script, "--one", *map(str, case), *flags]
    done = subprocess.run(cmd, capture_output=True, text=True, env=os.environ.copy())
    row = json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else None
    return row, done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--models", nargs="+", default=["migen", "histgen", "bigen", "scout", "slide_llm"]
    )
    parser.add_argument("--patches", nargs="+", type=int, default=[1000, 10000])
    parser.add_argument("--beam", type=int, default=3)
    parser.add_argument(
        "--max-len", type=int, default=100, help="tokens generated per report (default 100)"
    )
    parser.add_argument(
        "--slides",
        type=int,
        default=1,
        help="slides decoded together (figures stay per slide; batching amortises weight reads)",
    )
    parser.add_argument(
        "--repeats", type=int, default=1, help="runs per case; the fastest is reported"
    )
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    parser.add_argument("--one", nargs=2, metavar=("MODEL", "PATCHES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.one:
        row = run_one(
            args.one[0],
            int(args.one[1]),
            args.beam,
            args.max_len,
            args.repeats,
            args.device,
            args.threads,
            args.slides,
        )
        print(json.dumps(row))
        return 0

    rows = []
    print(
        f"per slide; {args.slides} slide(s) per batch, beam {args.beam}, {args.max_len} "
        f"tokens, {args.device}"
    )
    print(
        f"{'model':8} {'patches':>7} {'params':>8} {'tokens':>6} {'encode s':>9} "
        f"{'decode s':>9} {'total s':>8} {'peak RSS GiB':>12}"
    )
    for model in args.models:
        for patches in args.patches:
            options = {
                "beam": args.beam,
                "max-len": args.max_len,
                "repeats": args.repeats,
                "device": args.device,
                "threads": args.threads,
                "slides": args.slides,
            }
            row, done = run_fresh(__file__, [model, patches], options)
            if row is None:
                print(
                    f"{model:8} {patches:>7} FAILED "
                    f"(exit {done.returncode}): {done.stderr.strip()[-400:]}"
                )
                continue
            rows.append(row)
            print(
                f"{model:8} {patches:>7} {row['params_m']:>7}M {row['tokens']:>6} "
                f"{row['encode_s']:>9} {row['decode_s']:>9} {row['total_s']:>8} "
                f"{row['peak_rss_gib']:>12}",
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
