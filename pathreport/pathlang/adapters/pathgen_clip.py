"""PathGen-CLIP: CLIP ViT-B/16 trained on PathGen-1.6M generated pathology image-text pairs.

Paper: Sun et al., "PathGen-1.6M: 1.6 Million Pathology Image-text Pairs Generation through
Multi-agent Collaboration", ICLR 2025. Upstream: https://github.com/PathFoundation/PathGen-1.6M;
weights: a ``pathgenclip.pt`` file for open_clip's ``ViT-B-16``, from
https://huggingface.co/jamessyx/PathGen-CLIP (access after accepting the conditions). Licence:
cc-by-2.0 according to the model card's metadata.

Deviations: the paper does not say which PathGen-CLIP it used; the ViT-B/16 model is the default.
For PathGen-CLIP-L pass ``--vlm-option architecture=<open_clip name on its model card>``, or its
transformers conversion with the ``hf_clip`` adapter.
"""

from __future__ import annotations

from pathreport.pathlang.family_open_clip import OpenClipAdapter
from pathreport.registry import VLMS


@VLMS.register(
    "pathgen_clip",
    paper="Sun et al., ICLR 2025 (PathGen-1.6M)",
    upstream="https://github.com/PathFoundation/PathGen-1.6M",
    weights="jamessyx/PathGen-CLIP (pathgenclip.pt, gated)",
    licence="cc-by-2.0 (model card metadata); access conditions apply",
    install="pip install open_clip_torch (with a torchvision matching your torch)",
)
class PathGenClipAdapter(OpenClipAdapter):
    name = "pathgen_clip"
    architecture = "ViT-B-16"
    weights_hint = (
        "Accept the conditions at https://huggingface.co/jamessyx/PathGen-CLIP, download "
        "pathgenclip.pt and pass its path with --vlm-checkpoint."
    )
