"""``wsi_precision`` and ``wsi_relevance``: WSI-LLaVA's claim-level LLM-judge metrics.

Paper: WSI-LLaVA (arXiv 2412.02141, ICCV 2025), Sec. 3.3 and App. 4. Upstream code: none published
for the metrics (XinhengLyu/WSI-LLaVA, Apache-2.0, has no judge code). The two metrics are one
pair in the paper, so they share this file:

* WSI-Precision: the judge splits the GROUND TRUTH into claims, then scores each claim against
  the model response with the rubric 1 / 0.7 / 0.3 / 0; the case score is the mean over claims
  (recall-like: is the ground truth's content present and correct?).
* WSI-Relevance: the judge splits the MODEL RESPONSE into claims and scores each against the
  ground truth; mean over claims (precision-like: is what the model said supported?).

The set score is the plain mean over scored cases. Deviations and choices (the paper states none
of them): the prompts are reconstructed (the paper's are images; the rubric is verbatim) and
versioned in ``pathreport/resources/judge_wsi_llava.yaml``; all claims of a case are scored in one
call that returns one score per claim; the judge is any registered backend rather than GPT-4o.
Undefined cases: a ground truth with no claims leaves WSI-P unscored for that case (counted in
``WSI_P_n_no_claims``); a response with no claims (an empty report) scores WSI-R = 0, since it
states nothing the ground truth supports (counted in ``WSI_R_n_no_claims``). Judge failures are
counted in ``<metric>_n_judge_failures`` and never scored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pathreport.data.predictions import PredictionRecord
from pathreport.evaluation.base import EvaluationResult
from pathreport.evaluation.judging.json_output import JudgeOutputError
from pathreport.evaluation.judging.judge import Judge, JudgeOptions, judge_summary
from pathreport.registry import EVALUATORS

PROMPTS = "wsi_llava"
PAPER = "WSI-LLaVA (arXiv 2412.02141), Sec. 3.3 and App. 4"
NEEDS = "a judge: --option <name>.backend=openai|transformers --option <name>.model=<id>"


def score_claims(
    judge: Judge, sources: Sequence[str], againsts: Sequence[str], task: str
) -> list[dict[str, Any]]:
    """Per case: claims of ``sources[i]`` scored against ``againsts[i]``.

    Returns dicts with ``score`` (mean over claims, or None), ``claims`` (claim, score,
    explanation) and ``error`` (why the judge could not score the case, or None).
    """
    rubric = "\n".join(f"- Score {k}: {v}" for k, v in judge.prompts.data["rubric"].items())
    texts = [t for t in dict.fromkeys(sources) if t.strip()]
    extracted = dict(zip(texts, judge.ask("extract_claims", [{"text": t} for t in texts])))
    cases: list[dict[str, Any]] = [{} for _ in sources]
    requests, owners = [], []
    for i, source in enumerate(sources):
        answer = extracted.get(source)
        if answer is not None and not answer.ok:
            cases[i] = {
                "score": None,
                "claims": None,
                "error": f"claims extraction: {answer.error}",
            }
            continue
        claims = [c.strip() for c in (answer.value["claims"] if answer else []) if c.strip()]
        if not claims:
            cases[i] = {"score": None, "claims": [], "error": None}
            continue
        cases[i] = {"claims": claims}
        requests.append(
            {
                "rubric": rubric,
                "claims": json.dumps(claims, ensure_ascii=False),
                "against": againsts[i],
            }
        )
        owners.append(i)

    def one_score_per_claim(
        value: dict[str, Any], variables: dict[str, str]
    ) -> list[dict[str, Any]]:
        expected = len(json.loads(variables["claims"]))
        if len(value["scores"]) != expected:
            raise JudgeOutputError(
                f"'scores' has {len(value['scores'])} entries for {expected} claims"
            )
        return value["scores"]

    for i, answer in zip(owners, judge.ask(task, requests, check=one_score_per_claim)):
        if not answer.ok:
            cases[i] = {
                "score": None,
                "claims": cases[i]["claims"],
                "error": f"claim scoring: {answer.error}",
            }
            continue
        scored = [
            {
                "claim": claim,
                "score": float(item["score"]),
                "explanation": item.get("explanation", ""),
            }
            for claim, item in zip(cases[i]["claims"], answer.value)
        ]
        cases[i] = {
            "score": sum(s["score"] for s in scored) / len(scored),
            "claims": scored,
            "error": None,
        }
    return cases


def _evaluate(
    records: Sequence[PredictionRecord], options: dict[str, Any], *, prefix: str, precision: bool
) -> EvaluationResult:
    judge = Judge.from_options(JudgeOptions(**options), PROMPTS)
    references = [r.reference for r in records]
    predictions = [r.prediction for r in records]
    if precision:
        cases = score_claims(judge, references, predictions, "score_precision")
    else:
        cases = score_claims(judge, predictions, references, "score_relevance")
    no_claims = 0
    per_case: dict[str, dict[str, Any]] = {}
    for record, case in zip(records, cases):
        if case["error"] is None and case["claims"] == []:
            no_claims += 1
            if not precision:
                case["score"] = 0.0
        per_case[record.id] = {
            prefix: case["score"],
            f"{prefix}_n_claims": None if case["claims"] is None else len(case["claims"]),
            f"{prefix}_claims": case["claims"],
            f"{prefix}_judge_error": case["error"],
        }
    failures = sum(1 for c in cases if c["error"])
    scored = [c["score"] for c in cases if c["score"] is not None]
    policy = (
        "ground truth without claims: case unscored"
        if precision
        else "response without claims: scored 0"
    )
    summary = judge_summary(
        prefix,
        judge,
        failures,
        scored,
        {f"{prefix}_n_no_claims": no_claims, f"{prefix}_no_claims_policy": policy},
    )
    unavailable = {}
    if not scored:
        unavailable[prefix] = (
            f"the judge scored no case ({failures} judge failure(s), {no_claims} without claims)"
        )
    return EvaluationResult(summary=summary, per_case=per_case, unavailable=unavailable)


def _judge_evaluator(name: str, prefix: str, *, precision: bool, description: str) -> Any:
    """Register the report evaluator ``name``: one direction of the judged claim comparison.

    WSI-Precision and WSI-Relevance differ only in which side's claims are scored against which,
    so one function serves both; ``precision`` picks the direction.
    """

    def evaluate(
        records: Sequence[PredictionRecord], *, dataset: str | None = None, **options: Any
    ) -> EvaluationResult:
        """Report evaluator: judged claims in one direction (options: :class:`JudgeOptions`)."""
        return _evaluate(records, options, prefix=prefix, precision=precision)

    evaluate.options_class = JudgeOptions  # type: ignore[attr-defined]
    return EVALUATORS.register(
        name, kind="report", metrics=[prefix], needs=NEEDS, paper=PAPER, description=description
    )(evaluate)


evaluate_wsi_precision = _judge_evaluator(
    "wsi_precision",
    "WSI_P",
    precision=True,
    description="WSI-Precision: ground-truth claims scored against the report by an LLM judge",
)
evaluate_wsi_relevance = _judge_evaluator(
    "wsi_relevance",
    "WSI_R",
    precision=False,
    description=(
        "WSI-Relevance: the report's claims scored against the ground truth by an LLM judge"
    ),
)
