"""``bertscore``: BERTScore (Zhang et al., ICLR 2020) through the authors' ``bert-score`` package.

Optional: it needs the ``bert-score`` package and a transformers model. The default is the
package's own default for English (``roberta-large``, layer 17, no idf, no baseline rescaling), so
numbers match what other papers report with ``bert_score.score(lang="en")``; any model id or local
folder can be chosen (a local folder needs ``num_layers``). The package's hash of the settings
(model, layer, idf, rescaling, versions) is recorded in the summary, because BERTScores from
different models or layers are not comparable. A missing model is an error that says how to get
it. Upstream: Tiiiger/bert_score (MIT), used as installed. Deviations: none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pathreport.data.predictions import PredictionRecord
from pathreport.errors import ConfigError
from pathreport.evaluation.base import COMPARABILITY_KEY, EvaluationResult
from pathreport.registry import EVALUATORS

DEFAULT_MODEL = "roberta-large"
METRICS = ("BERTScore_P", "BERTScore_R", "BERTScore_F1")


@EVALUATORS.register(
    "bertscore",
    kind="report",
    metrics=list(METRICS),
    description="BERTScore P/R/F1 (bert-score package; default roberta-large layer 17)",
    needs=(
        "the bert-score package and the model's weights (hub id reachable, or a local folder "
        "+ num_layers)"
    ),
    paper="Zhang et al., BERTScore, ICLR 2020",
)
def evaluate_bertscore(
    records: Sequence[PredictionRecord],
    *,
    dataset: str | None = None,
    model: str = DEFAULT_MODEL,
    num_layers: int | None = None,
    idf: bool = False,
    rescale_with_baseline: bool = False,
    batch_size: int = 32,
    device: str = "cpu",
) -> EvaluationResult:
    """Report evaluator: per-report BERTScore precision, recall and F1, and their means.

    Args:
        model: a model id known to bert-score, or a local folder.
        num_layers: which hidden layer (required for models bert-score does not know).
        idf: idf weighting computed from the evaluated references.
        rescale_with_baseline: bert-score's baseline rescaling (only for models it ships baselines
            for).
        batch_size, device: inference settings (do not change the scores).
    """
    try:
        import bert_score
    except ImportError:
        raise ConfigError(
            "bertscore needs the bert-score package: pip install bert-score "
            "(or pip install 'pathreport[metrics]')."
        ) from None
    try:
        (precision, recall, f1), settings = bert_score.score(
            [r.prediction for r in records],
            [r.reference for r in records],
            model_type=model,
            num_layers=num_layers,
            idf=idf,
            rescale_with_baseline=rescale_with_baseline,
            lang="en",
            batch_size=batch_size,
            device=device,
            return_hash=True,
            use_fast_tokenizer=True,
        )
    except KeyError:
        raise ConfigError(
            f"bertscore: bert-score does not know the layer to use for '{model}'; "
            "pass --option bertscore.num_layers=<layer>."
        ) from None
    except OSError as err:
        raise ConfigError(
            f"bertscore: the model '{model}' cannot be loaded "
            f"({str(err).splitlines()[0][:160]}). Download it where the hub is reachable (`hf "
            f"download {model} --local-dir <folder>`) and pass --option bertscore.model=<folder> "
            "--option bertscore.num_layers=<layer>."
        ) from None
    per_case: dict[str, dict[str, Any]] = {
        r.id: {"BERTScore_P": float(p), "BERTScore_R": float(rc), "BERTScore_F1": float(f)}
        for r, p, rc, f in zip(records, precision.tolist(), recall.tolist(), f1.tolist())
    }
    summary: dict[str, Any] = {
        m: sum(c[m] for c in per_case.values()) / len(per_case) for m in METRICS
    }
    summary["bertscore_settings"] = settings
    summary[COMPARABILITY_KEY] = {"BERTScore": settings}
    return EvaluationResult(summary=summary, per_case=per_case)
