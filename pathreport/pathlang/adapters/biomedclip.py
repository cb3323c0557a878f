"""BiomedCLIP: ViT-B/16 image encoder and PubMedBERT text encoder trained on PMC-15M.

Paper: Zhang et al., "A Multimodal Biomedical Foundation Model Trained from Fifteen Million
Image-Text Pairs", NEJM AI 2024. Upstream weights and code: open_clip checkpoint
``hf-hub:microsoft/BiomedCLIP-PubMedBERT_256-vit_base_patch16_224`` (MIT licence on the model card).

Deviations: none; the checkpoint's own tokenizer (256-token context) and preprocessing. The
model card's examples prepend "this is a photo of"; PathLang encodes prompts as written.
"""

from __future__ import annotations

from pathreport.pathlang.family_open_clip import OpenClipAdapter
from pathreport.registry import VLMS


@VLMS.register(
    "biomedclip",
    paper="Zhang et al., NEJM AI 2024 (BiomedCLIP)",
    upstream="https://huggingface.co/microsoft/BiomedCLIP-PubMedBERT_256-vit_base_patch16_224",
    weights="hf-hub:microsoft/BiomedCLIP-PubMedBERT_256-vit_base_patch16_224",
    licence="MIT (model card)",
    install="pip install open_clip_torch (with a torchvision matching your torch)",
)
class BiomedClipAdapter(OpenClipAdapter):
    name = "biomedclip"
    default_checkpoint = "hf-hub:microsoft/BiomedCLIP-PubMedBERT_256-vit_base_patch16_224"
    weights_hint = (
        "The weights are public on the Hugging Face hub; without hub access, download the "
        "repository and pass --vlm-checkpoint local-dir:<folder>."
    )
