"""One GPU check for every generator: training at bf16, model FLOPs utilisation, decoding rate and
peak memory, in under five minutes on one GPU.

Per generator at its reference size (random weights; slide_llm with Qwen2.5-0.5B if its weights are
in the Hugging Face cache, otherwise a random model of the same shape loaded through
``model.lm=<folder>``, in each of its training modes):

* training (bf16 autocast over float32 weights, what ``trainer.precision=bf16-mixed`` runs; forward,
  backward and AdamW) at 1,000 and 10,000 patches per slide, with batch 1 and with the largest batch
  that fits (doubling until the device is out of memory, up to ``--max-batch``): step time, target
  tokens per second, model FLOPs utilisation and peak memory. FLOPs are counted by
  ``torch.utils.flop_counter`` on the untimed warm-up step (matrix products, convolutions and
  attention, forward and backward); utilisation divides them by the step time and the device's
  dense bf16 peak (known devices, or ``--peak-tflops``).
* decoding (the shared beam search, beam 3, at 1,000 patches) at REG 2025 report lengths (17 to 40
  tokens) and TCGA lengths (100 to 200 tokens): random weights never stop, so each slide ends at a
  length drawn from that range (its ``<eos>`` is forced there), which lets the decoder drop finished
  slides as it would with trained weights.

    python benchmarks/gpu_check.py                                  # every generator, the GPU
    python benchmarks/gpu_check.py --models histgen migen --markdown gpu.md --json gpu.json
    python benchmarks/gpu_check.py --tiny                           # CPU, smoke sizes, seconds

Prints a markdown table and writes it (``--markdown``) and the rows (``--json``). A time budget
(``--budget-s``) skips what would not finish; skipped measurements say so in the table.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decode_patches import random_batch, reference_generator  # noqa: E402

GENERATORS = ["migen", "histgen", "bigen", "scout", "slide_llm"]
#: dense bf16 peak of known devices, in TFLOP/s (vendor data sheets, SXM parts unless named).
PEAK_BF16_TFLOPS = {
    "H200": 989.0,
    "H100 PCIe": 756.0,
    "H100": 989.0,
    "A100": 312.0,
    "L40S": 362.0,
    "L4": 121.0,
    "A10": 125.0,
    "RTX 4090": 165.0,
}
QWEN25_05B = {
    "hidden_size": 896,
    "intermediate_size": 4864,
    "num_hidden_layers": 24,
    "num_attention_heads": 14,
    "num_key_value_heads": 2,
    "vocab_size": 151936,
    "tie_word_embeddings": True,
}
TINY_LM = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "vocab_size": 600,
    "tie_word_embeddings": True,
}
SLIDE_LLM_MODES = {
    "frozen": {"lm_frozen": True},
    "lora": {"lm_frozen": True, "adapter": "lora"},
    "full": {},
}
REPORT_LENGTHS = {"REG": (17, 40), "TCGA": (100, 200)}
TINY_REPORT_LENGTHS = {"REG": (2, 5), "TCGA": (6, 9)}
OUT_OF_MEMORY = getattr(torch, "OutOfMemoryError", torch.cuda.OutOfMemoryError)


# -- the device ------------------------------------------------------------------------------------
class Device:
    """Synchronising, peak memory and freeing memory on one device (no-ops on a CPU)."""

    def __init__(self, name: str) -> None:
        self.device = torch.device(name)
        self.cuda = self.device.type == "cuda"

    def sync(self) -> None:
        if self.cuda:
            torch.cuda.synchronize(self.device)

    def reset_peak(self) -> None:
        if self.cuda:
            self.sync()
            torch.cuda.reset_peak_memory_stats(self.device)

    def peak_gib(self) -> float | None:
        return round(torch.cuda.max_memory_allocated(self.device) / 2**30, 2) if self.cuda else None

    def free(self) -> None:
        gc.collect()
        if self.cuda:
            torch.cuda.empty_cache()

    def peak_tflops(self, override: float | None) -> float | None:
        if override:
            return override
        if not self.cuda:
            return None
        name = torch.cuda.get_device_name(self.device)
        return next((v for k, v in PEAK_BF16_TFLOPS.items() if k in name), None)

    def autocast(self, enabled: bool):
        return torch.autocast(self.device.type, dtype=torch.bfloat16) if enabled else nullcontext()


def timed(dev: Device, fn: Callable[[], object]) -> float:
    """Seconds ``fn`` takes, with the device synchronised before and after."""
    dev.sync()
    start = time.perf_counter()
    fn()
    dev.sync()
    return time.perf_counter() - start


# -- training --------------------------------------------------------------------------------------
def with_reports(batch, ctx, tokens: int, seed: int = 0):
    """``batch`` with random reports of ``tokens`` tokens each (between <bos> and <eos>)."""
    g = torch.Generator().manual_seed(seed)
    first = max(ctx.pad_id, ctx.bos_id, ctx.eos_id, ctx.unk_id or 0) + 1
    body = torch.randint(first, ctx.vocab_size, (len(batch), tokens), generator=g)
    bos = torch.full((len(batch), 1), ctx.bos_id)
    eos = torch.full((len(batch), 1), ctx.eos_id)
    batch.tokens = torch.cat([bos, body, eos], dim=1).to(batch.features.device)
    return batch


class Trainer:
    """Training steps of one generator (AdamW, bf16 autocast) and the largest batch that fits."""

    def __init__(self, generator, ctx, dev: Device, bf16: bool, tokens: int) -> None:
        self.generator, self.ctx, self.dev, self.bf16, self.tokens = (
            generator,
            ctx,
            dev,
            bf16,
            tokens,
        )
        self.optimizer = torch.optim.AdamW(
            [p for p in generator.parameters() if p.requires_grad], lr=1e-5
        )

    def step(self, batch) -> None:
        with self.dev.autocast(self.bf16):
            loss, _ = self.generator.loss(batch)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()

    def fits(self, slides: int, patches: int) -> bool:
        """One step at ``slides`` x ``patches``; False (memory freed) when the device runs out."""
        try:
            self.step(self._batch(slides, patches))
            self.dev.sync()
            return True
        except OUT_OF_MEMORY:
            pass
        # outside the handler, so that the traceback's frames (and their tensors) are gone
        self.optimizer.zero_grad(set_to_none=True)
        self.dev.free()
        return False

    def largest_batch(self, patches: int, cap: int) -> int:
        """Doubling from 2 while a step fits, then halving the gap to the first size that failed."""
        fit, size = 1, 2
        while size <= cap and self.fits(size, patches):
            fit, size = size, size * 2
        fail = size
        while (
            fail - fit > max(1, fit // 4) and fit < cap
        ):  # within a quarter: enough for a benchmark
            middle = (fit + fail) // 2
            if self.fits(middle, patches):
                fit = middle
            else:
                fail = middle
        return min(fit, cap)

    def measure(self, slides: int, patches: int, steps: int, peak_tflops: float | None) -> dict:
        from torch.utils.flop_counter import FlopCounterMode

        self.generator.train()
        batch = self._batch(slides, patches)
        self.dev.reset_peak()
        counter = FlopCounterMode(display=False)
        with counter:  # the warm-up step, not timed
            self.step(batch)
        flops = counter.get_total_flops()
        seconds = sum(timed(self.dev, lambda: self.step(batch)) for _ in range(steps)) / steps
        tokens = int((batch.tokens[:, 1:] != self.ctx.pad_id).sum())
        row = {
            "batch": slides,
            "patches": patches,
            "step_s": round(seconds, 4),
            "tokens_per_s": round(tokens / seconds, 1),
            "gflop_per_step": round(flops / 1e9, 3),
            "mfu": round(flops / seconds / (peak_tflops * 1e12), 4) if peak_tflops else None,
            "peak_gib": self.dev.peak_gib(),
        }
        self.optimizer.zero_grad(set_to_none=True)
        self.dev.free()
        return row

    def _batch(self, slides: int, patches: int):
        batch = random_batch(self.generator, self.ctx, slides, patches, str(self.dev.device))
        return with_reports(batch, self.ctx, self.tokens)


# -- decoding --------------------------------------------------------------------------------------
class EndsAt(torch.nn.Module):
    """A generator whose reports end at given lengths (one per slide), not before: random weights
    never stop, and may not stop early either (the measured work must be the drawn lengths)."""

    def __init__(self, generator, lengths: list[int], eos_id: int) -> None:
        super().__init__()
        self.generator, self.lengths, self.eos_id = generator, lengths, eos_id

    def encode(self, batch):
        state = self.generator.encode(batch)
        return {**state, "ends_at": torch.tensor(self.lengths, device=batch.features.device)}

    def decode(self, state, tokens, cache=None):
        inner = {k: v for k, v in state.items() if k != "ends_at"}
        logits = self.generator.decode(inner, tokens, cache)
        written = cache.append("ends_at.tokens", tokens, dim=1).shape[1] - 1  # tokens after <bos>
        ends_at = state["ends_at"].repeat_interleave(tokens.shape[0] // state["ends_at"].shape[0])
        force = (written >= ends_at).unsqueeze(1)
        logits[:, -1, self.eos_id] = torch.where(force, 1e4, -1e4).squeeze(1).to(logits.dtype)
        return logits


def measure_decoding(
    generator,
    ctx,
    dev: Device,
    bf16: bool,
    lengths: tuple[int, int],
    slides: int,
    batch: int,
    patches: int,
    beam: int,
) -> dict:
    from pathreport.generation.decoding import DecodingConfig, generate

    generator.eval()
    g = torch.Generator().manual_seed(1)
    drawn = torch.randint(lengths[0], lengths[1] + 1, (slides,), generator=g).tolist()
    cfg = DecodingConfig(beam_size=beam)
    ids = {
        "max_len": lengths[1],
        "bos_id": ctx.bos_id,
        "eos_id": ctx.eos_id,
        "pad_id": ctx.pad_id,
        "unk_id": ctx.unk_id,
    }
    batches = [
        (random_batch(generator, ctx, len(chunk), patches, str(dev.device)), chunk)
        for chunk in (drawn[i : i + batch] for i in range(0, slides, batch))
    ]
    out: list[list[int]] = []

    def run(max_len: int | None = None) -> None:
        for slide_batch, chunk in batches:
            model = EndsAt(generator, chunk, ctx.eos_id)
            out.extend(
                generate(model, slide_batch, cfg, **{**ids, "max_len": max_len or ids["max_len"]})
            )

    with torch.no_grad(), dev.autocast(bf16):
        run(max_len=2)  # warm-up
        out.clear()
        dev.reset_peak()
        seconds = timed(dev, run)
    produced = [len(seq) for seq in out]
    if produced != drawn:
        raise RuntimeError(f"decoding produced {produced} tokens where the reports end at {drawn}")
    return {
        "slides": slides,
        "batch": batch,
        "patches": patches,
        "beam": beam,
        "tokens": f"{lengths[0]}-{lengths[1]}",
        "mean_tokens": round(sum(drawn) / len(drawn), 1),
        "slides_per_s": round(slides / seconds, 3),
        "peak_gib": dev.peak_gib(),
    }


# -- slide_llm's language model --------------------------------------------------------------------
def cached_qwen_05b() -> str | None:
    """A local snapshot of Qwen2.5-0.5B (base or instruct) in the Hugging Face cache, if any."""
    try:
        from huggingface_hub import scan_cache_dir

        for repo in scan_cache_dir().repos:
            if (
                repo.repo_id in ("Qwen/Qwen2.5-0.5B", "Qwen/Qwen2.5-0.5B-Instruct")
                and repo.revisions
            ):
                return str(max(repo.revisions, key=lambda r: r.last_modified).snapshot_path)
    except Exception:  # no cache folder, or an unreadable one: use the random model
        return None
    return None


def save_random_lm(folder: Path, shape: dict, dtype: torch.dtype) -> Path:
    """A random Qwen2 model of ``shape`` and a subword tokenizer trained on synthetic reports, in
    transformers' folder layout (what a hub download leaves on disk)."""
    from tokenizers import Tokenizer
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    from pathreport.data.subword import SubwordTokenizer
    from pathreport.data.synthetic import generate_cases

    trained = SubwordTokenizer.train(
        [r for r, _ in generate_cases(200, seed=0)], style="reg", vocab_size=500
    )
    PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer.from_str(trained.json),
        bos_token="<bos>",
        eos_token="<eos>",
        pad_token="<pad>",
        unk_token="<unk>",
    ).save_pretrained(folder)
    torch.manual_seed(0)
    Qwen2ForCausalLM(Qwen2Config(**shape, max_position_embeddings=4096)).to(dtype).save_pretrained(
        folder
    )
    return folder


