"""pathreport: a benchmark for pathology report generation, and the API its plug-ins import.

A plug-in imports everything it needs from ``pathreport`` alone::

    from pathreport import GeneratorConfig, ReportGenerator, SlideBatch, register_generator

The registries, the error classes and discovery are loaded at once (they are the kernel and cost
nothing). The generator API (``ReportGenerator``, the shared layers, ``SlideBatch``, ...) needs
torch, so it is imported on first use, from the layer that defines it: importing ``pathreport``
stays fast and the kernel never imports the layers above it.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

from pathreport import _moved  # noqa: E402
from pathreport.discovery import discover, load_plugin_file  # noqa: E402  (installs the loader)
from pathreport.errors import ConfigError, PathreportError, PluginError, UserError  # noqa: E402
from pathreport.registry import (  # noqa: E402
    COMMANDS,
    DATASETS,
    ENCODERS,
    EVALUATORS,
    EXTRACTORS,
    GENERATIVE_VLMS,
    GENERATORS,
    JUDGE_BACKENDS,
    REGISTRIES,
    TEXT_ENCODERS,
    VLMS,
    Entry,
    Registry,
    RegistryError,
)

_moved.install()  # module paths from before the layers (pathreport.generator, ...) stay importable

#: Names of the plug-in API defined above the kernel, and the module that defines each.
_LAZY: dict[str, str] = {
    **dict.fromkeys(("SlideBatch",), "pathreport.data.batch"),
    **dict.fromkeys(("StreamSpec",), "pathreport.data.streams"),
    **dict.fromkeys(("DatasetInfo",), "pathreport.data.resources"),
    **dict.fromkeys(
        (
            "GeneratorConfig",
            "GeneratorContext",
            "R2GenGenerator",
            "ReportGenerator",
            "RetrievalBaseline",
            "TransformerGeneratorConfig",
            "R2GEN_UNUSED_REFERENCE_MODULES",
            "masked_mean",
            "register_generator",
            "token_cross_entropy",
        ),
        "pathreport.generation.generator",
    ),
    **dict.fromkeys(
        (
            "DecoderCache",
            "DecoderLayer",
            "EncoderLayer",
            "FeedForward",
            "GatedSourceFusion",
            "MultiHeadAttention",
            "PositionalConvMixer",
            "SinusoidalPositions",
            "TextDecoder",
            "causal_self_attention",
            "count_parameters",
            "fold_rows",
            "memory_kv",
            "sinusoidal_table",
            "square_grid_index",
            "unfold_rows",
            "xavier_init_",
        ),
        "pathreport.generation.nn",
    ),
    **dict.fromkeys(("EvaluationResult",), "pathreport.evaluation.base"),
    **dict.fromkeys(("PredictionRecord",), "pathreport.data.predictions"),
}


def __getattr__(name: str) -> Any:
    """Import a name of the plug-in API from its layer on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pathreport' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "COMMANDS",
    "DATASETS",
    "ENCODERS",
    "EVALUATORS",
    "EXTRACTORS",
    "GENERATIVE_VLMS",
    "GENERATORS",
    "JUDGE_BACKENDS",
    "REGISTRIES",
    "TEXT_ENCODERS",
    "VLMS",
    "ConfigError",
    "Entry",
    "PathreportError",
    "PluginError",
    "Registry",
    "RegistryError",
    "UserError",
    "__version__",
    "discover",
    "load_plugin_file",
    *sorted(_LAZY),
]
