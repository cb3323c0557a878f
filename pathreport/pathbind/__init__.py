"""PathBind: does a generative pathology VLM use the image, and does its attention find the entity?

Paper: "Can pathology vision-language models really 'see' pathological features?" (arXiv:2607.21065;
no public code). Two protocols:

* VQA: every multiple-choice (or yes/no) question with and without the image, optionally with
  perturbed images; accuracy per dimension and condition and Multimodal Gain (``vqa.py``);
* grounding: entity-to-image attention maps scored against boxes, with threshold, layer and
  diffuseness diagnostics (``grounding.py``).

Importing this package registers the evaluator ``pathbind`` (``kind="vlm-generative"``) in
``pathreport.registry.EVALUATORS``; discovery imports the model adapters of ``adapters/``, which
register in ``GENERATIVE_VLMS``. It stays cheap: transformers and Pillow are imported only when a
model or an image is used.
Documentation: ``docs/pathbind.md``.
"""

from __future__ import annotations

from pathreport.pathbind.config import (
    AttentionConfig,
    GroundingConfig,
    PromptConfig,
    VLMDecodingConfig,
    VQAConfig,
)
from pathreport.pathbind.evaluator import PathBind
from pathreport.pathbind.vlm import (
    AttentionVLM,
    EntityAttention,
    GenerativeVLM,
    build_vlm,
)
from pathreport.registry import EVALUATORS

EVALUATORS.register(
    "pathbind",
    kind="vlm-generative",
    protocols=list(PathBind.protocols),
    description=(
        "visual dependence (VQA with/without image, Multimodal Gain) and attention grounding "
        "of generative VLMs"
    ),
    paper="arXiv:2607.21065 (PathBind)",
)(PathBind())

__all__ = [
    "AttentionConfig",
    "AttentionVLM",
    "VLMDecodingConfig",
    "EntityAttention",
    "GenerativeVLM",
    "GroundingConfig",
    "PathBind",
    "PromptConfig",
    "VQAConfig",
    "build_vlm",
]
