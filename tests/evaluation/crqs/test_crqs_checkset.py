"""The CRQS check set: paraphrases must outscore lexically close but clinically wrong reports.

This is the property CRQS exists for (PathReportEval's Table 3): a lexical metric rewards the
wrong candidate, which shares most words with the reference; CRQS must not. The comparison with
METEOR needs a Java process and lives in ``benchmarks/crqs_speed.py --check-set``; BLEU-4 is
computed here.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from pathreport.evaluation.crqs import score_pair

CHECK_SET = Path(__file__).parent / "crqs_check_set.yaml"
ERRORS = {"grade", "diagnosis", "negation", "omission", "hallucination", "size"}


@pytest.fixture(scope="module")
def triplets() -> list[dict]:
    return yaml.safe_load(CHECK_SET.read_text(encoding="utf-8"))


def test_checkset_covers_every_style_and_error_kind(triplets):
    assert len(triplets) >= 60
    assert len({t["id"] for t in triplets}) == len(triplets)
    styles = Counter(t["dataset"] for t in triplets)
    assert set(styles) == {"reg2025", "tcga", "histai"} and min(styles.values()) >= 20
    for style in styles:
        assert {t["error"] for t in triplets if t["dataset"] == style} == ERRORS


def _crqs_wins(triplets) -> list[bool]:
    wins = []
    for t in triplets:
        para = score_pair(t["reference"], t["paraphrase"], t["dataset"]).CRQS
        wrong = score_pair(t["reference"], t["wrong"], t["dataset"]).CRQS
        wins.append(para > wrong)
    return wins


def test_checkset_crqs_prefers_the_paraphrase_in_at_least_95_percent(triplets):
    wins = _crqs_wins(triplets)
    failed = [t["id"] for t, w in zip(triplets, wins, strict=True) if not w]
    assert sum(wins) / len(wins) >= 0.95, f"CRQS ranks the wrong report higher for {failed}"


def test_checkset_bleu4_prefers_the_wrong_report_far_more_often_than_crqs(triplets):
    from pathreport.evaluation.nlg import compute_nlg

    refs = [t["reference"] for t in triplets]
    _, para, _ = compute_nlg(
        refs, [t["paraphrase"] for t in triplets], normalization="simple", meteor=False
    )
    _, wrong, _ = compute_nlg(
        refs, [t["wrong"] for t in triplets], normalization="simple", meteor=False
    )
    bleu_rate = sum(p["BLEU_4"] > w["BLEU_4"] for p, w in zip(para, wrong, strict=True)) / len(
        triplets
    )
    crqs_rate = sum(_crqs_wins(triplets)) / len(triplets)
    assert bleu_rate < 0.5 < crqs_rate


def test_the_speed_benchmark_compares_metrics_on_this_check_set():
    """``benchmarks/crqs_speed.py --check-set`` compares the metrics on this file, not a copy."""
    import importlib.util

    path = Path(__file__).parents[3] / "benchmarks" / "crqs_speed.py"
    spec = importlib.util.spec_from_file_location("crqs_speed", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.CHECK_SET.resolve() == CHECK_SET.resolve()
