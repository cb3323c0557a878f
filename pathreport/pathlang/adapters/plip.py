"""PLIP: CLIP (ViT-B/32) fine-tuned on pathology image-text pairs from medical Twitter.

Paper: Huang et al., "A visual-language foundation model for pathology image analysis using
medical Twitter", Nature Medicine 2023. Upstream: https://github.com/PathologyFoundation/plip;
weights: https://huggingface.co/vinid/plip (transformers ``CLIPModel``). Licence: not stated in
the upstream repository; read the model card before use.

Deviations from upstream: none in the model. Prompts are encoded exactly as written (no template);
text beyond CLIP's 77-token context is truncated, as CLIP's tokenizer does, and listed in the run's
manifest (several PathLang prompts are longer).
"""

from __future__ import annotations

from pathreport.pathlang.family_hf_clip import HFClipAdapter
from pathreport.registry import VLMS


@VLMS.register(
    "plip",
    paper="Huang et al., Nature Medicine 2023 (PLIP)",
    upstream="https://github.com/PathologyFoundation/plip",
    weights="vinid/plip",
    licence="not stated upstream (see the model card)",
    install="pip install 'pathreport[vlm]'",
)
class PlipAdapter(HFClipAdapter):
    name = "plip"
    default_checkpoint = "vinid/plip"
