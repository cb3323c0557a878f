"""``transformers`` judge backend: a local causal LM, chat template, greedy decoding, batched.

For judges that fit on the machine (a 7-8B instruct model on one GPU; tiny models in tests).
Prompts are rendered with the tokenizer's own chat template, left-padded into batches of
``batch_size`` and decoded greedily (``do_sample=False``), so the same prompt always gets the same
answer and the cache is exact. Upstream: Hugging Face transformers ``generate`` (Apache-2.0).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pathreport.errors import ConfigError
from pathreport.evaluation.judging.prompts import Messages
from pathreport.registry import JUDGE_BACKENDS


@JUDGE_BACKENDS.register(
    "transformers",
    description="local causal LM with transformers: chat template, greedy, batched",
    needs="transformers and the model's weights (a hub id reachable from here, or a local folder)",
)
class TransformersJudge:
    """A causal LM loaded with ``AutoModelForCausalLM``.

    Args:
        model: hub id or local folder (config, weights, tokenizer with a chat template).
        batch_size: prompts per ``generate`` call.
        max_new_tokens: answer length cap (a cut answer fails to parse and is re-asked).
        device: torch device (``cpu``, ``cuda``, ``cuda:1``).
        dtype: ``auto``, ``float32``, ``bfloat16`` or ``float16``.
    """

    name = "transformers"

    def __init__(
        self,
        model: str,
        batch_size: int = 4,
        max_new_tokens: int = 1024,
        device: str = "cpu",
        dtype: str = "auto",
    ) -> None:
        try:
            import torch
            import transformers
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError:
            raise ConfigError(
                "The transformers judge backend needs transformers: pip install 'pathreport[vlm]'."
            ) from None
        if batch_size < 1:
            raise ConfigError(
                f"transformers judge: batch_size must be at least 1, found {batch_size}."
            )
        torch_dtype = "auto" if dtype == "auto" else getattr(torch, dtype, None)
        if torch_dtype is None:
            raise ConfigError(
                f"transformers judge: unknown dtype {dtype!r}; use auto, float32, bfloat16 "
                "or float16."
            )
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(model)
            dtype_key = (
                "dtype" if int(transformers.__version__.split(".")[0]) >= 5 else "torch_dtype"
            )  # renamed in v5
            self.lm = (
                AutoModelForCausalLM.from_pretrained(model, **{dtype_key: torch_dtype})
                .to(device)
                .eval()
            )
        except (OSError, ValueError) as err:
            raise ConfigError(
                f"transformers judge: the model '{model}' cannot be loaded "
                f"({str(err).splitlines()[0][:160]}). Download it where the hub is reachable "
                f"(`hf download {model} --local-dir <folder>`) and pass the folder as the model, "
                "or serve it with vLLM and use the 'openai' backend."
            ) from None
        if not self.tokenizer.chat_template:
            raise ConfigError(
                f"transformers judge: the tokenizer of '{model}' has no chat template; use "
                "an instruct model."
            )
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.model = model
        self.batch_size = batch_size
        self.max_new_tokens = max_new_tokens
        self.device = device
        self._torch = torch

    def prompt_text(self, messages: Messages) -> str:
        """The conversation as the model sees it, ending with the assistant turn's opening."""
        return self.tokenizer.apply_chat_template(
            messages, tokenize=False, add_generation_prompt=True
        )

    def complete(self, conversations: Sequence[Messages]) -> list[str | BaseException]:
        out: list[str | BaseException] = []
        for start in range(0, len(conversations), self.batch_size):
            batch = [self.prompt_text(m) for m in conversations[start : start + self.batch_size]]
            try:
                out += self._generate(batch)
            except RuntimeError as err:  # e.g. out of memory: the batch fails, the run goes on
                out += [err] * len(batch)
        return out

    def _generate(self, prompts: list[str]) -> list[str]:
        inputs = self.tokenizer(
            prompts, return_tensors="pt", padding=True, add_special_tokens=False
        ).to(self.device)
        with self._torch.no_grad():
            generated = self.lm.generate(
                **inputs,
                do_sample=False,
                max_new_tokens=self.max_new_tokens,
                pad_token_id=self.tokenizer.pad_token_id,
            )
        new_tokens = generated[:, inputs["input_ids"].shape[1] :]
        return [
            t.strip() for t in self.tokenizer.batch_decode(new_tokens, skip_special_tokens=True)
        ]

    def describe(self) -> dict[str, Any]:
        return {
            "decoding": "greedy",
            "max_new_tokens": self.max_new_tokens,
            "batch_size": self.batch_size,
            "model_class": type(self.lm).__name__,
        }
