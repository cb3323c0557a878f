"""What the newer evaluators cost per 1,000 cases: judge calls and tokens, and CPU time.

Usage::

    python benchmarks/evaluator_cost.py                  # 200 synthetic REG-style pairs
    python benchmarks/evaluator_cost.py --n 500 --json out.json

Judge metrics: the judge is replaced by a counting stand-in that answers in the shape and about
the length a real judge does (one claim per clause, a one-sentence explanation per score, one
matched finding per clause and two errors for path_errors), so the figures are the calls and
tokens the evaluators send and receive, not a judge's quality. Tokens are counted with the
all-MiniLM-L6-v2 WordPiece tokenizer when the ``[text]`` extra is installed (a stand-in for the
judge's own tokenizer; expect roughly +-20% for Llama/Qwen/GPT tokenizers), else as characters / 4.

CPU and wall time on one thread: ``rouge`` and ``reg2025_score`` with a spaCy entity ruler (KEY)
and all-MiniLM-L6-v2 (EMB) as labelled stand-ins for en_core_sci_lg and BioBERT (BioBERT-base has
about 8x MiniLM's compute per token, so expect EMB to cost several times more with it).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pathreport.data.predictions import PredictionRecord  # noqa: E402
from pathreport.data.synthetic import generate_cases  # noqa: E402
from pathreport.evaluation.evaluate import evaluate_records  # noqa: E402


def clauses(text: str) -> list[str]:
    return [c.strip() for c in re.split(r"[;,\n()]", text) if len(c.strip()) > 3]


class CountingJudge:
    """Answers like a judge would, and counts what goes in and out."""

    name = "counting"
    model = "stand-in"

    def __init__(self, count_tokens):
        self.count = count_tokens
        self.calls = self.tokens_in = self.tokens_out = 0

    def complete(self, conversations):
        out = []
        for messages in conversations:
            user = messages[1]["content"]
            if "Carefully extract the claims" in user:
                text = re.search(r'"""\n(.*?)\n"""', user, re.DOTALL).group(1)
                answer = json.dumps({"claims": clauses(text)})
            elif "claims (JSON list)" in user:
                claims = json.loads(re.search(r"claims \(JSON list\):\n(\[.*?\])\n", user).group(1))
                answer = json.dumps(
                    {
                        "scores": [
                            {
                                "claim": c,
                                "explanation": "The response states this finding "
                                "with the same grade and site as the ground truth.",
                                "score": 1,
                            }
                            for c in claims
                        ]
                    }
                )
            else:
                reference = re.findall(r'"""\n(.*?)\n"""', user, re.DOTALL)[0]
                answer = json.dumps(
                    {
                        "matched_findings": clauses(reference),
                        "errors": [
                            {
                                "category": "wrong_grade",
                                "significant": True,
                                "description": "grade 2 instead of grade 3",
                            },
                            {
                                "category": "missed_finding",
                                "significant": False,
                                "description": "omits the margin status",
                            },
                        ],
                    }
                )
            self.calls += 1
            self.tokens_in += sum(self.count(m["content"]) for m in messages)
            self.tokens_out += self.count(answer)
            out.append(answer)
        return out

    def describe(self):
        return {}


def minilm_folder() -> Path:
    """The MiniLM weights folder, located by the registered ``minilm`` text encoder's module."""
    import importlib

    from pathreport.registry import TEXT_ENCODERS

    return importlib.import_module(TEXT_ENCODERS.get("minilm").obj.__module__).minilm_dir()


def token_counter():
    try:
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(minilm_folder())
        return (
            lambda text: len(tokenizer(text, add_special_tokens=False)["input_ids"])
        ), "MiniLM WordPiece"
    except Exception:  # noqa: BLE001 - any failure falls back to the character rule
        return (lambda text: max(1, len(text) // 4)), "characters / 4"


def records(n: int) -> list[PredictionRecord]:
    reports = [text for text, _ in generate_cases(2 * n, seed=1)]
    rng = random.Random(0)
    return [
        PredictionRecord(id=f"s{i}", reference=reports[i], prediction=reports[n + rng.randrange(n)])
        for i in range(n)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=200, help="number of report pairs")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    data = records(args.n)
    count, how = token_counter()
    figures: dict = {
        "n_cases": args.n,
        "token_count": how,
        "judges": {},
        "cpu_seconds_per_1000": {},
        "wall_seconds_per_1000": {},
    }
    for metric in ("wsi_precision", "wsi_relevance", "path_errors"):
        judge = CountingJudge(count)
        with tempfile.TemporaryDirectory() as cache:  # a fresh cache: every call is counted
            evaluate_records(
                data,
                metrics=[metric],
                options={metric: {"judge": judge, "cache_dir": cache, "max_parse_retries": 0}},
            )
        scale = 1000 / args.n
        figures["judges"][metric] = {
            "calls_per_1000": round(judge.calls * scale),
            "input_tokens_per_1000": round(judge.tokens_in * scale),
            "output_tokens_per_1000": round(judge.tokens_out * scale),
        }
    try:
        import spacy

        from pathreport.evaluation.reg2025 import MeanPooledEmbedder

        nlp = spacy.blank("en")
        nlp.add_pipe("entity_ruler").add_patterns(
            [
                {"label": "E", "pattern": w}
                for w in ("carcinoma", "adenocarcinoma", "biopsy", "invasion", "grade")
            ]
        )
        extractor = lambda texts: [[e.text for e in doc.ents] for doc in nlp.pipe(texts)]  # noqa: E731
        embedder = MeanPooledEmbedder(str(minilm_folder()))
        options = {"reg2025_score": {"entity_extractor": extractor, "embedder": embedder}}
        import torch

        torch.set_num_threads(
            1
        )  # one core, as the module docstring says; threads only add noise here
        for metric in ("rouge", "reg2025_score"):
            started, cpu = time.perf_counter(), time.process_time()
            evaluate_records(
                data, metrics=[metric], options={k: v for k, v in options.items() if k == metric}
            )
            figures["cpu_seconds_per_1000"][metric] = round(
                (time.process_time() - cpu) * 1000 / args.n, 2
            )
            figures["wall_seconds_per_1000"][metric] = round(
                (time.perf_counter() - started) * 1000 / args.n, 2
            )
    except ImportError as err:
        figures["cpu_seconds_per_1000"]["skipped"] = str(err)
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
