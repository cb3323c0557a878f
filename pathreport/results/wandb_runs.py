"""Runs logged to Weights & Biases: local run folders and projects on the W&B server.

A run with ``logger=wandb`` logs its test summary under ``<split>/<metric>`` keys, the per-slide
scores as the table ``<split>/per_case`` and its resolved config (``data.name``, ``model.name``,
``encoder.name``, ``seed``). This module turns such a run into :class:`RunResult` rows:

* **Local folders** ``wandb/run-*`` and ``wandb/offline-run-*``: from ``files/wandb-summary.json``
  and ``files/config.yaml`` when W&B wrote them, otherwise from the run's transaction log
  ``run-<id>.wandb`` (recent W&B versions write only that file for offline runs, until
  ``wandb sync``). The log is LevelDB's record format (32 KiB blocks, 7-byte chunk headers) after
  a 7-byte ``:W&B`` header; each record is a protobuf ``Record`` from ``wandb.proto``.
* **Projects**: through ``wandb.Api()`` (needs network and a login); the per-case table of each
  run is downloaded next to the results table, so ``results compare`` can read it later offline.

W&B drops null values, so a metric that was unavailable in a run is simply absent from its summary;
such metrics are recorded as unavailable (never zero) with a note saying so.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pathreport.data.predictions import evaluated_set_digest
from pathreport.results.metrics import CRQS_METRICS, KNOWN_METRICS, NLG_METRICS
from pathreport.results.per_case import read_per_case
from pathreport.results.store import Defaults, NotASummary, ResultsError, RunResult

_BLOCK = 32 * 1024
_CHUNK_HEADER = 7
_FULL, _FIRST, _MIDDLE, _LAST = 1, 2, 3, 4
NOT_LOGGED = (
    "not in the W&B summary (W&B does not log null values: the metric was unavailable in this run)"
)


@dataclass
class WandbRunData:
    """What matters here of a W&B run: its config, its final summary, where its files are."""

    label: str
    config: dict[str, Any] = field(default_factory=dict)
    summary: dict[str, Any] = field(default_factory=dict)
    files_dir: Path | None = None


def read_transaction_log(path: Path) -> Iterator[bytes]:
    """The records of a ``.wandb`` file, joined across blocks; stops quietly at a truncated tail
    (a run that was killed still yields everything it wrote before)."""
    data = path.read_bytes()
    if data[:4] != b":W&B":
        raise ResultsError(f"{path}: not a W&B transaction log (expected the ':W&B' header).")
    pos, pending = _CHUNK_HEADER, b""
    while pos + _CHUNK_HEADER <= len(data):
        left_in_block = _BLOCK - pos % _BLOCK
        if left_in_block < _CHUNK_HEADER:
            pos += left_in_block
            continue
        _, length, kind = struct.unpack("<IHB", data[pos : pos + _CHUNK_HEADER])
        if kind == 0 and length == 0:  # zero padding at the end of a block
            pos += left_in_block
            continue
        end = pos + _CHUNK_HEADER + length
        if end > len(data):
            return
        chunk, pos = data[pos + _CHUNK_HEADER : end], end
        if kind == _FULL:
            yield chunk
        elif kind == _FIRST:
            pending = chunk
        elif kind == _MIDDLE:
            pending += chunk
        elif kind == _LAST:
            yield pending + chunk
            pending = b""


def parse_transaction_log(path: Path) -> WandbRunData:
    """Config and final summary of a run from its ``.wandb`` log (history fills in what no summary
    record holds, so a run killed before its summary was flushed still has its metrics)."""
    try:
        from wandb.proto import wandb_internal_pb2 as pb
    except ImportError:
        raise ResultsError(
            f"Reading the W&B log {path} needs wandb: pip install 'pathreport[wandb]'."
        ) from None
    config: dict[str, Any] = {}
    summary: dict[str, Any] = {}
    history: dict[str, Any] = {}
    label = str(path)
    for raw in read_transaction_log(path):
        record = pb.Record()
        try:
            record.ParseFromString(raw)
        except Exception:  # noqa: BLE001 - protobuf raises its own DecodeError; a torn record ends the log
            break
        kind = record.WhichOneof("record_type")
        if kind == "run":
            label = f"{record.run.entity or '-'}/{record.run.project or '-'}/{record.run.run_id}"
            _apply(config, record.run.config.update)
            _apply(summary, record.run.summary.update)
        elif kind == "config":
            _apply(config, record.config.update)
            _remove(config, record.config.remove)
        elif kind == "summary":
            _apply(summary, record.summary.update)
            _remove(summary, record.summary.remove)
        elif kind == "history":
            _apply(history, record.history.item)
    return WandbRunData(
        label=label, config=config, summary={**history, **summary}, files_dir=path.parent / "files"
    )


def _apply(target: dict[str, Any], items: Any) -> None:
    for item in items:
        if not item.value_json:
            continue
        try:
            value = json.loads(item.value_json)
        except json.JSONDecodeError:
            continue
        keys = list(item.nested_key) or [item.key]
        node = target
        for key in keys[:-1]:
            child = node.get(key)
            if not isinstance(child, dict):
                child = node[key] = {}
            node = child
        node[keys[-1]] = value


def _remove(target: dict[str, Any], items: Any) -> None:
    for item in items:
        target.pop(item.key, None)


def read_local_wandb_run(run_dir: Path, defaults: Defaults | None = None) -> list[RunResult]:
    """The results of one local W&B run folder (``wandb/run-*`` or ``wandb/offline-run-*``)."""
    files = run_dir / "files"
    summary_file = files / "wandb-summary.json"
    if summary_file.is_file():
        data = WandbRunData(label=str(run_dir), summary=_read_json(summary_file), files_dir=files)
        config_file = files / "config.yaml"
        data.config = _unwrap_config(_read_yaml(config_file)) if config_file.is_file() else {}
        where = summary_file
    else:
        logs = sorted(run_dir.glob("run-*.wandb"))
        if not logs:
            raise NotASummary("W&B run folder without wandb-summary.json or a run-*.wandb log")
        data = parse_transaction_log(logs[-1])
        data.config = _unwrap_config(data.config)
        where = logs[-1]
    owner = run_dir.parent.parent.resolve()
    return results_from_wandb(
        data,
        defaults or Defaults(),
        source="wandb-offline" if "offline" in run_dir.name else "wandb-local",
        run=str(owner),
        summary=str(where.resolve()),
    )


def results_from_wandb(
    data: WandbRunData,
    defaults: Defaults,
    *,
    source: str,
    run: str,
    summary: str,
    per_case_files: dict[str, Path] | None = None,
) -> list[RunResult]:
    """One :class:`RunResult` per split that has report metrics in the run's summary."""
    splits = _split_metrics(data.summary)
    if not splits:
        raise NotASummary(
            "no report metrics (<split>/BLEU_4, <split>/CRQS, ...) in this W&B run's summary: "
            "the run may have crashed before testing, or is still running"
        )
    meta = _identity(data, defaults)
    results = []
    for split, values in sorted(splits.items()):
        n_cases = values.pop("n_cases", None)
        values.pop("seed", None)
        notes = {m: NOT_LOGGED for m in _absent_family_members(values)}
        metrics: dict[str, float | None] = {**values, **dict.fromkeys(notes)}
        per_case = (per_case_files or {}).get(split) or _local_table(data, split)
        evaluated = ""
        if per_case is not None and per_case.is_file():
            evaluated = evaluated_set_digest(list(read_per_case(per_case)))
        results.append(
            RunResult(
                **meta,
                split=split,
                metrics=metrics,
                notes=notes,
                source=source,
                run=run,
                summary=summary,
                n_cases=int(n_cases) if n_cases is not None else None,
                evaluated_set=evaluated,
                per_case=str(per_case.resolve())
                if per_case is not None and per_case.is_file()
                else "",
            )
        )
    return results


