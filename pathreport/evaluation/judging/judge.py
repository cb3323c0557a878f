"""A judge: one backend, one prompt file, a cache, and a bounded parse-repair loop.

:meth:`Judge.ask` takes many requests at once so that backends can batch (transformers) or run
them concurrently (HTTP). For every request: a cached accepted answer is reused; otherwise the
backend answers, the answer is parsed (:mod:`.json_output`) and checked against the task's schema
and the evaluator's own check; an unusable answer is sent back with the reason and asked again,
at most ``max_parse_retries`` times (greedy decoding would otherwise repeat the same answer). A
request that still fails, or whose transport failed, comes back as an error: evaluators count it
in ``n_judge_failures`` and leave the case unscored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pathreport.errors import ConfigError
from pathreport.evaluation.base import COMPARABILITY_KEY
from pathreport.evaluation.judging.cache import JudgeCache, cache_key, conversation_hash
from pathreport.evaluation.judging.json_output import JudgeOutputError, check_schema, extract_json
from pathreport.evaluation.judging.prompts import Messages, PromptSet, load_prompts
from pathreport.evaluation.options import option_parameters
from pathreport.registry import JUDGE_BACKENDS, did_you_mean


class JudgeBackend(Protocol):
    """What a registered judge backend provides (its constructor's keywords are its options)."""

    name: str
    model: str

    def complete(self, conversations: Sequence[Messages]) -> list[str | BaseException]:
        """One answer text (or the exception that prevented it) per conversation, in order."""
        ...

    def describe(self) -> dict[str, Any]: ...


@dataclass
class JudgeOptions:
    """Options shared by every judge evaluator (``--option <evaluator>.<field>=...``).

    Attributes:
        backend: registered judge backend (``pathreport list judge_backends``).
        model: the backend's model: an id served by the endpoint, or a transformers id or folder.
        backend_options: more keywords for the backend, e.g. ``{base_url: ..., concurrency: 16}``
            (``--option wsi_precision.backend_options.base_url=http://127.0.0.1:8000/v1``).
        prompt_file: a judge prompt YAML to use instead of the packaged, versioned one.
        cache_dir: where accepted answers are cached (default: the pathreport cache).
        max_parse_retries: re-asks after an unusable answer (0 disables repair by re-asking).
        judge: a ready backend object (Python API and tests); overrides ``backend`` and ``model``.
    """

    backend: str = "openai"
    model: str | None = None
    backend_options: dict[str, Any] = field(default_factory=dict)
    prompt_file: str | None = None
    cache_dir: str | None = None
    max_parse_retries: int = 2
    judge: Any = None


@dataclass
class JudgeAnswer:
    """The accepted value of one request, or why there is none."""

    value: Any = None
    error: str | None = None
    attempts: int = 0
    cached: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


def build_backend(name: str, model: str | None, options: dict[str, Any]) -> JudgeBackend:
    """Instantiate a registered backend, checking its options first."""
    entry = JUDGE_BACKENDS.get(name)
    accepted = option_parameters(entry.obj)
    unknown = [k for k in options if k not in accepted]
    if unknown:
        hints = " ".join(h for k in unknown if (h := did_you_mean(k, list(accepted))))
        raise ConfigError(
            f"Judge backend '{name}' has no option(s) {unknown}. {hints + ' ' if hints else ''}"
            f"Its options: {', '.join(accepted)}."
        )
    if not model:
        raise ConfigError(
            f"The judge backend '{name}' needs a model: --option <evaluator>.model=<id or "
            "folder> (for an OpenAI-compatible server, the id it serves; for transformers, a "
            "model id or folder)."
        )
    return entry.obj(model=model, **options)


class Judge:
    """Ask a backend with one prompt file, caching and repairing (see the module docstring)."""

    def __init__(
        self,
        backend: JudgeBackend,
        prompts: PromptSet,
        *,
        cache: JudgeCache | None = None,
        max_parse_retries: int = 2,
        chunk_size: int = 64,
    ) -> None:
        if max_parse_retries < 0:
            raise ConfigError(f"max_parse_retries must be 0 or more, found {max_parse_retries}.")
        self.backend = backend
        self.prompts = prompts
        self.cache = cache
        self.max_parse_retries = max_parse_retries
        self.chunk_size = max(1, chunk_size)
        self.calls = 0

    @classmethod
    def from_options(cls, options: JudgeOptions, default_prompts: str) -> Judge:
        backend = options.judge or build_backend(
            options.backend, options.model, dict(options.backend_options or {})
        )
        prompts = load_prompts(options.prompt_file or default_prompts)
        return cls(
            backend,
            prompts,
            cache=JudgeCache(options.cache_dir),
            max_parse_retries=options.max_parse_retries,
        )

    def describe(self) -> dict[str, Any]:
        return {
            **self.backend.describe(),
            "judge_backend": self.backend.name,
            "judge_model": self.backend.model,
            "prompt_version": self.prompts.full_version,
            "max_parse_retries": self.max_parse_retries,
        }

    def fingerprint(self) -> str:
        """What makes two runs' judge scores comparable: backend, model and prompt version."""
        return f"{self.backend.name}:{self.backend.model} {self.prompts.full_version}"

    def ask(
        self,
        task: str,
        requests: Sequence[dict[str, str]],
        check: Callable[[Any, dict[str, str]], Any] | None = None,
    ) -> list[JudgeAnswer]:
        """Answers to ``task`` rendered with each variable set in ``requests``, in order.

        Args:
            check: the evaluator's own validation after the schema (e.g. one score per claim);
                it returns the value to keep or raises :class:`JudgeOutputError`.
        """
        schema = self.prompts.task(task)["output_schema"]
        conversations = [self.prompts.render(task, **variables) for variables in requests]
        keys = [
            cache_key(
                self.backend.name,
                self.backend.model,
                self.prompts.full_version,
                conversation_hash(c),
            )
            for c in conversations
        ]
        answers: dict[str, JudgeAnswer] = {}
        origin: dict[str, tuple[Messages, dict[str, str]]] = {}
        for key, messages, variables in zip(keys, conversations, requests):
            if key in answers or key in origin:
                continue
            cached = self.cache.get(key) if self.cache else None
            if cached is not None:
                try:
                    answers[key] = JudgeAnswer(
                        value=self._accept(cached, schema, check, variables), cached=True
                    )
                    continue
                except JudgeOutputError:
                    cached = None  # the evaluator's check changed since: ask again
            origin[key] = (messages, variables)
        pending = {key: list(messages) for key, (messages, _) in origin.items()}
        attempts = dict.fromkeys(pending, 0)
        for _ in range(self.max_parse_retries + 1):
            if not pending:
                break
            retry: dict[str, Messages] = {}
            for key, reply in self._complete(pending):
                attempts[key] += 1
                if isinstance(reply, BaseException):
                    answers[key] = JudgeAnswer(
                        error=f"backend failed: {reply}", attempts=attempts[key]
                    )
                    continue
                try:
                    value = self._accept(reply, schema, check, origin[key][1])
                except JudgeOutputError as err:
                    answers[key] = JudgeAnswer(
                        error=f"unusable answer: {err}", attempts=attempts[key]
                    )
                    retry[key] = [
                        *pending[key],
                        {"role": "assistant", "content": reply},
                        self.prompts.repair_message(str(err)),
                    ]
                    continue
                answers[key] = JudgeAnswer(value=value, attempts=attempts[key])
                if self.cache:
                    self.cache.put(
                        key,
                        reply,
                        {
                            "backend": self.backend.name,
                            "model": self.backend.model,
                            "prompt_version": self.prompts.full_version,
                            "task": task,
                        },
                    )
            pending = retry
        return [answers[k] for k in keys]

    def _complete(self, pending: dict[str, Messages]) -> Iterator[tuple[str, str | BaseException]]:
        """(key, reply) pairs, asking the backend ``chunk_size`` conversations at a time.

        Each chunk's accepted answers are cached before the next chunk is sent, so an interrupted
        run loses at most one chunk of paid calls.
        """
        order = list(pending)
        for start in range(0, len(order), self.chunk_size):
            keys = order[start : start + self.chunk_size]
            self.calls += len(keys)
            yield from zip(keys, self.backend.complete([pending[k] for k in keys]))

    @staticmethod
    def _accept(
        text: str,
        schema: dict[str, Any],
        check: Callable[[Any, dict[str, str]], Any] | None,
        variables: dict[str, str],
    ) -> Any:
        value = extract_json(text)
        check_schema(value, schema)
        return check(value, variables) if check else value


def judge_summary(
    prefix: str, judge: Judge, answers_failed: int, scored: list[float], extra: dict[str, Any]
) -> dict[str, Any]:
    """Summary fields every judge metric reports: mean, counts, settings and comparability."""
    return {
        prefix: sum(scored) / len(scored) if scored else None,
        f"{prefix}_n_scored": len(scored),
        f"{prefix}_n_judge_failures": answers_failed,
        **extra,
        f"{prefix}_judge": judge.describe(),
        COMPARABILITY_KEY: {prefix: judge.fingerprint()},
    }
