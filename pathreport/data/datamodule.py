"""The LightningDataModule: splits, feature files, tokenizer and loaders of one dataset.

Everything that decides *which* slides a model is evaluated on lives here and is written to the
run's manifest (split file and checksum, skipped slides and why, empty bags, truncated reports,
the evaluated set's fingerprint), because fairness across models depends on it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader

from pathreport import paths
from pathreport.data.dataset import (
    MAIN_STREAM,
    BagPolicy,
    Collator,
    FeatureSource,
    SizeBucketBatchSampler,
    SlideReportDataset,
)
from pathreport.data.feature_cache import SplitFeatureCache, cache_folder, cache_lock
from pathreport.data.predictions import evaluated_set_digest
from pathreport.data.resources import DatasetInfo
from pathreport.data.splits import SPLIT_NAMES, SplitEntry, Splits, fixed_split_record, load_splits
from pathreport.data.streams import StreamSpec
from pathreport.data.synthetic import CONCEPT_STREAM_DIR, SyntheticConfig, SyntheticDataset
from pathreport.data.text import TextTokenizer, Tokenizer
from pathreport.data.trident import FeatureFileError, read_shape
from pathreport.encoders import EncoderSpec, coords_folder
from pathreport.errors import ConfigError
from pathreport.registry import ENCODERS

log = logging.getLogger(__name__)


class MissingFeaturesError(FeatureFileError):
    """Slides listed in a split have no feature file."""


class ReportDataModule(pl.LightningDataModule):
    """Loads one dataset for one encoder (and the extra streams a generator declares).

    Args:
        data: the ``data`` config node (see ``pathreport.app.config.DataConfig``).
        encoder: the main stream's encoder spec.
        streams: extra inputs the generator declares (name -> StreamSpec).
        resource_factory: locates or builds the files the generator needs from this dataset,
            given the dataset's :class:`DatasetInfo` once the splits are read (a generator's
            ``dataset_resources`` hook; what it returns is :attr:`resources`).
        features_dir: the TRIDENT job directory (ignored for the synthetic dataset).
        cache_dir: where the synthetic dataset is generated.
        seed: seed for evaluation-time patch sampling and the training shuffle.
        tokenizer: an existing tokenizer (from a checkpoint); None builds one from the train split.
        tokenizer_factory: builds the tokenizer from the training reports instead of the shared
            word-level one, or returns None to keep that (a generator that brings its own, see
            ``ReportGenerator.build_tokenizer``).
        encoders: resolves encoder names of extra streams to specs.
    """

    def __init__(
        self,
        data: Any,
        encoder: EncoderSpec,
        *,
        streams: dict[str, StreamSpec] | None = None,
        resource_factory: Callable[[DatasetInfo], dict[str, str]] | None = None,
        features_dir: str | None = None,
        cache_dir: str | None = None,
        seed: int = 0,
        tokenizer: TextTokenizer | None = None,
        tokenizer_factory: Callable[[list[str]], TextTokenizer | None] | None = None,
    ) -> None:
        super().__init__()
        self.cfg = data
        self.encoder = encoder
        self.stream_specs = dict(streams or {})
        self.resource_factory = resource_factory
        self.resources: dict[str, str] = {}
        self._bag_sizes: dict[str, list[int]] = {}
        self._n_patches: dict[str, int] = {}
        self.features_dir = features_dir
        self.cache_dir = Path(cache_dir).expanduser() if cache_dir else paths.cache_dir()
        self.seed = seed
        self.tokenizer = tokenizer
        self.tokenizer_factory = tokenizer_factory
        self.splits: Splits | None = None
        self.sources: list[FeatureSource] = []
        self.datasets: dict[str, SlideReportDataset] = {}
        self.manifest: dict[str, Any] = {}
        self._synthetic: SyntheticDataset | None = None
        for option in ("on_missing", "on_empty_bag"):
            if data.get(option, "error") not in ("error", "skip"):
                raise ConfigError(
                    f"data.{option} must be error or skip, found {data.get(option)!r}."
                )
        if data.synthetic is None and data.splits is None:
            raise ValueError(
                f"Dataset '{data.name}' has no split file: set data.splits=<split JSON> "
                "(and paths.features_dir=<TRIDENT job directory>)."
            )

    # -- synthetic -----------------------------------------------------------------------------
    @property
    def synthetic(self) -> SyntheticDataset | None:
        if self.cfg.synthetic is None:
            return None
        if self._synthetic is None:
            syn = self.cfg.synthetic
            cfg = syn if isinstance(syn, SyntheticConfig) else SyntheticConfig(**dict(syn))
            root = self.cache_dir / "synthetic"
            self._synthetic = SyntheticDataset(root, cfg)
        return self._synthetic

    def prepare_data(self) -> None:
        """Write the synthetic dataset's files if needed (Lightning calls this on one process)."""
        if self.synthetic is not None:
            encoders = [self.encoder] + [
                self._stream_encoder(n, s) for n, s in self.stream_specs.items() if s.encoder
            ]
            needs_concepts = any(s.kind == "concept" for s in self.stream_specs.values())
            self.synthetic.ensure(encoders, concepts=needs_concepts)

    # -- setup ---------------------------------------------------------------------------------
    def setup(self, stage: str | None = None) -> None:
        if self.splits is not None:
            return
        self.prepare_data()  # idempotent; makes the module usable without a Trainer
        split_path = (
            self.synthetic.split_file if self.synthetic else Path(self.cfg.splits).expanduser()
        )
        self.splits = load_splits(split_path, patient_id_pattern=self.cfg.patient_id_pattern)
        self.sources = self._resolve_sources()
        skipped = self._check_files()
        if self.tokenizer is None and self.tokenizer_factory is not None:
            self.tokenizer = self.tokenizer_factory([e.report for e in self.splits.train])
        if self.tokenizer is None:
            self.tokenizer = Tokenizer.build(
                [e.report for e in self.splits.train],
                style=self.cfg.cleaning,
                min_count=self.cfg.tokenizer.min_count,
            )
        bag = BagPolicy(self.cfg.max_patches, self.cfg.patch_sampling)
        for name in SPLIT_NAMES:
            entries = [e for e in self.splits[name] if e.id not in skipped]
            self.datasets[name] = SlideReportDataset(
                entries,
                self.sources,
                self.tokenizer,
                max_report_tokens=self.cfg.max_report_tokens,
                bag=bag,
                train=name == "train",
                seed=self.seed,
                caches=self._feature_caches(name, entries),
            )
        if not self.datasets["train"].entries:
            raise ValueError(
                f"The train split of '{self.cfg.name}' is empty after removing slides "
                "without features."
            )
        if self.resource_factory is not None:
            self.resources = dict(self.resource_factory(self._dataset_info(split_path)))
        self.manifest = self._manifest(split_path, skipped)

    def _dataset_info(self, split_path: Path) -> DatasetInfo:
        assert self.splits is not None
        return DatasetInfo(
            name=self.cfg.name,
            split_file=split_path,
            train_reports=tuple(e.report for e in self.splits.train),
            cache_dir=self.cache_dir,
            generated_dir=self.synthetic.dir if self.synthetic is not None else None,
        )

    def feature_cache_root(self) -> Path | None:
        """The folder of ``data.feature_cache`` (None: the cache is off)."""
        value = self.cfg.get("feature_cache")
        if value is None or str(value).strip().lower() in ("", "false", "none", "null", "off"):
            return None
        if str(value).strip().lower() in ("true", "on", "auto"):
            return self.cache_dir / "features"
        return Path(str(value)).expanduser()

    def _feature_caches(
        self, split: str, entries: list[SplitEntry]
    ) -> dict[str, SplitFeatureCache]:
        """Each stream's float16 cache of ``split``: checked against the sources, made if needed."""
        root = self.feature_cache_root()
        if root is None or not entries:
            return {}
        caches = {}
        for source in self.sources:
            main = source.name == MAIN_STREAM
            cache = SplitFeatureCache(
                folder=cache_folder(root, self.cfg.name, source.name, source.folder, source.key),
                split=split,
                ids=[e.id for e in entries],
                sources=[source.path(e.id) for e in entries],
                key=source.key,
                dim=source.dim,
                slide_level=not source.per_patch,
                with_coords=main,
            )
            with cache_lock(cache.folder):
                cache.ensure()
            caches[source.name] = cache
        return caches

    def _stream_encoder(self, name: str, spec: StreamSpec) -> EncoderSpec:
        try:
            return ENCODERS[spec.encoder]
        except KeyError as err:
            raise ValueError(f"Stream '{name}' names encoder '{spec.encoder}': {err}") from None

    def _job_dir(self) -> Path:
        if self.synthetic is not None:
            return self.synthetic.job_dir
        if not self.features_dir:
            raise ValueError(
                f"Dataset '{self.cfg.name}' needs its TRIDENT job directory: set "
                "paths.features_dir=<dir> (the folder that contains "
                "<mag>x_<patch>px_<overlap>px_overlap/)."
            )
        return Path(self.features_dir).expanduser()

    def _coords_dir(self, job: Path, spec: EncoderSpec) -> Path:
        from pathreport.data import synthetic

        if self.synthetic is not None:
            return job / coords_folder(synthetic.MAGNIFICATION, synthetic.PATCH_SIZE, 0)
        return job / coords_folder(
            self.cfg.magnification if self.cfg.magnification is not None else spec.magnification,
            self.cfg.patch_size
            if self.cfg.patch_size is not None
            else (spec.patch_size or self.encoder.patch_size),
            self.cfg.overlap,
        )

    def _resolve_sources(self) -> list[FeatureSource]:
        job = self._job_dir()
        if self.cfg.feature_subdir:
            main_dir = job / self.cfg.feature_subdir
        else:
            main_dir = self._coords_dir(job, self.encoder) / self.encoder.feature_folder
        sources = [
            FeatureSource(
                MAIN_STREAM,
                main_dir,
                "patch",
                "features",
                self.encoder.embedding_dim,
                f"encoder {self.encoder.name}",
            )
        ]
        locations = self.cfg.streams or {}
        for name, spec in self.stream_specs.items():
            override = locations.get(name)
            folder = (
                Path(override.dir if not isinstance(override, dict) else override["dir"])
                if override
                else None
            )
            if folder is not None and not folder.is_absolute():
                folder = job / folder
            dim = None
            origin = f"stream '{name}'"
            if spec.kind in ("patch", "slide"):
                enc = self._stream_encoder(name, spec)
                dim = enc.embedding_dim
                origin += f" (encoder {enc.name})"
                if folder is None:
                    folder = self._coords_dir(job, enc) if spec.kind == "slide" else main_dir.parent
                    folder = folder / enc.feature_folder
            elif spec.kind == "concept":
                folder = folder or job / CONCEPT_STREAM_DIR
                dim = spec.dim
            else:
                raise ValueError(
                    f"Stream '{name}' has unknown kind {spec.kind!r} (patch, slide or concept)."
                )
            sources.append(FeatureSource(name, folder, spec.kind, spec.key, dim, origin))
        return sources

    def _check_files(self) -> dict[str, str]:
        """Every slide of every split has a readable file of the right shape in every stream,
        checked from HDF5 metadata before any compute; returns skipped id -> reason."""
        assert self.splits is not None
        missing: dict[str, list[str]] = {}
        skipped: dict[str, str] = {}
        for source in self.sources:
            if not source.folder.is_dir():
                stream_dir = (
                    f", or data.streams.{source.name}.dir" if source.name != MAIN_STREAM else ""
                )
                raise MissingFeaturesError(
                    f"Feature folder {source.folder} for {source.origin} does not exist. Check "
                    "paths.features_dir (the TRIDENT job directory), the encoder, and "
                    f"data.patch_size/magnification/overlap{stream_dir}."
                )
            present = {p.stem for p in source.folder.glob("*.h5")}
            for name in SPLIT_NAMES:
                for entry in self.splits[name]:
                    if entry.id not in present:
                        missing.setdefault(source.name, []).append(entry.id)
                        skipped.setdefault(entry.id, f"no {source.origin} file in {source.folder}")
        if missing and self.cfg.on_missing != "skip":
            lines = []
            for stream, ids in missing.items():
                folder = next(s.folder for s in self.sources if s.name == stream)
                lines.append(
                    f"  {stream} ({folder}): {len(ids)} missing, e.g. {', '.join(ids[:10])}"
                )
            raise MissingFeaturesError(
                "Slides listed in the split have no feature file:\n"
                + "\n".join(lines)
                + "\nExtract their features with TRIDENT, fix paths.features_dir, or set "
                "data.on_missing=skip to drop them (they are then listed in the run's manifest)."
            )
        ids = [e.id for name in SPLIT_NAMES for e in self.splits[name] if e.id not in skipped]
        self._n_patches = self._check_shapes(ids)
        empty = [i for i in ids if self._n_patches[i] == 0]
        if empty and self.cfg.on_empty_bag != "skip":
            main = self.sources[0]
            raise FeatureFileError(
                f"{len(empty)} slide(s) have no tissue patches (N = 0 in {main.folder}), "
                f"e.g. {', '.join(empty[:10])}: a report generated from no patches is a guess. "
                "Re-run TRIDENT's segmentation for them, remove them from the split, or set "
                "data.on_empty_bag=skip to drop them (they are then listed in the run's "
                "manifest)."
            )
        for slide_id in empty:
            skipped[slide_id] = f"no tissue patches (N = 0) in {self.sources[0].folder}"
        return skipped

    def _check_shapes(self, ids: list[str]) -> dict[str, int]:
        """Read every file's shapes from its metadata (cheap: no features are loaded) and check the
        dimension of every stream and the patch count of per-patch streams; returns id -> N."""
        main = self.sources[0]
        n_patches = {
            i: read_shape(main.path(i), expected_dim=main.dim, key=main.key)[0] for i in ids
        }
        for source in self.sources[1:]:
            for slide_id in ids:
                shape = read_shape(
                    source.path(slide_id),
                    expected_dim=source.dim,
                    key=source.key,
                    slide_level=not source.per_patch,
                )
                if source.dim is None:  # a concept stream learns its dimension from the first file
                    source.dim = shape[-1]
                if source.per_patch and shape[0] != n_patches[slide_id]:
                    raise FeatureFileError(
                        f"{source.path(slide_id)}: stream '{source.name}' has {shape[0]} patches "
                        f"but the main features ({main.path(slide_id)}) "
                        f"have {n_patches[slide_id]}; both must come from the same patch "
                        "coordinates."
                    )
        return n_patches

    def _manifest(self, split_path: Path, skipped: dict[str, str]) -> dict[str, Any]:
        assert self.splits is not None and self.tokenizer is not None
        record = None if self.synthetic else fixed_split_record(self.cfg.name)
        matches = None
        if record and record.get("sha256"):
            matches = record["sha256"] == self.splits.sha256
            if not matches:
                log.warning(
                    "%s is not the benchmark's fixed %s split (%s); results are not comparable "
                    "with the benchmark's tables.",
                    split_path,
                    self.cfg.name,
                    record.get("source"),
                )
        out: dict[str, Any] = {
            "dataset": self.cfg.name,
            "split_file": str(split_path),
            "split_sha256": self.splits.sha256,
            "split_is_benchmark_split": matches,
            "encoder": self.encoder.name,
            "feature_dirs": {s.name: str(s.folder) for s in self.sources},
            "feature_cache": {
                name: str(c.folder) for name, c in self.datasets["train"].caches.items()
            }
            or None,
            "stream_dims": self.stream_dims,
            "tokenizer": {
                "size": len(self.tokenizer),
                "style": self.tokenizer.style,
                "kind": getattr(self.tokenizer, "kind", "word"),
                "min_count": self.cfg.tokenizer.min_count,
                "built_from": "train",
            },
            "max_report_tokens": self.cfg.max_report_tokens,
            "splits": {},
        }
        for name in SPLIT_NAMES:
            ds = self.datasets[name]
            out["splits"][name] = {
                "listed": len(self.splits[name]),
                "used": len(ds),
                "skipped": {e.id: skipped[e.id] for e in self.splits[name] if e.id in skipped},
                "truncated_reports": ds.truncated,
                "evaluated_set": evaluated_set_digest(ds.ids),
            }
        return out

    # -- accessors ----------------------------------------------------------------------------
    @property
    def feature_dim(self) -> int:
        return self.encoder.embedding_dim

    @property
    def stream_dims(self) -> dict[str, int]:
        return {s.name: int(s.dim) for s in self.sources[1:] if s.dim is not None}

    def split_entries(self, split: str) -> list[SplitEntry]:
        return self.datasets[split].entries

    # -- loaders ------------------------------------------------------------------------------
    def _on_gpu(self) -> bool:
        trainer = getattr(self, "trainer", None)
        if trainer is None:
            return torch.cuda.is_available()
        return trainer.strategy.root_device.type == "cuda"

    def num_workers(self) -> int:
        """Loader worker processes: ``data.num_workers``, or for ``auto`` none when the model runs
        on the CPU (workers would compete with it for the cores) and otherwise up to 4 per GPU
        process, keeping one core of the process's share free for the training loop."""
        value = str(self.cfg.num_workers).strip().lower()
        if value != "auto":
            try:
                workers = int(value)
            except ValueError:
                workers = -1
            if workers < 0:
                raise ConfigError(
                    f"data.num_workers must be a number of worker processes (0 or more) or auto, "
                    f"found {self.cfg.num_workers!r}."
                )
            return workers
        if not self._on_gpu():
            return 0
        trainer = getattr(self, "trainer", None)
        processes = (
            max(1, int(getattr(trainer, "num_devices", 1) or 1)) if trainer is not None else 1
        )
        return max(0, min(4, (os.cpu_count() or 1) // processes - 1))

    def _loader(self, split: str, *, shuffle: bool, batch_size: int) -> DataLoader:
        workers = self.num_workers()
        common: dict[str, Any] = {
            "collate_fn": Collator(self.sources, self.tokenizer.pad_id),
            "num_workers": workers,
            "pin_memory": self._on_gpu(),
        }
        if workers:
            common.update(
                persistent_workers=True, prefetch_factor=int(self.cfg.get("prefetch_factor", 2))
            )
        trainer = getattr(self, "trainer", None)
        distributed = trainer is not None and trainer.world_size > 1
        if self.cfg.bucket_by_size and not distributed:
            sampler = SizeBucketBatchSampler(self.bag_sizes(split), batch_size, shuffle=shuffle)
            return DataLoader(self.datasets[split], batch_sampler=sampler, **common)
        # Distributed runs keep Lightning's DistributedSampler (it shards a plain sampler).
        return DataLoader(self.datasets[split], batch_size=batch_size, shuffle=shuffle, **common)

    def bag_sizes(self, split: str) -> list[int]:
        """Patches per slide after the bag policy, from the shapes checked at setup."""
        if split not in self._bag_sizes:
            limit = None if self.cfg.patch_sampling == "all" else self.cfg.max_patches
            counts = [self._n_patches[e.id] for e in self.datasets[split].entries]
            self._bag_sizes[split] = [max(1, min(n, limit) if limit else n) for n in counts]
        return self._bag_sizes[split]

    def train_dataloader(self) -> DataLoader:
        return self._loader("train", shuffle=True, batch_size=self.cfg.batch_size)

    def val_dataloader(self) -> DataLoader:
        return self._loader("val", shuffle=False, batch_size=self.cfg.eval_batch_size)

    def test_dataloader(self) -> DataLoader:
        return self._loader(self.eval_split, shuffle=False, batch_size=self.cfg.eval_batch_size)

    def fit_loader(self) -> DataLoader:
        """The training split in a fixed order, for fitting retrieval baselines."""
        return self._loader("train", shuffle=False, batch_size=self.cfg.eval_batch_size)

    eval_split: str = "test"