def _split_metrics(summary: dict[str, Any]) -> dict[str, dict[str, float]]:
    splits: dict[str, dict[str, float]] = {}
    for key, value in summary.items():
        if "/" not in key or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        split, name = key.split("/", 1)
        splits.setdefault(split, {})[name] = float(value)
    return {s: v for s, v in splits.items() if KNOWN_METRICS & set(v)}


def _absent_family_members(values: dict[str, float]) -> list[str]:
    """Metrics of an evaluator that logged others (so their absence means 'unavailable')."""
    absent = []
    for family in (NLG_METRICS, CRQS_METRICS):
        if set(family) & set(values):
            absent += [m for m in family if m not in values]
    return absent


def _identity(data: WandbRunData, defaults: Defaults) -> dict[str, Any]:
    cfg = data.config
    found = {
        "dataset": _name(cfg, "data") or defaults.dataset,
        "model": _name(cfg, "model") or defaults.model,
        "encoder": _name(cfg, "encoder") or defaults.encoder,
    }
    for name, value in found.items():
        if not value:
            raise ResultsError(
                f"W&B run {data.label}: its config has "
                f"no {'data' if name == 'dataset' else name}.name, so its {name} is unknown. "
                f"Pass --{name} NAME to `pathreport results collect`."
            )
    seed = cfg.get("seed", defaults.seed)
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, (int, float)) or float(seed) % 1
    ):
        raise ResultsError(
            f"W&B run {data.label}: config 'seed' must be an integer, found {seed!r}."
        )
    return {**found, "seed": int(seed) if seed is not None else None}


