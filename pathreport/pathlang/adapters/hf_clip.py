"""Any CLIP checkpoint in transformers' format, from a hub id or a local folder.

Not one of the paper's nine models: the generic entry for a user's own CLIP-style pathology model
(fine-tuned CLIPs, PLIP-like checkpoints, HF conversions such as PathGen-CLIP-L's). Upstream:
https://github.com/huggingface/transformers (``CLIPModel``). Licence: that of the checkpoint used.

Deviations: none; the checkpoint's own tokenizer and image processor are used. ``--vlm-checkpoint``
is required.
"""

from __future__ import annotations

from pathreport.pathlang.family_hf_clip import HFClipAdapter
from pathreport.registry import VLMS


@VLMS.register(
    "hf_clip",
    paper="(generic) Radford et al., 2021 (CLIP) architecture",
    upstream="https://github.com/huggingface/transformers",
    weights="any CLIPModel checkpoint (--vlm-checkpoint)",
    licence="that of the checkpoint",
    install="pip install 'pathreport[vlm]'",
)
class TransformersClipAdapter(HFClipAdapter):
    name = "hf_clip"
