"""``openai`` judge backend: any OpenAI-compatible ``/chat/completions`` endpoint.

vLLM (``vllm serve <model>``), llama.cpp's ``llama-server``, Ollama (``/v1``) and hosted APIs speak
this protocol, so one backend covers a judge on a GPU machine and a paid API. Requests run
``concurrency`` at a time; each has a timeout and is retried with exponential back-off after a
rate limit (429), a server error (5xx), a timeout or a dropped connection; other HTTP errors fail
that request at once. Temperature 0 and a fixed seed, so answers are as repeatable as the server
allows. The API key is read from an environment variable (never from options or files) and is
sent only when that variable is set. Standard library only (``urllib``); upstream code: none (the
protocol is OpenAI's public chat-completions API); licence of this file: the project's.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlparse

from pathreport.errors import ConfigError
from pathreport.evaluation.judging.prompts import Messages
from pathreport.registry import JUDGE_BACKENDS


class EndpointError(RuntimeError):
    """A request that failed after its retries (the message says how)."""


@JUDGE_BACKENDS.register(
    "openai",
    description=(
        "OpenAI-compatible /chat/completions endpoint (vLLM, llama.cpp server, Ollama, APIs)"
    ),
    needs="a running server or API; base_url (default http://127.0.0.1:8000/v1, vLLM's)",
)
class OpenAICompatibleJudge:
    """Chat completions over HTTP.

    Args:
        model: the model id the endpoint serves.
        base_url: API root; ``/chat/completions`` is appended.
        api_key_env: environment variable with the API key (sent as a Bearer token when set).
        concurrency: requests in flight at once.
        timeout_s: seconds per request.
        max_retries: retries per request after 429, 5xx, timeouts and connection errors.
        retry_wait_s: first back-off; doubles after each retry.
        max_tokens: answer length cap.
        seed: sent with every request (servers that ignore it still decode at temperature 0).
    """

    name = "openai"

    def __init__(
        self,
        model: str,
        base_url: str = "http://127.0.0.1:8000/v1",
        api_key_env: str = "OPENAI_API_KEY",
        concurrency: int = 8,
        timeout_s: float = 120.0,
        max_retries: int = 3,
        retry_wait_s: float = 1.0,
        max_tokens: int = 2048,
        seed: int = 0,
    ) -> None:
        if concurrency < 1 or max_retries < 0 or timeout_s <= 0:
            raise ConfigError(
                "openai judge: need concurrency >= 1, max_retries >= 0 and timeout_s > 0; "
                f"found {concurrency}, {max_retries}, {timeout_s}."
            )
        self.model = model
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.api_key_env = api_key_env
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.retry_wait_s = retry_wait_s
        self.max_tokens = max_tokens
        self.seed = seed

    def complete(self, conversations: Sequence[Messages]) -> list[str | BaseException]:
        def one(messages: Messages) -> str | BaseException:
            try:
                return self.request(messages)
            except EndpointError as err:
                return err

        with ThreadPoolExecutor(
            max_workers=min(self.concurrency, max(1, len(conversations)))
        ) as pool:
            return list(pool.map(one, conversations))

    def request(self, messages: Messages) -> str:
        """One chat completion, with retries; raises :class:`EndpointError`."""
        body = json.dumps(
            {
                "model": self.model,
                "messages": messages,
                "temperature": 0.0,
                "max_tokens": self.max_tokens,
                "seed": self.seed,
            }
        ).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        wait = self.retry_wait_s
        problem = ""
        for attempt in range(self.max_retries + 1):
            if attempt:
                time.sleep(wait)
                wait *= 2
            request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                    return _answer_text(json.loads(response.read().decode("utf-8")))
            except urllib.error.HTTPError as err:
                problem = f"HTTP {err.code}: {err.read().decode('utf-8', errors='replace')[:300]}"
                if err.code != 429 and err.code < 500:
                    break
            except (urllib.error.URLError, TimeoutError, ConnectionError) as err:
                problem = f"no answer ({getattr(err, 'reason', err)})"
            except (json.JSONDecodeError, UnicodeDecodeError) as err:
                problem = f"not a chat-completions response ({err})"
                break
        raise EndpointError(f"{self.url}: {problem} (after {attempt + 1} attempt(s))")

    def describe(self) -> dict[str, Any]:
        return {
            "endpoint_host": urlparse(self.url).netloc,
            "temperature": 0.0,
            "seed": self.seed,
            "max_tokens": self.max_tokens,
            "concurrency": self.concurrency,
        }


def _answer_text(body: Any) -> str:
    try:
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise EndpointError(f"unexpected response {json.dumps(body)[:200]}") from None
    if isinstance(content, list):
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return (content or "").strip()
