"""Evaluator selection and options, checked before any compute.

An evaluator's options are the keyword parameters of its registered function (``dataset`` aside),
so a new evaluator declares its options where it is written and needs no edit anywhere else: the
command line (``--option reg2025_score.embedding_model=/models/biobert``), ``train.py``
(``eval.options={reg2025_score: {embedding_model: ...}}``) and ``pathreport list evaluators``
all read them from the signature. A misspelt evaluator or option fails before decoding or scoring
starts, with the accepted names, instead of after an hour of training.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Iterable, Mapping
from typing import Any

import yaml

from pathreport.errors import ConfigError
from pathreport.registry import EVALUATORS, did_you_mean

# Keyword parameters that the evaluation function passes itself (not user options).
RESERVED = frozenset({"dataset"})


def option_parameters(func: Any) -> dict[str, inspect.Parameter]:
    """The user options of an evaluator: its keyword parameters other than ``dataset``.

    An evaluator that takes ``**options`` declares them instead as a dataclass in its attribute
    ``options_class`` (the judge evaluators share
    :class:`~pathreport.evaluation.judging.judge.JudgeOptions`).
    """
    options_class = getattr(func, "options_class", None)
    if options_class is not None and dataclasses.is_dataclass(options_class):
        return {
            f.name: inspect.Parameter(
                f.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=f.default if f.default is not dataclasses.MISSING else f.default_factory(),  # type: ignore[misc]
            )
            for f in dataclasses.fields(options_class)
        }
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return {}
    return {
        name: p
        for name, p in signature.parameters.items()
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
        and p.default is not p.empty
        and name not in RESERVED
    }


def describe_options(func: Any) -> str:
    """``key=default`` for each option, for ``pathreport list evaluators``."""
    parts = []
    for name, p in option_parameters(func).items():
        default = p.default
        shown = "" if default is None else (default if isinstance(default, str) else repr(default))
        parts.append(f"{name}={shown}")
    return ", ".join(parts)


def check_selection(
    metrics: Iterable[str], options: Mapping[str, Mapping[str, Any]] | None
) -> None:
    """Raise a :class:`ConfigError` for an unknown or non-report evaluator or an unknown option.

    Every problem is named at once, with the accepted names, so one correction suffices.
    """
    metrics = list(metrics)
    options = dict(options or {})
    problems: list[str] = []
    reports = [e.name for e in EVALUATORS.entries() if e.metadata.get("kind") == "report"]
    if not metrics:
        problems.append(f"no evaluator selected; choose from {', '.join(reports)}")
    for name in metrics:
        if name not in reports:
            hint = did_you_mean(name, reports)
            what = (
                "is not a report evaluator"
                if name in EVALUATORS
                else "is not a registered evaluator"
            )
            problems.append(
                f"'{name}' {what}. {hint + ' ' if hint else ''}Report "
                f"evaluators: {', '.join(reports)}"
            )
    for name, given in options.items():
        if name not in metrics:
            if given:
                problems.append(
                    f"options are given for '{name}', which is not among the selected evaluators "
                    f"({', '.join(metrics)}); add it to the metrics or drop its options"
                )
            continue
        if name not in reports:
            continue
        accepted = option_parameters(EVALUATORS[name])
        for key in given or {}:
            if key not in accepted:
                hint = did_you_mean(key, list(accepted))
                problems.append(
                    f"evaluator '{name}' has no option '{key}'. {hint + ' ' if hint else ''}"
                    f"Its options: {', '.join(accepted) or '(none)'}"
                )
    if problems:
        raise ConfigError("Cannot evaluate: " + "; ".join(problems) + ".")


def parse_option_args(items: Iterable[str]) -> dict[str, dict[str, Any]]:
    """``["reg2025_score.embedding_model=x", "wsi_precision.max_retries=2"]`` -> nested options.

    Values are read as YAML scalars (``2`` is an int, ``true`` a bool, ``null`` None), anything
    else stays a string.
    """
    out: dict[str, dict[str, Any]] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        evaluator, dot, option = key.strip().partition(".")
        if not sep or not dot or not evaluator or not option:
            raise ConfigError(
                f"--option {item!r}: expected EVALUATOR.OPTION=VALUE, "
                "e.g. --option reg2025_score.embedding_model=/models/biobert-v1.1."
            )
        try:
            value = yaml.safe_load(raw) if raw.strip() else ""
        except yaml.YAMLError:
            value = raw
        target = out.setdefault(evaluator, {})
        *parents, leaf = option.split(".")
        for (
            parent
        ) in parents:  # backend_options.base_url=... -> {"backend_options": {"base_url": ...}}
            target = target.setdefault(parent, {})
            if not isinstance(target, dict):
                raise ConfigError(
                    f"--option {item!r}: '{parent}' is set both as a value and as a group."
                )
        target[leaf] = value
    return out


def declared_metrics() -> list[str]:
    """Every metric that a registered report evaluator declares (``metrics=[...]``), in order."""
    names: list[str] = []
    for entry in EVALUATORS.entries():
        if entry.metadata.get("kind") == "report":
            names += [m for m in entry.metadata.get("metrics") or () if m not in names]
    return names
