"""BiGen's knowledge bank: text embeddings of short sentences from the training reports.

BiGen retrieves, for groups of salient patches, the most similar sentences of historical reports
and lets the decoder attend to them. The bank is a (T, D) tensor of sentence embeddings made by a
text encoder registered in ``pathreport.TEXT_ENCODERS`` (see ``text_encoders.py`` here);
``pathreport bigen build-bank`` builds it from the TRAINING split only (the validation and test
reports must not leak into the model), the synthetic dataset's bank is built on first use
(:func:`locate_bank`), and the BiGen model keeps it as a buffer so that a checkpoint alone can
decode again.

A bank file is what ``torch.save`` writes: either a plain (T, D) tensor (the reference
implementation's ``memory_short.pt``) or a dict with the tensor under ``embeddings`` and its
provenance (sentences, text encoder, dataset, split file checksum).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import torch
from torch import Tensor

from pathreport import TEXT_ENCODERS, DatasetInfo, paths

BANK_FORMAT = "pathreport-knowledge-bank/1"

# A sentence ends at '.', ';' or '!' / '?' followed by white space or the end, or at a line break.
# A '.' between digits ("2.5 cm") is not an end.
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+|\n+|[.;!?]$")
_HAS_LETTER = re.compile(r"[^\W\d_]")


@dataclass
class KnowledgeBank:
    """A bank and where it came from.

    Attributes:
        embeddings: (T, D) float tensor, one row per sentence.
        sentences: the sentences (empty for a plain-tensor file).
        text_encoder: registered name of the encoder that embedded them.
        source: free-form provenance (dataset, split file, checksum).
    """

    embeddings: Tensor
    sentences: list[str] = field(default_factory=list)
    text_encoder: str = ""
    source: dict[str, str] = field(default_factory=dict)

    @property
    def dim(self) -> int:
        return int(self.embeddings.shape[1])


def report_sentences(report: str) -> list[str]:
    """The short sentences of one report, stripped of list punctuation, numbers kept intact."""
    out = []
    for piece in _SENTENCE_END.split(report):
        text = " ".join(piece.split()).strip(" ,:;.-")
        if text and _HAS_LETTER.search(text):
            out.append(text)
    return out


def unique_sentences(reports: Iterable[str]) -> list[str]:
    """Every distinct sentence of ``reports``, in order of first appearance."""
    return list(dict.fromkeys(s for report in reports for s in report_sentences(report)))


def build_bank(reports: Iterable[str], text_encoder: str, **encoder_args: object) -> KnowledgeBank:
    """Embed the distinct sentences of ``reports`` with the registered ``text_encoder``."""
    sentences = unique_sentences(reports)
    if not sentences:
        raise ValueError(
            "The reports contain no sentence with a letter in it; the knowledge bank would "
            "be empty."
        )
    encoder = TEXT_ENCODERS.get(text_encoder).obj(**encoder_args)
    embeddings = encoder.encode(sentences).float().cpu()
    return KnowledgeBank(embeddings=embeddings, sentences=sentences, text_encoder=text_encoder)


def save_bank(bank: KnowledgeBank, path: str | os.PathLike) -> Path:
    """Write ``bank`` (atomically, so a crash never leaves half a file where a model looks)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    torch.save(
        {
            "format": BANK_FORMAT,
            "embeddings": bank.embeddings.contiguous(),
            "sentences": list(bank.sentences),
            "text_encoder": bank.text_encoder,
            "source": dict(bank.source),
        },
        tmp,
    )
    os.replace(tmp, path)
    return path


def load_bank(path: str | os.PathLike) -> KnowledgeBank:
    """Read a bank file (a plain (T, D) tensor or a dict written by :func:`save_bank`)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(
            f"Knowledge bank {path} does not exist. Build it with `pathreport bigen build-bank "
            "--dataset <name> --split-file <split json> --text-encoder <name> --out "
            f"{path}`, or point model.bank_path at an existing bank."
        )
    try:
        raw = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises several types for a corrupt or foreign file
        raise ValueError(
            f"{path} is not a readable knowledge bank (torch.load failed: {err})."
        ) from None
    if isinstance(raw, dict):
        if "embeddings" not in raw:
            raise ValueError(
                f"{path}: a knowledge-bank dict needs the key 'embeddings', found "
                f"keys {sorted(raw)}."
            )
        bank = KnowledgeBank(
            embeddings=raw["embeddings"],
            sentences=list(raw.get("sentences", [])),
            text_encoder=str(raw.get("text_encoder", "")),
            source={str(k): str(v) for k, v in dict(raw.get("source", {})).items()},
        )
    elif isinstance(raw, Tensor):
        bank = KnowledgeBank(embeddings=raw)
    else:
        raise ValueError(
            f"{path}: expected a (T, D) tensor or a dict with 'embeddings', "
            f"found {type(raw).__name__}."
        )
    emb = bank.embeddings
    if emb.dim() != 2 or emb.shape[0] == 0 or emb.shape[1] == 0:
        raise ValueError(
            f"{path}: the bank must be a non-empty (T, D) matrix, found shape {tuple(emb.shape)}."
        )
    if not torch.isfinite(emb).all():
        raise ValueError(f"{path}: the bank contains NaN or infinite values; rebuild it.")
    bank.embeddings = emb.float()
    return bank


def default_bank_path(dataset: str, text_encoder: str, cache: Path | None = None) -> Path:
    """Where ``build-bank`` writes by default: ``<cache>/banks/<dataset>/<text_encoder>.pt``."""
    return (cache or paths.cache_dir()) / "banks" / dataset / f"{text_encoder}.pt"


#: The text encoder of a dataset's default bank: the paper's CONCH for real datasets; for a
#: generated one, the offline hashing encoder (CONCH's text tower needs gated weights).
DEFAULT_TEXT_ENCODER = {"real": "conch", "generated": "hashing"}


def locate_bank(bank_path: str, text_encoder: str | None, dataset: DatasetInfo) -> Path:
    """The bank a BiGen run uses: ``bank_path`` when set; for a generated dataset, its own bank
    (built from its training reports on first use); else where ``build-bank`` writes by default.
    ``text_encoder`` None takes :data:`DEFAULT_TEXT_ENCODER`.

    Raises:
        FileNotFoundError: the bank does not exist; the message gives the command that builds it.
    """
    generated = dataset.generated_dir is not None
    text_encoder = text_encoder or DEFAULT_TEXT_ENCODER["generated" if generated else "real"]
    if bank_path:
        path = Path(bank_path).expanduser()
    elif generated:
        path = dataset.generated_dir / f"knowledge_bank_{text_encoder}.pt"
        if not path.is_file():
            save_bank(build_bank(dataset.train_reports, text_encoder), path)
    else:
        path = default_bank_path(dataset.name, text_encoder, dataset.cache_dir)
    if not path.is_file():
        raise FileNotFoundError(
            f"The knowledge bank {path} does not exist. Build it from the training reports "
            f"with\n  pathreport bigen build-bank --dataset {dataset.name} "
            f"--split-file {dataset.split_file} --text-encoder {text_encoder} --out {path}\n(or "
            "set model.bank_path=<bank file>)."
        )
    return path


def file_sha256(path: str | os.PathLike) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
