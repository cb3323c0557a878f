"""Lexical metrics via pycocoevalcap, with explicit normalisation and METEOR's Java dependency."""

from __future__ import annotations

import pytest

from pathreport.data.predictions import PredictionRecord
from pathreport.evaluation.evaluate import evaluate_records, write_evaluation
from pathreport.evaluation.nlg import compute_nlg, simple_tokenize

REFS = [
    "Breast, core-needle biopsy;\n  Invasive carcinoma of no special type, grade II",
    "Stomach, endoscopic biopsy;\n  Chronic gastritis",
    "Prostate, needle biopsy;\n  Benign prostatic tissue",
]


def test_nlg_identical_reports_score_perfectly_and_empty_scores_zero():
    summary, cases, unavailable = compute_nlg(
        REFS, [REFS[0], "", REFS[2]], normalization="simple", meteor=False
    )
    assert cases[0]["BLEU_4"] == pytest.approx(1.0, abs=1e-6) and cases[0][
        "ROUGE_L"
    ] == pytest.approx(1.0)
    assert cases[1]["BLEU_1"] == 0.0 and cases[1]["ROUGE_L"] == 0.0
    assert summary["text_normalization"] == "simple"
    assert summary["METEOR"] is None and "METEOR" in unavailable


def test_nlg_simple_normalisation_drops_punctuation_and_case():
    text = "Breast, core-needle biopsy;\n Grade II (3+4=7) 2.5 cm."
    assert simple_tokenize(text) == "breast core needle biopsy grade ii ( 3 + 4 = 7 ) 2.5 cm"


def test_nlg_meteor_without_java_is_unavailable_and_the_rest_is_written(monkeypatch, tmp_path):
    from pathreport.evaluation import nlg

    monkeypatch.setattr(nlg, "java_available", lambda: None)
    monkeypatch.setattr(nlg._MeteorProcess, "_instance", None)
    monkeypatch.setattr(nlg._MeteorProcess, "_failure", None)
    records = [PredictionRecord(id=str(i), reference=r, prediction=r) for i, r in enumerate(REFS)]
    result = evaluate_records(records, dataset="synthetic", metrics=["nlg"])
    assert result.summary["METEOR"] is None
    assert "java" in result.unavailable["METEOR"]
    assert result.summary["BLEU_4"] == pytest.approx(1.0, abs=1e-6)
    assert result.summary["text_normalization"] == "simple"  # PTB needs Java too: said so
    written = write_evaluation(result, tmp_path)
    text = written["summary"].read_text()
    assert '"METEOR": null' in text and '"unavailable"' in text


@pytest.mark.skipif(__import__("shutil").which("java") is None, reason="METEOR and PTB need Java")
def test_nlg_ptb_and_meteor_with_java():
    summary, cases, unavailable = compute_nlg(REFS, REFS, normalization="ptb")
    assert not unavailable and summary["text_normalization"] == "ptb"
    assert summary["METEOR"] == pytest.approx(1.0, abs=1e-3)
    assert all(c["METEOR"] == pytest.approx(1.0, abs=1e-3) for c in cases)


def test_nlg_empty_reference_is_an_error_naming_the_slide():
    records = [PredictionRecord(id="s9", reference=" ", prediction="x")]
    with pytest.raises(ValueError, match=r"ids \['s9'\]"):
        evaluate_records(records, metrics=["nlg"])
