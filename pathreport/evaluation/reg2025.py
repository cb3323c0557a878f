"""``reg2025_score``: the REG 2025 challenge's per-report ranking score, averaged over the set.

Source: the ranking formula of the REG 2025 challenge (REport Generation in pathology using
Pan-Asia Giga-pixel WSIs, MICCAI 2025), as the organisers' evaluation code (class
``REG_Evaluator``, circulated by participants) and the challenge's evaluation page define it::

    ranking = 0.15 * (ROUGE + BLEU) + 0.4 * KEY + 0.3 * EMB

* BLEU: clipped 4-gram precision of the prediction on raw whitespace tokens (case and punctuation
  kept), no brevity penalty, no smoothing; 0 below 4 tokens. NOT corpus BLEU-4.
* ROUGE: ROUGE-L F1 on lower-cased whitespace tokens, no stemming.
* KEY: Jaccard index of the entity sets that a scispaCy pipeline finds (``doc.ents``,
  lower-cased, at least 3 characters, deduplicated); 0 when both sets are empty.
* EMB: cosine of mean-pooled last hidden states (truncation at 512 tokens, no padding, float32),
  rescaled as (s - 0.5) / 0.5 when s > 0.5 and kept as is otherwise (not clipped).

The formula is re-implemented here from that description (no code copied). Upstream licence: not
stated by the organisers. Deviations: none in the formula. The challenge copies disagree on the
embedding model (``dmis-lab/biobert-v1.1`` in one, ``aaditya/Llama3-OpenBioLLM-8B`` in another);
this evaluator pins BioBERT v1.1 and ``en_core_sci_lg`` by default, takes either by name or local
path, and records both in the summary, because scores computed with different models are not
comparable. Neither model is bundled: a missing one is an error that says how to install it.
The entity extractor and the embedder can also be passed as Python objects (tests use a spaCy
pipeline with an entity ruler and a tiny BERT built from a config).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pathreport.data.predictions import PredictionRecord
from pathreport.errors import ConfigError
from pathreport.evaluation.base import COMPARABILITY_KEY, EvaluationResult
from pathreport.registry import EVALUATORS

DEFAULT_SPACY_PIPELINE = "en_core_sci_lg"
DEFAULT_EMBEDDING_MODEL = "dmis-lab/biobert-v1.1"
WEIGHTS = {"ROUGE": 0.15, "BLEU": 0.15, "KEY": 0.4, "EMB": 0.3}
COMPONENTS = ("BLEU", "ROUGE", "KEY", "EMB")
METRICS = ("REG2025", *(f"REG2025_{c}" for c in COMPONENTS))
MIN_KEYWORD_CHARS = 3
MAX_EMBEDDING_TOKENS = 512

SPACY_INSTALL = (
    "pip install spacy scispacy && pip install "
    "https://s3-us-west-2.amazonaws.com/ai2-s2-scispacy/releases/v0.5.4/en_core_sci_lg-0.5.4.tar.gz"
)

EntityExtractor = Callable[[list[str]], list[list[str]]]
Embedder = Callable[[list[str]], np.ndarray]


# -- the four components -------------------------------------------------------------------------
def clipped_4gram_precision(reference: str, hypothesis: str) -> float:
    """Clipped 4-gram precision of ``hypothesis`` on raw ``str.split()`` tokens (0 below 4)."""
    hyp, ref = hypothesis.split(), reference.split()
    if len(hyp) < 4:
        return 0.0
    hyp_grams = Counter(tuple(hyp[i : i + 4]) for i in range(len(hyp) - 3))
    ref_grams = Counter(tuple(ref[i : i + 4]) for i in range(len(ref) - 3))
    clipped = sum(min(n, ref_grams[g]) for g, n in hyp_grams.items())
    return clipped / (len(hyp) - 3)


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence (one row of the table at a time)."""
    if len(a) < len(b):
        a, b = b, a
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b, start=1):
            current.append(previous[j - 1] + 1 if x == y else max(previous[j], current[j - 1]))
        previous = current
    return previous[-1]


def rouge_l_f1(reference: str, hypothesis: str) -> float:
    """ROUGE-L F1 (beta = 1) on lower-cased whitespace tokens; 0 when P + R = 0."""
    ref, hyp = reference.lower().split(), hypothesis.lower().split()
    if not ref or not hyp:
        return 0.0
    lcs = lcs_length(ref, hyp)
    precision, recall = lcs / len(hyp), lcs / len(ref)
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def keywords(entities: Sequence[str]) -> set[str]:
    """Entity texts lower-cased, kept when at least 3 characters long, deduplicated."""
    return {e.lower() for e in entities if len(e) >= MIN_KEYWORD_CHARS}


