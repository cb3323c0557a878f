"""Patho-CLIP: the CLIP model of Patho-R1, trained on pathology figure-caption pairs.

Paper: Zhang et al., "Patho-R1: A Multimodal Reinforcement Learning-Based Pathology Expert
Reasoner", AAAI 2026. Upstream: https://github.com/Wenchuan-Zhang/Patho-R1; weights:
``PathoCLIP-B.pt`` for open_clip's ``ViT-B-16`` from https://huggingface.co/WenchuanZhang/Patho-CLIP-B
(access on request; licence: see the model card).

Deviations: the paper does not say which Patho-CLIP it used; the B model is the default. For
Patho-CLIP-L pass its weights with ``--vlm-option architecture=<open_clip name on its model card>``.
"""

from __future__ import annotations

from pathreport.pathlang.family_open_clip import OpenClipAdapter
from pathreport.registry import VLMS


@VLMS.register(
    "patho_clip",
    paper="Zhang et al., AAAI 2026 (Patho-R1)",
    upstream="https://github.com/Wenchuan-Zhang/Patho-R1",
    weights="WenchuanZhang/Patho-CLIP-B (PathoCLIP-B.pt, on request)",
    licence="see the model card",
    install="pip install open_clip_torch (with a torchvision matching your torch)",
)
class PathoClipAdapter(OpenClipAdapter):
    name = "patho_clip"
    architecture = "ViT-B-16"
    weights_hint = (
        "Request access at https://huggingface.co/WenchuanZhang/Patho-CLIP-B, download "
        "PathoCLIP-B.pt and pass its path with --vlm-checkpoint."
    )
