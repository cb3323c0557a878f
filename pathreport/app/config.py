"""Typed configuration: the schema every Hydra composition is checked against.

Typed configs turn typos and wrong types into errors before any compute (``trainer.max_epoch=3``
or ``data.batch_size=big`` stop at once). The ``trainer`` node is generated from the signature of
Lightning's ``Trainer``, so every Trainer argument is reachable as ``trainer.<argument>=...``
without a ``+`` and without this file listing them.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from dataclasses import dataclass, field
from typing import Any

from omegaconf import MISSING

from pathreport.data.dataset import DEFAULT_MAX_REPORT_TOKENS
from pathreport.data.synthetic import SyntheticConfig
from pathreport.encoders import EncoderSpec
from pathreport.generation.decoding import DecodingConfig
from pathreport.generation.lit import VAL_LOSS


@dataclass
class TokenizerConfig:
    """Word-level tokenizer built from the training split.

    Attributes:
        min_count: a token needs this many occurrences in training reports to enter the vocabulary.
    """

    min_count: int = 3


@dataclass
class StreamLocation:
    """Where an extra input stream's files are (overrides TRIDENT's default location).

    Attributes:
        dir: folder of ``<slide_id>.h5`` files; relative paths are resolved against
            ``paths.features_dir``. None: TRIDENT's layout (``<coords folder>/features_<encoder>``
            for patch streams, ``<coords folder>/slide_features_<encoder>`` for slide streams,
            ``gecko/`` for concept streams).
    """

    dir: str | None = None


@dataclass
class DataConfig:
    """A dataset: where its files are, how its reports are cleaned, how slides are batched.

    Attributes:
        name: dataset name (joins ``data=<name>``, ``splits/<name>/``, ``crqs/<name>.yaml``).
        description: one line for ``pathreport list datasets``.
        cleaning: report style: ``reg`` (templated, keep case), ``pathology`` (free text:
            lower-case, drop list numbering), ``none``.
        max_report_tokens: longest report the decoder generates (and longest training target).
        splits: split file (paper-format JSON); None for the synthetic dataset.
        patch_size, magnification, overlap: the TRIDENT coords folder
            ``<mag>x_<patch>px_<overlap>px_overlap``; None takes the encoder's own.
        feature_subdir: explicit feature folder (relative to ``paths.features_dir``), overriding
            the TRIDENT layout.
        max_patches, patch_sampling: bag policy (see ``BagPolicy``).
        batch_size: slides per training batch (1 reproduces the reference setting).
        bucket_by_size: batch slides of similar bag size together (training: shuffled buckets;
            evaluation: sorted by size), which saves the compute spent on padding. Results do not
            depend on it (generators mask padding). Distributed runs use Lightning's sampler.
        eval_batch_size: slides per validation/test batch.
        num_workers: DataLoader worker processes that read feature files while the model computes,
            or ``auto``: none when the model trains on the CPU (workers would take its cores; see
            docs/data.md for the measurements), else up to 4 per GPU process, one core kept free.
            Workers are persistent and the batch order does not depend on their number.
        prefetch_factor: batches each worker prepares ahead (with workers). A batch of 8 slides
            of 10,000 patches x 1536 float32 is about 0.5 GB, so 4 workers x 2 hold about 4 GB.
        feature_cache: a folder (or ``true``: ``<paths.cache_dir>/features``) where each split's
            features are kept as float16 memory-mapped arrays, built on first use and rebuilt when
            the source files change; epochs then read no HDF5 (see docs/data.md). Null: off.
        on_missing: ``error`` (default) stops when a split's slide has no feature file and lists
            them; ``skip`` drops those slides and records them in the run's manifest.
        on_empty_bag: ``error`` (default) stops when a slide's feature file has no patches (no
            tissue found); ``skip`` drops those slides and records them in the run's manifest.
        patient_id_pattern: regex whose first group is the patient id of a slide id, for the
            patient-leakage check (TCGA: the first 12 characters of the barcode).
        tokenizer: tokenizer settings.
        streams: locations of the extra input streams a generator declares, by stream name, when
            they differ from TRIDENT's layout. (A generator's own settings, such as BiGen's
            knowledge bank or SCOUT's concept count, are ``model.<field>``, never ``data.*``.)
        crqs_schema: CRQS schema name (default: the dataset name).
        synthetic: generator settings (only for the synthetic dataset).
    """

    name: str = MISSING
    description: str = ""
    cleaning: str = "reg"
    max_report_tokens: int = DEFAULT_MAX_REPORT_TOKENS
    splits: str | None = None
    patch_size: int | None = None
    magnification: float | None = None
    overlap: int = 0
    feature_subdir: str | None = None
    max_patches: int | None = None
    patch_sampling: str = "first"
    batch_size: int = 8
    bucket_by_size: bool = True
    eval_batch_size: int = 16
    num_workers: str = "auto"
    prefetch_factor: int = 2
    feature_cache: str | None = None
    on_missing: str = "error"
    on_empty_bag: str = "error"
    patient_id_pattern: str | None = None
    tokenizer: TokenizerConfig = field(default_factory=TokenizerConfig)
    streams: dict[str, StreamLocation] = field(default_factory=dict)
    crqs_schema: str | None = None
    synthetic: SyntheticConfig | None = None


@dataclass
class OptimConfig:
    """AdamW with ReduceLROnPlateau on validation loss (the paper's runs: lr 7e-5, weight decay
    1e-5, plateau patience 3)."""

    lr: float = 7e-5
    weight_decay: float = 1e-5
    betas: tuple[float, float] = (0.9, 0.999)
    lr_factor: float = 0.5
    lr_patience: int = 3
    min_lr: float = 0.0


@dataclass
class CheckpointConfig:
    """Keep the best checkpoint by ``optimized_metric`` (val loss) and the last one for resuming."""

    save_top_k: int = 1
    save_last: bool = True


@dataclass
class EarlyStoppingConfig:
    """Stop when ``optimized_metric`` (validation loss) stalls for ``patience`` epochs (paper 7)."""

    enabled: bool = True
    patience: int = 7
    min_delta: float = 1e-5


@dataclass
class CallbacksConfig:
    """Lightning callbacks. ``extra`` takes user callbacks as ``{name: {_target_: ..., ...}}``."""

    checkpoint: CheckpointConfig = field(default_factory=CheckpointConfig)
    early_stopping: EarlyStoppingConfig = field(default_factory=EarlyStoppingConfig)
    progress_bar: str = "tqdm"
    lr_monitor: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class LoggerConfig:
    """Experiment logger.

    Attributes:
        kind: ``csv`` (metrics.csv in the run directory), ``wandb``, ``tensorboard`` or ``none``.
        project, entity, group, tags: W&B run placement (``WANDB_MODE=offline`` logs locally).
        log_tables: log predictions and per-case scores as W&B tables at test time.
    """

    kind: str = "csv"
    project: str = "pathreport"
    entity: str | None = None
    group: str | None = None
    tags: list[str] = field(default_factory=list)
    log_tables: bool = True


@dataclass
class PathsConfig:
    """Where things are.

    Attributes:
        features_dir: the TRIDENT job directory of the dataset (None for the synthetic dataset,
            which is generated into ``cache_dir``).
        cache_dir: generated data (the synthetic dataset, resources that generators build such as
            BiGen's default knowledge banks); None: the environment variable ``PATHREPORT_CACHE``,
            else ``$XDG_CACHE_HOME/pathreport``, else ``~/.cache/pathreport``.
        log_dir: root of run directories.
        output_dir: this run's directory (Hydra's).
    """

    features_dir: str | None = None
    cache_dir: str | None = None
    log_dir: str = "logs"
    output_dir: str = "${hydra:runtime.output_dir}"


def _trainer_fields() -> list[tuple[str, Any, Any]]:
    """One config field per argument of Lightning's ``Trainer``.

    Arguments with a simple type (int, float, bool, str, or Optional of one) keep it, so that
    ``trainer.max_epochs=abc`` fails at composition; union-typed ones (``devices``, ``precision``,
    ...) are ``Any`` and left to Lightning to check.
    """
    import typing

    from pytorch_lightning import Trainer

    simple = (int, float, bool, str)
    hints = typing.get_type_hints(Trainer.__init__)
    skip = {"self", "callbacks", "logger", "plugins", "default_root_dir"}
    out = []
    for name, param in inspect.signature(Trainer.__init__).parameters.items():
        if name in skip or param.kind in (param.VAR_KEYWORD, param.VAR_POSITIONAL):
            continue
        default = param.default
        if isinstance(default, (list, dict, tuple)) or not (
            default is None or isinstance(default, simple)
        ):
            default = None
        hint = hints.get(name, Any)
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if hint in simple:
            kind: Any = hint
        elif len(args) == 1 and args[0] in simple and type(None) in typing.get_args(hint):
            kind = typing.Optional[args[0]]  # noqa: UP045 (OmegaConf needs typing.Optional)
        else:
            kind = Any
        if default is None and kind in simple:
            kind = typing.Optional[kind]  # noqa: UP045
        out.append((name, kind, field(default=default)))
    return out


TrainerConfig = dataclasses.make_dataclass("TrainerConfig", _trainer_fields())
TrainerConfig.__doc__ = (
    "Lightning Trainer arguments (every one of them, generated from its signature)."
)


@dataclass
class EvaluationConfig:
    """Which report evaluators score the decoded split, and their options.

    Attributes:
        metrics: registered report evaluators (``pathreport list evaluators``), the same names
            as ``pathreport evaluate --metrics``.
        options: evaluator -> {option: value}, the same options as ``--option EVALUATOR.KEY=V``,
            e.g. ``eval.options={reg2025_score: {embedding_model: /models/biobert-v1.1}}``.
            Typed ``Any`` (None by default) because Hydra cannot add keys to a typed dict field.
    """

    metrics: list[str] = field(default_factory=lambda: ["nlg", "crqs"])
    options: Any = None


@dataclass
class CompileConfig:
    """``torch.compile`` of the generator's loss (encoder and teacher-forced decoder), in training
    and validation: ``python train.py compile.enabled=true``.

    Decoding stays eager (beam search changes shapes at every step). The bound ``loss`` method is
    compiled, not the module, so parameter names and checkpoints are those of an eager run. The
    first batches of each new shape compile: with the default backend (TorchInductor, which needs
    a C++ compiler on a CPU and Triton on a GPU) that takes minutes for a reference-size model on
    a CPU, so it pays off only for long runs.

    Attributes:
        enabled: compile (False: eager, the default).
        backend: a ``torch.compile`` backend: ``inductor`` (generates kernels), ``aot_eager``
            (traces forward and backward graphs and runs them with eager kernels: no compiler
            needed; checks that a model traces).
        mode: ``torch.compile`` mode (``default``, ``reduce-overhead``, ``max-autotune``); None:
            the backend's default.
        dynamic: compile for varying bag sizes from the start (None: after the first change).
    """

    enabled: bool = False
    backend: str = "inductor"
    mode: str | None = None
    dynamic: bool | None = None


@dataclass
class TrainConfig:
    """The whole configuration of ``train.py``.

    Attributes:
        task_name: names the run folder (``logs/<task_name>/...``).
        seed: seeds Python, NumPy, torch and the DataLoader workers.
        ckpt_path: resume training from this checkpoint (``last`` resumes the run's own last).
        train: fit the model (False: test ``ckpt_path`` only).
        test: decode and score the test split with the best checkpoint after training.
        optimized_metric: the one metric the run optimises: it picks the best checkpoint (and names
            its file), stops training early, drives the learning-rate schedule, and is the value
            returned to Hydra sweepers (e.g. optuna).
        optimized_mode: ``min`` or ``max``: which direction of ``optimized_metric`` is better.
        ckpt_trust: load ``ckpt_path`` even if it holds types a pathreport checkpoint never
            holds (the full unpickler may run code from the file: only for trusted files).
        overwrite: run in a folder that holds a finished run, deleting that run's results.
        compile: ``torch.compile`` of the generator's training and validation loss (see
            :class:`CompileConfig`).
    """

    task_name: str = "train"
    seed: int = 0
    ckpt_path: str | None = None
    ckpt_trust: bool = False
    overwrite: bool = False
    train: bool = True
    test: bool = True
    optimized_metric: str = VAL_LOSS
    optimized_mode: str = "min"
    compile: CompileConfig = field(default_factory=CompileConfig)
    data: DataConfig = MISSING
    model: Any = MISSING
    encoder: EncoderSpec = MISSING
    optim: OptimConfig = field(default_factory=OptimConfig)
    decoding: DecodingConfig = field(default_factory=DecodingConfig)
    trainer: TrainerConfig = field(default_factory=TrainerConfig)
    callbacks: CallbacksConfig = field(default_factory=CallbacksConfig)
    logger: LoggerConfig = field(default_factory=LoggerConfig)
    paths: PathsConfig = field(default_factory=PathsConfig)
    eval: EvaluationConfig = field(default_factory=EvaluationConfig)


def overrides_of(cls: type) -> type:
    """A dataclass with every field of ``cls``, each optional with default None ("keep the value
    already there"), so a partial override is checked against the real field names and types
    without a second list of them."""
    hints = typing.get_type_hints(cls)
    return dataclasses.make_dataclass(
        f"{cls.__name__}Overrides",
        [
            (f.name, typing.Optional[hints[f.name]], dataclasses.field(default=None))  # noqa: UP045 (runtime type)
            for f in dataclasses.fields(cls)
        ],
    )


#: ``eval.py``'s ``decoding.*``: settings that replace the checkpoint's (None keeps the
#: checkpoint's).
DecodingOverrides = overrides_of(DecodingConfig)


@dataclass
class EvalConfig:
    """The configuration of ``eval.py``: a checkpoint plus what to change for this evaluation.

    Attributes:
        ckpt_path: checkpoint written by ``train.py`` (it carries config and vocabulary).
        split: which split to decode and score.
        data: overrides merged into the checkpoint's data settings (e.g.
            ``+data.splits=other.json``).
        decoding: decoder settings that replace the checkpoint's (e.g. ``decoding.beam_size=1``);
            the fields of :class:`DecodingConfig`, checked by name and type.
        features_dir: TRIDENT job directory, if the features moved since training.
        ckpt_trust: load a checkpoint that holds types a pathreport checkpoint never holds (the
            full unpickler may run code from the file: only for trusted files).
        overwrite: write into a folder that holds a finished run, deleting its results.
    """

    task_name: str = "eval"
    ckpt_path: str = MISSING
    ckpt_trust: bool = False
    overwrite: bool = False
    split: str = "test"
    seed: int = 0
    features_dir: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    decoding: DecodingOverrides = field(default_factory=DecodingOverrides)  # type: ignore[valid-type]
    trainer: TrainerConfig = field(default_factory=TrainerConfig)
    callbacks: CallbacksConfig = field(default_factory=CallbacksConfig)
    logger: LoggerConfig = field(default_factory=lambda: LoggerConfig(kind="none"))
    paths: PathsConfig = field(default_factory=PathsConfig)
    eval: EvaluationConfig = field(default_factory=EvaluationConfig)


def register_configs() -> None:
    """Store the schemas in Hydra's ConfigStore (called before composition)."""
    from hydra.core.config_store import ConfigStore

    cs = ConfigStore.instance()
    cs.store(name="train_schema", node=TrainConfig)
    cs.store(name="eval_schema", node=EvalConfig)
