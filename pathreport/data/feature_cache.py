"""An optional float16 copy of a split's features, memory-mapped, so that epochs stop decoding HDF5.

TRIDENT stores each slide's features as float32 in HDF5 chunks of one patch each: reading a
10,000-patch slide walks 10,000 chunks, and a training run of many epochs does that again for every
slide and every epoch. ``data.feature_cache`` builds, once per split and input stream, one float16
array of every slide's rows end to end (half the bytes) plus an index of where each slide starts;
epochs then read a slide as one contiguous slice of a memory-mapped file.

Files, per split and stream, in ``<cache root>/<dataset>/<stream>-<folder hash>/``::

    <split>.features.npy   (total patches, D) float16   slide-level streams: one row per slide
    <split>.coords.npy     (total patches, 2) int64     main stream only
    <split>.json           index: slide ids, row offsets, the sources' fingerprint (written last)

**When the cache is stale.** The index keeps a fingerprint of the source files: for each file its
name, size, modification time (ns) and a SHA-256 of its first 64 KiB (the HDF5 superblock, the
datasets' headers and attributes, and the first rows of features). A re-extracted file changes its
modification time; a file copied over with its time kept (``cp -p``, ``rsync -a``) but written by
another encoder or patching still differs in those first bytes. A full hash would read the whole
dataset (hundreds of GB at REG 2025 scale) at every start, which is what the cache exists to
avoid; the fingerprint reads 64 KiB a file.

**Broken caches.** The index is written last, after the arrays are complete, so a build that was
interrupted leaves no index and is rebuilt. A cache whose index does not parse, or whose arrays do
not have the size, type or shape the index promises (a truncated copy, a full disk), is rebuilt
too, with a warning that says why. A corrupted value inside a well-formed array is not detected
(that would need a full read at every start).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pathreport.data.trident import FeatureFileError, read_features

log = logging.getLogger(__name__)

CACHE_VERSION = 1
HEAD_BYTES = 64 * 1024
FLOAT16_MAX = float(np.finfo(np.float16).max)


def source_fingerprint(paths: list[Path]) -> str:
    """Fingerprint of feature files: name, size, modification time and first 64 KiB of each."""
    digest = hashlib.sha256()
    for path in paths:
        stat = path.stat()
        with open(path, "rb") as f:
            head = hashlib.sha256(f.read(HEAD_BYTES)).hexdigest()
        digest.update(f"{path.name}\0{stat.st_size}\0{stat.st_mtime_ns}\0{head}\n".encode())
    return digest.hexdigest()


def cache_folder(root: Path, dataset: str, stream: str, folder: Path, key: str) -> Path:
    """Where one stream's cache lives: one folder per source folder and HDF5 dataset name."""
    tag = hashlib.sha256(f"{folder.resolve()}\0{key}".encode()).hexdigest()[:12]
    return root / dataset / f"{stream}-{tag}"


