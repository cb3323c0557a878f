"""The REG 2025 challenge score: each component and the aggregate against hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest

from pathreport.data.predictions import PredictionRecord
from pathreport.errors import ConfigError
from pathreport.evaluation import reg2025
from pathreport.evaluation.evaluate import evaluate_records

REF_A = "The tumor is a well differentiated adenocarcinoma ."
HYP_A = "The tumor is a poorly differentiated adenocarcinoma ."
REF_B = "Benign ."


def test_bleu_is_clipped_4gram_precision_on_raw_tokens():
    # 5 hypothesis 4-grams, only "The tumor is a" is in the reference.
    assert reg2025.clipped_4gram_precision(REF_A, HYP_A) == pytest.approx(1 / 5)
    # "a a a a" occurs 3 times in the hypothesis, once in the reference: clipped to 1 of 3.
    assert reg2025.clipped_4gram_precision("a a a a b", "a a a a a a") == pytest.approx(1 / 3)
    # Case and attached punctuation are kept; fewer than 4 tokens score 0, even when identical.
    assert reg2025.clipped_4gram_precision("the cat sat on", "The cat sat on") == 0.0
    assert reg2025.clipped_4gram_precision("cat sat on.", "cat sat on") == 0.0
    assert reg2025.clipped_4gram_precision(REF_B, REF_B) == 0.0
    # No brevity penalty: a short exact prefix is perfect.
    assert reg2025.clipped_4gram_precision(REF_A, "The tumor is a") == 1.0


def test_rouge_is_lcs_f1_on_lowercased_tokens():
    # LCS = 7 of 8 tokens each way: P = R = F = 7/8.
    assert reg2025.rouge_l_f1(REF_A, HYP_A) == pytest.approx(7 / 8)
    # Lower-cased, no stemming: "Tumors" != "tumor".
    assert reg2025.rouge_l_f1("Tumor present", "tumor present") == 1.0
    assert reg2025.rouge_l_f1("tumor present", "Tumors present") == pytest.approx(0.5)
    # LCS 2, |h| = 2, |r| = 4: P = 1, R = 0.5, F = 2/3.
    assert reg2025.rouge_l_f1("a b c d", "a c") == pytest.approx(2 / 3)
    assert reg2025.rouge_l_f1("a b", "") == 0.0 and reg2025.rouge_l_f1("a b", "c d") == 0.0


def test_key_is_jaccard_of_lowercased_entities_of_three_or_more_characters():
    ref = reg2025.keywords(["Adenocarcinoma", "well differentiated", "is", "adenocarcinoma"])
    hyp = reg2025.keywords(["poorly differentiated", "ADENOCARCINOMA"])
    assert ref == {"adenocarcinoma", "well differentiated"}
    assert reg2025.keyword_jaccard(ref, hyp) == pytest.approx(1 / 3)
    assert reg2025.keyword_jaccard(set(), set()) == 0.0
    assert reg2025.keyword_jaccard({"abc"}, set()) == 0.0


def test_emb_rescales_cosine_above_one_half_and_keeps_the_rest():
    u = np.array([1.0, 0.0])
    assert reg2025.rescaled_cosine(u, np.array([0.8, 0.6])) == pytest.approx(0.6)  # (0.8-0.5)/0.5
    assert reg2025.rescaled_cosine(u, np.array([0.3, 0.91**0.5])) == pytest.approx(0.3)  # kept
    assert reg2025.rescaled_cosine(u, np.array([-0.2, 0.96**0.5])) == pytest.approx(
        -0.2
    )  # not clipped
    assert reg2025.rescaled_cosine(u, 3 * u) == pytest.approx(1.0)
    assert reg2025.rescaled_cosine(u, np.zeros(2)) == 0.0


class FixedEmbedder:
    """Deterministic stand-in: a fixed vector per text."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors

    def __call__(self, texts):
        return np.array([self.vectors[t] for t in texts])

    def describe(self):
        return {"embedding_model": "fixed-test-vectors"}


def ruler_pipeline(folder):
    import spacy

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns(
        [
            {"label": "ENTITY", "pattern": "adenocarcinoma"},
            {"label": "ENTITY", "pattern": [{"LOWER": "well"}, {"LOWER": "differentiated"}]},
            {"label": "ENTITY", "pattern": [{"LOWER": "poorly"}, {"LOWER": "differentiated"}]},
            {"label": "ENTITY", "pattern": "is"},  # shorter than 3 characters: dropped from KEY
        ]
    )
    nlp.to_disk(folder)
    return folder


