"""A subword tokenizer for generators built on a language model: trained on the training reports, or
the pretrained model's own.

Why a second tokenizer: a language model reads and writes its own token ids, so a generator built
on one cannot share the word-level vocabulary of the classic generators. Fairness is kept where it
matters: the default is trained on the TRAINING split only (plus the model's prompt text, which is
configuration, not data), the same report cleaning applies, and metrics score the decoded text,
never token ids.

The whole tokenizer travels in checkpoints as the ``tokenizers`` library's JSON string plus its
special ids: plain strings and numbers, so a checkpoint needs no pickled object and decodes again
without the hub.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pathreport.data.text import clean_report, report_ids
from pathreport.errors import ConfigError

#: Special tokens of a tokenizer trained here, in id order (the word tokenizer's order).
SPECIALS = ("<pad>", "<bos>", "<eos>", "<unk>")
#: Added to a pretrained tokenizer that lacks a padding token, or a start token distinct from its
#: end.
ADDED_PAD = "<|pad|>"
ADDED_BOS = "<|report|>"
#: How byte-level BPE ("Ġ" space, "Ċ" newline) and SentencePiece ("▁") pieces mark a word's start.
WORD_START_MARKS = ("\u0120", "\u010a", "\u2581")


def _tokenizers():
    try:
        import tokenizers
    except ImportError as err:  # pragma: no cover - tokenizers comes with transformers
        raise ImportError(
            "A subword tokenizer needs the tokenizers package: pip install 'pathreport[llm]'"
        ) from err
    return tokenizers


class SubwordTokenizer:
    """A ``tokenizers.Tokenizer`` with the special ids and report cleaning of the benchmark.

    Args:
        json: the ``tokenizers`` JSON serialisation.
        pad_id, bos_id, eos_id: special ids (distinct); ``<bos>`` starts every report and is never
            emitted, ``<eos>`` ends it, ``<pad>`` fills batches.
        unk_id: the unknown token's id, or None when the tokenizer has none (byte-level ones).
        style: report cleaning style applied before encoding (as for the word tokenizer).
        source: where it came from (``trained on the training split`` or a model name), for the
            run's manifest.
    """

    kind = "subword"

    def __init__(
        self,
        json: str,
        *,
        pad_id: int,
        bos_id: int,
        eos_id: int,
        unk_id: int | None,
        style: str,
        source: str = "",
    ) -> None:
        if len({pad_id, bos_id, eos_id}) != 3:
            raise ValueError(
                f"pad, bos and eos ids must differ, found {pad_id}, {bos_id}, {eos_id}."
            )
        self.backend = _tokenizers().Tokenizer.from_str(json)
        self.json = json
        self.pad_id, self.bos_id, self.eos_id, self.unk_id = pad_id, bos_id, eos_id, unk_id
        self.style = style
        self.source = source
        self._size = self.backend.get_vocab_size(with_added_tokens=True)
        self._continuations: list[int] | None = None

    # -- building ------------------------------------------------------------------------------
    @classmethod
    def train(
        cls,
        reports: Iterable[str],
        *,
        style: str,
        vocab_size: int,
        min_frequency: int = 2,
        extra_text: Iterable[str] = (),
    ) -> SubwordTokenizer:
        """A byte-level BPE learned from ``reports`` (the training split), cleaned with ``style``.

        Its alphabet is the bytes seen in training, so a character never seen there is ``<unk>``
        (as a word never seen is for the word tokenizer) and the decoder cannot emit stray bytes;
        ``extra_text`` (a prompt) is added to the training corpus so that it costs few tokens.
        """
        tk = _tokenizers()
        backend = tk.Tokenizer(tk.models.BPE(unk_token=SPECIALS[3]))
        backend.pre_tokenizer = tk.pre_tokenizers.ByteLevel(add_prefix_space=False)
        backend.decoder = tk.decoders.ByteLevel()
        trainer = tk.trainers.BpeTrainer(
            vocab_size=vocab_size,
            min_frequency=min_frequency,
            special_tokens=list(SPECIALS),
            show_progress=False,
        )
        # The extra text is repeated so that its words pass ``min_frequency`` and get merged.
        corpus = [clean_report(r, style) for r in reports] + list(extra_text) * max(
            1, min_frequency
        )
        backend.train_from_iterator(corpus, trainer=trainer)
        ids = [backend.token_to_id(t) for t in SPECIALS]
        return cls(
            backend.to_str(),
            pad_id=ids[0],
            bos_id=ids[1],
            eos_id=ids[2],
            unk_id=ids[3],
            style=style,
            source="trained on the training split",
        )

    @classmethod
    def from_pretrained(cls, name_or_path: str, *, style: str) -> SubwordTokenizer:
        """The tokenizer of a transformers model (hub name or local folder; must be a fast one).

        A missing padding token, or a start token that is missing or equal to the end token, is
        added as a new special token (the model's embeddings are resized to ``len(tokenizer)``).
        """
        from transformers import AutoTokenizer

        try:
            hf = AutoTokenizer.from_pretrained(name_or_path)
        except (OSError, ValueError) as err:
            raise ConfigError(
                f"model.lm={name_or_path}: cannot load its tokenizer ({err}). Give a local "
                "folder with tokenizer.json, or a hub name reachable from this machine."
            ) from None
        backend = getattr(hf, "backend_tokenizer", None)
        if backend is None:
            raise ConfigError(
                f"model.lm={name_or_path}: its tokenizer is not a fast (tokenizers) tokenizer."
            )
        eos = hf.eos_token_id
        if eos is None:
            raise ConfigError(
                f"model.lm={name_or_path}: its tokenizer has no end-of-sequence token."
            )
        tk = _tokenizers()
        backend = tk.Tokenizer.from_str(backend.to_str())
        pad, bos = hf.pad_token_id, hf.bos_token_id
        if pad is None or pad == eos:
            backend.add_special_tokens([tk.AddedToken(ADDED_PAD, special=True)])
            pad = backend.token_to_id(ADDED_PAD)
        if bos is None or bos in (eos, pad):
            backend.add_special_tokens([tk.AddedToken(ADDED_BOS, special=True)])
            bos = backend.token_to_id(ADDED_BOS)
        return cls(
            backend.to_str(),
            pad_id=pad,
            bos_id=bos,
            eos_id=eos,
            unk_id=hf.unk_token_id,
            style=style,
            source=str(name_or_path),
        )

    # -- use -----------------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._size

    def encode(self, report: str, max_tokens: int | None = None) -> tuple[list[int], bool]:
        """Token ids of a cleaned report (no specials) and whether it was cut to ``max_tokens``."""
        ids = self.backend.encode(clean_report(report, self.style), add_special_tokens=False).ids
        if max_tokens is not None and len(ids) > max_tokens:
            return ids[:max_tokens], True
        return ids, False

    def encode_text(self, text: str) -> list[int]:
        """Token ids of literal text (a prompt), no cleaning, no specials."""
        return self.backend.encode(text, add_special_tokens=False).ids if text else []

    def decode(self, ids: Iterable[int]) -> str:
        """Text of token ids; stops at ``<eos>``, skips ``<pad>`` and ``<bos>``."""
        kept = report_ids(ids, pad_id=self.pad_id, bos_id=self.bos_id, eos_id=self.eos_id)
        return self.backend.decode(
            [i for i in kept if 0 <= i < self._size], skip_special_tokens=True
        ).strip()

    def word_continuation_ids(self) -> list[int]:
        """Ids of word-continuing pieces: no word-start mark, text starting with a letter or digit.

        Why: the decoder's ``block_repeat`` forbids repeating the previous token, which is meant for
        words ("the the"); between subword pieces a repeat is ordinary spelling (a BPE trained on a
        few reports splits "mammotome" into ``mam|m|m|otome``), so these pieces are exempt from it.
        """
        if self._continuations is None:
            vocab = self.backend.get_vocab(with_added_tokens=True)
            self._continuations = sorted(
                i
                for piece, i in vocab.items()
                if not piece.startswith(WORD_START_MARKS) and self.backend.decode([i])[:1].isalnum()
            )
        return self._continuations

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "json": self.json,
            "pad_id": self.pad_id,
            "bos_id": self.bos_id,
            "eos_id": self.eos_id,
            "unk_id": self.unk_id,
            "style": self.style,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SubwordTokenizer:
        return cls(
            data["json"],
            pad_id=int(data["pad_id"]),
            bos_id=int(data["bos_id"]),
            eos_id=int(data["eos_id"]),
            unk_id=None if data.get("unk_id") is None else int(data["unk_id"]),
            style=data["style"],
            source=data.get("source", ""),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SubwordTokenizer) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]
