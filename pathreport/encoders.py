"""Encoder specifications: what a TRIDENT feature folder contains, written once.

The feature dimension that reaches a generator comes from here and nowhere else (the reference
implementation made users type ``d_patch`` by hand next to the encoder path). A spec is data, one
YAML file per encoder in ``encoders/``, in the spirit of TRIDENT's encoder factory: the TRIDENT name
locates the folder ``features_<trident_name>``, the patch size and magnification locate the
``<mag>x_<patch>px_<overlap>px_overlap`` folder.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import yaml

from pathreport.registry import NAME_PATTERN


@dataclass
class EncoderSpec:
    """One feature extractor as TRIDENT names and writes it.

    Attributes:
        name: pathreport's name (``encoder=<name>``), e.g. ``uni2``.
        trident_name: TRIDENT's encoder name, the suffix of ``features_<trident_name>``.
        embedding_dim: feature dimension D of ``features`` (N x D, or D for slide encoders).
        patch_size: patch side in pixels at ``magnification`` (patch encoders; 0 for slide
            encoders).
        magnification: target magnification of the patches, e.g. 20.
        kind: ``patch`` (one vector per patch) or ``slide`` (one vector per slide).
        model: the model's published name.
        hf_repo: where the weights are published (usually gated).
        licence: the weights' licence.
        gated: whether downloading the weights needs an approved access request.
        paper: citation or URL of the model's paper.
        notes: anything a user should know (precision, dimension variants, ...).
    """

    name: str = "???"
    trident_name: str = "???"
    embedding_dim: int = 0
    patch_size: int = 0
    magnification: float = 20.0
    kind: str = "patch"
    model: str = ""
    hf_repo: str = ""
    licence: str = ""
    gated: bool = True
    paper: str = ""
    notes: str = ""

    def __post_init__(self) -> None:
        problems = []
        if not NAME_PATTERN.match(self.name):
            problems.append(f"name {self.name!r} must match {NAME_PATTERN.pattern}")
        if self.kind not in ("patch", "slide"):
            problems.append(f"kind must be 'patch' or 'slide', found {self.kind!r}")
        if int(self.embedding_dim) <= 0:
            problems.append(f"embedding_dim must be positive, found {self.embedding_dim!r}")
        if self.kind == "patch" and int(self.patch_size) <= 0:
            problems.append(f"patch encoders need a positive patch_size, found {self.patch_size!r}")
        if problems:
            raise ValueError(f"Encoder spec '{self.name}': " + "; ".join(problems) + ".")

    @classmethod
    def from_yaml(cls, path: Path) -> EncoderSpec:
        with open(path) as f:
            raw = yaml.safe_load(f) or {}
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise ValueError(
                f"{path}: unknown key(s) {unknown}; an encoder spec has {sorted(known)}."
            )
        raw.setdefault("name", Path(path).stem)
        if raw["name"] != Path(path).stem:
            raise ValueError(
                f"{path}: name {raw['name']!r} differs from the file name; make them equal."
            )
        return cls(**raw)

    @property
    def feature_folder(self) -> str:
        """TRIDENT's folder name for this encoder's outputs."""
        prefix = "features" if self.kind == "patch" else "slide_features"
        return f"{prefix}_{self.trident_name}"

    def metadata(self) -> dict[str, Any]:
        info = asdict(self)
        info.pop("name")
        return info


def format_magnification(mag: float) -> str:
    """TRIDENT writes an integral magnification as an int (``20x``), else compactly (``2.5x``)."""
    mag = float(mag)
    return str(int(mag)) if mag.is_integer() else f"{mag:g}"


def coords_folder(magnification: float, patch_size: int, overlap: int = 0) -> str:
    """TRIDENT's ``<mag>x_<patch>px_<overlap>px_overlap`` folder name."""
    return f"{format_magnification(magnification)}x_{int(patch_size)}px_{int(overlap)}px_overlap"