def test_aggregate_per_case_and_mean_with_a_real_spacy_pipeline(tmp_path):
    pipeline = reg2025.SpacyEntityExtractor(str(ruler_pipeline(tmp_path / "ruler")))
    embedder = FixedEmbedder(
        {REF_A: [1, 0], HYP_A: [0.8, 0.6], REF_B: [1, 0], "Benign": [0.3, 0.91**0.5]}
    )
    records = [
        PredictionRecord(id="a", reference=REF_A, prediction=HYP_A),
        PredictionRecord(id="b", reference=REF_B, prediction="Benign"),
    ]
    result = evaluate_records(
        records,
        metrics=["reg2025_score"],
        options={"reg2025_score": {"entity_extractor": pipeline, "embedder": embedder}},
    )
    a, b = result.per_case["a"], result.per_case["b"]
    assert a["REG2025_KEY"] == pytest.approx(1 / 3)
    assert a["REG2025_keywords_reference"] == ["adenocarcinoma", "well differentiated"]
    # 0.15 (7/8 + 1/5) + 0.4 (1/3) + 0.3 (0.6)
    assert a["REG2025"] == pytest.approx(0.15 * (0.875 + 0.2) + 0.4 / 3 + 0.18)
    # "Benign" vs "Benign .": BLEU 0 (< 4 tokens), ROUGE P=1 R=1/2 F=2/3, no entities, EMB 0.3 kept.
    assert b["REG2025_ROUGE"] == pytest.approx(2 / 3)
    assert b["REG2025"] == pytest.approx(0.15 * (2 / 3) + 0.3 * 0.3)
    assert result.summary["REG2025"] == pytest.approx((a["REG2025"] + b["REG2025"]) / 2)
    settings = result.summary["reg2025_settings"]
    assert (
        settings["spacy_pipeline_id"].startswith("en_")
        and settings["embedding_model"] == "fixed-test-vectors"
    )
    assert settings["challenge_models"] is False and "not comparable" in settings["note"]
    assert "fixed-test-vectors" in result.summary["comparability"]["REG2025"]


def test_emb_mean_pools_a_transformers_model_loaded_from_a_folder_with_truncation(tmp_path):
    import torch
    from transformers import AutoModel, AutoTokenizer

    from tests.helpers.tiny_models import tiny_bert

    folder = tiny_bert(tmp_path / "bert", ["tumor", "benign", "grade"])
    embedder = reg2025.MeanPooledEmbedder(str(folder))
    vectors = embedder(["tumor grade", "benign"])
    model, tokenizer = AutoModel.from_pretrained(folder), AutoTokenizer.from_pretrained(folder)
    with torch.no_grad():
        hidden = model(**tokenizer("tumor grade", return_tensors="pt")).last_hidden_state[0]
    assert hidden.shape[0] == 4  # [CLS] tumor grade [SEP]: special tokens are in the mean
    np.testing.assert_allclose(vectors[0], hidden.mean(0).numpy(), rtol=1e-5, atol=1e-6)
    long_text = " ".join(["tumor"] * 700)
    truncated = " ".join(["tumor"] * 510)
    np.testing.assert_allclose(
        embedder([long_text])[0], embedder([truncated])[0], rtol=1e-5, atol=1e-6
    )
    assert embedder.describe()["embedding_model"] == str(folder)


def test_default_models_are_the_challenges_and_missing_ones_say_how_to_install(tmp_path):
    import inspect

    params = inspect.signature(reg2025.evaluate_reg2025).parameters
    assert params["spacy_pipeline"].default == "en_core_sci_lg"
    assert params["embedding_model"].default == "dmis-lab/biobert-v1.1"
    with pytest.raises(ConfigError, match="en_core_sci_lg-0.5.4.tar.gz"):
        reg2025.SpacyEntityExtractor(str(tmp_path / "no-such-pipeline"))
    with pytest.raises(
        ConfigError, match=r"hf download dmis-lab/biobert-v1.1.*embedding_model=<folder>"
    ):
        reg2025.MeanPooledEmbedder(str(tmp_path / "no-such-model"))
