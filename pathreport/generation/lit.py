"""The one LightningModule, shared by every generator.

Generators are plain ``nn.Module`` s; this module owns everything that must be identical across
them: the optimiser and its schedule, the loss bookkeeping, the shared decoder, and the writing
of predictions. It does not compute metrics: it writes predictions, and the evaluation function
scores the file (``pathreport.evaluation.evaluate``).

A checkpoint carries the resolved config, the tokenizer vocabulary, the generator context and the
library version, so ``eval.py ckpt_path=...`` decodes again from the checkpoint alone.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any

import pytorch_lightning as pl
import torch
from omegaconf import DictConfig, OmegaConf

from pathreport import __version__
from pathreport.data.batch import SlideBatch
from pathreport.data.predictions import PredictionRecord, run_identity, write_predictions
from pathreport.data.tokenizer_state import tokenizer_from_state
from pathreport.errors import CheckpointError
from pathreport.generation.checkpoints import load_checkpoint
from pathreport.generation.decoding import DecodingConfig, generate, report_length
from pathreport.generation.generator import GeneratorContext, build_generator

#: What the module logs, by stage (``train/``, ``val/``; the test stage logs ``test/<metric>``).
TRAIN_LOSS = "train/loss"
VAL_LOSS = "val/loss"

log = logging.getLogger(__name__)


class ReportModule(pl.LightningModule):
    """Trains any registered generator and decodes with the shared decoder.

    Args:
        config: the resolved run configuration (a plain dict; saved in the checkpoint).
        vocab: the tokenizer as ``pathreport.data.tokenizer_state.tokenizer_state`` gives it (the
            word tokenizer's vocabulary list, or a generator's own tokenizer as a dict; saved in the
            checkpoint).
        context: the generator context (feature and stream dimensions, special ids, max length).
    """

    def __init__(
        self, config: dict[str, Any], vocab: list[str] | dict[str, Any], context: dict[str, Any]
    ) -> None:
        super().__init__()
        # Saved in the checkpoint, not sent to the logger: the run's config reaches W&B when the
        # logger is created, and a vocabulary of thousands of tokens has no place in a config view.
        self.save_hyperparameters(
            {
                "config": config,
                "vocab": vocab,
                "context": context,
                "pathreport_version": __version__,
            },
            logger=False,
        )
        self.cfg: DictConfig = OmegaConf.create(config)
        self.tokenizer = tokenizer_from_state(vocab, style=self.cfg.data.cleaning)
        self.ctx = GeneratorContext(**{**context, "tokenizer": self.tokenizer})
        self.generator = build_generator(self.cfg.model, self.ctx)
        # Keep what the generator resolved while building (e.g. BiGen's bank width) in the
        # checkpoint.
        if dataclasses.is_dataclass(self.generator.cfg):
            self.hparams["config"]["model"] = dataclasses.asdict(self.generator.cfg)
        # compile.enabled=true: the bound loss method is compiled, not the module, so that parameter
        # names and checkpoints stay those of an eager run (see
        # pathreport.app.config.CompileConfig).
        self._loss = getattr(self.generator, "loss", None)  # retrieval baselines have none
        compiling = self.cfg.get("compile") or {}
        if compiling.get("enabled") and self._loss is not None:
            self._loss = torch.compile(
                self._loss,
                backend=compiling.get("backend", "inductor"),
                mode=compiling.get("mode"),
                dynamic=compiling.get("dynamic"),
            )
        self.predictions_path: Path | None = None
        self.expected_ids: list[str] | None = None
        self.records: list[PredictionRecord] = []
        self._outputs: list[PredictionRecord] = []

    # -- training --------------------------------------------------------------------------------
    @property
    def trainable(self) -> bool:
        return bool(getattr(self.generator, "trainable", True))

    def training_step(self, batch: SlideBatch, batch_idx: int) -> torch.Tensor:
        loss, terms = self._loss(batch)
        self.log(TRAIN_LOSS, loss, prog_bar=True, batch_size=len(batch))
        for name, value in terms.items():
            if name != "nll":
                self.log(f"train/{name}", value, batch_size=len(batch))
        return loss

    def validation_step(self, batch: SlideBatch, batch_idx: int) -> None:
        loss, _ = self._loss(batch)
        self.log(VAL_LOSS, loss, prog_bar=True, sync_dist=True, batch_size=len(batch))

    def configure_optimizers(self) -> dict[str, Any]:
        opt = self.cfg.optim
        params = [p for p in self.generator.parameters() if p.requires_grad]
        optimizer = torch.optim.AdamW(
            params, lr=opt.lr, weight_decay=opt.weight_decay, betas=tuple(opt.betas)
        )
        metric, mode = (
            self.cfg.get("optimized_metric", VAL_LOSS),
            self.cfg.get("optimized_mode", "min"),
        )
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(
            optimizer, mode=mode, factor=opt.lr_factor, patience=opt.lr_patience, min_lr=opt.min_lr
        )
        return {
            "optimizer": optimizer,
            "lr_scheduler": {"scheduler": scheduler, "monitor": metric, "interval": "epoch"},
        }

    # -- decoding --------------------------------------------------------------------------------
    @property
    def decoding(self) -> DecodingConfig:
        """The shared decoding settings of ``cfg.decoding`` (checked on every read, so an override
        such as ``eval.py decoding.beam_size=1`` takes effect by setting the config alone)."""
        return DecodingConfig(**OmegaConf.to_container(self.cfg.decoding))

    def _repeatable_ids(self) -> list[int] | None:
        """Tokens the decoder's ``block_repeat`` lets repeat: a subword tokenizer's pieces inside a
        word (a word tokenizer has none)."""
        continuations = getattr(self.tokenizer, "word_continuation_ids", None)
        return continuations() if continuations is not None else None

    def decode_batch(self, batch: SlideBatch) -> list[str]:
        """Reports for a batch: the shared decoder for generators, ``predict`` for baselines."""
        if not self.trainable:
            return self.generator.predict(batch)
        max_len = report_length(self.decoding, self.ctx.max_report_tokens)
        ids = generate(
            self.generator,
            batch,
            self.decoding,
            max_len=max_len,
            bos_id=self.ctx.bos_id,
            eos_id=self.ctx.eos_id,
            pad_id=self.ctx.pad_id,
            unk_id=self.ctx.unk_id,
            repeatable_ids=self._repeatable_ids(),
        )
        return [self.tokenizer.decode(seq) for seq in ids]

    def on_test_epoch_start(self) -> None:
        self._outputs = []

    def test_step(self, batch: SlideBatch, batch_idx: int) -> None:
        texts = self.decode_batch(batch)
        meta = run_identity(self.cfg)
        for slide_id, reference, text in zip(batch.ids, batch.references, texts):
            self._outputs.append(
                PredictionRecord(id=slide_id, reference=reference, prediction=text, **meta)
            )

    def on_test_epoch_end(self) -> None:
        records = self._gather(self._outputs)
        self.records = records
        if self.expected_ids is not None:
            got = {r.id for r in records}
            lost = sorted(set(self.expected_ids) - got)
            extra = sorted(got - set(self.expected_ids))
            if lost or extra:
                raise RuntimeError(
                    f"Decoded slide set differs from the evaluated split: missing {lost[:10]}, "
                    f"unexpected {extra[:10]}."
                )
        if self.predictions_path is not None and self.trainer.is_global_zero:
            write_predictions(self.predictions_path, records)
            log.info("Wrote %d predictions to %s", len(records), self.predictions_path)

    def _gather(self, records: list[PredictionRecord]) -> list[PredictionRecord]:
        """All ranks' predictions, each slide once (the distributed sampler pads with repeats)."""
        if (
            self.trainer.world_size > 1
            and torch.distributed.is_available()
            and torch.distributed.is_initialized()
        ):
            gathered: list[list[PredictionRecord]] = [[] for _ in range(self.trainer.world_size)]
            torch.distributed.all_gather_object(gathered, records)
            records = [r for part in gathered for r in part]
        unique: dict[str, PredictionRecord] = {}
        for record in records:
            unique.setdefault(record.id, record)
        return sorted(unique.values(), key=lambda r: r.id)


