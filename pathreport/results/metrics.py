"""Metric names, their display names and which direction is better.

One place for these facts, so the tables, the comparisons and the figures agree. The metric names
themselves are the evaluators' (``pathreport.evaluation``), imported here, never retyped. The
paper's result tables (PathReportEval, Tables 2 and 4-6) show BLEU-1..4, ROUGE-L, METEOR and CRQS,
in that order; CRQS's sub-scores HR (hallucination rate) and CDS (clinical discordance) are rates of
errors, so for them a LOWER value is better.
"""

from __future__ import annotations

from pathreport.evaluation.crqs.evaluator import CRQS_METRICS
from pathreport.evaluation.nlg import NLG_METRICS
from pathreport.evaluation.options import declared_metrics

#: Columns of the paper's tables, in the paper's order.
PAPER_METRICS = ("BLEU_1", "BLEU_2", "BLEU_3", "BLEU_4", "ROUGE_L", "METEOR", "CRQS")

#: Metrics of ``pathreport results compare`` by default (per-case scores exist for all of them).
COMPARE_METRICS = ("BLEU_4", "METEOR", "ROUGE_L", "CRQS")

#: Scores that are better when lower (rates of errors).
LOWER_IS_BETTER = frozenset({"HR", "CDS", "wall_seconds"})

#: Any of these in a JSON object marks it as a report-metrics summary.
KNOWN_METRICS = frozenset(NLG_METRICS) | frozenset(CRQS_METRICS)

DISPLAY_NAMES = {
    "BLEU_1": "BLEU-1",
    "BLEU_2": "BLEU-2",
    "BLEU_3": "BLEU-3",
    "BLEU_4": "BLEU-4",
    "ROUGE_L": "ROUGE-L",
    "CRQS_raw": "CRQS (raw)",
    "ROUGE_1": "ROUGE-1",
    "ROUGE_2": "ROUGE-2",
    "ROUGE_L_RS": "ROUGE-L (rouge-score)",
    "METEOR_NLTK": "METEOR (NLTK fallback)",
    "REG2025": "REG2025 score",
    "WSI_P": "WSI-P",
    "WSI_R": "WSI-R",
    "PATH_ERRORS": "PathErrors",
    "wall_seconds": "time (s)",
}

#: Metric names accepted on the command line in the paper's spelling (``BLEU-4``, ``ROUGE-L``).
ALIASES = {display.lower(): name for name, display in DISPLAY_NAMES.items()} | {
    name.lower(): name for name in KNOWN_METRICS
}


def known_metrics() -> frozenset[str]:
    """The metrics above plus every metric a registered report evaluator declares.

    A summary that holds only, say, ``REG2025`` is still a report summary; without the registry
    (a broken plug-in) the built-in names still count.
    """
    try:
        return KNOWN_METRICS | frozenset(declared_metrics())
    except Exception:  # noqa: BLE001 - collecting results must not depend on every plug-in importing
        return KNOWN_METRICS


def display_name(metric: str) -> str:
    """The name a reader expects in a table header (``BLEU-4`` rather than ``BLEU_4``)."""
    return DISPLAY_NAMES.get(metric, metric)


def canonical_metric(name: str) -> str:
    """``bleu-4``, ``BLEU4`` or ``BLEU_4`` -> ``BLEU_4``; unknown names are returned unchanged."""
    key = name.strip().lower()
    if key in ALIASES:
        return ALIASES[key]
    squashed = key.replace("-", "_")
    if squashed in ALIASES:
        return ALIASES[squashed]
    if key.startswith("bleu") and key[4:].isdigit():
        return f"BLEU_{key[4:]}"
    return name.strip()


def higher_is_better(metric: str) -> bool:
    return metric not in LOWER_IS_BETTER


def is_score(metric: str) -> bool:
    """True for metrics worth ranking (not counts such as ``n_cases`` or interval bounds)."""
    return not (
        metric.startswith("n_")
        or "_n_" in metric
        or metric.endswith("_n_scored")
        or "_CI95" in metric
    )


def parse_metric_list(text: str | None, default: tuple[str, ...]) -> list[str]:
    """A comma-separated metric list from the command line, in canonical names."""
    if not text:
        return list(default)
    return [canonical_metric(m) for m in text.split(",") if m.strip()]
