"""``meteor_nltk``: NLTK's METEOR, a Java-free fallback, reported as ``METEOR_NLTK``.

The METEOR that report-generation papers report is METEOR 1.5 (the Java program that
pycocoevalcap runs; ``nlg`` evaluator, column ``METEOR``). NLTK re-implements the METEOR matching
(exact, Porter stem, WordNet synonym) with its own parameters and without METEOR 1.5's paraphrase
table, so its values are systematically different: they go in their own column and are never
mixed with ``METEOR``. Use it only where Java is missing.

It needs NLTK's WordNet data, which no PyPI package ships; the Debian packages ``wordnet-base``
and ``wordnet-sense-index`` contain it (see docs/evaluators.md). Without it, ``METEOR_NLTK`` is
reported unavailable with those instructions. Texts are tokenised like the ``nlg`` evaluator's
``simple`` normalisation (lower case, COCO punctuation dropped); the set score is the mean of
sentence scores. Upstream: NLTK ``nltk.translate.meteor_score`` (Apache-2.0), used as installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pathreport.data.predictions import PredictionRecord
from pathreport.evaluation.base import COMPARABILITY_KEY, EvaluationResult
from pathreport.evaluation.nlg import simple_tokenize
from pathreport.registry import EVALUATORS

METRIC = "METEOR_NLTK"
WORDNET_HELP = (
    "NLTK's WordNet data is missing. Get it from Debian's packages: `apt-get download "
    "wordnet-base wordnet-sense-index`, `dpkg -x` both into a folder, copy (not link) its "
    "usr/share/wordnet/* into $NLTK_DATA/corpora/wordnet/ and add the lexnames file "
    "(docs/evaluators.md); or use the nlg evaluator's METEOR 1.5 with Java"
)


def load_wordnet() -> tuple[Any, str]:
    """NLTK's WordNet reader and its version; raises LookupError with the fix when absent."""
    from nltk.corpus import wordnet

    try:
        wordnet.ensure_loaded()
        return wordnet, str(wordnet.get_version())
    except (LookupError, OSError) as err:
        raise LookupError(WORDNET_HELP) from err


@EVALUATORS.register(
    "meteor_nltk",
    kind="report",
    metrics=[METRIC],
    description=(
        "METEOR from NLTK (Java-free fallback; NOT METEOR 1.5, separate column METEOR_NLTK)"
    ),
    needs="nltk and WordNet data (Debian wordnet-base); otherwise reported unavailable",
    paper="Banerjee & Lavie (2005); NLTK nltk.translate.meteor_score",
)
def evaluate_meteor_nltk(
    records: Sequence[PredictionRecord], *, dataset: str | None = None, wordnet: Any = None
) -> EvaluationResult:
    """Report evaluator: mean NLTK METEOR over reports.

    Args:
        wordnet: a WordNet reader to use instead of NLTK's data (Python API; anything with
            ``synsets(word)``, as NLTK's matcher needs).
    """
    try:
        from nltk.translate.meteor_score import meteor_score
    except ImportError:
        return _unavailable(
            "nltk is not installed: pip install nltk (or pip install 'pathreport[metrics]')"
        )
    source = "injected"
    if wordnet is None:
        try:
            wordnet, source = load_wordnet()
            source = f"WordNet {source}"
        except LookupError as err:
            return _unavailable(str(err))
    per_case = {}
    for record in records:
        reference = simple_tokenize(record.reference).split()
        hypothesis = simple_tokenize(record.prediction).split()
        per_case[record.id] = {
            METRIC: float(meteor_score([reference], hypothesis, wordnet=wordnet))
        }
    values = [c[METRIC] for c in per_case.values()]
    import nltk

    settings = (
        f"nltk {nltk.__version__} meteor_score, {source}, simple tokens, mean of sentence scores"
    )
    summary = {
        METRIC: sum(values) / len(values) if values else None,
        "meteor_nltk_settings": settings,
        COMPARABILITY_KEY: {METRIC: settings},
    }
    return EvaluationResult(summary=summary, per_case=per_case)


def _unavailable(reason: str) -> EvaluationResult:
    return EvaluationResult(summary={METRIC: None}, unavailable={METRIC: reason})
