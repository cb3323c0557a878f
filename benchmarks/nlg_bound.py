"""What one runaway prediction costs the NLG metrics, with and without the length bound.

Usage::

    python benchmarks/nlg_bound.py   # 20 REG-length cases, then + one 5 MB prediction
    python benchmarks/nlg_bound.py --unbounded-words 4000 --json out.json

Three sets are scored with BLEU, ROUGE-L, CIDEr and METEOR (METEOR needs Java; ``--no-meteor``
leaves it out, and then little is left to bound: METEOR's alignment is what grows fastest):
the normal set; the same set plus one 5 MB prediction under the default bound
(``pathreport.evaluation.nlg.MAX_WORDS``); and the normal set plus one prediction of
``--unbounded-words`` words scored with the bound lifted. The unbounded case uses a prediction far
shorter than 5 MB because the 5 MB one does not finish in reasonable time; the figure shows the
slope. Figures are ratios to the normal set in the same
run, because wall time on a shared machine is noisy.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pathreport.evaluation.nlg import MAX_WORDS, compute_nlg  # noqa: E402

WORDS = [
    "invasive",
    "adenocarcinoma",
    "grade",
    "tubule",
    "formation",
    "nuclear",
    "pleomorphism",
    "mitoses",
    "margin",
    "lymph",
    "node",
    "negative",
    "positive",
    "stroma",
    "gland",
    "carcinoma",
    "in",
    "situ",
    "the",
    "of",
    "with",
    "and",
    "no",
]


def text(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def timed(refs: list[str], preds: list[str], *, meteor: bool, max_words: int) -> tuple[float, dict]:
    start = time.perf_counter()
    summary, _, _ = compute_nlg(
        refs, preds, normalization="simple", meteor=meteor, max_words=max_words
    )
    return time.perf_counter() - start, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--unbounded-words", type=int, default=8000)
    parser.add_argument("--no-meteor", dest="meteor", action="store_false", help="leave METEOR out")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rng = random.Random(0)
    refs = [text(rng, rng.randint(15, 40)) for _ in range(args.cases)]
    preds = [text(rng, rng.randint(15, 40)) for _ in range(args.cases)]
    timed(refs[:2], preds[:2], meteor=args.meteor, max_words=MAX_WORDS)  # imports and Java start-up
    huge = (text(rng, 2000) + " ") * (5_000_000 // (len(text(rng, 2000)) + 1) + 1)
    huge = huge[:5_000_000]
    long_ref = text(
        rng, 80
    )  # a report that shares its words with the prediction: METEOR's worst case
    base, _ = timed(refs, preds, meteor=args.meteor, max_words=MAX_WORDS)
    bounded, summary = timed(
        [*refs, long_ref], [*preds, huge], meteor=args.meteor, max_words=MAX_WORDS
    )
    long_pred = text(rng, args.unbounded_words)
    unbounded, _ = timed(
        [*refs, long_ref],
        [*preds, long_pred],
        meteor=args.meteor,
        max_words=args.unbounded_words + 1,
    )
    figures = {
        "cases": args.cases,
        "meteor": args.meteor,
        "normal_seconds": round(base, 3),
        "with_5MB_bounded_seconds": round(bounded, 3),
        "with_5MB_bounded_ratio": round(bounded / base, 2),
        "n_nlg_truncated_predictions": summary["n_nlg_truncated_predictions"],
        f"with_{args.unbounded_words}_words_unbounded_seconds": round(unbounded, 3),
        f"with_{args.unbounded_words}_words_unbounded_ratio": round(unbounded / base, 2),
    }
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
