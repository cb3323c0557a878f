"""What ``train.py`` and ``eval.py`` do, as functions of a composed config.

``train``: seed, build the data module (tokenizer from the training split), build the generator,
fit with Lightning (or fit a retrieval baseline), reload the best checkpoint by validation loss,
decode the test split with the shared decoder, write predictions, then score them with the
evaluation function. ``evaluate_checkpoint``: the same test stage from a checkpoint alone.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

import pytorch_lightning as pl
import torch
from omegaconf import DictConfig, OmegaConf

from pathreport import __version__
from pathreport.app.run_folder import RunFolder, check_writable
from pathreport.data.datamodule import ReportDataModule
from pathreport.data.predictions import run_identity
from pathreport.data.text import TextTokenizer
from pathreport.data.tokenizer_state import tokenizer_from_state, tokenizer_state
from pathreport.errors import CheckpointError, ConfigError, RunInterrupted
from pathreport.evaluation.evaluate import evaluate_records, write_evaluation
from pathreport.generation.checkpoints import load_checkpoint
from pathreport.generation.decoding import report_length
from pathreport.generation.generator import GeneratorContext, typed_generator_config
from pathreport.generation.lit import ReportModule, module_from_checkpoint
from pathreport.io import write_json
from pathreport.registry import GENERATORS

log = logging.getLogger("pathreport")


def run_dir(cfg: DictConfig) -> Path:
    """The run folder, created and checked writable before anything else happens."""
    out = Path(cfg.paths.output_dir)
    check_writable(out, option="hydra.run.dir=<folder>")
    return out


def build_datamodule(
    cfg: DictConfig,
    generator_cls: type,
    tokenizer: TextTokenizer | None = None,
    *,
    resources: bool = True,
) -> ReportDataModule:
    """The data module for ``generator_cls`` under ``cfg``: the streams, tokenizer and dataset
    resources come from the generator's hooks (see
    :class:`pathreport.generation.generator.ReportGenerator`).

    ``resources=False`` skips the resources hook, for a generator restored from a checkpoint,
    which carries what it built from them (BiGen's bank).
    """
    from functools import partial

    from pathreport.encoders import EncoderSpec

    encoder = EncoderSpec(**OmegaConf.to_container(cfg.encoder, resolve=True))
    streams = getattr(generator_cls, "streams", {})
    factory = resource_factory = None
    if hasattr(generator_cls, "input_streams"):  # a ReportGenerator: its configuration decides
        model_cfg = typed_generator_config(cfg.model)
        streams = generator_cls.input_streams(model_cfg)
        factory = partial(generator_cls.build_tokenizer, model_cfg, style=cfg.data.cleaning)
        if resources:
            resource_factory = partial(generator_cls.dataset_resources, model_cfg)
    return ReportDataModule(
        cfg.data,
        encoder,
        streams=streams,
        resource_factory=resource_factory,
        features_dir=cfg.paths.features_dir,
        cache_dir=cfg.paths.cache_dir,
        seed=cfg.seed,
        tokenizer=tokenizer,
        tokenizer_factory=factory,
    )


def build_callbacks(cfg: DictConfig, out: Path, trainable: bool) -> list[pl.Callback]:
    from hydra.utils import instantiate
    from pytorch_lightning.callbacks import (
        EarlyStopping,
        LearningRateMonitor,
        ModelCheckpoint,
        RichProgressBar,
        TQDMProgressBar,
    )

    cb = cfg.callbacks
    callbacks: list[pl.Callback] = []
    if trainable:
        metric, mode = cfg.optimized_metric, cfg.optimized_mode
        if mode not in ("min", "max"):
            raise ConfigError(
                f"optimized_mode must be min or max, found {mode!r} (optimized_metric={metric})."
            )
        callbacks.append(
            ModelCheckpoint(
                dirpath=out / "checkpoints",
                filename=f"best-{{epoch:03d}}-{{{metric}:.4f}}",
                monitor=metric,
                mode=mode,
                save_top_k=cb.checkpoint.save_top_k,
                save_last=cb.checkpoint.save_last,
                auto_insert_metric_name=False,
            )
        )
        if cb.early_stopping.enabled:
            callbacks.append(
                EarlyStopping(
                    monitor=metric,
                    mode=mode,
                    patience=cb.early_stopping.patience,
                    min_delta=cb.early_stopping.min_delta,
                )
            )
        if cb.lr_monitor and cfg.logger.kind != "none":
            callbacks.append(LearningRateMonitor(logging_interval="epoch"))
    if cb.progress_bar == "rich":
        callbacks.append(RichProgressBar())
    elif cb.progress_bar == "tqdm":
        callbacks.append(TQDMProgressBar(refresh_rate=1))
    elif cb.progress_bar != "none":
        raise ValueError(
            f"callbacks.progress_bar must be tqdm, rich or none, found {cb.progress_bar!r}."
        )
    for name, node in (cb.extra or {}).items():
        if node is not None:
            log.info("Adding callback %s", name)
            callbacks.append(instantiate(node))
    return callbacks


def build_logger(cfg: DictConfig, out: Path) -> Any:
    lg = cfg.logger
    if lg.kind == "none":
        return False
    if lg.kind == "csv":
        from pytorch_lightning.loggers import CSVLogger

        return CSVLogger(save_dir=str(out), name="csv", version="")
    if lg.kind == "tensorboard":
        from pytorch_lightning.loggers import TensorBoardLogger

        return TensorBoardLogger(save_dir=str(out), name="tensorboard", version="")
    if lg.kind == "wandb":
        try:
            from pytorch_lightning.loggers import WandbLogger
        except ImportError as err:  # pragma: no cover
            raise ImportError("logger=wandb needs wandb: pip install 'pathreport[wandb]'") from err
        run = run_identity(cfg)
        name = f"{run['dataset']}-{run['model']}-{run['encoder']}-s{cfg.seed}"
        return WandbLogger(
            project=lg.project,
            entity=lg.entity,
            group=lg.group,
            tags=list(lg.tags),
            name=name,
            save_dir=str(out),
            config=OmegaConf.to_container(cfg, resolve=True),
        )
    raise ValueError(f"logger.kind must be csv, wandb, tensorboard or none, found {lg.kind!r}.")


def build_trainer(
    cfg: DictConfig, out: Path, callbacks: list[pl.Callback], logger: Any
) -> pl.Trainer:
    kwargs = {
        k: v for k, v in OmegaConf.to_container(cfg.trainer, resolve=True).items() if v is not None
    }
    kwargs.setdefault(
        "enable_checkpointing", any(type(c).__name__ == "ModelCheckpoint" for c in callbacks)
    )
    if cfg.get("callbacks", {}).get("progress_bar") == "none":
        kwargs["enable_progress_bar"] = False
    if kwargs.get("enable_progress_bar") is False:  # trainer.enable_progress_bar=false wins
        from pytorch_lightning.callbacks import ProgressBar

        callbacks = [c for c in callbacks if not isinstance(c, ProgressBar)]
    return pl.Trainer(default_root_dir=str(out), callbacks=callbacks, logger=logger, **kwargs)


def generator_context(cfg: DictConfig, dm: ReportDataModule) -> dict[str, Any]:
    assert dm.tokenizer is not None
    ctx = GeneratorContext(
        vocab_size=len(dm.tokenizer),
        feature_dim=dm.feature_dim,
        pad_id=dm.tokenizer.pad_id,
        bos_id=dm.tokenizer.bos_id,
        eos_id=dm.tokenizer.eos_id,
        unk_id=dm.tokenizer.unk_id,
        stream_dims=dm.stream_dims,
        max_report_tokens=report_length(cfg.decoding, cfg.data.max_report_tokens),
        resources=dict(dm.resources),
    )
    return {k: v for k, v in dataclasses.asdict(ctx).items() if k != "tokenizer"}  # stored apart


def train(cfg: DictConfig) -> dict[str, Any]:
    """Train, test and score one configuration; returns the test summary (plus the best value of
    ``optimized_metric``, under its name).

    The run first claims its folder (see :mod:`pathreport.app.run_folder`): a folder held by a live
    run, or holding a finished one, is refused before any data is read. ``run.json`` then says
    ``running`` until the run ends as ``completed``, ``interrupted`` or ``failed``.
    """
    if cfg.test:
        check_evaluation(cfg)  # a typo in eval.metrics fails before the folder or any compute
    out = run_dir(cfg)
    folder = RunFolder(out) if _is_rank_zero() else None  # DDP: rank 0 owns the folder
    if folder is not None:
        folder.acquire()
    try:
        return _train(cfg, out, folder)
    finally:
        if folder is not None:
            folder.release()


def _train(cfg: DictConfig, out: Path, folder: RunFolder | None) -> dict[str, Any]:
    started = time.time()
    entry = GENERATORS.get(cfg.model.name)
    trainable = bool(getattr(entry.obj, "trainable", True))
    if not cfg.train and not cfg.ckpt_path:
        raise ConfigError("train=false needs ckpt_path=<checkpoint> to test.")

    resume_tokenizer = None
    ckpt_file = None
    if cfg.ckpt_path:
        ckpt_file = _resolve_ckpt(cfg.ckpt_path, out, cfg.seed)
        cfg.ckpt_path = str(ckpt_file)
        saved = _pathreport_hparams(load_checkpoint(ckpt_file, trust=cfg.ckpt_trust), ckpt_file)
        _check_same_model(saved, cfg.model.name, ckpt_file)
        resume_tokenizer = tokenizer_from_state(saved["vocab"], style=cfg.data.cleaning)
    if folder is not None:
        resuming = ckpt_file is not None and out.resolve() in ckpt_file.resolve().parents
        folder.claim(overwrite=cfg.overwrite, resuming=resuming, what=_identity(cfg))

    pl.seed_everything(cfg.seed, workers=True)
    trainer = None
    try:
        dm = build_datamodule(cfg, entry.obj, tokenizer=resume_tokenizer)
        dm.setup("fit")
        config = OmegaConf.to_container(cfg, resolve=True)
        module = ReportModule(config, tokenizer_state(dm.tokenizer), generator_context(cfg, dm))
        if folder is not None:  # every DDP process runs this function; one writes the run's files
            write_json(out / "manifest.json", dm.manifest)
            OmegaConf.save(cfg, out / "config.yaml", resolve=True)
        n_params = sum(p.numel() for p in module.generator.parameters())
        log.info(
            "Generator %s: %.2fM parameters; vocabulary %d; train/val/test slides %d/%d/%d",
            cfg.model.name,
            n_params / 1e6,
            len(dm.tokenizer),
            *(len(dm.datasets[s]) for s in ("train", "val", "test")),
        )

        callbacks = build_callbacks(cfg, out, trainable)
        logger = build_logger(cfg, out)
        trainer = build_trainer(cfg, out, callbacks, logger)
        best_path: str | None = None
        best_score = None
        if trainable and cfg.train:
            trainer.fit(
                module, datamodule=dm, ckpt_path=cfg.ckpt_path, weights_only=not cfg.ckpt_trust
            )
            ckpt_cb = trainer.checkpoint_callback
            best_path = getattr(ckpt_cb, "best_model_path", "") or None
            if best_path is None:
                best_path = str(out / "checkpoints" / "final.ckpt")
                trainer.save_checkpoint(best_path)
            score = getattr(ckpt_cb, "best_model_score", None)
            best_score = float(score) if score is not None else None
            module = module_from_checkpoint(best_path)
        elif not trainable:
            module.generator.fit(dm.fit_loader())
            best_path = str(out / "checkpoints" / "baseline.ckpt")
            _save_baseline_checkpoint(module, best_path)
        else:
            module = module_from_checkpoint(cfg.ckpt_path, trust=cfg.ckpt_trust)
            best_path = cfg.ckpt_path

        summary: dict[str, Any] = {"best_checkpoint": best_path, cfg.optimized_metric: best_score}
        if cfg.test:
            summary.update(test_and_score(cfg, module, dm, trainer, out, logger))
    except (SystemExit, KeyboardInterrupt) as stop:  # Lightning's SIGTERM and Ctrl-C handling
        raise _interrupted(folder, out, trainer, stop) from None
    except BaseException as err:
        if folder is not None:
            folder.finish("failed", error=f"{type(err).__name__}: {err}")
        raise
    summary["wall_seconds"] = round(time.time() - started, 1)
    if folder is not None:
        folder.finish("completed", pathreport_version=__version__, **summary)
    _close_logger(logger)
    return summary


def evaluator_options(cfg: DictConfig) -> dict[str, dict[str, Any]]:
    """``eval.options`` as plain dicts (what :func:`evaluate_records` takes)."""
    options = cfg.eval.get("options")
    if not options:
        return {}
    if not OmegaConf.is_dict(options) or not all(
        v is None or OmegaConf.is_dict(v) for v in options.values()
    ):
        from pathreport.errors import ConfigError

        raise ConfigError(
            f"eval.options must map evaluator -> {{option: value}}, found {options!r:.80}; "
            "e.g. eval.options={rouge: {stemming: false}}."
        )
    return {
        name: dict(OmegaConf.to_container(values, resolve=True) or {}) if values is not None else {}
        for name, values in options.items()
    }


def check_evaluation(cfg: DictConfig) -> None:
    """Fail before any compute when ``eval.metrics`` or ``eval.options`` name something unknown."""
    from pathreport.evaluation.options import check_selection

    check_selection(list(cfg.eval.metrics), evaluator_options(cfg))


def _identity(cfg: DictConfig) -> dict[str, Any]:
    """What ``run.json`` says about the run before it has results."""
    return {
        "pathreport_version": __version__,
        "task": cfg.task_name,
        "model": cfg.get("model", {}).get("name"),
        "encoder": cfg.get("encoder", {}).get("name"),
        "dataset": cfg.get("data", {}).get("name"),
        "seed": cfg.seed,
    }


def _interrupted(
    folder: RunFolder | None, out: Path, trainer: Any, stop: BaseException
) -> RunInterrupted:
    """Record an interruption in ``run.json`` and build the error that ends the process non-zero."""
    from pytorch_lightning.utilities.exceptions import SIGTERMException

    sigterm = isinstance(stop, SIGTERMException) or getattr(trainer, "received_sigterm", False)
    signal_name = (
        "SIGTERM"
        if sigterm
        else "Ctrl-C"
        if isinstance(stop, KeyboardInterrupt)
        else type(stop).__name__
    )
    last = out / "checkpoints" / "last.ckpt"
    epoch = getattr(trainer, "current_epoch", None)
    if folder is not None:
        folder.finish(
            "interrupted",
            stopped_by=signal_name,
            epoch=epoch,
            last_checkpoint=str(last) if last.is_file() else None,
        )
    if trainer is None:  # eval.py: nothing to resume, the checkpoint is untouched
        return RunInterrupted(f"Evaluation stopped by {signal_name} in {out}; run it again.")
    kept = (
        f"{last} is kept; resume with ckpt_path=last hydra.run.dir={out}"
        if last.is_file()
        else "no checkpoint had been written yet; run again"
    )
    return RunInterrupted(f"Run stopped by {signal_name} during epoch {epoch} in {out}: {kept}.")


def _pathreport_hparams(checkpoint: dict[str, Any], path: Path) -> dict[str, Any]:
    hparams = checkpoint.get("hyper_parameters") if isinstance(checkpoint, dict) else None
    if not isinstance(hparams, dict) or not {"config", "vocab", "context"} <= set(hparams):
        raise CheckpointError(
            f"{path} is not a pathreport checkpoint: it has no config, vocabulary and generator "
            "context. Use a .ckpt file written by train.py."
        )
    return hparams


def _check_same_model(hparams: dict[str, Any], model: str, path: Path) -> None:
    saved = (hparams.get("config", {}).get("model") or {}).get("name")
    if saved and saved != model:
        raise CheckpointError(
            f"{path}: this checkpoint is a {saved} model, the config asks for {model}. "
            f"Pass model={saved}, or a {model} checkpoint."
        )


def test_and_score(
    cfg: DictConfig,
    module: ReportModule,
    dm: ReportDataModule,
    trainer: pl.Trainer,
    out: Path,
    logger: Any = None,
    split: str = "test",
) -> dict[str, Any]:
    """Decode ``split``, write ``predictions/<split>.jsonl``, then score it into ``metrics/``."""
    dm.eval_split = split
    module.predictions_path = out / "predictions" / f"{split}.jsonl"
    module.expected_ids = dm.datasets[split].ids
    trainer.test(module, datamodule=dm, verbose=False)
    if not trainer.is_global_zero:
        return {}
    result = evaluate_records(
        module.records,
        dataset=cfg.data.crqs_schema or cfg.data.name,
        metrics=list(cfg.eval.metrics),
        options=evaluator_options(cfg),
    )
    result.summary.update(
        {
            **run_identity(cfg),
            "split": split,
            "seed": int(cfg.seed),
            "decoding": OmegaConf.to_container(cfg.decoding),
        }
    )
    write_evaluation(
        result,
        out / "metrics",
        summary_name=f"{split}.json",
        per_case_name=f"{split}_per_case.jsonl",
        table_prefix=f"{split}_",
    )
    _log_results(logger, result, module.records, split)
    shown = {k: v for k, v in result.summary.items() if isinstance(v, float)}
    log.info("%s metrics: %s", split, json.dumps({k: round(v, 4) for k, v in shown.items()}))
    for metric, reason in result.unavailable.items():
        log.warning("%s unavailable: %s", metric, reason)
    return {k: v for k, v in result.summary.items() if k != "decoding"}


def _log_results(logger: Any, result: Any, records: list, split: str) -> None:
    """Send the summary (and, for W&B, predictions and per-case scores as tables) to the logger."""
    if not logger:
        return
    metrics = {
        f"{split}/{k}": v
        for k, v in result.summary.items()
        if isinstance(v, (int, float)) and not isinstance(v, bool)
    }
    logger.log_metrics(metrics)
    if type(logger).__name__ == "WandbLogger":
        columns = ["id", "reference", "prediction"]
        logger.log_table(
            key=f"{split}/predictions",
            columns=columns,
            data=[[r.id, r.reference, r.prediction] for r in records],
        )
        keys = sorted(
            {
                k
                for case in result.per_case.values()
                for k, v in case.items()
                if isinstance(v, (int, float))
            }
        )
        logger.log_table(
            key=f"{split}/per_case",
            columns=["id", *keys],
            data=[
                [cid, *(case.get(k) for k in keys)] for cid, case in sorted(result.per_case.items())
            ],
        )


def evaluate_checkpoint(cfg: DictConfig) -> dict[str, Any]:
    """``eval.py``: decode and score a split again from a checkpoint alone, in a folder it claims
    as ``train`` does (never one holding another run's results, unless ``overwrite=true``)."""
    check_evaluation(cfg)
    out = run_dir(cfg)
    folder = RunFolder(out) if _is_rank_zero() else None
    if folder is not None:
        folder.acquire()
    try:
        module = module_from_checkpoint(cfg.ckpt_path, trust=cfg.ckpt_trust)
        if folder is not None:
            folder.claim(
                overwrite=cfg.overwrite,
                resuming=False,
                what={
                    **_identity(module.cfg),
                    "task": cfg.task_name,
                    "checkpoint": str(cfg.ckpt_path),
                },
            )
        try:
            summary = _evaluate_checkpoint(cfg, out, module)
        except (SystemExit, KeyboardInterrupt) as stop:
            raise _interrupted(folder, out, None, stop) from None
        except BaseException as err:
            if folder is not None:
                folder.finish("failed", error=f"{type(err).__name__}: {err}")
            raise
        if folder is not None:
            folder.finish("completed", **summary)
        return summary
    finally:
        if folder is not None:
            folder.release()


def _evaluate_checkpoint(cfg: DictConfig, out: Path, module: ReportModule) -> dict[str, Any]:
    train_cfg = OmegaConf.create(module.hparams["config"])
    OmegaConf.set_struct(train_cfg, False)
    if cfg.data:
        train_cfg.data = OmegaConf.merge(train_cfg.data, cfg.data)
    decoding = {k: v for k, v in OmegaConf.to_container(cfg.decoding).items() if v is not None}
    if decoding:
        train_cfg.decoding = OmegaConf.merge(train_cfg.decoding, decoding)
        module.cfg.decoding = train_cfg.decoding
    if cfg.features_dir:
        train_cfg.paths.features_dir = cfg.features_dir
    train_cfg.paths.output_dir = str(out)
    train_cfg.paths.cache_dir = cfg.paths.cache_dir
    train_cfg.eval = cfg.eval
    train_cfg.seed = cfg.seed
    entry = GENERATORS.get(train_cfg.model.name)
    dm = build_datamodule(train_cfg, entry.obj, tokenizer=module.tokenizer, resources=False)
    dm.setup("test")
    logger = build_logger(OmegaConf.merge(train_cfg, {"logger": cfg.logger}), out)
    trainer = build_trainer(cfg, out, build_callbacks(cfg, out, trainable=False), logger)
    if _is_rank_zero():
        OmegaConf.save(train_cfg, out / "config.yaml", resolve=True)
        write_json(out / "manifest.json", {**dm.manifest, "checkpoint": str(cfg.ckpt_path)})
    summary = test_and_score(train_cfg, module, dm, trainer, out, logger, split=cfg.split)
    _close_logger(logger)
    return summary


def _close_logger(logger: Any) -> None:
    """Finish a W&B run explicitly: left to the interpreter's exit, its files may not be written."""
    if type(logger).__name__ == "WandbLogger":
        import wandb

        if wandb.run is not None:
            wandb.finish()


def _resolve_ckpt(value: str, out: Path, seed: int) -> Path:
    """A checkpoint path, or ``last``: this run folder's last.ckpt, else the newest sibling run's
    (same dataset, model, encoder and seed under the default run-folder layout)."""
    if value == "last":
        own = out / "checkpoints" / "last.ckpt"
        candidates = (
            [own]
            if own.is_file()
            else sorted(
                out.parent.glob(f"seed{seed}_*/checkpoints/last.ckpt"), key=os.path.getmtime
            )
        )
        if not candidates:
            raise FileNotFoundError(
                f"ckpt_path=last: no checkpoints/last.ckpt in {out} or "
                f"in {out.parent}/seed{seed}_*/; give the checkpoint's path instead."
            )
        return candidates[-1]
    path = Path(value).expanduser()
    if not path.is_file():
        raise FileNotFoundError(f"ckpt_path={value}: no such checkpoint file.")
    return path


def _save_baseline_checkpoint(module: ReportModule, path: str) -> None:
    """Write a checkpoint Lightning can load, for a baseline that never went through ``fit``."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    torch.save(
        {
            "state_dict": module.state_dict(),
            "hyper_parameters": dict(module.hparams),
            "pytorch-lightning_version": pl.__version__,
            "epoch": 0,
            "global_step": 0,
        },
        path,
    )


def _is_rank_zero() -> bool:
    """True in the global-rank-0 process (Lightning reads it from the launcher's environment)."""
    from pytorch_lightning.utilities.rank_zero import rank_zero_only

    return getattr(rank_zero_only, "rank", 0) == 0