def keyword_jaccard(reference_keywords: set[str], hypothesis_keywords: set[str]) -> float:
    """|A ∩ B| / |A ∪ B|; 0 when both sets are empty."""
    union = reference_keywords | hypothesis_keywords
    if not union:
        return 0.0
    return len(reference_keywords & hypothesis_keywords) / len(union)


def rescaled_cosine(u: np.ndarray, v: np.ndarray) -> float:
    """Cosine similarity, mapped (s - 0.5) / 0.5 when above 0.5, else kept (may be negative)."""
    norm = float(np.linalg.norm(u) * np.linalg.norm(v))
    s = float(np.dot(u, v)) / norm if norm > 0 else 0.0
    return (s - 0.5) / 0.5 if s > 0.5 else s


def ranking_score(bleu: float, rouge: float, key: float, emb: float) -> float:
    """0.15 (ROUGE + BLEU) + 0.4 KEY + 0.3 EMB."""
    return (
        WEIGHTS["ROUGE"] * rouge
        + WEIGHTS["BLEU"] * bleu
        + WEIGHTS["KEY"] * key
        + WEIGHTS["EMB"] * emb
    )


# -- the two models ------------------------------------------------------------------------------
class SpacyEntityExtractor:
    """``doc.ents`` of a spaCy pipeline loaded by package name or folder.

    Args:
        pipeline: an installed pipeline package (``en_core_sci_lg``) or a folder written by
            ``nlp.to_disk``.
    """

    def __init__(self, pipeline: str = DEFAULT_SPACY_PIPELINE) -> None:
        try:
            import spacy
        except ImportError:
            raise ConfigError(
                "reg2025_score needs spaCy for its KEY component: pip install "
                f"'pathreport[reg2025]' (spaCy), then the challenge's pipeline: {SPACY_INSTALL}"
            ) from None
        try:
            self.nlp = spacy.load(pipeline)
        except OSError as err:
            raise ConfigError(
                f"reg2025_score: the spaCy pipeline '{pipeline}' cannot be loaded "
                f"({str(err).splitlines()[0][:160]}). Install the challenge's "
                f"pipeline: {SPACY_INSTALL}; or pass a pipeline folder with --option "
                "reg2025_score.spacy_pipeline=<folder>."
            ) from None
        self.pipeline = pipeline
        self.spacy_version = spacy.__version__

    def __call__(self, texts: list[str]) -> list[list[str]]:
        return [[ent.text for ent in doc.ents] for doc in self.nlp.pipe(texts)]

    def describe(self) -> dict[str, Any]:
        meta = self.nlp.meta
        return {
            "spacy_pipeline": self.pipeline,
            "spacy_pipeline_id": (
                f"{meta.get('lang', '?')}_{meta.get('name', '?')}@{meta.get('version', '?')}"
            ),
            "spacy_version": self.spacy_version,
        }


class MeanPooledEmbedder:
    """Mean over tokens of a transformers model's last hidden state, one text at a time.

    One text per forward pass, as the challenge's code does: with no padding, the mean covers
    exactly the text's tokens (including the special tokens the tokenizer adds).

    Args:
        model: a Hugging Face model id or a local folder with config, weights and tokenizer.
        device: torch device.
    """

    def __init__(self, model: str = DEFAULT_EMBEDDING_MODEL, device: str = "cpu") -> None:
        try:
            import torch
            from transformers import AutoModel, AutoTokenizer
        except ImportError:
            raise ConfigError(
                "reg2025_score needs transformers for EMB: pip install 'pathreport[text]'."
            ) from None
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(model)
            self.model = AutoModel.from_pretrained(model).float().to(device).eval()
        except (OSError, ValueError) as err:
            raise ConfigError(
                f"reg2025_score: the embedding model '{model}' cannot be loaded "
                f"({str(err).splitlines()[0][:160]}). Download it where the model hub is "
                f"reachable (`hf download {DEFAULT_EMBEDDING_MODEL} --local-dir <folder>`, or "
                "`huggingface-cli download ...`), then pass --option "
                "reg2025_score.embedding_model=<folder>."
            ) from None
        self.name = model
        self.device = device
        self._torch = torch

    def __call__(self, texts: list[str]) -> np.ndarray:
        rows = []
        with self._torch.no_grad():
            for text in texts:
                inputs = self.tokenizer(
                    text, return_tensors="pt", truncation=True, max_length=MAX_EMBEDDING_TOKENS
                )
                inputs = {k: v.to(self.device) for k, v in inputs.items()}
                hidden = self.model(**inputs).last_hidden_state[0].float()
                rows.append(
                    hidden.mean(dim=0).cpu().numpy()
                    if hidden.shape[0]
                    else np.zeros(hidden.shape[-1])
                )
        return np.stack(rows) if rows else np.zeros((0, 0), dtype=np.float32)

    def describe(self) -> dict[str, Any]:
        config = self.model.config
        return {
            "embedding_model": self.name,
            "embedding_architecture": type(self.model).__name__,
            "embedding_dim": int(getattr(config, "hidden_size", 0) or 0),
        }


