"""The evaluated slides: a labels CSV joined with per-slide tile embeddings in TRIDENT's layout.

``--slides`` is a folder of ``<slide_id>.h5`` files (a TRIDENT ``features_<encoder>`` folder)
whose ``features`` are the VLM's joint image-text embeddings of each tile. ``--labels`` is a CSV
with a header and the columns ``slide_id`` and ``label``. A label may be a class name, an alias
(e.g. ``Tumor`` for CAMELYON16's ``Metastasis``, ``3`` for PANDA's ``Grade 3``) or either in another
case. Slides are read one at a time while they are scored, so memory holds one slide's tiles.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pathreport.data.trident import FeatureFileError, read_features
from pathreport.pathlang.corpus import DatasetPrompts

_SHOWN = 5


@dataclass
class SlideSet:
    """Slides with their class indices and a loader for their tiles.

    Attributes:
        ids: slide ids, in labels-file order.
        y: class index per slide (into the dataset's classes).
        loader: returns a slide's ``(N, D)`` tile embeddings.
        n_tiles: tiles per slide when known before loading (else empty).
        skipped: slides left out on request, each ``{"slide_id", "reason"}``.
        source: where the slides came from (for the run manifest).
    """

    ids: list[str]
    y: np.ndarray
    loader: Callable[[str], np.ndarray]
    n_tiles: list[int] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    source: str = "memory"

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self) -> Iterator[np.ndarray]:
        for slide in self.ids:
            yield self.loader(slide)

    @classmethod
    def from_arrays(
        cls, tiles: Mapping[str, np.ndarray], labels: Mapping[str, str], dataset: DatasetPrompts
    ) -> SlideSet:
        """Slides held in memory (``{slide_id: (N, D) array}``) with ``{slide_id: label}``."""
        rows = [(slide, label, i + 1) for i, (slide, label) in enumerate(labels.items())]
        ids, y = _resolve_labels(rows, dataset, "labels")
        missing = [s for s in ids if s not in tiles]
        if missing:
            raise ValueError(
                f"{len(missing)} labelled slide(s) have no tiles, e.g. {missing[:_SHOWN]}."
            )
        for s in ids:
            if len(tiles[s]) == 0:
                raise ValueError(
                    f"Slide '{s}' has no tiles; PathLang needs at least one tile per slide."
                )
        return cls(
            ids=ids,
            y=y,
            loader=lambda s: np.asarray(tiles[s], dtype=np.float32),
            n_tiles=[len(tiles[s]) for s in ids],
        )


def read_labels(path: str | os.PathLike) -> list[tuple[str, str, int]]:
    """Rows ``(slide_id, label, line number)`` of a labels CSV, checked for shape and duplicates."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"Labels file {path} does not exist.")
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames or []
        missing = [c for c in ("slide_id", "label") if c not in header]
        if missing:
            raise ValueError(
                f"{path}: the header is {header} but needs the columns 'slide_id' and 'label' "
                f"(missing {missing}). Write the first line as: slide_id,label"
            )
        rows, first_line = [], {}
        for row in reader:
            line = reader.line_num
            slide = (row.get("slide_id") or "").strip()
            label = (row.get("label") or "").strip()
            if not slide or not label:
                raise ValueError(
                    f"{path}, line {line}: empty slide_id or label "
                    f"(found {slide!r}, {label!r}); fill or delete the line."
                )
            if slide in first_line:
                raise ValueError(
                    f"{path}, line {line}: slide '{slide}' already appears on "
                    f"line {first_line[slide]}; each slide needs exactly one label."
                )
            first_line[slide] = line
            rows.append((slide, label, line))
    if not rows:
        raise ValueError(
            f"{path} has a header but no slides; add one line per slide: <slide_id>,<label>."
        )
    return rows


def load_slide_set(
    slides_dir: str | os.PathLike,
    labels_file: str | os.PathLike,
    dataset: DatasetPrompts,
    *,
    expected_dim: int | None = None,
    skip_missing: bool = False,
) -> SlideSet:
    """Join a labels CSV with a folder of TRIDENT feature files.

    Args:
        slides_dir: folder of ``<slide_id>.h5`` files.
        labels_file: CSV with ``slide_id,label``.
        dataset: the dataset whose classes the labels name.
        expected_dim: the joint embedding dimension (from the text encoder), checked per file.
        skip_missing: leave out labelled slides whose file is missing or holds no tiles (they are
            listed in the run's summary) instead of stopping.
    """
    folder = Path(slides_dir)
    if not folder.is_dir():
        raise FileNotFoundError(f"Slides folder {folder} does not exist.")
    ids, y = _resolve_labels(read_labels(labels_file), dataset, str(labels_file))
    if not any(folder.glob("*.h5")):
        nested = sorted(p.name for p in folder.iterdir() if p.is_dir())
        hint = (
            (
                f" It has sub-folders {nested[:_SHOWN]}: point --slides at the folder that "
                "holds the .h5 files."
            )
            if nested
            else ""
        )
        raise FileNotFoundError(f"Slides folder {folder} holds no .h5 files.{hint}")
    kept, kept_y, counts, skipped = [], [], [], []
    problems: list[str] = []
    for slide, label in zip(ids, y, strict=True):
        path = folder / f"{slide}.h5"
        reason = None
        if not path.is_file():
            reason = f"no file {path.name}"
        else:
            n = _tile_count(path)
            if n == 0:
                reason = f"{path.name} holds no tiles"
        if reason is None:
            kept.append(slide)
            kept_y.append(label)
            counts.append(n)
        elif skip_missing:
            skipped.append({"slide_id": slide, "reason": reason})
        else:
            problems.append(f"{slide} ({reason})")
    if problems:
        shown = ", ".join(problems[:_SHOWN]) + (" ..." if len(problems) > _SHOWN else "")
        raise FileNotFoundError(
            f"{len(problems)} slide(s) of {labels_file} cannot be evaluated "
            f"from {folder}: {shown}. "
            "Fix the files or the labels, or pass --skip-missing to leave them out (they are "
            "then listed in summary.json)."
        )
    if not kept:
        raise FileNotFoundError(f"None of the {len(ids)} labelled slides has tiles in {folder}.")

    def load(slide: str) -> np.ndarray:
        return read_features(
            folder / f"{slide}.h5", expected_dim=expected_dim, with_coords=False
        ).features

    return SlideSet(
        ids=kept,
        y=np.asarray(kept_y, dtype=np.int64),
        loader=load,
        n_tiles=counts,
        skipped=skipped,
        source=str(folder),
    )


def _tile_count(path: Path) -> int:
    """Rows of the ``features`` dataset, read from the file's metadata only."""
    import h5py

    try:
        with h5py.File(path, "r") as f:
            if "features" not in f:
                raise FeatureFileError(
                    f"{path}: no dataset 'features' (found {sorted(f.keys())}); is this a "
                    "TRIDENT features file?"
                )
            shape = f["features"].shape
    except FeatureFileError:
        raise
    except (OSError, KeyError, TypeError, ValueError) as err:
        raise FeatureFileError(
            f"{path} could not be read as HDF5 ({err}); re-extract this slide."
        ) from None
    if len(shape) == 2 or shape == (0,):
        return int(shape[0])
    raise FeatureFileError(
        f"{path}: 'features' should be a (N, D) matrix of tile embeddings, found shape {shape}."
    )


def _resolve_labels(
    rows: Sequence[tuple[str, str, int]], dataset: DatasetPrompts, source: str
) -> tuple[list[str], np.ndarray]:
    ids, y = [], []
    for slide, label, line in rows:
        index = dataset.class_index(label)
        if index is None:
            raise ValueError(
                f"{source}, line {line}: slide '{slide}' has label '{label}', which is not a "
                f"class of {dataset.key}. Accepted "
                f"labels: {', '.join(dataset.accepted_labels())} (any case)."
            )
        ids.append(slide)
        y.append(index)
    return ids, np.asarray(y, dtype=np.int64)


def describe_tiles(counts: Sequence[int], k_min: int) -> dict[str, Any]:
    """Tile-count statistics for the manifest, including slides smaller than ``K_min``."""
    if not counts:
        return {}
    arr = np.asarray(counts)
    return {
        "min": int(arr.min()),
        "median": float(np.median(arr)),
        "max": int(arr.max()),
        "slides_with_fewer_than_k_min": int((arr < k_min).sum()),
    }
