"""MI-Gen (WSI-Caption): a transformer encoder with positional convolutions over the patch bag.

Paper: P. Chen, H. Li, C. Zhu, S. Zheng, Z. Shui and L. Yang, "WsiCaption: Multiple Instance
Generation of Pathology Reports for Gigapixel Whole-Slide Images", MICCAI 2024 (arXiv:2311.16480).
Upstream code: https://github.com/cpystan/Wsi-Caption (MI-Gen); the settings here follow the
benchmark authors' reimplementation,
https://github.com/surykntsingh/PathBench (``modules/models/wsi_caption``, MIT licence).

Architecture (reference defaults in :class:`MiGenConfig`):

* ``wsi_mapping`` Linear(d_patch -> d_vf); a learned prompt token is prepended to the bag;
  ``att_embed`` Linear(d_vf -> d_model) + ReLU + Dropout(drop_prob_lm).
* ``num_layers`` pre-norm transformer encoder layers; after each one a PAM module (depthwise
  convolutions with kernels 13, 7 and 3 plus identity, on the tokens folded into a square grid).
  The next layer takes the layer's output, not the PAM's; the decoder memory is the sum of the PAM
  outputs over layers (no final norm), one token per patch plus the prompt.
* The shared R2Gen-style decoder (:class:`pathreport.generation.nn.TextDecoder`): scaled embeddings,
  sinusoidal positions, ``num_layers`` pre-norm layers, final norm, vocabulary projection.

Deliberate deviations from the reference implementation:

* Batches and masks. The reference assumes one slide per batch and never masks. Here padded
  patches are masked out of every attention, and PAM lays each slide's real tokens on that slide's
  own ceil(sqrt(n)) grid with empty cells set to zero, instead of repeating the first tokens until
  the sequence is a perfect square (the repeated tokens were attended to as if they were real
  patches). A slide's output does not depend on its batch-mates.
* Modules that never influence the output are not built (see ``REFERENCE_PARAMS``): the
  classification head ``fc`` (used only by the unused ``mode='encode'``), ``out1``, ``out2``,
  ``ln``, ``embeded``, ``logit_mesh`` and the encoder's final norm. That is why the parameter count
  is 15.43M instead of the reference's 17.63M at vocabulary 347 and d_patch 1536; the architecture
  that produces reports is identical in shape.
* The output layer has one row per token id of the shared tokenizer (the reference adds one row to
  its vocabulary size because its ids start at 1).
* LayerNorm is PyTorch's (biased variance, epsilon inside the root) rather than the reference's own
  (unbiased standard deviation plus epsilon); attention dropout is applied by PyTorch's fused
  attention.
* Decoding is the benchmark's shared decoder (key/value cache, memory projected once per slide),
  not the reference's copy of beam search.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from pathreport import (
    R2GEN_UNUSED_REFERENCE_MODULES,
    EncoderLayer,
    GeneratorContext,
    PositionalConvMixer,
    R2GenGenerator,
    SlideBatch,
    TransformerGeneratorConfig,
    register_generator,
    xavier_init_,
)


@dataclass
class MiGenConfig(TransformerGeneratorConfig):
    """MI-Gen hyperparameters: the shared R2Gen-family settings (d_model 512, d_ff 512, d_vf 1024,
    4 heads, 3 layers, dropout 0.1, drop_prob_lm 0.5: the reference runs, equal to WSI-Caption's
    defaults); ``num_layers`` counts encoder layers (each followed by PAM) and decoder layers."""


#: Parameter count of the reference implementation (vocabulary 347 + 1 output row, d_patch 1536)
#: and every difference to ours, by module (negative: a reference module we do not build).
REFERENCE_PARAMS = {
    "count": 17_632_606,
    "stream_dims": {},
    "differences": dict(R2GEN_UNUSED_REFERENCE_MODULES),
}


@register_generator(
    "migen",
    config=MiGenConfig,
    smoke={"d_model": 16, "d_ff": 32, "d_vf": 24, "num_heads": 2, "num_layers": 2},
    paper="WsiCaption / MI-Gen (Chen et al., MICCAI 2024)",
    upstream="https://github.com/cpystan/Wsi-Caption",
    licence="MIT (reimplementation of the PathBench reference code)",
    reference_params=REFERENCE_PARAMS,
)
class MiGen(R2GenGenerator):
    """MI-Gen: transformer + PAM encoder over every patch (and the prompt token), R2Gen trunk."""

    def __init__(self, cfg: MiGenConfig, ctx: GeneratorContext) -> None:
        super().__init__(cfg, ctx)
        self.build_patch_embedding(ctx.feature_dim, prompt=True)
        self.layers = nn.ModuleList(
            EncoderLayer(cfg.d_model, cfg.num_heads, cfg.d_ff, cfg.dropout)
            for _ in range(cfg.num_layers)
        )
        self.pams = nn.ModuleList(PositionalConvMixer(cfg.d_model) for _ in range(cfg.num_layers))
        self.build_decoder()
        for part in (self.layers, self.pams, self.decoder):
            xavier_init_(part)

    def encode(self, batch: SlideBatch) -> dict[str, Tensor]:
        x, mask = self.embed_patches(batch.features, batch.mask)
        memory = torch.zeros_like(x)
        for layer, pam in zip(self.layers, self.pams, strict=True):
            x = layer(x, mask)
            memory = memory + pam(x, mask)
        return {"memory": memory, "memory_mask": mask}