def _name(cfg: dict[str, Any], group: str) -> str | None:
    node = cfg.get(group)
    if isinstance(node, dict) and isinstance(node.get("name"), str):
        return node["name"]
    flat = cfg.get(f"{group}.name") or cfg.get(f"{group}/name")
    return flat if isinstance(flat, str) else None


def _local_table(data: WandbRunData, split: str) -> Path | None:
    entry = data.summary.get(f"{split}/per_case")
    if (
        data.files_dir is None
        or not isinstance(entry, dict)
        or not isinstance(entry.get("path"), str)
    ):
        return None
    return data.files_dir / entry["path"]


def _unwrap_config(config: dict[str, Any]) -> dict[str, Any]:
    """W&B's config.yaml stores ``key: {desc: ..., value: ...}``; keep the values."""
    out = {}
    for key, value in (config or {}).items():
        if key.startswith("_"):
            continue
        out[key] = (
            value["value"]
            if isinstance(value, dict) and set(value) <= {"desc", "value"} and "value" in value
            else value
        )
    return out


def collect_wandb_project(
    project: str, *, download_dir: Path, defaults: Defaults | None = None, api: Any = None
) -> tuple[list[RunResult], list[tuple[str, str]]]:
    """Every run of the W&B project ``[entity/]project`` with report metrics, and the runs left out.

    Args:
        project: ``entity/project`` or ``project`` (the default entity).
        download_dir: where per-case tables are stored (one folder per run id).
        api: a ``wandb.Api``-like object (``runs(path)``); created when None.
    """
    if api is None:
        try:
            import wandb
        except ImportError:
            raise ResultsError(
                "Collecting from a W&B project needs wandb: pip install 'pathreport[wandb]'."
            ) from None
        api = wandb.Api()
    try:
        runs = list(api.runs(project))
    except Exception as err:  # noqa: BLE001 - wandb raises many kinds (CommError, ValueError, HTTPError)
        raise ResultsError(
            f"Could not list the runs of W&B project {project!r}: {err}. Check the name "
            "(entity/project), that you are logged in (`wandb login`) and that the network is "
            "reachable."
        ) from None
    results: list[RunResult] = []
    ignored: list[tuple[str, str]] = []
    for remote in runs:
        label = "wandb:" + "/".join(str(p) for p in getattr(remote, "path", [project, remote.id]))
        summary = _summary_dict(remote.summary)
        config = _unwrap_config(dict(remote.config))
        data = WandbRunData(label=label, config=config, summary=summary)
        output_dir = (
            (config.get("paths") or {}).get("output_dir")
            if isinstance(config.get("paths"), dict)
            else None
        )
        try:
            tables = {
                split: _download_table(remote, summary, split, download_dir / str(remote.id))
                for split in _split_metrics(summary)
            }
            results += results_from_wandb(
                data,
                defaults or Defaults(),
                source="wandb",
                run=str(output_dir or label),
                summary=label,
                per_case_files={k: v for k, v in tables.items() if v},
            )
        except NotASummary as reason:
            ignored.append((label, f"{reason} (state: {getattr(remote, 'state', 'unknown')})"))
    return results, ignored


def _summary_dict(summary: Any) -> dict[str, Any]:
    raw = getattr(summary, "_json_dict", None)
    if isinstance(raw, dict):
        return dict(raw)
    return dict(summary.items()) if hasattr(summary, "items") else dict(summary or {})


def _download_table(remote: Any, summary: dict[str, Any], split: str, folder: Path) -> Path | None:
    entry = summary.get(f"{split}/per_case")
    if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
        return None
    folder.mkdir(parents=True, exist_ok=True)
    try:
        remote.file(entry["path"]).download(root=str(folder), replace=True)
    except Exception:  # noqa: BLE001 - a missing table leaves the run usable for tables, not for compare
        return None
    path = folder / entry["path"]
    return path if path.is_file() else None


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ResultsError(f"{path}:{err.lineno}: not valid JSON ({err.msg}).") from None
    if not isinstance(data, dict):
        raise ResultsError(f"{path}: expected a JSON object, found {type(data).__name__}.")
    return data


def _read_yaml(path: Path) -> dict[str, Any]:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as err:
        raise ResultsError(f"{path}: not valid YAML ({err}).") from None
    return data if isinstance(data, dict) else {}
