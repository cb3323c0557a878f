"""Find every run's summary under some folders and turn each into a :class:`RunResult`.

What is read (never the folder names: runs may live anywhere, through ``hydra.run.dir``):

* ``<run>/metrics/<split>.json`` written by ``train.py`` and ``eval.py``, with the per-slide scores
  in ``<split>_per_case.jsonl`` and the CRQS field table in ``<split>_fields.csv`` beside it;
* ``<dir>/summary.json`` written by ``pathreport evaluate --out <dir>`` (with ``per_case.jsonl``
  and ``fields.csv``);
* W&B run folders ``wandb/offline-run-*`` and ``wandb/run-*`` (see
  :mod:`pathreport.results.wandb_runs`); one inside a run folder whose metrics files were found is
  the same run and is not counted twice.

The dataset, model, encoder and seed come from the summary, else from the run folder's
``run.json`` or ``config.yaml``, else from the predictions file, else from values the user gives.
Nothing is skipped silently: JSON files that are not report summaries are listed as ignored, and
a malformed summary is an error naming the file (or, when asked, listed as skipped).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pathreport.results.metrics import known_metrics
from pathreport.results.store import Defaults, NotASummary, ResultsError, RunResult
from pathreport.results.wandb_runs import read_local_wandb_run

IDENTITY_FIELDS = ("dataset", "model", "encoder")
# Top-level summary keys that describe the run rather than score it.
NON_METRIC_KEYS = frozenset({"seed", "n_cases", "nlg_max_words"})


@dataclass
class CollectOutcome:
    """Runs found, and everything that was not turned into a run, with the reason."""

    runs: list[RunResult] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)
    invalid: list[tuple[str, str]] = field(default_factory=list)
    duplicates: list[tuple[str, str]] = field(default_factory=list)

    def extend(self, other: CollectOutcome) -> None:
        self.runs += other.runs
        self.ignored += other.ignored
        self.invalid += other.invalid
        self.duplicates += other.duplicates


def collect_local(
    sources: Iterable[str | os.PathLike],
    *,
    defaults: Defaults | None = None,
    skip_invalid: bool = False,
) -> CollectOutcome:
    """Collect every summary under ``sources`` (folders or summary files).

    Raises:
        ResultsError: a malformed summary or a run whose identity cannot be told (all such files
            are named at once), unless ``skip_invalid``; two summaries claiming the same run.
    """
    defaults = defaults or Defaults()
    outcome = CollectOutcome()
    wandb_dirs: list[Path] = []
    for source in sources:
        path = Path(source)
        if not path.exists():
            raise FileNotFoundError(f"{path}: no such file or folder to collect results from.")
        summaries, found_wandb = discover(path)
        wandb_dirs += found_wandb
        for summary_path, kind in summaries:
            _collect_one(
                outcome, summary_path, kind, defaults, lambda p, k, d: [read_run_summary(p, k, d)]
            )
    from_files = {run.run for run in outcome.runs}
    for wandb_dir in sorted(set(wandb_dirs)):
        owner = str(wandb_dir.parent.parent.resolve())
        if owner in from_files:
            outcome.duplicates.append((str(wandb_dir), f"same run as the metrics files of {owner}"))
            continue
        _collect_one(
            outcome, wandb_dir, "wandb", defaults, lambda p, k, d: read_local_wandb_run(p, d)
        )
    _check_unique(outcome)
    if outcome.invalid and not skip_invalid:
        listing = "\n".join(f"  {path}: {message}" for path, message in outcome.invalid)
        raise ResultsError(
            f"{len(outcome.invalid)} summary file(s) cannot be collected:\n{listing}\n"
            "Fix or remove them, or pass --skip-invalid to collect the others and list these."
        )
    return outcome


def _collect_one(
    outcome: CollectOutcome, path: Path, kind: str, defaults: Defaults, reader: Any
) -> None:
    try:
        runs = reader(path, kind, defaults)
    except NotASummary as reason:
        outcome.ignored.append((str(path), str(reason)))
    except ResultsError as err:
        outcome.invalid.append((str(path), str(err)))
    else:
        outcome.runs += runs


def _check_unique(outcome: CollectOutcome) -> None:
    """Two summaries for one (run, split): W&B copies give way to the newest; files are an error."""
    by_key: dict[tuple[str, str], RunResult] = {}
    for run in outcome.runs:
        other = by_key.get(run.key)
        if other is None:
            by_key[run.key] = run
        elif run.source.startswith("wandb") and other.source.startswith("wandb"):
            older, newer = sorted((other, run), key=lambda r: r.summary)
            by_key[run.key] = newer
            outcome.duplicates.append(
                (older.summary, f"older W&B copy of {run.run} ({run.split}); kept {newer.summary}")
            )
        else:
            raise ResultsError(
                f"Two summaries describe the same run {run.run} and "
                f"split {run.split!r}: {other.summary} and {run.summary}. Move one of them to a "
                "folder of its own (for example `pathreport evaluate --out <new folder>`), then "
                "collect again."
            )
    outcome.runs = list(by_key.values())


def discover(root: Path) -> tuple[list[tuple[Path, str]], list[Path]]:
    """Summary files (with their kind) and W&B run folders under ``root``, in a stable order."""
    if root.is_file():
        kind = "run" if root.parent.name == "metrics" else "evaluate"
        return [(root, kind)], []
    if root.parent.name == "wandb" and _is_wandb_run_dir(root):
        return [], [root]
    summaries: list[tuple[Path, str]] = []
    wandb_dirs: list[Path] = []
    for folder, dirnames, filenames in os.walk(root):
        here = Path(folder)
        dirnames.sort()
        if here.name == "wandb":
            wandb_dirs += [here / d for d in dirnames if _is_wandb_run_dir(here / d)]
            dirnames[:] = []  # nothing else of interest inside W&B's own folders
            continue
        for name in sorted(filenames):
            if name.endswith(".json") and here.name == "metrics":
                summaries.append((here / name, "run"))
            elif name == "summary.json":
                summaries.append((here / name, "evaluate"))
    return summaries, wandb_dirs


def _is_wandb_run_dir(path: Path) -> bool:
    return (
        path.is_dir() and not path.is_symlink() and path.name.startswith(("offline-run-", "run-"))
    )


def read_run_summary(path: Path, kind: str = "run", defaults: Defaults | None = None) -> RunResult:
    """One summary file as a :class:`RunResult` (``kind``: ``run`` for metrics/<split>.json,
    ``evaluate``).
    """
    defaults = defaults or Defaults()
    summary = load_summary(path)
    run_dir = path.parent.parent if kind == "run" else path.parent
    split = _text(summary.get("split")) or (path.stem if kind == "run" else "test")
    run_info = _run_info(run_dir)
    meta = resolve_identity(summary, run_dir, split, defaults, where=str(path), run_info=run_info)
    metrics, notes = summary_metrics(summary, where=str(path))
    if kind == "run" and "wall_seconds" not in metrics:
        seconds = _wall_seconds(run_info)
        if seconds is not None:
            metrics["wall_seconds"] = seconds
    stem = f"{split}_" if kind == "run" else ""
    per_case = path.parent / f"{stem}per_case.jsonl"
    fields = path.parent / f"{stem}fields.csv"
    return RunResult(
        **meta,
        split=split,
        metrics=metrics,
        notes=notes,
        source="files",
        run=str(run_dir.resolve()),
        summary=str(path.resolve()),
        n_cases=_int_or_none(summary.get("n_cases"), "n_cases", str(path)),
        evaluated_set=_text(summary.get("evaluated_set")),
        text_normalization=_text(summary.get("text_normalization")),
        crqs_settings=describe_crqs_settings(summary.get("crqs_settings")),
        comparability=describe_comparability(summary.get("comparability"), where=str(path)),
        per_case=str(per_case.resolve()) if per_case.is_file() else "",
        fields=str(fields.resolve()) if fields.is_file() else "",
    )


def _run_info(run_dir: Path) -> dict[str, Any]:
    """The run folder's ``run.json`` (empty when absent or unreadable), read once per summary."""
    try:
        data = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _wall_seconds(run_info: dict[str, Any]) -> float | None:
    """The whole command's wall-clock time recorded in ``run.json`` (None if unknown).

    A training run records it when it finishes (data, training, testing and scoring together), so
    tables can show the cost of each method beside its scores.
    """
    seconds = run_info.get("wall_seconds")
    if (
        isinstance(seconds, (int, float))
        and not isinstance(seconds, bool)
        and math.isfinite(seconds)
    ):
        return float(seconds)
    return None


