"""Reading and writing feature files in TRIDENT's layout.

TRIDENT (mahmoodlab/TRIDENT) writes one HDF5 file per slide::

    <job_dir>/<mag>x_<patch>px_<overlap>px_overlap/features_<encoder>/<slide_id>.h5
        features  (N, D) float      one row per tissue patch (N may be 0)
        coords    (N, 2) int        level-0 (x, y) of each patch's top-left corner
    <job_dir>/<mag>x_<patch>px_<overlap>px_overlap/slide_features_<encoder>/<slide_id>.h5
        features  (D,)              one slide embedding

Older CLAM-style files have int32 coords and no attributes at all, so every attribute is optional
here. Bad files stop the run with a message that names the file, what was expected and what was
found, because a silently skipped or zero-filled slide changes the benchmark without anyone
noticing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pathreport.encoders import EncoderSpec, coords_folder
from pathreport.errors import PathreportError


class FeatureFileError(PathreportError, ValueError):
    """A missing, unreadable or inconsistent feature file."""


@dataclass
class SlideFeatures:
    """The content of one TRIDENT feature file."""

    path: Path
    features: np.ndarray  # (N, D) float32 for patch encoders, (D,) for slide encoders
    coords: np.ndarray | None  # (N, 2) int64, or None when the file has none
    attrs: dict[str, Any] = field(default_factory=dict)

    @property
    def num_patches(self) -> int:
        return int(self.features.shape[0]) if self.features.ndim == 2 else 1


def feature_dir(
    job_dir: str | os.PathLike,
    encoder: EncoderSpec,
    *,
    overlap: int = 0,
    patch_size: int | None = None,
    magnification: float | None = None,
) -> Path:
    """Folder where TRIDENT puts ``encoder``'s features under ``job_dir``.

    ``patch_size`` and ``magnification`` default to the encoder's own, but may differ: the REG 2025
    features of the reference runs were all extracted at 512 px, 20x, whatever the encoder.
    """
    folder = coords_folder(
        magnification if magnification is not None else encoder.magnification,
        patch_size if patch_size is not None else (encoder.patch_size or 512),
        overlap,
    )
    return Path(job_dir) / folder / encoder.feature_folder


@contextmanager
def open_h5(path: Path) -> Iterator[Any]:
    """Open a feature file for reading; an unreadable one stops with the file named."""
    import h5py

    if not path.is_file():
        raise FeatureFileError(f"Feature file {path} does not exist.")
    try:
        with h5py.File(path, "r") as f:
            yield f
    except FeatureFileError:
        raise
    except (OSError, KeyError, TypeError, ValueError, RuntimeError) as err:
        raise FeatureFileError(
            f"{path} could not be read as HDF5 ({err}). The file is corrupt or incomplete (e.g. "
            "truncated by a full disk or an interrupted copy); re-run TRIDENT's feature "
            "extraction for this slide."
        ) from None


def _dataset(f: Any, path: Path, key: str) -> Any:
    if key not in f:
        raise FeatureFileError(
            f"{path}: no dataset '{key}' (found {sorted(f.keys())}). TRIDENT feature files hold "
            "'features' and 'coords'; check that this is a features_<encoder> file."
        )
    return f[key]


def read_shape(
    path: str | os.PathLike,
    *,
    expected_dim: int | None = None,
    key: str = "features",
    slide_level: bool = False,
) -> tuple[int, ...]:
    """Check one feature file from its HDF5 metadata alone (no feature is read) and return the
    shape of ``key``: ``(N, D)`` for patch files, ``(D,)`` for slide files.

    Every check :func:`read_features` makes on shapes is made here, so a wrong dimension or a
    corrupt file in any split is found when the data is set up, not after training.
    """
    path = Path(path)
    with open_h5(path) as f:
        shape = tuple(int(n) for n in _dataset(f, path, key).shape)
        coords = (
            tuple(int(n) for n in f["coords"].shape) if "coords" in f and not slide_level else None
        )
    return _checked_shape(
        path, shape, coords, key=key, expected_dim=expected_dim, slide_level=slide_level
    )


def _checked_shape(
    path: Path,
    shape: tuple[int, ...],
    coords: tuple[int, ...] | None,
    *,
    key: str,
    expected_dim: int | None,
    slide_level: bool,
) -> tuple[int, ...]:
    if slide_level:
        if len(shape) == 2 and shape[0] == 1:
            shape = shape[1:]
        if len(shape) != 1:
            raise FeatureFileError(
                f"{path}: '{key}' should be one slide vector (D,), found shape {shape}."
            )
    else:
        if shape == (0,):
            shape = (0, expected_dim or 0)
        if len(shape) != 2:
            raise FeatureFileError(
                f"{path}: '{key}' should be a (N, D) matrix of patch features, found shape {shape}."
            )
        if coords is not None and coords != (shape[0], 2):
            raise FeatureFileError(
                f"{path}: 'coords' has shape {coords} but '{key}' has {shape[0]} rows; "
                "expected one (x, y) per patch."
            )
    dim = shape[-1]
    empty = shape[0] == 0 if not slide_level else dim == 0
    if expected_dim is not None and dim != expected_dim and not (empty and dim == 0):
        raise FeatureFileError(
            f"{path}: feature dimension is {dim}, expected {expected_dim}. The file was probably "
            "written by another encoder: choose the matching encoder=<name> or point to the "
            "right features_<encoder> folder."
        )
    return shape


def read_features(
    path: str | os.PathLike,
    *,
    expected_dim: int | None = None,
    key: str = "features",
    slide_level: bool = False,
    allow_nonfinite: bool = False,
    with_coords: bool = True,
) -> SlideFeatures:
    """Read one feature file and check it.

    Args:
        path: the ``<slide_id>.h5`` file.
        expected_dim: the encoder's embedding dimension; a different D is an error.
        key: the dataset to read (``features``, or e.g. ``bag_feats_deep`` for GECKO files).
        slide_level: the file holds one vector per slide (``(D,)`` or ``(1, D)``).
        allow_nonfinite: accept NaN/Inf values (never the default: they poison training silently).
        with_coords: also read ``coords`` when present.
    """
    path = Path(path)
    with open_h5(path) as f:
        data = _dataset(f, path, key)
        feats = np.asarray(data[()], dtype=np.float32)
        attrs = {k: _plain(v) for k, v in data.attrs.items()}
        coords = None
        if with_coords and "coords" in f and not slide_level:
            coords = np.asarray(f["coords"][()], dtype=np.int64)
            attrs.update({f"coords.{k}": _plain(v) for k, v in f["coords"].attrs.items()})
    shape = _checked_shape(
        path,
        feats.shape,
        None if coords is None else coords.shape,
        key=key,
        expected_dim=expected_dim,
        slide_level=slide_level,
    )
    feats = feats.reshape(shape)
    if not allow_nonfinite and feats.size and not np.isfinite(feats).all():
        bad = int((~np.isfinite(feats)).any(axis=-1).sum()) if feats.ndim == 2 else 1
        raise FeatureFileError(
            f"{path}: '{key}' contains NaN or Inf values ({bad} row(s)). Re-extract this slide, "
            "or exclude it from the split."
        )
    return SlideFeatures(path=path, features=feats, coords=coords, attrs=attrs)


def write_features(
    path: str | os.PathLike,
    features: np.ndarray,
    coords: np.ndarray | None = None,
    *,
    encoder: str = "",
    patch_size: int = 256,
    magnification: float = 20.0,
    level0_magnification: float = 40.0,
    overlap: int = 0,
    level0_size: tuple[int, int] = (0, 0),
    extra: dict[str, np.ndarray] | None = None,
    features_key: str = "features",
) -> Path:
    """Write a feature file exactly as TRIDENT's ``save_h5`` does (datasets, chunks, attributes).

    Used to generate the synthetic dataset and test fixtures, so that the reader is always
    exercised on TRIDENT's real layout.
    """
    import h5py

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    features = np.asarray(features, dtype=np.float32)
    name = path.stem
    tmp = path.with_suffix(".h5.tmp")
    with h5py.File(tmp, "w") as f:
        _save(
            f,
            features_key,
            features,
            {"name": name, "savetodir": str(path.parent), "encoder": encoder},
        )
        if coords is not None:
            coords = np.asarray(coords, dtype=np.int64)
            ps0 = int(patch_size * level0_magnification // magnification)
            _save(
                f,
                "coords",
                coords,
                {
                    "patch_size": int(patch_size),
                    "patch_size_level0": ps0,
                    "level0_magnification": float(level0_magnification),
                    "target_magnification": float(magnification),
                    "overlap": int(overlap),
                    "name": name,
                    "savetodir": str(path.parent),
                    "level0_width": int(level0_size[0]),
                    "level0_height": int(level0_size[1]),
                },
            )
        for key, value in (extra or {}).items():
            _save(f, key, np.asarray(value), {})
    os.replace(tmp, path)
    return path


def _save(f: Any, key: str, data: np.ndarray, attrs: dict[str, Any]) -> None:
    chunks = (1, *data.shape[1:]) if data.ndim >= 1 and data.shape[0] > 0 else None
    dset = f.create_dataset(
        key, data=data, chunks=chunks, maxshape=(None, *data.shape[1:]) if chunks else None
    )
    for k, v in attrs.items():
        dset.attrs[k] = "None" if v is None else v


def _plain(value: Any) -> Any:
    """h5py returns numpy scalars and bytes; give back plain Python values."""
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value
