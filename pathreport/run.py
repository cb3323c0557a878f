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
from pathreport.data.datamodule import ReportDataModule
from pathreport.data.text import TextTokenizer, tokenizer_from_state, tokenizer_state
from pathreport.evaluation.evaluate import evaluate_records, write_evaluation
from pathreport.generator import GeneratorContext, typed_generator_config
from pathreport.io import write_json
from pathreport.lit import ReportModule, module_from_checkpoint

log = logging.getLogger("pathreport")


def run_dir(cfg: DictConfig) -> Path:
    out = Path(cfg.paths.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    return out


def build_datamodule(cfg: DictConfig, generator_cls: type, tokenizer: TextTokenizer | None = None) -> ReportDataModule:
    from functools import partial

    from pathreport.encoders import EncoderSpec

    encoder = EncoderSpec(**OmegaConf.to_container(cfg.encoder, resolve=True))
    streams = getattr(generator_cls, "streams", {})
    factory = None
    if hasattr(generator_cls, "input_streams"):  # a ReportGenerator: its configuration decides
        model_cfg = typed_generator_config(cfg.model)
        streams = generator_cls.input_streams(model_cfg)
        factory = partial(generator_cls.build_tokenizer, model_cfg, style=cfg.data.cleaning)
    return ReportDataModule(
        cfg.data,
        encoder,
        streams=streams,
        resources=getattr(generator_cls, "resources", ()),
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
        callbacks.append(ModelCheckpoint(
            dirpath=out / "checkpoints", filename="best-{epoch:03d}-{val_loss:.4f}", monitor=cb.checkpoint.monitor,
            mode=cb.checkpoint.mode, save_top_k=cb.checkpoint.save_top_k, save_last=cb.checkpoint.save_last,
            auto_insert_metric_name=False,
        ))
        if cb.early_stopping.enabled:
            callbacks.append(EarlyStopping(monitor=cb.early_stopping.monitor, mode=cb.early_stopping.mode,
                                           patience=cb.early_stopping.patience, min_delta=cb.early_stopping.min_delta))
        if cb.lr_monitor and cfg.logger.kind != "none":
            callbacks.append(LearningRateMonitor(logging_interval="epoch"))
    if cb.progress_bar == "rich":
        callbacks.append(RichProgressBar())
    elif cb.progress_bar == "tqdm":
        callbacks.append(TQDMProgressBar(refresh_rate=1))
    elif cb.progress_bar != "none":
        raise ValueError(f"callbacks.progress_bar must be tqdm, rich or none, found {cb.progress_bar!r}.")
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
        name = f"{cfg.data.name}-{cfg.model.name}-{cfg.encoder.name}-s{cfg.seed}"
        return WandbLogger(project=lg.project, entity=lg.entity, group=lg.group, tags=list(lg.tags), name=name,
                           save_dir=str(out), config=OmegaConf.to_container(cfg, resolve=True))
    raise ValueError(f"logger.kind must be csv, wandb, tensorboard or none, found {lg.kind!r}.")


def build_trainer(cfg: DictConfig, out: Path, callbacks: list[pl.Callback], logger: Any) -> pl.Trainer:
    kwargs = {k: v for k, v in OmegaConf.to_container(cfg.trainer, resolve=True).items() if v is not None}
    kwargs.setdefault("enable_checkpointing", any(type(c).__name__ == "ModelCheckpoint" for c in callbacks))
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
        max_report_tokens=int(cfg.decoding.max_len or cfg.data.max_report_tokens),
        resources=dict(dm.resources),
    )
    return {k: v for k, v in dataclasses.asdict(ctx).items() if k != "tokenizer"}  # stored apart


def train(cfg: DictConfig) -> dict[str, Any]:
    """Train, test and score one configuration; returns the test summary (plus val_loss)."""
    from pathreport.plugins import GENERATORS

    started = time.time()
    out = run_dir(cfg)
    pl.seed_everything(cfg.seed, workers=True)
    entry = GENERATORS.get(cfg.model.name)
    trainable = bool(getattr(entry.obj, "trainable", True))
    if not cfg.train and not cfg.ckpt_path:
        raise ValueError("train=false needs ckpt_path=<checkpoint> to test.")

    resume_tokenizer = None
    if cfg.ckpt_path:
        ckpt_file = _resolve_ckpt(cfg.ckpt_path, out, cfg.seed)
        cfg.ckpt_path = str(ckpt_file)
        saved = torch.load(ckpt_file, map_location="cpu", weights_only=False)["hyper_parameters"]
        resume_tokenizer = tokenizer_from_state(saved["vocab"], style=cfg.data.cleaning)

    dm = build_datamodule(cfg, entry.obj, tokenizer=resume_tokenizer)
    dm.setup("fit")
    config = OmegaConf.to_container(cfg, resolve=True)
    module = ReportModule(config, tokenizer_state(dm.tokenizer), generator_context(cfg, dm))
    if _is_rank_zero():  # every DDP process runs this function; one writes the run's files
        write_json(out / "manifest.json", dm.manifest)
        OmegaConf.save(cfg, out / "config.yaml", resolve=True)
    n_params = sum(p.numel() for p in module.generator.parameters())
    log.info("Generator %s: %.2fM parameters; vocabulary %d; train/val/test slides %d/%d/%d", cfg.model.name,
             n_params / 1e6, len(dm.tokenizer), *(len(dm.datasets[s]) for s in ("train", "val", "test")))

    callbacks = build_callbacks(cfg, out, trainable)
    logger = build_logger(cfg, out)
    trainer = build_trainer(cfg, out, callbacks, logger)
    best_path: str | None = None
    val_loss = None
    if trainable and cfg.train:
        trainer.fit(module, datamodule=dm, ckpt_path=cfg.ckpt_path)
        ckpt_cb = trainer.checkpoint_callback
        best_path = getattr(ckpt_cb, "best_model_path", "") or None
        if best_path is None:
            best_path = str(out / "checkpoints" / "final.ckpt")
            trainer.save_checkpoint(best_path)
        score = getattr(ckpt_cb, "best_model_score", None)
        val_loss = float(score) if score is not None else None
        module = module_from_checkpoint(best_path)
    elif not trainable:
        module.generator.fit(dm.fit_loader())
        best_path = str(out / "checkpoints" / "baseline.ckpt")
        _save_baseline_checkpoint(module, best_path)
    else:
        module = module_from_checkpoint(cfg.ckpt_path)
        best_path = cfg.ckpt_path

    summary: dict[str, Any] = {"best_checkpoint": best_path, "val_loss": val_loss}
    if cfg.test:
        summary.update(test_and_score(cfg, module, dm, trainer, out, logger))
    summary["wall_seconds"] = round(time.time() - started, 1)
    if trainer.is_global_zero:
        write_json(out / "run.json", {"pathreport_version": __version__, "model": cfg.model.name,
                                       "encoder": cfg.encoder.name, "dataset": cfg.data.name,
                                       "seed": cfg.seed, **summary})
    _close_logger(logger)
    return summary


def test_and_score(cfg: DictConfig, module: ReportModule, dm: ReportDataModule, trainer: pl.Trainer, out: Path,
                   logger: Any = None, split: str = "test") -> dict[str, Any]:
    """Decode ``split``, write ``predictions/<split>.jsonl``, then score it into ``metrics/``."""
    dm.eval_split = split
    module.predictions_path = out / "predictions" / f"{split}.jsonl"
    module.expected_ids = dm.datasets[split].ids
    trainer.test(module, datamodule=dm, verbose=False)
    if not trainer.is_global_zero:
        return {}
    result = evaluate_records(module.records, dataset=cfg.data.crqs_schema or cfg.data.name,
                              metrics=list(cfg.metrics))
    result.summary.update({"model": cfg.model.name, "encoder": cfg.encoder.name, "dataset": cfg.data.name,
                           "split": split, "seed": int(cfg.seed), "decoding": OmegaConf.to_container(cfg.decoding)})
    write_evaluation(result, out / "metrics", summary_name=f"{split}.json", per_case_name=f"{split}_per_case.jsonl",
                     table_prefix=f"{split}_")
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
    metrics = {f"{split}/{k}": v for k, v in result.summary.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    logger.log_metrics(metrics)
    if type(logger).__name__ == "WandbLogger":
        columns = ["id", "reference", "prediction"]
        logger.log_table(key=f"{split}/predictions", columns=columns,
                         data=[[r.id, r.reference, r.prediction] for r in records])
        keys = sorted({k for case in result.per_case.values() for k, v in case.items() if isinstance(v, (int, float))})
        logger.log_table(key=f"{split}/per_case", columns=["id", *keys],
                         data=[[cid, *(case.get(k) for k in keys)] for cid, case in sorted(result.per_case.items())])


def evaluate_checkpoint(cfg: DictConfig) -> dict[str, Any]:
    """``eval.py``: decode and score a split again from a checkpoint alone."""
    from pathreport.plugins import GENERATORS

    out = run_dir(cfg)
    module = module_from_checkpoint(cfg.ckpt_path)
    train_cfg = OmegaConf.create(module.hparams["config"])
    OmegaConf.set_struct(train_cfg, False)
    if cfg.data:
        train_cfg.data = OmegaConf.merge(train_cfg.data, cfg.data)
    if cfg.decoding:
        train_cfg.decoding = OmegaConf.merge(train_cfg.decoding, cfg.decoding)
        module.cfg.decoding = train_cfg.decoding
    if cfg.features_dir:
        train_cfg.paths.features_dir = cfg.features_dir
    train_cfg.paths.output_dir = str(out)
    train_cfg.paths.cache_dir = cfg.paths.cache_dir
    train_cfg.metrics = list(cfg.metrics)
    train_cfg.seed = cfg.seed
    entry = GENERATORS.get(train_cfg.model.name)
    dm = build_datamodule(train_cfg, entry.obj, tokenizer=module.tokenizer)
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
        candidates = [own] if own.is_file() else sorted(
            out.parent.glob(f"seed{seed}_*/checkpoints/last.ckpt"), key=os.path.getmtime)
        if not candidates:
            raise FileNotFoundError(
                f"ckpt_path=last: no checkpoints/last.ckpt in {out} or in {out.parent}/seed{seed}_*/; "
                "give the checkpoint's path instead.")
        return candidates[-1]
    path = Path(value).expanduser()
    if not path.is_file():
        raise FileNotFoundError(f"ckpt_path={value}: no such checkpoint file.")
    return path


def _save_baseline_checkpoint(module: ReportModule, path: str) -> None:
    """Write a checkpoint Lightning can load, for a baseline that never went through ``fit``."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    torch.save({"state_dict": module.state_dict(), "hyper_parameters": dict(module.hparams),
                "pytorch-lightning_version": pl.__version__, "epoch": 0, "global_step": 0}, path)


def _is_rank_zero() -> bool:
    """True in the process of global rank 0 (Lightning reads the rank from the launcher's environment)."""
    from pytorch_lightning.utilities.rank_zero import rank_zero_only

    return getattr(rank_zero_only, "rank", 0) == 0
