"""How a checkpoint stores the run's tokenizer, and how it is restored, for every tokenizer kind.

It sits above both tokenizers (the word :class:`~pathreport.data.text.Tokenizer` and the
:class:`~pathreport.data.subword.SubwordTokenizer`), so neither imports the other.
"""

from __future__ import annotations

from typing import Any

from pathreport.data.subword import SubwordTokenizer
from pathreport.data.text import TextTokenizer, Tokenizer


def tokenizer_state(tokenizer: TextTokenizer) -> list[str] | dict[str, Any]:
    """What a checkpoint stores of a tokenizer: plain lists, dicts and strings only.

    The word tokenizer is its vocabulary list (the format every checkpoint has used); any other
    tokenizer is its ``to_dict()``, which names its ``kind``.
    """
    if isinstance(tokenizer, Tokenizer):
        return list(tokenizer.vocab)
    return tokenizer.to_dict()  # type: ignore[attr-defined]


def tokenizer_from_state(state: list[str] | dict[str, Any], style: str) -> TextTokenizer:
    """The tokenizer a checkpoint stored with :func:`tokenizer_state`."""
    if isinstance(state, dict):
        kind = state.get("kind")
        if kind == "subword":
            return SubwordTokenizer.from_dict(state)
        raise ValueError(
            f"Unknown tokenizer kind {kind!r} in the checkpoint (known: word list, 'subword')."
        )
    return Tokenizer(list(state), style=style)
