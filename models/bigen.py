"""BiGen: two latent tokens, one visual and one textual, the latter fed by retrieval from a bank of
historical report sentences.

Paper: L. Zhang, B. Yun, Q. Li and Y. Wang, "Historical Report Guided Bi-modal Concurrent Learning
for Pathology Report Generation", MICCAI 2025, pp. 343-352. No upstream repository of the original
authors could be found; the architecture and its settings follow the benchmark authors'
reimplementation, https://github.com/surykntsingh/PathBench (``modules/models/bigen``, MIT licence).

Inputs: the benchmark encoder's patch features and, for the same patches, a knowledge stream
(``knowledge``: CONCH v1 patch features, 512-d, in the reference runs), plus a knowledge bank
(T sentence embeddings, built by ``pathreport bigen build-bank``; CONCH text embeddings in the
reference runs).

What is BiGen's own lives beside this file in ``_bigen/``: the bank (``knowledge_bank.py``), the
text encoders that embed it (``text_encoders.py``) and the ``pathreport bigen`` command
(``cli.py``). The data module knows none of it: :meth:`BiGen.dataset_resources` locates the bank
(or builds the synthetic dataset's) and hands it over as ``ctx.resources["knowledge_bank"]``.

Architecture (reference defaults in :class:`BiGenConfig`):

* ``wsi_mapping`` Linear(d_patch + d_kb -> d_vf) on the concatenated streams, a learned prompt
  token, ``att_embed`` Linear(d_vf -> d_model) + ReLU + Dropout: the visual tokens.
* One encoder block, shared by all iterations and both latents (cross-attention to its inputs,
  feed-forward, self-attention, feed-forward; pre-norm). Two learned latents: visual ``fu`` and
  textual ``fu_t``.
* Iteration 0: ``fu`` attends to the visual tokens; its head-averaged attention ranks the patches.
* Retrieval (once): the knowledge features of the top ``keep_fraction`` (v = 0.4) patches, in rank
  order, are averaged in groups of ``group_size`` (m = 10); each group retrieves its ``top_k``
  (k = 3) most cosine-similar bank sentences, whose embeddings are combined and projected to
  d_model: one retrieval token per group.
* Iterations 1 .. num_layers-1: ``fu`` attends to the visual tokens again, ``fu_t`` to the
  retrieval tokens.
* Memory: LayerNorm([sum of the ``fu`` states, sum of the ``fu_t`` states]): the decoder attends to
  two tokens.
* Decoder: the shared R2Gen-style decoder.

Deliberate deviations from the reference implementation:

* The memory is layer-normalised (the reference builds its encoder's final LayerNorm and never
  applies it). Each memory token is a SUM of three latent states, and a latent is the residual
  stream of pre-norm blocks, never normalised: at initialisation the two tokens have an RMS of 6
  to 11 against about 1 for the decoder's token embeddings, and it grows. Over only two keys the
  decoder's cross-attention then adds one large, slide-constant vector at every position, which
  drowns the token embeddings and saturates the choice between the two tokens: the decoder learns
  even its wording slowly. Measured on six synthetic slides, small model, no dropout, 150 AdamW
  steps at 3e-3 (``tests/generation/test_generators_learn.py``): training loss 4.33 -> 0.85 without
  the norm, 4.32 -> 0.09 with it (MI-Gen: 0.11).

* The retrieval defect is fixed. In the reference, the similarity that picks bank sentences is
  computed on the last 512 outputs of ``wsi_mapping``, a random linear mix of both streams; only the
  INDICES of the best sentences are used and the retrieved vectors come from the constant bank, so
  no gradient ever reaches those 512 outputs (nor ``prompt_plip``): retrieval stays a random
  projection for the whole training. Here the knowledge features themselves are the retrieval
  queries (CONCH image features against CONCH text embeddings: the aligned space the design relies
  on), through ``query_proj`` (identity at initialisation when the widths match), and the k
  retrieved embeddings are combined with softmax(similarity / ``retrieval_temperature``) weights
  instead of a plain mean, so the similarity, hence ``query_proj``, receives gradient. With a small
  spread of similarities the weights start close to the reference's uniform mean.
  ``wsi_mapping`` therefore maps to d_vf only (the reference's extra 512 outputs existed only for
  the broken retrieval), and ``prompt_plip`` is gone.
* Banks of any width work (``bank_dim`` is read from the bank file): ``query_proj`` maps d_kb to
  the bank width and ``down_proj`` maps the bank width to d_model, so latents follow d_model
  instead of a hard-coded 512.
* Batches and masks: the reference squeezes the batch dimension (one slide per batch) and never
  masks. Here the ranking covers each slide's real patches only (not the prompt token, not
  padding), every slide keeps max(1, floor(v * n)) patches, slides have different numbers of
  retrieval tokens (masked in the latent's cross-attention), and the ranking uses the attention
  before dropout (the reference ranks on the dropped-out weights during training).
* The bank is a buffer of the model (saved in checkpoints), so decoding needs no bank file.
* Modules that never influence the output are not built (see ``REFERENCE_PARAMS``): ``fc``,
  ``out1``, ``out2``, ``ln``, ``embeded``, ``logit_mesh``, the transformer's second ``down_proj``,
  the encoder's final norm and its three PAM modules (built but unused), and the query and key
  projections of the encoder's self-attention, which attends over a single latent token (its
  softmax is always 1, so they get no gradient; value and output projections and the head-wise
  attention dropout are kept). With the retrieval fix this gives 14.03M parameters instead of the
  reference's 18.15M at vocabulary 347, d_patch 1536 and a 512-d bank.
* The output layer has one row per token id of the shared tokenizer; LayerNorm is PyTorch's;
  decoding is the benchmark's shared decoder (the reference could only decode on a GPU).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from pathreport import (
    R2GEN_UNUSED_REFERENCE_MODULES,
    DatasetInfo,
    FeedForward,
    GeneratorContext,
    MultiHeadAttention,
    R2GenGenerator,
    SlideBatch,
    StreamSpec,
    TransformerGeneratorConfig,
    register_generator,
    xavier_init_,
)

# Importing them registers `pathreport bigen` and the text encoders.
from ._bigen import cli, text_encoders  # noqa: F401
from ._bigen.knowledge_bank import load_bank, locate_bank

log = logging.getLogger(__name__)


@dataclass
class BiGenConfig(TransformerGeneratorConfig):
    """BiGen hyperparameters (defaults: the benchmark reference runs).

    Attributes:
        num_layers: encoder iterations (>= 2: the first one only ranks patches) and decoder layers.
        keep_fraction: share of a slide's patches, best ranked first, used for retrieval (v).
        group_size: consecutive ranked patches averaged into one retrieval query (m).
        top_k: bank sentences retrieved per query (k).
        retrieval_temperature: softmax temperature over the top-k cosine similarities.
        bank_path: the knowledge bank file (``pathreport bigen build-bank`` writes it); empty takes
            the dataset's default bank, ``<cache>/banks/<dataset>/<bank_text_encoder>.pt`` (the
            synthetic dataset builds its own on first use). A checkpoint carries its bank, so
            restoring one reads no file. (Formerly ``data.knowledge_bank``.)
        bank_text_encoder: the text encoder of the dataset's default bank; None takes the paper's
            ``conch`` on a real dataset and, on the generated synthetic dataset, the offline
            ``hashing`` encoder (CONCH's text tower needs gated weights). (Formerly
            ``data.knowledge_bank_encoder``.)
        bank_dim: width of the bank's embeddings; None reads it from ``bank_path`` (and records it
            here). With ``bank_dim`` set and no bank file, the model waits for a checkpoint's bank.
    """

    keep_fraction: float = 0.4
    group_size: int = 10
    top_k: int = 3
    retrieval_temperature: float = 0.1
    bank_path: str = ""
    bank_text_encoder: str | None = None
    bank_dim: int | None = None


#: Parameter count of the reference implementation (vocabulary 347 + 1 output row, d_patch 1536,
#: 512-d knowledge stream and bank) and every difference to ours, by module.
REFERENCE_PARAMS = {
    "count": 18_154_846,
    "stream_dims": {"knowledge": 512},
    "config": {"bank_dim": 512},
    "differences": {
        **R2GEN_UNUSED_REFERENCE_MODULES,
        "encoder_decoder.model.down_proj: Linear(512, 512), never called": -262_656,
        "encoder_decoder.model.encoder.PAM: 3 depthwise-conv modules, never applied": -353_280,
        (
            "wsi_mapping: the 512 retrieval outputs (x 2048 inputs + bias), removed by the "
            "retrieval fix"
        ): -1_049_088,
        "prompt_plip: prompt of the retrieval outputs, removed by the retrieval fix": -512,
        "query_proj: Linear(d_kb, bank_dim), added by the retrieval fix": 262_656,
        (
            "encoder self-attention q/k projections: attention over one latent token is always 1"
        ): -525_312,
        "memory_norm: the encoder's final LayerNorm, applied to the memory here": 1_024,
    },
}


class SingleTokenSelfAttention(nn.Module):
    """Self-attention of a one-token sequence, written as what it computes.

    Over a single key the softmax is exactly 1, so the query and key projections can never change
    the output (they get no gradient); what remains is the value and output projections, and the
    attention dropout, which zeroes a whole head's weight at a time.
    """

    def __init__(self, d_model: int, heads: int, dropout: float) -> None:
        super().__init__()
        self.heads = heads
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.attn_drop = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        b, t, d = x.shape
        v = self.v_proj(x).view(b, t, self.heads, d // self.heads)
        weight = self.attn_drop(v.new_ones(b, t, self.heads, 1))
        return self.out_proj((weight * v).reshape(b, t, d))


class LatentBlock(nn.Module):
    """BiGen's encoder block: a latent token attends to its inputs, then FFN, self-attn, FFN.

    The cross-attention is computed explicitly (a single query token makes that cheap) because the
    visual latent's attention weights rank the patches.
    """

    def __init__(self, d_model: int, heads: int, d_ff: int, dropout: float) -> None:
        super().__init__()
        self.cross_attn = MultiHeadAttention(d_model, heads, dropout)
        self.self_attn = SingleTokenSelfAttention(d_model, heads, dropout)
        self.ff1 = FeedForward(d_model, d_ff, dropout)
        self.ff2 = FeedForward(d_model, d_ff, dropout)
        self.norms = nn.ModuleList(nn.LayerNorm(d_model, eps=1e-6) for _ in range(4))
        self.drop = nn.Dropout(dropout)
        self.attn_drop = nn.Dropout(dropout)

    def forward(self, latent: Tensor, inputs: Tensor, mask: Tensor) -> tuple[Tensor, Tensor]:
        """Update ``latent`` (B, 1, D) from ``inputs`` (B, N, D) under ``mask`` (B, N).

        Returns the new latent and the head-averaged attention over the inputs (B, N).
        """
        attn = self.cross_attn
        q = attn.split_heads(attn.q_proj(self.norms[0](latent)))
        k, v = attn.project_kv(inputs)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(attn.d_head)
        weights = F.softmax(scores.masked_fill(~mask[:, None, None, :], float("-inf")), dim=-1)
        out = (self.attn_drop(weights) @ v).transpose(1, 2).reshape(latent.shape)
        x = latent + self.drop(attn.out_proj(out))
        x = x + self.drop(self.ff1(self.norms[1](x)))
        x = x + self.drop(self.self_attn(self.norms[2](x)))
        x = x + self.drop(self.ff2(self.norms[3](x)))
        return x, weights.mean(1).squeeze(1)


@register_generator(
    "bigen",
    config=BiGenConfig,
    smoke={
        "d_model": 16,
        "d_ff": 32,
        "d_vf": 24,
        "num_heads": 2,
        "num_layers": 3,
        "keep_fraction": 0.5,
        "group_size": 2,
        "top_k": 2,
    },
    moved_keys={
        "data.knowledge_bank": "model.bank_path",
        "data.knowledge_bank_encoder": "model.bank_text_encoder",
    },
    paper="BiGen (Zhang et al., MICCAI 2025)",
    upstream="https://github.com/surykntsingh/PathBench (reimplementation; no original code found)",
    licence="MIT (reimplementation of the PathBench reference code)",
    reference_params=REFERENCE_PARAMS,
)
class BiGen(R2GenGenerator):
    """BiGen: visual and retrieval-fed textual latents, R2Gen trunk (decoder over the two)."""

    streams = {
        "knowledge": StreamSpec(
            kind="patch",
            encoder="conch1",
            description="CONCH v1 features of the same patches, queries for knowledge retrieval",
        )
    }

    def __init__(self, cfg: BiGenConfig, ctx: GeneratorContext) -> None:
        super().__init__(cfg, ctx)
        if cfg.num_layers < 2:
            raise ValueError(
                "model.num_layers must be >= 2 for BiGen (the first iteration only ranks "
                f"patches), found {cfg.num_layers}."
            )
        if not 0 < cfg.keep_fraction <= 1:
            raise ValueError(f"model.keep_fraction must be in (0, 1], found {cfg.keep_fraction}.")
        if cfg.group_size < 1 or cfg.top_k < 1 or cfg.retrieval_temperature <= 0:
            raise ValueError(
                "model.group_size and model.top_k must be >= 1 and model.retrieval_temperature "
                f"> 0, found {cfg.group_size}, {cfg.top_k}, {cfg.retrieval_temperature}."
            )
        if "knowledge" not in ctx.stream_dims:
            raise ValueError(
                "BiGen needs the 'knowledge' stream's dimension in the generator context "
                "(stream_dims)."
            )
        if not cfg.bank_path and ctx.resources.get("knowledge_bank"):
            cfg.bank_path = ctx.resources["knowledge_bank"]  # located by dataset_resources
        bank = self._initial_bank(cfg)
        d, d_kb, d_bank = cfg.d_model, ctx.stream_dims["knowledge"], bank.shape[1]
        self.register_buffer("bank", bank)
        self.build_patch_embedding(ctx.feature_dim + d_kb, prompt=True)
        self.latent_visual = nn.Parameter(torch.randn(1, 1, d))
        self.latent_text = nn.Parameter(torch.randn(1, 1, d))
        self.block = LatentBlock(d, cfg.num_heads, cfg.d_ff, cfg.dropout)
        self.query_proj = nn.Linear(d_kb, d_bank)
        self.down_proj = nn.Linear(d_bank, d)
        self.memory_norm = nn.LayerNorm(d, eps=1e-6)
        self.build_decoder()
        for part in (self.block, self.down_proj, self.decoder):
            xavier_init_(part)
        for latent in (self.latent_visual, self.latent_text):
            nn.init.xavier_uniform_(latent)
        if (
            d_kb == d_bank
        ):  # aligned spaces (CONCH image vs CONCH text): start from the raw features
            nn.init.eye_(self.query_proj.weight)
            nn.init.zeros_(self.query_proj.bias)

    # -- the bank ------------------------------------------------------------------------------
    @classmethod
    def dataset_resources(cls, cfg: BiGenConfig, dataset: DatasetInfo) -> dict[str, str]:
        """The knowledge bank of this run (``model.bank_path``, else the dataset's default one)."""
        return {"knowledge_bank": str(locate_bank(cfg.bank_path, cfg.bank_text_encoder, dataset))}

    @staticmethod
    def _initial_bank(cfg: BiGenConfig) -> Tensor:
        restoring = cfg.bank_dim is not None and (
            not cfg.bank_path or not Path(cfg.bank_path).is_file()
        )
        if restoring:
            if cfg.bank_path:
                log.warning(
                    "Knowledge bank %s not found; BiGen takes its bank from the checkpoint "
                    "it loads.",
                    cfg.bank_path,
                )
            return torch.zeros(0, cfg.bank_dim)  # filled by load_state_dict
        if cfg.bank_path:
            bank = load_bank(cfg.bank_path).embeddings
            if cfg.bank_dim is not None and cfg.bank_dim != bank.shape[1]:
                raise ValueError(
                    f"{cfg.bank_path}: the knowledge bank has {bank.shape[1]}-d embeddings but "
                    f"model.bank_dim={cfg.bank_dim}. Remove model.bank_dim (it is read from the "
                    "bank) or rebuild the bank."
                )
            cfg.bank_dim = int(
                bank.shape[1]
            )  # recorded so a checkpoint's config restores without the file
            return bank
        raise ValueError(
            "BiGen needs a knowledge bank: set model.bank_path to a bank built with `pathreport "
            "bigen build-bank --dataset <name> --split-file <split json> --text-encoder <name>` "
            "(or, to restore a checkpoint, which carries its bank, set model.bank_dim to the "
            "bank's width)."
        )

    def _load_from_state_dict(
        self, state_dict: dict[str, Any], prefix: str, *args: Any, **kwargs: Any
    ) -> None:
        # A checkpoint's bank may have another number of sentences than the placeholder.
        saved = state_dict.get(prefix + "bank")
        if isinstance(saved, Tensor) and saved.shape != self.bank.shape:
            if saved.dim() != 2 or saved.shape[1] != self.bank.shape[1]:
                raise ValueError(
                    f"The checkpoint's knowledge bank has shape {tuple(saved.shape)} but this "
                    f"model was built for {self.bank.shape[1]}-d embeddings; set "
                    f"model.bank_dim={saved.shape[-1]}."
                )
            self.bank = torch.empty_like(saved, device=self.bank.device, dtype=self.bank.dtype)
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)

    # -- encoder -------------------------------------------------------------------------------
    def encode(self, batch: SlideBatch) -> dict[str, Tensor]:
        if self.bank.shape[0] == 0:
            raise RuntimeError(
                "BiGen's knowledge bank is empty: set model.bank_path or load a checkpoint."
            )
        b = len(batch)
        knowledge = batch.streams["knowledge"]
        x, mask = self.embed_patches(torch.cat([batch.features, knowledge], dim=-1), batch.mask)

        visual = self.latent_visual.expand(b, -1, -1).to(x.dtype)
        text = self.latent_text.expand(b, -1, -1).to(x.dtype)
        visual, attention = self.block(visual, x, mask)
        retrieved, retrieved_mask = self._retrieve(knowledge, batch.mask, attention[:, 1:])
        visual_sum, text_sum = visual, torch.zeros_like(text)
        for _ in range(1, self.cfg.num_layers):
            visual, _ = self.block(visual, x, mask)
            text, _ = self.block(text, retrieved, retrieved_mask)
            visual_sum, text_sum = visual_sum + visual, text_sum + text
        return {"memory": self.memory_norm(torch.cat([visual_sum, text_sum], dim=1))}

    def _retrieve(
        self, knowledge: Tensor, mask: Tensor, attention: Tensor
    ) -> tuple[Tensor, Tensor]:
        """Retrieval tokens (B, W, D) and their mask from the best-attended patches' knowledge."""
        cfg = self.cfg
        b, _, d_kb = knowledge.shape
        n = mask.sum(1)
        keep = torch.floor(n.double() * cfg.keep_fraction).long().clamp(min=1)
        keep = torch.minimum(keep, n)
        order = attention.masked_fill(~mask, float("-inf")).argsort(
            dim=1, descending=True, stable=True
        )
        ranked = knowledge.gather(1, order.unsqueeze(-1).expand(-1, -1, d_kb))
        position = torch.arange(knowledge.shape[1], device=knowledge.device)
        kept = position[None, :] < keep[:, None]
        group = torch.div(position, cfg.group_size, rounding_mode="floor").expand(b, -1)
        groups = int(
            torch.div(keep.max() + cfg.group_size - 1, cfg.group_size, rounding_mode="floor")
        )
        weights = kept.to(ranked.dtype).unsqueeze(-1)
        sums = ranked.new_zeros(b, groups, d_kb).scatter_add(
            1, group.clamp(max=groups - 1).unsqueeze(-1).expand(-1, -1, d_kb), ranked * weights
        )
        counts = ranked.new_zeros(b, groups).scatter_add(
            1, group.clamp(max=groups - 1), kept.to(ranked.dtype)
        )
        group_mask = counts > 0
        queries = self.query_proj(sums / counts.clamp_min(1.0).unsqueeze(-1))
        bank = self.bank.to(queries.dtype)
        similarity = F.normalize(queries, dim=-1) @ F.normalize(bank, dim=-1).T  # (B, W, T)
        top, index = similarity.topk(min(cfg.top_k, bank.shape[0]), dim=-1)
        mix = F.softmax(top / cfg.retrieval_temperature, dim=-1)
        retrieved = (mix.unsqueeze(-1) * bank[index]).sum(2)
        return self.down_proj(retrieved), group_mask