def load_summary(path: Path) -> dict[str, Any]:
    """Parse a summary JSON; raise :class:`NotASummary` for JSON that holds no report metrics."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ResultsError(
            f"{path}:{err.lineno}: not valid JSON ({err.msg}); the summary is damaged: score the "
            "predictions again (`pathreport evaluate` or eval.py) to rewrite it."
        ) from None
    except UnicodeDecodeError:
        raise ResultsError(f"{path}: not a UTF-8 text file; expected a JSON summary.") from None
    if not isinstance(data, dict) or not (known_metrics() & set(data)):
        raise NotASummary("no report metrics (BLEU, METEOR, ROUGE-L, CIDEr or CRQS) in this JSON")
    return data


def summary_metrics(
    summary: dict[str, Any], *, where: str
) -> tuple[dict[str, float | None], dict[str, str]]:
    """Numeric top-level values as metrics (CI pairs: ``<name>_low/_high``) and why any is null."""
    unavailable = summary.get("unavailable") or {}
    if not isinstance(unavailable, dict):
        raise ResultsError(
            f"{where}: field 'unavailable' must map metric -> reason, found {unavailable!r:.80}."
        )
    metrics: dict[str, float | None] = {}
    notes: dict[str, str] = {}
    known = known_metrics()
    for key, value in summary.items():
        if key in NON_METRIC_KEYS:
            continue
        if isinstance(value, bool):
            if key in known:
                raise ResultsError(
                    f"{where}: field {key!r} must be a number or null, found {value!r}."
                )
            continue
        if isinstance(value, (int, float)):
            metrics[key] = float(value) if math.isfinite(value) else None
        elif value is None and (key in known or key in unavailable):
            metrics[key] = None
            notes[key] = str(unavailable.get(key) or "null in the summary (unavailable)")
        elif key in known:
            raise ResultsError(
                f"{where}: field {key!r} must be a number or null, found {value!r:.80}; the "
                "summary is damaged: score the predictions again to rewrite it."
            )
        elif key.endswith("_CI95") and _number_pair(value):
            metrics[f"{key}_low"], metrics[f"{key}_high"] = float(value[0]), float(value[1])
    return metrics, notes


def _number_pair(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    )


def resolve_identity(
    summary: dict[str, Any],
    run_dir: Path,
    split: str,
    defaults: Defaults,
    *,
    where: str,
    run_info: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """dataset, model, encoder, seed of a run, from the first place that states each.

    ``run_info`` is the folder's ``run.json`` when the caller has already read it.
    """
    info = _run_info(run_dir) if run_info is None else run_info
    places = [summary, *_side_sources(summary, run_dir, split, info)]
    meta: dict[str, Any] = {}
    for name in IDENTITY_FIELDS:
        value = (
            next((_text(p.get(name)) for p in places if _text(p.get(name))), "")
            or getattr(defaults, name)
            or ""
        )
        if not value:
            raise ResultsError(
                f"{where}: cannot tell the {name} of this run: neither the summary "
                f"nor {run_dir}/run.json, config.yaml or the predictions file name it. Pass "
                f"--{name} NAME to `pathreport results collect` (it only fills in values the "
                "files do not give)."
            )
        meta[name] = value
    seed = next((p.get("seed") for p in places if p.get("seed") not in (None, "")), defaults.seed)
    meta["seed"] = _int_or_none(seed, "seed", where)
    return meta


def _side_sources(
    summary: dict[str, Any], run_dir: Path, split: str, run_info: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    """run.json, config.yaml (its data/model/encoder names), then the first prediction record."""
    if run_info:
        yield run_info
    config = run_dir / "config.yaml"
    if config.is_file():
        yield _names_from_config(config)
    for candidate in _prediction_files(summary, run_dir, split):
        record = _first_record(candidate)
        if record:
            yield record
            return


def _names_from_config(path: Path) -> dict[str, Any]:
    import yaml

    try:
        cfg = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError:
        return {}
    if not isinstance(cfg, dict):
        return {}
    out: dict[str, Any] = {"seed": cfg.get("seed")}
    for name, group in (("dataset", "data"), ("model", "model"), ("encoder", "encoder")):
        node = cfg.get(group)
        if isinstance(node, dict):
            out[name] = node.get("name")
    return out


def _prediction_files(summary: dict[str, Any], run_dir: Path, split: str) -> list[Path]:
    files = [run_dir / "predictions" / f"{split}.jsonl"]
    named = summary.get("predictions")
    if isinstance(named, str) and named:
        files += [Path(named), run_dir / named]
    return [f for f in files if f.is_file()]


def _first_record(path: Path) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    obj = json.loads(line)
                    return obj if isinstance(obj, dict) else {}
    except (json.JSONDecodeError, UnicodeDecodeError, OSError):
        return {}
    return {}


def describe_crqs_settings(settings: Any) -> str:
    """A short, readable fingerprint of how CRQS was computed, so tables can flag mixed settings."""
    if not isinstance(settings, dict):
        return ""
    weights = settings.get("weights") or {}
    parts = [
        f"formula={settings.get('formula')}",
        f"schema={settings.get('schema')}@{settings.get('schema_digest')}",
        "weights=" + ",".join(f"{w:g}" for w in weights.values() if isinstance(w, (int, float))),
        f"empty_ref={settings.get('on_empty_reference')}",
        f"profile={settings.get('schema_profile', 'paper')}",
        f"weighting={settings.get('field_weighting', 'uniform')}",
    ]
    rest = {k: v for k, v in settings.items() if k not in ("bootstrap",)}
    digest = hashlib.sha256(json.dumps(rest, sort_keys=True, default=str).encode()).hexdigest()[:8]
    return " ".join(parts) + f" #{digest}"


def describe_comparability(value: Any, *, where: str) -> str:
    """The summary's ``comparability`` mapping (metric family -> models, settings) as JSON text."""
    if value is None:
        return ""
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ResultsError(
            f"{where}: field 'comparability' must map metric -> settings text, found {value!r:.80}."
        )
    return json.dumps(value, sort_keys=True)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _int_or_none(value: Any, name: str, where: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ResultsError(f"{where}: field {name!r} must be an integer, found {value!r}.")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ResultsError(
            f"{where}: field {name!r} must be an integer, found {value!r:.40}."
        ) from None
    if not number.is_integer():
        raise ResultsError(f"{where}: field {name!r} must be an integer, found {value!r}.")
    return int(number)