# -- scoring -------------------------------------------------------------------------------------
def score_pairs(
    references: Sequence[str],
    predictions: Sequence[str],
    entities: EntityExtractor,
    embed: Embedder,
) -> list[dict[str, Any]]:
    """Per-pair components and ranking; every distinct text is tagged and embedded once."""
    texts = list(dict.fromkeys([*references, *predictions]))
    found = dict(zip(texts, (keywords(e) for e in entities(texts)), strict=True))
    vectors = dict(zip(texts, np.asarray(embed(texts), dtype=np.float64), strict=True))
    cases = []
    for ref, hyp in zip(references, predictions, strict=True):
        parts = {
            "BLEU": clipped_4gram_precision(ref, hyp),
            "ROUGE": rouge_l_f1(ref, hyp),
            "KEY": keyword_jaccard(found[ref], found[hyp]),
            "EMB": rescaled_cosine(vectors[ref], vectors[hyp]),
        }
        cases.append(
            {
                "REG2025": ranking_score(**{k.lower(): v for k, v in parts.items()}),
                **{f"REG2025_{k}": v for k, v in parts.items()},
                "REG2025_keywords_reference": sorted(found[ref]),
                "REG2025_keywords_prediction": sorted(found[hyp]),
            }
        )
    return cases


def _describe(obj: Any, fallback: str) -> dict[str, Any]:
    describe = getattr(obj, "describe", None)
    return (
        describe()
        if callable(describe)
        else {fallback: getattr(obj, "__name__", type(obj).__name__)}
    )


@EVALUATORS.register(
    "reg2025_score",
    kind="report",
    description="REG 2025 challenge ranking: 0.15(ROUGE+BLEU)+0.4 KEY+0.3 EMB per report, averaged",
    metrics=list(METRICS),
    needs=(
        f"spaCy + scispaCy '{DEFAULT_SPACY_PIPELINE}' (KEY) and '{DEFAULT_EMBEDDING_MODEL}' "
        "(EMB), or local paths"
    ),
    paper="REG 2025 challenge (MICCAI 2025) evaluation code, REG_Evaluator",
)
def evaluate_reg2025(
    records: Sequence[PredictionRecord],
    *,
    dataset: str | None = None,
    spacy_pipeline: str = DEFAULT_SPACY_PIPELINE,
    embedding_model: str = DEFAULT_EMBEDDING_MODEL,
    device: str = "cpu",
    entity_extractor: EntityExtractor | None = None,
    embedder: Embedder | None = None,
) -> EvaluationResult:
    """Report evaluator: the challenge score of each case and their plain mean.

    Args:
        spacy_pipeline: spaCy pipeline (name or folder) for KEY.
        embedding_model: transformers model (id or folder) for EMB.
        device: torch device of the embedding model.
        entity_extractor, embedder: ready objects used instead of loading the two above (Python
            API; the summary records their ``describe()``).
    """
    extractor = entity_extractor or SpacyEntityExtractor(spacy_pipeline)
    embed = embedder or MeanPooledEmbedder(embedding_model, device=device)
    cases = score_pairs(
        [r.reference for r in records], [r.prediction for r in records], extractor, embed
    )
    settings = {**_describe(extractor, "entity_extractor"), **_describe(embed, "embedder")}
    pinned = settings.get("spacy_pipeline") == DEFAULT_SPACY_PIPELINE and (
        settings.get("embedding_model") == DEFAULT_EMBEDDING_MODEL
    )
    settings["weights"] = dict(WEIGHTS)
    settings["challenge_models"] = pinned
    if not pinned:
        settings["note"] = (
            f"not the challenge's models ({DEFAULT_SPACY_PIPELINE}, {DEFAULT_EMBEDDING_MODEL}): "
            "KEY and EMB, hence REG2025, are not comparable to the leaderboard or to runs with "
            "other models"
        )
    summary: dict[str, Any] = {m: _mean([c[m] for c in cases]) for m in METRICS}
    summary["reg2025_settings"] = settings
    fingerprint = " ".join(
        str(settings.get(k))
        for k in (
            "spacy_pipeline",
            "spacy_pipeline_id",
            "entity_extractor",
            "embedding_model",
            "embedder",
        )
        if k in settings
    )
    summary[COMPARABILITY_KEY] = {"REG2025": fingerprint}
    return EvaluationResult(
        summary=summary, per_case={r.id: c for r, c in zip(records, cases, strict=True)}
    )


def _mean(values: list[float]) -> float | None:
    finite = [v for v in values if math.isfinite(v)]
    return sum(finite) / len(finite) if finite else None
