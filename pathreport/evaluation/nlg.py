"""Lexical report metrics from ``pycocoevalcap``: BLEU-1..4, METEOR, ROUGE-L and CIDEr.

The scorers are pycocoevalcap's own (installed from PyPI, not vendored). What this module adds is
what the reference implementation left implicit:

* Text normalisation is explicit and recorded in the summary. The default, ``ptb``, is the COCO
  caption protocol (Stanford PTBTokenizer: lower case, punctuation removed). It also removes raw
  newlines, which would otherwise break METEOR's line protocol (REG reports contain newlines).
  ``simple`` is a pure-Python approximation for machines without Java.
* METEOR runs in one long-lived Java process per Python process (its start-up costs seconds).
  Without Java, METEOR is reported as unavailable with the reason, never as zero, and the other
  metrics are still computed.
* Per-case scores (sentence BLEU, METEOR segment score, ROUGE-L, CIDEr) are kept for paired
  comparisons between systems.
* Predictions are scored up to :data:`MAX_WORDS` words (and ``MAX_CHARS_PER_WORD`` characters per
  allowed word). METEOR's alignment and ROUGE-L's LCS grow faster than linearly with length: one
  runaway 5 MB prediction would stall a whole evaluation for hours. Generators decode at most a
  few hundred tokens, so the bound only touches pathological input; the summary records the bound
  and how many predictions it cut (``n_nlg_truncated_predictions``), and the per-case rows flag
  them. References are never cut: they are the dataset's.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Sequence
from typing import Any

from pathreport.data.predictions import PredictionRecord
from pathreport.evaluation.base import EvaluationResult
from pathreport.registry import EVALUATORS

NLG_METRICS = ("BLEU_1", "BLEU_2", "BLEU_3", "BLEU_4", "METEOR", "ROUGE_L", "CIDEr")
NORMALISATIONS = ("ptb", "simple")
MAX_WORDS = 1000
MAX_CHARS_PER_WORD = 20

# Tokens the COCO protocol drops after PTB tokenisation (same list as pycocoevalcap's tokenizer).
_PUNCTUATION = {
    "''",
    "'",
    "``",
    "`",
    "-lrb-",
    "-rrb-",
    "-lcb-",
    "-rcb-",
    ".",
    "?",
    "!",
    ",",
    ":",
    "-",
    "--",
    "...",
    ";",
}
_SIMPLE_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[a-z]+(?:'[a-z]+)*|[^\sa-z\d]")


def bound_length(text: str, max_words: int) -> tuple[str, bool]:
    """``text`` cut to its first ``max_words`` whitespace-separated words and to
    ``max_words * MAX_CHARS_PER_WORD`` characters; returns (text, whether it was cut)."""
    max_chars = max_words * MAX_CHARS_PER_WORD
    cut = text if len(text) <= max_chars else text[:max_chars]
    words = cut.split(maxsplit=max_words)
    if len(words) > max_words:
        cut = " ".join(words[:max_words])
    return cut, cut is not text


def java_available() -> str | None:
    """Path of the ``java`` executable, or None."""
    return shutil.which("java")


def simple_tokenize(text: str) -> str:
    """Lower-case, split words, numbers and symbols, drop COCO punctuation; no Java needed."""
    tokens = _SIMPLE_TOKEN.findall(text.lower())
    return " ".join(t for t in tokens if t not in _PUNCTUATION)


def ptb_tokenize(texts: Sequence[str]) -> list[str]:
    """Tokenise with pycocoevalcap's PTBTokenizer (Java), one output string per input."""
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    # PTBTokenizer treats each input line as one sentence; flatten newlines and keep empty
    # strings from shifting later lines by giving them a placeholder that is removed below.
    placeholder = "emptyprediction"
    payload = {i: [{"caption": (" ".join(t.split()) or placeholder)}] for i, t in enumerate(texts)}
    tokenized = PTBTokenizer().tokenize(payload)
    out = []
    for i in range(len(texts)):
        text = tokenized[i][0]
        out.append("" if text == placeholder else text)
    return out


class _MeteorProcess:
    """One METEOR 1.5 Java process, reused for every call in this Python process."""

    _lock = threading.Lock()
    _instance: Any = None
    _failure: str | None = None

    @classmethod
    def get(cls) -> Any:
        with cls._lock:
            if cls._instance is None and cls._failure is None:
                if not java_available():
                    cls._failure = (
                        "java was not found on PATH (METEOR 1.5 is a Java program); install "
                        "a JRE, e.g. `apt-get install default-jre-headless`"
                    )
                else:
                    from pycocoevalcap.meteor.meteor import Meteor

                    try:
                        cls._instance = Meteor()
                    except OSError as err:  # pragma: no cover - depends on the machine
                        cls._failure = f"METEOR could not start: {err}"
                    else:
                        atexit.register(cls.close)
            return cls._instance

    @classmethod
    def reason(cls) -> str | None:
        return cls._failure

    @classmethod
    def close(cls) -> None:
        with cls._lock:
            meteor, cls._instance = cls._instance, None
        if meteor is not None:
            try:
                meteor.meteor_p.stdin.close()
                meteor.meteor_p.kill()
                meteor.meteor_p.wait(timeout=5)
            except (OSError, subprocess.SubprocessError):  # pragma: no cover
                pass

    @classmethod
    def score(cls, gts: dict, res: dict) -> tuple[float, list[float]]:
        meteor = cls.get()
        if meteor is None:
            raise RuntimeError(cls._failure)
        try:
            return meteor.compute_score(gts, res)
        except (ValueError, OSError, BrokenPipeError) as err:
            stderr = ""
            if meteor.meteor_p.poll() is not None and meteor.meteor_p.stderr is not None:
                stderr = meteor.meteor_p.stderr.read().decode(errors="replace")[-500:]
            with cls._lock:
                cls._instance = None
                cls._failure = f"METEOR failed ({err}); Java said: {stderr.strip() or 'nothing'}"
            raise RuntimeError(cls._failure) from err


