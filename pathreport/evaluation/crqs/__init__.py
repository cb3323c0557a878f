"""CRQS, the Clinical Report Quality Score (PathReportEval, arXiv 2607.18448, Sec. 3.4, App. A.7).

Reports are mapped to clinical fields with a dataset schema (``crqs/<dataset>.yaml``) by a
swappable extractor backend (:data:`pathreport.evaluation.crqs.extractors.EXTRACTORS`, rule-based by
default), then compared field by field into four components (CFC, KIR, HR, CDS) and one score.

The paper's authors published CRQS code (https://github.com/surykntsingh/PathBench, ``crqs/``, MIT
licence); this package is written from the definitions, and departs from that code on purpose:
one edge-case policy for every dataset; HR as the paper's Eq. 4 everywhere; no vocabulary learned
from the predictions being scored; extraction on raw (not tokenizer-cleaned) text; distinct REG
diagnosis and histologic type; scoped negation in every dataset; exact matching of canonical
values instead of substring matches; the subtractive formula by default with Eq. 6 available and
normalised by its true maximum. ``docs/crqs.md`` lists every departure with its reason.

Importing this package registers the ``crqs`` report evaluator; it stays cheap (standard library,
PyYAML and pathreport only; numpy is imported when a confidence interval is computed).
"""

from pathreport.evaluation.crqs.evaluator import (
    CRQS_METRICS,
    default_weighting,
    default_weights,
    evaluate_crqs,
)
from pathreport.evaluation.crqs.extractors import EXTRACTORS, Finding, get_extractor
from pathreport.evaluation.crqs.schema import (
    FieldSpec,
    Schema,
    SchemaError,
    available_schemas,
    build_schema,
    load_schema,
)
from pathreport.evaluation.crqs.scoring import CaseScore, CRQSConfig, score_fields


def extract(
    text: str, dataset: str, *, extractor: str = "rule", profile: str | None = None
) -> dict:
    """The clinical fields of one report under ``dataset``'s schema (canonical values)."""
    return get_extractor(extractor, load_schema(dataset).for_profile(profile)).extract(text)


def score_pair(
    reference: str,
    prediction: str,
    dataset: str,
    *,
    extractor: str = "rule",
    config: CRQSConfig | None = None,
    profile: str | None = None,
) -> CaseScore:
    """CRQS of one generated report against its reference.

    ``profile="paper"`` scores with the paper's field lists and, unless ``config`` says
    otherwise, the paper's unweighted fields and component weights.
    """
    schema = load_schema(dataset).for_profile(profile)
    if config is None:
        config = CRQSConfig(weights=default_weights(profile), weighting=default_weighting(profile))
    backend = get_extractor(extractor, schema)
    return score_fields(backend.extract(reference), backend.extract(prediction), schema, config)


__all__ = [
    "CRQS_METRICS",
    "EXTRACTORS",
    "CRQSConfig",
    "CaseScore",
    "FieldSpec",
    "Finding",
    "Schema",
    "SchemaError",
    "available_schemas",
    "build_schema",
    "evaluate_crqs",
    "extract",
    "get_extractor",
    "load_schema",
    "score_fields",
    "score_pair",
]