@contextmanager
def cache_lock(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s lock: processes of a distributed run set up their data at the same time,
    and only one may check or build a cache while the others wait for it."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "a+b") as f:
        if os.name == "nt":  # pragma: no cover (Windows)
            import msvcrt

            while True:
                try:
                    msvcrt.locking(f.fileno(), msvcrt.LK_LOCK, 1)
                    break
                except OSError:  # LK_LOCK gives up after 10 s; a build takes longer
                    continue
            try:
                yield
            finally:
                f.seek(0)
                msvcrt.locking(f.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)


@dataclass
class SplitFeatureCache:
    """One split's features of one stream as float16 rows, memory-mapped on first read.

    Picklable without its mapping (DataLoader workers, also under spawn, map the file themselves).

    Args:
        folder: the stream's cache folder (see :func:`cache_folder`).
        split: split name (names the files).
        ids: slide ids, in the dataset's order.
        sources: the slides' feature files, in the same order.
        key: HDF5 dataset to read.
        dim: expected feature dimension (None: take the files').
        slide_level: one vector per slide instead of one per patch.
        with_coords: also keep patch coordinates (the main stream).
    """

    folder: Path
    split: str
    ids: list[str]
    sources: list[Path]
    key: str = "features"
    dim: int | None = None
    slide_level: bool = False
    with_coords: bool = False
    offsets: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64), repr=False)
    _features: np.ndarray | None = field(default=None, repr=False)
    _coords: np.ndarray | None = field(default=None, repr=False)

    @property
    def features_path(self) -> Path:
        return self.folder / f"{self.split}.features.npy"

    @property
    def coords_path(self) -> Path:
        return self.folder / f"{self.split}.coords.npy"

    @property
    def index_path(self) -> Path:
        return self.folder / f"{self.split}.json"

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_features": None, "_coords": None}

    # -- checking and building ---------------------------------------------------------------
    def ensure(self) -> bool:
        """Use the cache if it matches the sources, else (re)build it; True when it was built."""
        fingerprint = source_fingerprint(self.sources)
        problem = self._problem(fingerprint)
        if problem is None:
            return False
        if problem != "absent":
            log.warning("Feature cache %s: %s; rebuilding it.", self.index_path, problem)
        self._build(fingerprint)
        problem = self._problem(fingerprint)
        if problem is not None:  # pragma: no cover (a disk that loses what was just written)
            raise FeatureFileError(
                f"The feature cache {self.folder} could not be written: {problem}."
            )
        return True

    def _problem(self, fingerprint: str) -> str | None:
        """Why the cache on disk cannot be used (None: it can), checked without reading features."""
        if not self.index_path.is_file():
            return (
                "absent" if not self.features_path.exists() else "no index (an interrupted build)"
            )
        try:
            index = json.loads(self.index_path.read_text())
            offsets = np.asarray(index["offsets"], dtype=np.int64)
            version, ids, saved = index["version"], index["ids"], index["fingerprint"]
            dim, key = int(index["dim"]), index["key"]
        except (OSError, ValueError, KeyError, TypeError) as err:
            return f"its index does not parse ({type(err).__name__}: {err})"
        if version != CACHE_VERSION:
            return f"it was written by cache version {version} (this is {CACHE_VERSION})"
        if ids != self.ids or key != self.key or (self.dim is not None and dim != self.dim):
            return "it lists other slides, another dataset key or another dimension"
        if saved != fingerprint:
            return "the source feature files changed since it was built"
        rows = len(ids) if self.slide_level else int(offsets[-1])
        if len(offsets) != len(ids) + 1 or np.any(np.diff(offsets) < 0) or int(offsets[-1]) != rows:
            return "its row offsets are inconsistent"
        arrays = [(self.features_path, np.float16, (rows, dim))]
        if self.with_coords:
            arrays.append((self.coords_path, np.int64, (rows, 2)))
        for path, dtype, shape in arrays:
            try:
                array = np.load(path, mmap_mode="r")
            except (OSError, ValueError, EOFError) as err:
                return f"{path.name} cannot be read ({err}): a truncated or partial file"
            if array.dtype != dtype or array.shape != shape:
                return (
                    f"{path.name} holds {array.dtype} {array.shape}, the index "
                    f"says {np.dtype(dtype)} {shape}"
                )
        self.offsets = offsets
        self.dim = dim
        return None

    def _build(self, fingerprint: str) -> None:
        """Read every source file once (with all of the reader's checks) and write the arrays."""
        from numpy.lib.format import open_memmap

        self.folder.mkdir(parents=True, exist_ok=True)
        self.index_path.unlink(missing_ok=True)  # no index until the arrays are complete
        shapes = [self._shape(path) for path in self.sources]
        counts = [1 if self.slide_level else shape[0] for shape in shapes]
        dim = self.dim if self.dim is not None else (shapes[0][-1] if shapes else 0)
        offsets = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)]).astype(np.int64)
        total = int(offsets[-1])
        started = time.perf_counter()
        log.info(
            "Building the %s feature cache in %s: %d slides, %d rows x %d (%.1f GB float16).",
            self.split,
            self.folder,
            len(self.ids),
            total,
            dim,
            total * dim * 2 / 1e9,
        )
        tmp_features = self.features_path.with_suffix(".tmp.npy")
        tmp_coords = self.coords_path.with_suffix(".tmp.npy")
        features = open_memmap(tmp_features, mode="w+", dtype=np.float16, shape=(total, dim))
        coords = (
            open_memmap(tmp_coords, mode="w+", dtype=np.int64, shape=(total, 2))
            if self.with_coords
            else None
        )
        for i, path in enumerate(self.sources):
            data = read_features(
                path,
                expected_dim=self.dim,
                key=self.key,
                slide_level=self.slide_level,
                with_coords=self.with_coords,
            )
            rows = data.features.reshape(counts[i], dim)
            peak = float(np.abs(rows).max()) if rows.size else 0.0
            if peak > FLOAT16_MAX:
                del features, coords
                tmp_features.unlink(missing_ok=True)
                tmp_coords.unlink(missing_ok=True)
                raise FeatureFileError(
                    f"{path}: a feature value of magnitude {peak:.4g} does not fit float16 (at "
                    f"most {FLOAT16_MAX:.0f}); this encoder's features cannot be cached: set "
                    "data.feature_cache=null."
                )
            features[offsets[i] : offsets[i + 1]] = rows
            if coords is not None:
                coords[offsets[i] : offsets[i + 1]] = data.coords if data.coords is not None else 0
        features.flush()
        del features
        os.replace(tmp_features, self.features_path)
        if coords is not None:
            coords.flush()
            del coords
            os.replace(tmp_coords, self.coords_path)
        index = {
            "version": CACHE_VERSION,
            "ids": self.ids,
            "offsets": offsets.tolist(),
            "dim": int(dim),
            "key": self.key,
            "fingerprint": fingerprint,
            "sources": str(self.sources[0].parent) if self.sources else "",
        }
        tmp_index = self.index_path.with_suffix(".json.tmp")
        tmp_index.write_text(json.dumps(index))
        os.replace(tmp_index, self.index_path)
        log.info(
            "Feature cache %s built in %.1f s.", self.features_path, time.perf_counter() - started
        )

    def _shape(self, path: Path) -> tuple[int, ...]:
        from pathreport.data.trident import read_shape

        return read_shape(path, expected_dim=self.dim, key=self.key, slide_level=self.slide_level)

    # -- reading -------------------------------------------------------------------------------
    def read(self, index: int) -> tuple[np.ndarray, np.ndarray | None]:
        """Slide ``index``'s features as float32 ((N, D), or (D,) for a slide-level stream) and,
        for the main stream, its coordinates."""
        if self._features is None:
            self._features = np.load(self.features_path, mmap_mode="r")
            if self.with_coords:
                self._coords = np.load(self.coords_path, mmap_mode="r")
        start, stop = int(self.offsets[index]), int(self.offsets[index + 1])
        features = np.asarray(self._features[start:stop], dtype=np.float32)
        if self.slide_level:
            return features[0], None
        coords = np.array(self._coords[start:stop]) if self._coords is not None else None
        return features, coords