def compute_nlg(
    references: Sequence[str],
    predictions: Sequence[str],
    *,
    normalization: str = "ptb",
    meteor: bool = True,
    max_words: int = MAX_WORDS,
) -> tuple[dict[str, Any], list[dict[str, float | None]], dict[str, str]]:
    """Corpus and per-case NLG scores.

    Args:
        max_words: predictions longer than this are scored on their first ``max_words`` words
            (see the module docstring); the count is ``n_nlg_truncated_predictions`` in the summary.

    Returns:
        (summary, per_case, unavailable): the summary has the seven metrics and
        ``text_normalization``; ``per_case`` is aligned with the inputs; ``unavailable`` maps a
        metric to the reason it could not be computed.
    """
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    if len(references) != len(predictions):
        raise ValueError(f"{len(references)} references but {len(predictions)} predictions.")
    if normalization not in NORMALISATIONS:
        raise ValueError(
            f"Unknown text normalisation {normalization!r}; choose from {NORMALISATIONS}."
        )
    if max_words < 1:
        raise ValueError(f"The NLG length bound must be >= 1 word, found {max_words}.")
    bounded = [bound_length(p, max_words) for p in predictions]
    predictions = [text for text, _ in bounded]
    unavailable: dict[str, str] = {}
    used = normalization
    if normalization == "ptb" and not java_available():
        used = "simple"
        unavailable["PTB"] = (
            "java not found; text normalised with the pure-Python tokenizer instead"
        )
    if used == "ptb":
        tokenized = ptb_tokenize(list(references) + list(predictions))
        refs, hyps = tokenized[: len(references)], tokenized[len(references) :]
    else:
        refs = [simple_tokenize(t) for t in references]
        hyps = [simple_tokenize(t) for t in predictions]

    gts = {i: [r] for i, r in enumerate(refs)}
    res = {i: [h] for i, h in enumerate(hyps)}
    n = len(refs)
    per_case: list[dict[str, float | None]] = [{} for _ in range(n)]
    summary: dict[str, Any] = {}

    bleu, bleu_cases = Bleu(4).compute_score(gts, res, verbose=0)
    for k in range(4):
        summary[f"BLEU_{k + 1}"] = float(bleu[k])
        for i in range(n):
            per_case[i][f"BLEU_{k + 1}"] = float(bleu_cases[k][i])

    rouge, rouge_cases = Rouge().compute_score(gts, res)
    summary["ROUGE_L"] = float(rouge)
    for i in range(n):
        per_case[i]["ROUGE_L"] = float(rouge_cases[i])

    cider, cider_cases = Cider().compute_score(gts, res)
    summary["CIDEr"] = float(cider)
    for i in range(n):
        per_case[i]["CIDEr"] = float(cider_cases[i])

    summary["METEOR"] = None
    if not meteor:
        unavailable["METEOR"] = "disabled by the caller"
    else:
        try:
            score, scores = _MeteorProcess.score(gts, res)
        except RuntimeError as err:
            unavailable["METEOR"] = str(err)
        else:
            summary["METEOR"] = float(score)
            for i in range(n):
                per_case[i]["METEOR"] = float(scores[i])
    for case, (_, cut) in zip(per_case, bounded):
        case.setdefault("METEOR", None)
        if cut:
            case["nlg_truncated"] = True

    summary = {m: summary[m] for m in NLG_METRICS}
    summary["text_normalization"] = used
    summary["nlg_max_words"] = max_words
    summary["n_nlg_truncated_predictions"] = sum(1 for _, cut in bounded if cut)
    return summary, per_case, unavailable


@EVALUATORS.register(
    "nlg",
    kind="report",
    description="BLEU-1..4, METEOR, ROUGE-L, CIDEr (pycocoevalcap, COCO caption protocol)",
    metrics=list(NLG_METRICS),
    needs=(
        "Java for METEOR 1.5 and the PTB tokenizer (without it: METEOR unavailable, "
        "pure-Python tokens)"
    ),
)
def evaluate_nlg(
    records: Sequence[PredictionRecord],
    *,
    dataset: str | None = None,
    normalization: str = os.environ.get("PATHREPORT_NLG_NORMALIZATION", "ptb"),
    meteor: bool = True,
    max_words: int = MAX_WORDS,
) -> EvaluationResult:
    """Report evaluator: lexical overlap between each prediction and its raw reference (each
    prediction scored up to ``max_words`` words)."""
    empty_refs = [r.id for r in records if not r.reference.strip()]
    if empty_refs:
        raise ValueError(
            f"{len(empty_refs)} reference report(s) are empty (ids {empty_refs[:5]}); "
            "remove these slides from the evaluated split or fix their reports."
        )
    summary, cases, unavailable = compute_nlg(
        [r.reference for r in records],
        [r.prediction for r in records],
        normalization=normalization,
        meteor=meteor,
        max_words=max_words,
    )
    return EvaluationResult(
        summary=summary,
        per_case={r.id: c for r, c in zip(records, cases)},
        unavailable=unavailable,
    )