def variants(
    models: list[str], modes: list[str], lm_path: str | None, tiny: bool
) -> list[tuple[str, str, dict]]:
    """(row label, registered name, config overrides) of every generator to check (a tiny LM gets a
    LoRA rank that suits its width)."""
    rows = []
    for name in models:
        if name != "slide_llm":
            rows.append((name, name, {}))
            continue
        for mode in modes:
            dtype = "bfloat16" if mode != "full" else "float32"  # trained weights stay float32
            small = {"lora_r": 8, "lora_alpha": 16} if tiny and mode == "lora" else {}
            rows.append(
                (
                    f"slide_llm ({mode})",
                    name,
                    {"lm": lm_path, "lm_dtype": dtype, **SLIDE_LLM_MODES[mode], **small},
                )
            )
    return rows


# -- the report ------------------------------------------------------------------------------------
def markdown(result: dict) -> str:
    """The rows as one markdown table per measurement kind."""
    lines = [
        f"Device: {result['device']}; bf16 autocast: {result['bf16']}; peak bf16 TFLOP/s used "
        f"for MFU: {result['peak_tflops'] or 'unknown (MFU not reported)'}; {result['lm']}.",
        "",
        "| generator | params (M) | patches | batch | step s | tokens/s | GFLOP/step | MFU | "
        "peak GiB |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in result["generators"]:
        for t in row["training"]:
            if "skipped" in t:
                lines.append(
                    f"| {row['generator']} | {row['params_m']} | {t['patches']} | {t['batch']} | "
                    f"{t['skipped']} | | | | |"
                )
                continue
            mfu = f"{100 * t['mfu']:.1f}%" if t["mfu"] is not None else "n/a"
            lines.append(
                f"| {row['generator']} | {row['params_m']} | {t['patches']} | {t['batch']} "
                f"| {t['step_s']} | {t['tokens_per_s']} | {t['gflop_per_step']} | {mfu} "
                f"| {t['peak_gib'] or 'n/a'} |"
            )
    lines += [
        "",
        "| generator | report lengths | slides (batch) | slides/s | peak GiB |",
        "|---|---|---|---|---|",
    ]
    for row in result["generators"]:
        for label, d in row["decoding"].items():
            if "skipped" in d:
                lines.append(f"| {row['generator']} | {label} | | {d['skipped']} | |")
                continue
            lines.append(
                f"| {row['generator']} | {label} ({d['tokens']} tokens, mean {d['mean_tokens']}) | "
                f"{d['slides']} ({d['batch']}) | {d['slides_per_s']} | {d['peak_gib'] or 'n/a'} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--models", nargs="+", default=GENERATORS, choices=GENERATORS)
    parser.add_argument(
        "--slide-llm-modes", nargs="+", default=list(SLIDE_LLM_MODES), choices=list(SLIDE_LLM_MODES)
    )
    parser.add_argument(
        "--lm", default=None, help="local folder of slide_llm's LM (default: cached Qwen2.5-0.5B)"
    )
    parser.add_argument("--patches", nargs="+", type=int, default=[1000, 10000])
    parser.add_argument(
        "--train-tokens", type=int, default=40, help="target tokens per report when training"
    )
    parser.add_argument("--steps", type=int, default=3, help="timed training steps per setting")
    parser.add_argument("--max-batch", type=int, default=64, help="largest training batch tried")
    parser.add_argument("--decode-slides", type=int, default=32)
    parser.add_argument("--decode-batch", type=int, default=16)
    parser.add_argument("--decode-patches", type=int, default=1000)
    parser.add_argument("--beam", type=int, default=3)
    parser.add_argument(
        "--peak-tflops", type=float, default=None, help="the device's dense bf16 peak"
    )
    parser.add_argument(
        "--budget-s", type=float, default=270.0, help="skip what starts after this many seconds"
    )
    parser.add_argument(
        "--tiny", action="store_true", help="smoke sizes on the CPU, for the test suite"
    )
    parser.add_argument(
        "--threads", type=int, default=0, help="torch CPU threads (0: torch's default)"
    )
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--markdown", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.tiny:
        args.device, args.threads = "cpu", args.threads or 1
        args.patches, args.max_batch, args.steps, args.decode_slides, args.decode_batch = (
            [24, 96],
            4,
            1,
            3,
            2,
        )
        args.decode_patches = 24
    if args.threads:
        torch.set_num_threads(args.threads)
    started = time.perf_counter()
    dev = Device(args.device)
    bf16 = (
        dev.cuda or args.tiny
    )  # bf16 autocast on a CPU is slow at full size, but the tiny run takes its path
    peak = dev.peak_tflops(args.peak_tflops)
    result = {
        "device": torch.cuda.get_device_name(dev.device) if dev.cuda else "cpu",
        "bf16": bf16,
        "peak_tflops": peak,
        "generators": [],
    }

    def over_budget() -> str | None:
        return "skipped: time budget" if time.perf_counter() - started > args.budget_s else None

    with tempfile.TemporaryDirectory() as tmp:
        lm_path = args.lm or (None if args.tiny else cached_qwen_05b())
        result["lm"] = (
            "slide_llm: Qwen2.5-0.5B weights"
            if lm_path
            else "slide_llm: random LM of Qwen2.5-0.5B's shape"
        )
        if "slide_llm" in args.models and lm_path is None:
            lm_path = str(
                save_random_lm(
                    Path(tmp) / "lm",
                    TINY_LM if args.tiny else QWEN25_05B,
                    torch.bfloat16 if dev.cuda else torch.float32,
                )
            )
        if args.tiny:
            result["lm"] = "slide_llm: tiny random LM"
        for label, name, overrides in variants(
            args.models, args.slide_llm_modes, lm_path, args.tiny
        ):
            row = check_generator(
                label,
                name,
                overrides,
                args,
                dev,
                bf16,
                peak,
                over_budget,
                TINY_REPORT_LENGTHS if args.tiny else REPORT_LENGTHS,
            )
            result["generators"].append(row)
            print(json.dumps(row), flush=True)
    result["seconds"] = round(time.perf_counter() - started, 1)
    table = markdown(result)
    print(table)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    if args.markdown:
        args.markdown.write_text(table)
    return result


def check_generator(
    label: str,
    name: str,
    overrides: dict,
    args: argparse.Namespace,
    dev: Device,
    bf16: bool,
    peak: float | None,
    over_budget: Callable[[], str | None],
    report_lengths: dict[str, tuple[int, int]],
) -> dict:
    """Training and decoding figures of one generator (what the budget leaves time for)."""
    from pathreport.generation.nn import count_parameters

    torch.manual_seed(0)
    generator, ctx = reference_generator(
        name,
        max(hi for _, hi in report_lengths.values()),
        str(dev.device),
        overrides=overrides,
        smoke=args.tiny,
    )
    row = {
        "generator": label,
        "params_m": round(count_parameters(generator, trainable_only=False) / 1e6, 2),
        "trainable_m": round(count_parameters(generator) / 1e6, 2),
        "training": [],
        "decoding": {},
    }
    trainer = Trainer(generator, ctx, dev, bf16, args.train_tokens)
    for patches in args.patches:
        for size in ("1", "largest"):
            skipped = over_budget()
            if skipped:
                row["training"].append({"patches": patches, "batch": size, "skipped": skipped})
                continue
            slides = 1 if size == "1" else trainer.largest_batch(patches, args.max_batch)
            if not trainer.fits(slides, patches):
                row["training"].append(
                    {"patches": patches, "batch": slides, "skipped": "out of memory"}
                )
                continue
            row["training"].append(trainer.measure(slides, patches, args.steps, peak))
    del trainer
    dev.free()
    for label_, lengths in report_lengths.items():
        skipped = over_budget()
        row["decoding"][label_] = (
            {"skipped": skipped}
            if skipped
            else measure_decoding(
                generator,
                ctx,
                dev,
                bf16,
                lengths,
                args.decode_slides,
                args.decode_batch,
                args.decode_patches,
                args.beam,
            )
        )
    del generator
    dev.free()
    return row


if __name__ == "__main__":
    main(sys.argv[1:])
