"""Closed models behind an API (GPT-5.4 and Gemini-3-Pro in the paper): answers only, no attention.

Paper: PathBind (arXiv:2607.21065), App. E: closed models were queried through their official APIs
with the same prompts as the open models. Upstream code: none (the paper publishes none); this
adapter speaks the widely implemented OpenAI-compatible ``/chat/completions`` protocol with the
Python standard library, so it reaches OpenAI, Gemini's OpenAI-compatible endpoint, vLLM or SGLang
servers, and most gateways. Licence of this file: the project's.

To wire another provider, subclass :class:`ApiVLM`, implement :meth:`ApiVLM.complete`, and register
it in one new file in this folder (or in your own package through the
``pathreport.generative_vlms`` entry-point group).

Deliberate deviations and choices (the paper states none of them): temperature 0 unless sampling is
asked for; the image is sent as a base64 PNG data URL placed before the text; text-only requests
send the same system and user text with no image part; the API key is read from an environment
variable, never from the command line or a file, and never written into results.
"""

from __future__ import annotations

import base64
import io
import json
import os
import time
import urllib.error
import urllib.request
from abc import abstractmethod
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from pathreport.pathbind.config import VLMDecodingConfig
from pathreport.pathbind.vlm import GenerativeVLM
from pathreport.registry import GENERATIVE_VLMS


class ApiVLM(GenerativeVLM):
    """Base class of API-backed models: implement :meth:`complete`."""

    family = "api"
    is_api = True

    def generate(
        self, system: str, user: str, image: Any | None, decoding: VLMDecodingConfig
    ) -> str:
        png = None
        if image is not None:
            buffer = io.BytesIO()
            image.save(buffer, format="PNG")
            png = buffer.getvalue()
        return self.complete(system, user, png, decoding)

    @abstractmethod
    def complete(
        self, system: str, user: str, image_png: bytes | None, decoding: VLMDecodingConfig
    ) -> str:
        """Send one request; ``image_png`` is None in the text-only condition."""


@dataclass
class OpenAICompatibleOptions:
    """Options of the OpenAI-compatible adapter.

    Attributes:
        model: the provider's model id (required), e.g. the id of GPT-5.4 or Gemini-3-Pro.
        base_url: API root; ``/chat/completions`` is appended.
        api_key_env: environment variable holding the key; empty for servers without auth.
        max_tokens_field: ``max_tokens`` or ``max_completion_tokens`` (newer OpenAI models).
        send_seed: send the decoding seed (not every provider accepts it).
        timeout_s: seconds per request.
        max_retries: retries after rate limits (429), server errors (5xx) and network errors.
        retry_wait_s: first wait; doubles after every retry.
        base_model: registry name of a paired base model, if any.
        checkpoint: unused (accepted so ``--checkpoint`` can name the model id).
    """

    model: str | None = None
    base_url: str = "https://api.openai.com/v1"
    api_key_env: str = "OPENAI_API_KEY"
    max_tokens_field: str = "max_tokens"
    send_seed: bool = True
    timeout_s: float = 120.0
    max_retries: int = 3
    retry_wait_s: float = 2.0
    base_model: str | None = None
    checkpoint: str | None = None


class OpenAICompatibleVLM(ApiVLM):
    """A model served through an OpenAI-compatible chat-completions endpoint."""

    def __init__(self, name: str, options: OpenAICompatibleOptions) -> None:
        self.name = name
        self.options = options
        self.base_model = options.base_model
        self.model_id = options.model or options.checkpoint
        if not self.model_id:
            raise ValueError(
                f"Model '{name}' needs the provider's model id: --option model=<id> (or "
                "--checkpoint <id>)."
            )

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        variable = self.options.api_key_env
        if variable:
            key = os.environ.get(variable)
            if not key:
                raise ValueError(
                    f"Model '{self.name}': the environment variable {variable} holding the API "
                    f"key is not set; export {variable}=<key>, or pass --option api_key_env='' "
                    "for a server without authentication."
                )
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def payload(
        self, system: str, user: str, image_png: bytes | None, decoding: VLMDecodingConfig
    ) -> dict[str, Any]:
        """The JSON body of one request (public so that it can be inspected)."""
        content: list[dict[str, Any]] = []
        if image_png is not None:
            url = "data:image/png;base64," + base64.b64encode(image_png).decode("ascii")
            content.append({"type": "image_url", "image_url": {"url": url}})
        content.append({"type": "text", "text": user})
        body: dict[str, Any] = {
            "model": self.model_id,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": content},
            ],
            "temperature": decoding.temperature if decoding.do_sample else 0.0,
            self.options.max_tokens_field: decoding.max_new_tokens,
        }
        if decoding.do_sample:
            body["top_p"] = decoding.top_p
        if self.options.send_seed:
            body["seed"] = decoding.seed
        return body

    def complete(
        self, system: str, user: str, image_png: bytes | None, decoding: VLMDecodingConfig
    ) -> str:
        url = self.options.base_url.rstrip("/") + "/chat/completions"
        data = json.dumps(self.payload(system, user, image_png, decoding)).encode("utf-8")
        headers = self._headers()
        wait = self.options.retry_wait_s
        for attempt in range(self.options.max_retries + 1):
            request = urllib.request.Request(url, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.options.timeout_s) as response:
                    return _message_text(json.loads(response.read().decode("utf-8")), self.name)
            except urllib.error.HTTPError as err:
                detail = err.read().decode("utf-8", errors="replace")[:500]
                retryable = err.code == 429 or err.code >= 500
                if not retryable or attempt == self.options.max_retries:
                    raise RuntimeError(
                        f"Model '{self.name}': {url} answered HTTP {err.code}: {detail}"
                    ) from err
            except (urllib.error.URLError, TimeoutError) as err:
                if attempt == self.options.max_retries:
                    raise RuntimeError(f"Model '{self.name}': cannot reach {url}: {err}") from err
            time.sleep(wait)
            wait *= 2
        raise AssertionError("unreachable")  # pragma: no cover

    def describe(self) -> dict[str, Any]:
        return {
            **super().describe(),
            "model_id": self.model_id,
            "endpoint_host": urlparse(self.options.base_url).netloc,
            "image_encoding": "PNG data URL before the text",
        }


def _message_text(body: dict[str, Any], name: str) -> str:
    try:
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise RuntimeError(
            f"Model '{name}': unexpected API response {json.dumps(body)[:300]}"
        ) from None
    if isinstance(content, list):  # some providers return content parts
        return "".join(part.get("text", "") for part in content if isinstance(part, dict)).strip()
    return (content or "").strip()


GENERATIVE_VLMS.register(
    "openai_compatible",
    config=OpenAICompatibleOptions,
    family="api",
    attention=False,
    description=(
        "closed or served models via an OpenAI-compatible /chat/completions API (--option "
        "model=<id>)"
    ),
)(OpenAICompatibleVLM)
