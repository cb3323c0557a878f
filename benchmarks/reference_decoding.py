"""Decoding time per slide beside the paper authors' reference code, at equal work, in one process.

The reference (PathBench, a local checkout given with ``--reference``; nothing of it is shipped
here) decodes one slide at a time and always runs ``max_seq_length`` steps. Both sides get the same
work: random weights at the reference sizes, ``--patches`` random 1536-d patches per slide,
vocabulary 348, beam 3, and exactly ``--max-len`` steps (random weights never emit ``<eos>``; the
run checks that every pathreport report has ``--max-len`` tokens). pathreport decodes at each
``--slides`` batch size; the settings are interleaved (pathreport, reference, pathreport again, the
faster of the two pathreport runs kept), so that the machine's load hits all of them alike. Times
include encoding the slide (the reference's ``mode='sample'`` does both).

    python benchmarks/reference_decoding.py --reference ~/PathBench
    python benchmarks/reference_decoding.py --reference ~/PathBench --models histgen --max-len 100

The reference hard-codes ``.cuda()`` inside its beam search; on a CPU those calls are made no-ops.
Reference settings (from its ``histgen_config.yaml``): d_model 512, d_ff 512, d_vf 1024, 4 heads, 3
layers, beam 3, temperature 0.7, decoding constraint and trigram blocking on; HistGen: region size
256, top-k 32, 512 prototypes, 2,048 memory slots.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import types
from pathlib import Path

import torch

VOCAB = 348


def reference_model(name: str, max_len: int):
    """Reference HistGen or MI-Gen (its ``wsi_caption`` R2Gen model), random weights, eval mode."""
    args = types.SimpleNamespace(
        d_model=512,
        d_ff=512,
        d_vf=1024,
        num_heads=4,
        num_layers=3,
        dropout=0.1,
        bos_idx=0,
        eos_idx=0,
        pad_idx=0,
        use_bn=0,
        drop_prob_lm=0.5,
        n_classes=2,
        sample_method="beam_search",
        beam_size=3,
        temperature=0.7,
        sample_n=1,
        group_size=1,
        output_logsoftmax=1,
        decoding_constraint=1,
        suppress_UNK=1,
        block_trigrams=1,
        d_patch=1536,
        max_seq_length=max_len,
        topk=32,
        prototype_num=512,
        region_size=256,
        cmm_size=2048,
        cmm_dim=512,
        dataset_type="reg",
        image_dir="",
    )
    idx2token = {i: f"w{i}" for i in range(1, VOCAB - 1)}
    idx2token[VOCAB - 1] = "<unk>"
    tokenizer = types.SimpleNamespace(
        idx2token=idx2token, token2idx={v: k for k, v in idx2token.items()}
    )
    torch.manual_seed(0)
    if name == "histgen":
        from modules.models.histgen.histgen_model import HistGenModel

        return HistGenModel(args, tokenizer).eval()
    from modules.models.wsi_caption.r2gen import R2GenModel

    return R2GenModel(args, tokenizer).eval()


def import_reference(folder: Path) -> None:
    """Make the reference's model modules importable without its training stack (its
    ``modules/models/__init__.py`` imports Lightning models that are not needed here)."""
    if not (folder / "modules" / "models" / "histgen").is_dir():
        sys.exit(
            f"error: {folder} is not a PathBench checkout (no modules/models/histgen); pass "
            "--reference DIR."
        )
    sys.path.insert(0, str(folder))
    package = types.ModuleType("modules.models")
    package.__path__ = [str(folder / "modules" / "models")]
    sys.modules["modules.models"] = package
    torch.Tensor.cuda = lambda self, *args, **kwargs: (
        self
    )  # its beam search calls .cuda() on CPU tensors


def compare(name: str, args: argparse.Namespace) -> dict:
    """Seconds per slide of the reference and of pathreport at each batch size, interleaved."""
    from decode_patches import random_batch, reference_generator

    from pathreport.generation.decoding import DecodingConfig, generate

    reference = reference_model(name, args.max_len)
    torch.manual_seed(0)
    generator, ctx = reference_generator(name, args.max_len, "cpu")
    cfg = DecodingConfig(beam_size=3)
    ids = {"bos_id": ctx.bos_id, "eos_id": ctx.eos_id, "pad_id": ctx.pad_id, "unk_id": ctx.unk_id}

    def ours(slides: int) -> float:
        batch = random_batch(generator, ctx, slides, args.patches, "cpu")
        start = time.perf_counter()
        out = generate(generator, batch, cfg, max_len=args.max_len, **ids)
        seconds = time.perf_counter() - start
        if any(len(seq) != args.max_len for seq in out):
            raise RuntimeError(
                f"a report ended early ({[len(s) for s in out]}): the work would not be equal"
            )
        return seconds / slides

    def theirs() -> float:
        features = torch.randn(1, args.patches, 1536)
        start = time.perf_counter()
        with torch.no_grad():
            out = reference(features, mode="sample")
        seconds = time.perf_counter() - start
        if out.shape[-1] != args.max_len:
            raise RuntimeError(f"the reference decoded {out.shape[-1]} steps, not {args.max_len}")
        return seconds

    generate(
        generator, random_batch(generator, ctx, 1, 64, "cpu"), cfg, max_len=2, **ids
    )  # warm-up
    times = {s: [ours(s)] for s in args.slides}
    reference_s = theirs()
    for s in reversed(args.slides):
        times[s].append(ours(s))
    row = {
        "model": name,
        "patches": args.patches,
        "steps": args.max_len,
        "beam": 3,
        "threads": args.threads,
        "reference_s_per_slide": round(reference_s, 2),
    }
    for s in args.slides:
        best = min(times[s])
        row[f"batch_{s}_s_per_slide"] = round(best, 3)
        row[f"batch_{s}_vs_reference"] = round(reference_s / best, 1)
    return row


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--reference", type=Path, required=True, help="a local checkout of PathBench"
    )
    parser.add_argument(
        "--models", nargs="+", default=["histgen", "migen"], choices=["histgen", "migen"]
    )
    parser.add_argument(
        "--slides", nargs="+", type=int, default=[1, 4, 16], help="pathreport batch sizes"
    )
    parser.add_argument("--max-len", type=int, default=320, help="decoding steps on both sides")
    parser.add_argument("--patches", type=int, default=1000)
    parser.add_argument(
        "--threads", type=int, default=1, help="torch threads (1: steady on a shared machine)"
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    import_reference(args.reference.expanduser().resolve())

    rows = []
    for name in args.models:
        rows.append(compare(name, args))
        print(json.dumps(rows[-1]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main(sys.argv[1:])
