"""Paired comparison of two systems on the same test slides.

A *system* is one model with one encoder on one dataset and split; given as

* a path: a run folder, its ``metrics/<split>.json``, a per-case file, or a folder holding several
  runs of the same model and encoder (its seeds);
* a selector into the results table: ``model=histgen,encoder=uni2`` (keys: dataset, model, encoder,
  seed, split), or the short form ``histgen:uni2`` / ``histgen:uni2:0`` (model:encoder[:seed]).

Per-slide scores come from the per-case files. A system with several runs (seeds) is scored per
slide by the mean over its runs. Both systems must have scored exactly the same slides; otherwise
the comparison is refused, unless the caller allows it, and then it uses the slides both scored.
The statistics are :func:`pathreport.results.stats.paired_bootstrap`.

Per-slide BLEU is pycocoevalcap's sentence-level BLEU and per-slide METEOR its segment score: their
mean is not the corpus BLEU / METEOR of the results tables (which pool n-gram counts over all
slides), so the compared means differ from the table values. ROUGE-L, CIDEr and CRQS are means of
per-slide scores in both places.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pathreport.results.collect import NotASummary, discover, read_run_summary
from pathreport.results.metrics import COMPARE_METRICS, display_name
from pathreport.results.per_case import CaseScores, read_per_case
from pathreport.results.stats import PairedDifference, paired_bootstrap
from pathreport.results.store import ResultsError

if TYPE_CHECKING:
    import pandas as pd

SELECTOR_KEYS = ("dataset", "model", "encoder", "seed", "split")
CORPUS_VS_SENTENCE = (
    "Per-slide BLEU is sentence-level BLEU and per-slide METEOR the segment score "
    "(pycocoevalcap); their means differ from the corpus BLEU/METEOR of the results tables. "
    "ROUGE-L, CIDEr and CRQS are per-slide means in both."
)


@dataclass
class System:
    """What is compared: a label, its runs (one per seed) and, once loaded, per-slide scores."""

    label: str
    runs: list[dict[str, Any]]
    scores: CaseScores = field(default_factory=dict)


@dataclass
class Comparison:
    """A - B per metric (None where a metric has no paired scores), with notes for the reader."""

    a: System
    b: System
    metrics: list[str]
    results: dict[str, PairedDifference | None]
    reasons: dict[str, str]
    notes: list[str]
    n_resamples: int
    seed: int
    confidence: float = 0.95


def resolve_system(
    spec: str, table: pd.DataFrame | None, *, split: str = "test", dataset: str | None = None
) -> System:
    """A :class:`System` from a path or a selector (see the module docstring)."""
    path = Path(spec)
    if path.exists():
        return _system_from_path(path, split)
    if table is None:
        raise ResultsError(
            f"{spec!r} is not a file or folder, and there is no results table to look it up in. "
            "Give a run folder, or collect the runs first (`pathreport results collect`)."
        )
    return _system_from_table(spec, table, split, dataset)


def parse_selector(spec: str) -> dict[str, str]:
    """``model=histgen,encoder=uni2`` or ``histgen:uni2[:seed]`` -> {key: value}."""
    if "=" in spec:
        out = {}
        for part in spec.split(","):
            key, sep, value = part.partition("=")
            key = key.strip()
            if not sep or key not in SELECTOR_KEYS or not value.strip():
                raise ResultsError(
                    f"Bad system selector {spec!r}: each part must be key=value with key "
                    f"in {SELECTOR_KEYS}."
                )
            out[key] = value.strip()
        return out
    parts = spec.split(":")
    if not 1 <= len(parts) <= 3 or not all(parts):
        raise ResultsError(
            f"Bad system selector {spec!r}: write model:encoder[:seed], e.g. histgen:uni2, "
            "or model=histgen,encoder=uni2."
        )
    return dict(zip(("model", "encoder", "seed"), parts))


def _system_from_table(spec: str, table: pd.DataFrame, split: str, dataset: str | None) -> System:
    wanted = {"split": split, **({"dataset": dataset} if dataset else {}), **parse_selector(spec)}
    runs = table.drop_duplicates(["run", "split"])
    mask = runs["split"] == wanted["split"]
    for key, value in wanted.items():
        column = runs[key].astype("string") if key == "seed" else runs[key]
        mask &= (column == value).fillna(False).astype(bool)
    found = runs[mask]
    if found.empty:
        options = sorted({f"{m}:{e}" for m, e in zip(runs["model"], runs["encoder"])})
        raise ResultsError(
            f"No run in the results table matches {spec!r} on split {wanted['split']!r}; "
            f"systems there: {', '.join(options) or 'none'}."
        )
    identities = sorted(set(zip(found["dataset"], found["model"], found["encoder"])))
    if len(identities) > 1:
        listing = ", ".join(f"dataset={d},model={m},encoder={e}" for d, m, e in identities)
        raise ResultsError(
            f"{spec!r} matches several systems ({listing}); a system is one dataset, model and "
            "encoder: add the missing keys (or --dataset)."
        )
    columns = ["run", "seed", "per_case", "evaluated_set", "dataset", "model", "encoder", "split"]
    return System(label=spec, runs=found[columns].to_dict("records"))


def _system_from_path(path: Path, split: str) -> System:
    if path.is_file() and (path.suffix == ".jsonl" or path.name.endswith(".table.json")):
        return System(
            label=str(path),
            runs=[{"run": str(path), "seed": None, "per_case": str(path), "split": split}],
        )
    summaries, _ = discover(path)
    runs = []
    for summary_path, kind in summaries:
        try:
            result = read_run_summary(summary_path, kind)
        except NotASummary:  # some other JSON file, not a run
            continue
        if result.split == split:
            runs.append(
                {
                    "run": result.run,
                    "seed": result.seed,
                    "per_case": result.per_case,
                    "evaluated_set": result.evaluated_set,
                    "dataset": result.dataset,
                    "model": result.model,
                    "encoder": result.encoder,
                    "split": split,
                }
            )
    if not runs:
        raise ResultsError(
            f"{path}: no {split!r} summary with per-case scores found here; give a run folder "
            "(with metrics/<split>.json) or a per-case file."
        )
    identities = sorted({(r["dataset"], r["model"], r["encoder"]) for r in runs})
    if len(identities) > 1:
        raise ResultsError(
            f"{path} holds runs of {len(identities)} systems ({identities}); point to the runs "
            "of one model and encoder, or use a selector such as model=histgen,encoder=uni2."
        )
    return System(label=str(path), runs=runs)


def load_scores(system: System, *, allow_different_sets: bool = False) -> list[str]:
    """Fill ``system.scores`` (per slide, the mean over its runs); returns notes."""
    notes: list[str] = []
    per_run: list[CaseScores] = []
    for run in system.runs:
        if not run.get("per_case"):
            raise ResultsError(
                f"{system.label}: run {run['run']} has no per-case scores file recorded; "
                "collect it again from its run folder (metrics/<split>_per_case.jsonl)."
            )
        per_run.append(read_per_case(run["per_case"]))
    id_sets = [set(s) for s in per_run]
    common = set.intersection(*id_sets)
    if any(s != common for s in id_sets):
        if not allow_different_sets:
            raise ResultsError(
                f"{system.label}: its {len(per_run)} runs scored different slides "
                f"({sorted(len(s) for s in id_sets)} slides); pass --allow-different-sets to use "
                f"the {len(common)} slides all of them scored."
            )
        notes.append(
            f"{system.label}: its runs scored different slides; using the {len(common)} all "
            "of them scored."
        )
    order = [i for i in per_run[0] if i in common]
    system.scores = {case: _mean_over_runs([scores[case] for scores in per_run]) for case in order}
    if len(per_run) > 1:
        seeds = ",".join(str(r.get("seed")) for r in system.runs)
        notes.append(
            f"{system.label}: per-slide scores are the mean over {len(per_run)} runs "
            f"(seeds {seeds})."
        )
    return notes


def _mean_over_runs(cases: Sequence[dict[str, float | None]]) -> dict[str, float | None]:
    metrics = dict.fromkeys(k for case in cases for k in case)
    out: dict[str, float | None] = {}
    for metric in metrics:
        values = [c[metric] for c in cases if c.get(metric) is not None]
        out[metric] = sum(values) / len(values) if values else None
    return out


def compare_systems(
    a: System,
    b: System,
    *,
    metrics: Sequence[str] = COMPARE_METRICS,
    n_resamples: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
    allow_different_sets: bool = False,
) -> Comparison:
    """Paired bootstrap of A - B for each metric on the slides both systems scored."""
    notes = load_scores(a, allow_different_sets=allow_different_sets)
    notes += load_scores(b, allow_different_sets=allow_different_sets)
    ids_a, ids_b = set(a.scores), set(b.scores)
    if ids_a != ids_b:
        only_a, only_b = sorted(ids_a - ids_b), sorted(ids_b - ids_a)
        message = (
            f"A ({a.label}) and B ({b.label}) scored different slides: {len(only_a)} only in "
            f"A {only_a[:3]}, {len(only_b)} only in B {only_b[:3]}, {len(ids_a & ids_b)} in both."
        )
        if not allow_different_sets:
            raise ResultsError(
                message
                + " A paired comparison needs the same test slides; evaluate both on the same "
                "split, or pass --allow-different-sets to compare on the slides both scored."
            )
        notes.append(message + " Compared on the slides in both.")
    common = [case for case in a.scores if case in ids_b]
    if not common:
        raise ResultsError(
            f"A ({a.label}) and B ({b.label}) have no slide in common; nothing to compare."
        )
    results: dict[str, PairedDifference | None] = {}
    reasons: dict[str, str] = {}
    for metric in metrics:
        pairs = [(a.scores[c].get(metric), b.scores[c].get(metric)) for c in common]
        pairs = [
            (x, y)
            for x, y in pairs
            if x is not None and y is not None and math.isfinite(x) and math.isfinite(y)
        ]
        if not pairs:
            results[metric] = None
            reasons[metric] = (
                "no per-slide scores in both systems (unavailable in a run, e.g. METEOR "
                "without Java)"
            )
            continue
        if len(pairs) < len(common):
            notes.append(
                f"{display_name(metric)}: {len(common) - len(pairs)} slide(s) lack a score in A "
                f"or B and are left out ({len(pairs)} compared)."
            )
        xs, ys = zip(*pairs)
        results[metric] = paired_bootstrap(
            xs, ys, n_resamples=n_resamples, seed=seed, confidence=confidence
        )
    return Comparison(
        a=a,
        b=b,
        metrics=list(metrics),
        results=results,
        reasons=reasons,
        notes=notes,
        n_resamples=n_resamples,
        seed=seed,
        confidence=confidence,
    )


def comparison_records(result: Comparison) -> list[dict[str, Any]]:
    out = []
    for metric in result.metrics:
        diff = result.results[metric]
        record: dict[str, Any] = {"metric": metric, "a": result.a.label, "b": result.b.label}
        if diff is None:
            record.update(status="unavailable", reason=result.reasons.get(metric, ""))
        else:
            scores = asdict(diff)
            del scores["n_resamples"]  # the comparison's, not the metric's: said once in the notes
            record.update(status="ok", **scores)
        out.append(record)
    return out


def comparison_markdown(result: Comparison, digits: int = 4) -> str:
    level = f"{result.confidence * 100:g}%"
    lines = [
        f"A = {result.a.label}",
        f"B = {result.b.label}",
        "",
        f"| Metric | A | B | A − B | {level} CI | p | slides |",
        "|:---|---:|---:|---:|:---:|---:|---:|",
    ]
    for metric in result.metrics:
        diff = result.results[metric]
        if diff is None:
            lines.append(f"| {display_name(metric)} | n/a | n/a | n/a | | | 0 |")
            continue
        p = f"{diff.p_value:.4f}" if diff.p_value >= 1e-4 else f"{diff.p_value:.1e}"
        lines.append(
            f"| {display_name(metric)} | {diff.mean_a:.{digits}f} | {diff.mean_b:.{digits}f} "
            f"| {diff.difference:+.{digits}f} | "
            f"[{diff.ci_low:+.{digits}f}, {diff.ci_high:+.{digits}f}] | {p} | {diff.n} |"
        )
    lines += [
        "",
        f"- Paired bootstrap over slides: {result.n_resamples} resamples, seed {result.seed}; "
        "two-sided p-value of A − B = 0 (shifted bootstrap, (1 + #extreme) / (B + 1)).",
        f"- {CORPUS_VS_SENTENCE}",
    ]
    lines += [f"- {note}" for note in result.notes]
    lines += [f"- {display_name(m)}: {why}" for m, why in result.reasons.items()]
    return "\n".join(lines) + "\n"
