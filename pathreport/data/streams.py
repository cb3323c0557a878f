"""What a generator may ask the data module for beyond the main patch features.

The declaration belongs to the data layer because the data module reads the streams; a generator
declares them (``streams = {"conch": StreamSpec("patch", encoder="conch1")}``) and the data module,
which knows nothing of generators, fills ``SlideBatch.extra`` with them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StreamSpec:
    """An input a generator needs beyond the main patch features.

    Attributes:
        kind: ``patch`` (one vector per patch, same patches as the main stream, so it shares the
            main mask), ``slide`` (one vector per slide) or ``concept`` (per-slide vectors from a
            concept model such as GECKO, read from named HDF5 datasets).
        encoder: encoder spec that gives the folder and dimension (``conch1``, ``titan``), or None
            when the dataset config gives them (concept streams).
        key: HDF5 dataset to read (``features``, ``bag_feats_deep``, ``bag_feats``).
        description: shown in error messages and ``pathreport list models``.
        dim: expected width of a ``concept`` stream (SCOUT's concept count), checked against every
            file; None learns it from the first file. Patch and slide streams take the encoder's.
    """

    kind: str
    encoder: str | None = None
    key: str = "features"
    description: str = ""
    dim: int | None = None
