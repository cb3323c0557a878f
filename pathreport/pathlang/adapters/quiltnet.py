"""QuiltNet: CLIP ViT-B/32 trained on Quilt-1M (histopathology videos and other sources).

Paper: Ikezogwo et al., "Quilt-1M: One Million Image-Text Pairs for Histopathology", NeurIPS 2023.
Upstream: https://github.com/wisdomikezogwo/quilt1m; weights: open_clip checkpoint
``hf-hub:wisdomik/QuiltNet-B-32`` (MIT licence on the model card). Other Quilt checkpoints
(``QuiltNet-B-16``, ``QuiltNet-B-16-PMB``) load with ``--vlm-checkpoint hf-hub:<id>``.

Deviations: none; open_clip's tokenizer (77-token context, truncation recorded) and preprocessing.
"""

from __future__ import annotations

from pathreport.pathlang.family_open_clip import OpenClipAdapter
from pathreport.registry import VLMS


@VLMS.register(
    "quiltnet",
    paper="Ikezogwo et al., NeurIPS 2023 (Quilt-1M)",
    upstream="https://github.com/wisdomikezogwo/quilt1m",
    weights="hf-hub:wisdomik/QuiltNet-B-32",
    licence="MIT (model card)",
    install="pip install open_clip_torch (with a torchvision matching your torch)",
)
class QuiltNetAdapter(OpenClipAdapter):
    name = "quiltnet"
    default_checkpoint = "hf-hub:wisdomik/QuiltNet-B-32"
    architecture = "ViT-B-32"
    weights_hint = (
        "The weights are public on the Hugging Face hub (wisdomik/QuiltNet-B-32); without "
        "hub access, download them and pass --vlm-checkpoint local-dir:<folder>."
    )
