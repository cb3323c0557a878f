"""slide_llm on a GPU in bf16: training step time per mode and decoding slides per second.

The language model is a 0.5B-parameter Qwen2.5 when its weights are on the machine (``--lm PATH``,
or found in the Hugging Face cache), otherwise a random model of the same shape (Qwen2
architecture: 24 layers, width 896, 14 heads, 2 key/value heads, 151,936-token vocabulary, tied
embeddings, 494M parameters) saved to a temporary folder, so that the run goes through exactly the
``model.lm=<folder>`` path a user takes. Slides are random UNI2-h-sized features; reports are
synthetic (random weights never stop early, so decoding runs the full ``--max-len``).

    python benchmarks/slide_llm_gpu_check.py                          # GPU, bf16, 0.5B
    python benchmarks/slide_llm_gpu_check.py --tiny --device cpu      # seconds, for the test suite

Prints one JSON object (also written with ``--json PATH``): per training mode (frozen, lora, full)
the mean step time and peak GPU memory at ``--patches`` patches per slide, and the decoding rate.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import torch

QWEN25_05B = {"hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24, "num_attention_heads": 14,
              "num_key_value_heads": 2, "vocab_size": 151936, "tie_word_embeddings": True}
TINY = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "vocab_size": 600, "tie_word_embeddings": True}
MODES = {"frozen": {"lm_frozen": True}, "lora": {"lm_frozen": True, "adapter": "lora"}, "full": {}}


def cached_qwen_05b() -> str | None:
    """A local snapshot of Qwen2.5-0.5B (base or instruct) in the Hugging Face cache, if any."""
    try:
        from huggingface_hub import scan_cache_dir

        for repo in scan_cache_dir().repos:
            if repo.repo_id in ("Qwen/Qwen2.5-0.5B", "Qwen/Qwen2.5-0.5B-Instruct") and repo.revisions:
                return str(max(repo.revisions, key=lambda r: r.last_modified).snapshot_path)
    except Exception:  # no cache folder, or an unreadable one: use the random model
        return None
    return None


def save_random_lm(folder: Path, shape: dict, tokenizer_json: str, dtype: torch.dtype) -> Path:
    """A random Qwen2 model of ``shape`` and a fast tokenizer, in transformers' folder layout."""
    from tokenizers import Tokenizer
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    PreTrainedTokenizerFast(tokenizer_object=Tokenizer.from_str(tokenizer_json), bos_token="<bos>",
                            eos_token="<eos>", pad_token="<pad>", unk_token="<unk>").save_pretrained(folder)
    torch.manual_seed(0)
    Qwen2ForCausalLM(Qwen2Config(**shape, max_position_embeddings=4096)).to(dtype).save_pretrained(folder)
    return folder


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--lm", default=None, help="local folder of a causal LM (default: cached Qwen2.5-0.5B)")
    parser.add_argument("--tiny", action="store_true", help="tiny random LM and sizes (CPU test)")
    parser.add_argument("--patches", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=8, help="slides per training step")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--decode-slides", type=int, default=16)
    parser.add_argument("--beam", type=int, default=3)
    parser.add_argument("--max-len", type=int, default=100)
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=list(MODES))
    parser.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.tiny:
        args.patches, args.batch, args.steps, args.decode_slides, args.max_len = 20, 2, 2, 2, 5
        args.threads = args.threads or 1
    if args.threads:
        torch.set_num_threads(args.threads)

    from pathreport.data.batch import SlideBatch
    from pathreport.data.subword import SubwordTokenizer
    from pathreport.data.synthetic import generate_cases
    from pathreport.generation.decoding import DecodingConfig, generate
    from pathreport.generation.generator import GeneratorContext, build_generator
    from pathreport.generation.nn import count_parameters

    device = torch.device(args.device)
    bf16 = torch.bfloat16 if device.type == "cuda" or not args.tiny else torch.float32
    reports = [r for r, _ in generate_cases(200, seed=0)]
    with tempfile.TemporaryDirectory() as tmp:
        lm_path = args.lm or (None if args.tiny else cached_qwen_05b())
        source = "pretrained weights" if lm_path else "random, same shape"
        if lm_path is None:
            trained = SubwordTokenizer.train(reports, style="reg", vocab_size=500)
            lm_path = str(save_random_lm(Path(tmp) / "lm", TINY if args.tiny else QWEN25_05B, trained.json, bf16))
        tokenizer = SubwordTokenizer.from_pretrained(lm_path, style="reg")
        ctx = GeneratorContext(vocab_size=len(tokenizer), feature_dim=1536, pad_id=tokenizer.pad_id,
                               bos_id=tokenizer.bos_id, eos_id=tokenizer.eos_id, unk_id=tokenizer.unk_id,
                               max_report_tokens=args.max_len, tokenizer=tokenizer)
        g = torch.Generator().manual_seed(0)

        def batch(slides: int) -> SlideBatch:
            seqs = [[tokenizer.bos_id, *tokenizer.encode(r, 96)[0], tokenizer.eos_id] for r in reports[:slides]]
            tokens = torch.full((slides, max(map(len, seqs))), tokenizer.pad_id, dtype=torch.long)
            for i, s in enumerate(seqs):
                tokens[i, : len(s)] = torch.tensor(s)
            return SlideBatch(ids=[str(i) for i in range(slides)],
                              features=torch.randn(slides, args.patches, 1536, generator=g),
                              mask=torch.ones(slides, args.patches, dtype=torch.bool),
                              coords=torch.zeros(slides, args.patches, 2, dtype=torch.long), tokens=tokens).to(device)

        def sync() -> None:
            if device.type == "cuda":
                torch.cuda.synchronize()

        result: dict = {"device": str(device), "lm": source, "patches": args.patches, "batch": args.batch,
                        "dtype": str(bf16).replace("torch.", ""), "modes": {}}
        extra = {"lora_r": 8, "lora_alpha": 16} if args.tiny else {}
        for mode in args.modes:
            frozen_weights = mode != "full"
            cfg = {"name": "slide_llm", "lm": lm_path, **MODES[mode], **(extra if mode == "lora" else {}),
                   "lm_dtype": "bfloat16" if frozen_weights and bf16 == torch.bfloat16 else "float32"}
            torch.manual_seed(0)
            model = build_generator(cfg, ctx).to(device).train()
            optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-5)
            train_batch = batch(args.batch)
            if device.type == "cuda":
                torch.cuda.reset_peak_memory_stats()
            times = []
            for step in range(args.steps + 1):  # the first step warms up kernels and is not timed
                sync()
                start = time.perf_counter()
                with torch.autocast(device.type, dtype=bf16, enabled=bf16 == torch.bfloat16):
                    loss, _ = model.loss(train_batch)
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                optimizer.step()
                sync()
                if step:
                    times.append(time.perf_counter() - start)
            result["modes"][mode] = {
                "params_total_m": round(count_parameters(model, trainable_only=False) / 1e6, 2),
                "params_trainable_m": round(count_parameters(model) / 1e6, 2),
                "step_s": round(sum(times) / len(times), 4), "loss": round(float(loss), 3),
                "peak_gpu_gib": round(torch.cuda.max_memory_allocated() / 2**30, 2) if device.type == "cuda" else None,
            }
            if mode == args.modes[0]:
                model.eval()
                slides = batch(args.decode_slides)
                settings = DecodingConfig(beam_size=args.beam)
                ids = {"max_len": args.max_len, "bos_id": ctx.bos_id, "eos_id": ctx.eos_id, "pad_id": ctx.pad_id,
                       "unk_id": ctx.unk_id}
                with torch.no_grad(), torch.autocast(device.type, dtype=bf16, enabled=bf16 == torch.bfloat16):
                    generate(model, slides, settings, **{**ids, "max_len": 2})  # warm-up
                    sync()
                    start = time.perf_counter()
                    out = generate(model, slides, settings, **ids)
                    sync()
                elapsed = time.perf_counter() - start
                result["decode"] = {"slides": args.decode_slides, "beam": args.beam, "max_len": args.max_len,
                                    "tokens": max(map(len, out)), "slides_per_s": round(args.decode_slides / elapsed, 3)}
            del model, optimizer
            if device.type == "cuda":
                torch.cuda.empty_cache()
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
