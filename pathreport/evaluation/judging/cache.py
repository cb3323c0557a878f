"""An on-disk cache of accepted judge answers, so a rerun or an interrupted run pays only once.

The key is the SHA-256 of (backend, model, prompt version, hash of the rendered conversation).
One small JSON file per answer, written atomically as soon as the answer is accepted, so an
evaluation killed half-way keeps everything it had paid for. Only answers that parsed and passed
the schema are stored: a failed call is tried again on the next run.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pathreport import paths
from pathreport.io import write_json


def conversation_hash(messages: list[dict[str, str]]) -> str:
    """SHA-256 of the conversation's canonical JSON."""
    return hashlib.sha256(
        json.dumps(messages, sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()


def cache_key(backend: str, model: str, prompt_version: str, input_hash: str) -> str:
    return hashlib.sha256(
        "\x1f".join((backend, model, prompt_version, input_hash)).encode()
    ).hexdigest()


def default_cache_dir() -> Path:
    return paths.cache_dir() / "judge_calls"


class JudgeCache:
    """Accepted answers under ``root/<key[:2]>/<key>.json``."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root else default_cache_dir()
        self.hits = 0
        self.writes = 0

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> str | None:
        """The cached raw answer, or None (an unreadable entry counts as a miss)."""
        path = self._path(key)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError, UnicodeDecodeError):
            return None
        answer = entry.get("answer") if isinstance(entry, dict) else None
        if isinstance(answer, str):
            self.hits += 1
            return answer
        return None

    def put(self, key: str, answer: str, meta: dict[str, Any]) -> None:
        write_json(self._path(key), {**meta, "answer": answer})
        self.writes += 1
