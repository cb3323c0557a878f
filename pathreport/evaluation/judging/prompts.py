"""Versioned judge prompt files: the prompts, the output schema (the parser) and any categories.

A prompt file is YAML with ``id``, ``version``, ``source`` and ``tasks``; each task has ``system``
and ``user`` templates (``string.Template`` syntax, ``$name``, so JSON braces need no escaping)
and an ``output_schema``. The version that results and the cache record is
``<id>/v<version>#<first 8 hex of the file's SHA-256>``: an edited file can never be mistaken for
the released one, even if someone forgets to bump ``version``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from typing import Any

import yaml

from pathreport import paths
from pathreport.errors import ConfigError

Messages = list[dict[str, str]]


@dataclass(frozen=True)
class PromptSet:
    """One loaded prompt file."""

    id: str
    version: str
    digest: str
    source: str
    tasks: dict[str, dict[str, Any]]
    data: dict[str, Any] = field(default_factory=dict)
    repair: str = ""
    path: str = ""

    @property
    def full_version(self) -> str:
        return f"{self.id}/v{self.version}#{self.digest}"

    def task(self, name: str) -> dict[str, Any]:
        try:
            return self.tasks[name]
        except KeyError:
            raise ConfigError(
                f"{self.path}: no task '{name}' (tasks: {', '.join(self.tasks)})."
            ) from None

    def render(self, task: str, **variables: str) -> Messages:
        """System and user messages of ``task`` with ``$variables`` filled in."""
        spec = self.task(task)
        try:
            return [
                {
                    "role": "system",
                    "content": Template(spec["system"]).substitute(variables).strip(),
                },
                {"role": "user", "content": Template(spec["user"]).substitute(variables).strip()},
            ]
        except KeyError as err:
            raise ConfigError(
                f"{self.path}: task '{task}' uses ${err.args[0]}, which the evaluator does "
                "not fill."
            ) from None

    def repair_message(self, error: str) -> dict[str, str]:
        """The user turn that asks again after an unusable answer."""
        return {
            "role": "user",
            "content": Template(self.repair).safe_substitute(error=error).strip(),
        }


def load_prompts(name_or_path: str | Path) -> PromptSet:
    """Load ``judge_<name>.yaml`` from the package resources, or a YAML file given by path."""
    path = Path(name_or_path)
    if not path.suffix:
        path = paths.DATA_DIR / f"judge_{name_or_path}.yaml"
    if not path.is_file():
        raise ConfigError(f"Judge prompt file {path} does not exist.")
    raw = path.read_bytes()
    try:
        data = yaml.safe_load(raw.decode("utf-8"))
    except yaml.YAMLError as err:
        raise ConfigError(f"{path}: not valid YAML ({err}).") from None
    missing = [
        k
        for k in ("id", "version", "tasks", "repair")
        if not (isinstance(data, dict) and data.get(k))
    ]
    if missing:
        raise ConfigError(f"{path}: a judge prompt file needs the fields {missing}.")
    for task, spec in data["tasks"].items():
        lacking = [k for k in ("system", "user", "output_schema") if k not in (spec or {})]
        if lacking:
            raise ConfigError(f"{path}: task '{task}' lacks {lacking}.")
    rest = {
        k: v for k, v in data.items() if k not in ("id", "version", "source", "tasks", "repair")
    }
    return PromptSet(
        id=str(data["id"]),
        version=str(data["version"]),
        digest=hashlib.sha256(raw).hexdigest()[:8],
        source=str(data.get("source", "")).strip(),
        tasks=data["tasks"],
        data=rest,
        repair=str(data["repair"]),
        path=str(path),
    )
