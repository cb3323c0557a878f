"""Training and decoding throughput at batch 1 and at a larger batch, measured in one run.

    python benchmarks/throughput.py                       # histgen, uni2 features, batch 16
    python benchmarks/throughput.py --model migen --batch 32 --slides 64

Slides come from the embedded synthetic dataset (real TRIDENT files, real tokenizer), the model
is the registered generator at its default (paper) size, decoding is the shared beam search.
Batches are formed as in training and testing (slides of similar bag size together). The
figures that matter are the ratios (per-slide speed-up of the batched setting), because
absolute times on shared machines are noisy; both settings are measured in the same process,
one after the other, on the same slides.
"""

from __future__ import annotations

import argparse
import json
import time
from functools import partial

import torch
from omegaconf import OmegaConf


def _setup(args: argparse.Namespace):
    from pathreport.app.config import DataConfig
    from pathreport.data.datamodule import ReportDataModule
    from pathreport.generation.generator import (
        GeneratorContext,
        build_generator,
        typed_generator_config,
    )
    from pathreport.registry import ENCODERS, GENERATORS

    entry = GENERATORS.get(args.model)
    from pathreport import paths

    # The synthetic dataset exactly as `data=synthetic` configures it.
    data = OmegaConf.merge(
        OmegaConf.structured(DataConfig),
        OmegaConf.load(paths.CONFIGS_DIR / "data" / "synthetic.yaml"),
    )
    cfg = OmegaConf.merge(OmegaConf.structured(entry.config), {"name": args.model})
    typed = typed_generator_config(cfg)
    dm = ReportDataModule(
        data,
        ENCODERS[args.encoder],
        streams=entry.obj.input_streams(typed),
        resource_factory=partial(entry.obj.dataset_resources, typed),
        cache_dir=args.cache,
        tokenizer_factory=partial(entry.obj.build_tokenizer, typed, style=data.cleaning),
    )
    dm.setup()
    tok = dm.tokenizer
    ctx = GeneratorContext(
        vocab_size=len(tok),
        feature_dim=dm.feature_dim,
        pad_id=tok.pad_id,
        bos_id=tok.bos_id,
        eos_id=tok.eos_id,
        unk_id=tok.unk_id,
        stream_dims=dm.stream_dims,
        max_report_tokens=64,
        resources=dict(dm.resources),
        tokenizer=tok,
    )
    torch.manual_seed(0)
    model = build_generator(cfg, ctx)
    return dm, model, ctx


def _batches(dm, split: str, size: int, count: int, shuffle: bool):
    """The first ``count`` slides of ``split``, batched as the product does it (by bag size)."""
    from pathreport.data.dataset import Collator, SizeBucketBatchSampler

    ds = dm.datasets[split]
    index = [i % len(ds) for i in range(count)]
    sizes = [dm.bag_sizes(split)[i] for i in index]
    collate = Collator(dm.sources, dm.tokenizer.pad_id)
    sampler = SizeBucketBatchSampler(sizes, size, shuffle=shuffle)
    return [collate([ds[index[j]] for j in batch]) for batch in sampler]


def time_training(model, batches) -> float:
    """Slides per second over one pass of optimiser steps (forward, backward, AdamW), after an
    untimed warm-up pass over the same batches (first use of a tensor shape costs extra)."""
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

    def one_pass() -> float:
        start = time.perf_counter()
        for batch in batches:
            loss, _ = model.loss(batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
        return time.perf_counter() - start

    one_pass()
    return sum(len(b) for b in batches) / one_pass()


def time_decoding(model, batches, ctx, beam: int, max_len: int) -> tuple[float, float]:
    """Slides per second of the whole decoding (encoder + beam search) and of the encoder alone,
    after an untimed warm-up pass."""
    from pathreport.generation.decoding import DecodingConfig, generate

    model.eval()
    cfg = DecodingConfig(beam_size=beam)
    slides = sum(len(b) for b in batches)

    def timed(fn) -> float:
        start = time.perf_counter()
        for batch in batches:
            fn(batch)
        return time.perf_counter() - start

    def decode(batch) -> None:
        generate(
            model,
            batch,
            cfg,
            max_len=max_len,
            bos_id=ctx.bos_id,
            eos_id=ctx.eos_id,
            pad_id=ctx.pad_id,
            unk_id=ctx.unk_id,
        )

    with torch.no_grad():
        timed(decode)
        total = timed(decode)
        encode = timed(model.encode)
    return slides / total, slides / encode


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default="histgen")
    parser.add_argument("--encoder", default="uni2")
    parser.add_argument("--batch", type=int, default=16, help="the larger batch size")
    parser.add_argument("--slides", type=int, default=64, help="slides decoded per setting")
    parser.add_argument(
        "--train-slides", type=int, default=64, help="slides trained on per setting"
    )
    parser.add_argument("--beam", type=int, default=3)
    parser.add_argument(
        "--max-len", type=int, default=40, help="decoding length (untrained models rarely stop)"
    )
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--cache", default=None, help="where the synthetic dataset lives")
    parser.add_argument("--decode-only", action="store_true", help="skip the training figures")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    from pathreport.discovery import discover

    discover()
    dm, model, ctx = _setup(args)
    torch.manual_seed(0)
    result: dict = {
        "model": args.model,
        "encoder": args.encoder,
        "threads": torch.get_num_threads(),
        "parameters_M": round(sum(p.numel() for p in model.parameters()) / 1e6, 2),
    }
    if not args.decode_only:
        one = _batches(dm, "train", 1, args.train_slides, shuffle=True)
        many = _batches(dm, "train", args.batch, args.train_slides, shuffle=True)
        train_b1 = time_training(model, one)
        train_bn = time_training(model, many)
        result["train_slides_per_s"] = {
            "batch_1": round(train_b1, 2),
            f"batch_{args.batch}": round(train_bn, 2),
        }
        result["train_speedup"] = round(train_bn / train_b1, 2)
    test_one = _batches(dm, "test", 1, args.slides, shuffle=False)
    test_many = _batches(dm, "test", args.batch, args.slides, shuffle=False)
    dec_b1, enc_b1 = time_decoding(model, test_one, ctx, args.beam, args.max_len)
    dec_bn, enc_bn = time_decoding(model, test_many, ctx, args.beam, args.max_len)
    # The beam search alone: total time per slide minus the encoder's.
    search_b1 = 1 / (1 / dec_b1 - 1 / enc_b1)
    search_bn = 1 / (1 / dec_bn - 1 / enc_bn)
    result |= {
        f"decode_beam{args.beam}_slides_per_s": {
            "batch_1": round(dec_b1, 2),
            f"batch_{args.batch}": round(dec_bn, 2),
        },
        "decode_speedup": round(dec_bn / dec_b1, 2),
        "encoder_slides_per_s": {
            "batch_1": round(enc_b1, 2),
            f"batch_{args.batch}": round(enc_bn, 2),
        },
        "beam_search_speedup": round(search_bn / search_b1, 2),
        "decode_max_len": args.max_len,
    }
    print(
        json.dumps(result, indent=2)
        if args.json
        else "\n".join(f"{k}: {v}" for k, v in result.items())
    )


if __name__ == "__main__":
    main()