def module_from_checkpoint(
    path: str | Path, map_location: str | torch.device = "cpu", *, trust: bool = False
) -> ReportModule:
    """Load a :class:`ReportModule` from a checkpoint written by ``train.py``.

    The checkpoint is read by :func:`pathreport.generation.checkpoints.load_checkpoint` (no code
    from the file runs unless ``trust``), and the module is rebuilt from the config, vocabulary and
    generator context the checkpoint carries.
    """
    path = Path(path)
    checkpoint = load_checkpoint(path, trust=trust, map_location=map_location)
    hparams = checkpoint.get("hyper_parameters") if isinstance(checkpoint, dict) else None
    if (
        not isinstance(hparams, dict)
        or not {"config", "vocab", "context"} <= set(hparams)
        or "state_dict" not in checkpoint
    ):
        raise CheckpointError(
            f"{path} is not a pathreport checkpoint: checkpoints written by train.py carry the "
            "config, the vocabulary, the generator context and the weights."
        )
    module = ReportModule(hparams["config"], hparams["vocab"], hparams["context"])
    try:
        module.load_state_dict(checkpoint["state_dict"])
    except RuntimeError as err:
        model = (hparams["config"].get("model") or {}).get("name", "?")
        first = str(err).splitlines()[1].strip() if len(str(err).splitlines()) > 1 else str(err)
        raise CheckpointError(
            f"{path}: the weights do not fit the {model} generator its config describes "
            f"({first}); the file was edited or written by another version of the model."
        ) from None
    module.to(map_location)
    return module
