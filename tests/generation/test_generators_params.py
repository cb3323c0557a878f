"""Parameter counts at the reference configuration, accounted for module by module.

Each generator that reimplements published code declares ``reference_params`` in its registry
metadata: the reference implementation's count (vocabulary 347 plus its extra output row, i.e. 348
ids here; 1536-d patch features; the reference stream widths; ``config``: settings the reference
size needs beyond the defaults) and every difference to ours. The
count must match exactly after those differences, and the module docstring must state the count
we build when it is more than 2% off the reference. Models are built on the meta device: nothing is
allocated, so the 183M-parameter SCOUT costs nothing.
"""

from __future__ import annotations

import sys

import pytest
import torch

from pathreport.generation.generator import GeneratorContext
from pathreport.generation.nn import count_parameters
from tests.helpers.generators import (
    one_torch_thread,  # noqa: F401  (autouse fixture)
    trainable_entries,
)

WITH_REFERENCE = [e for e in trainable_entries() if "reference_params" in e.metadata]
REFERENCE_VOCAB = 348
REFERENCE_FEATURE_DIM = 1536

# The counts the reference implementation builds at that configuration, rounded as published.
PUBLISHED = {"migen": 17.63e6, "histgen": 22.11e6, "bigen": 18.15e6, "scout": 183.48e6}


def reference_model(entry):
    ref = entry.metadata["reference_params"]
    ctx = GeneratorContext(
        vocab_size=REFERENCE_VOCAB,
        feature_dim=REFERENCE_FEATURE_DIM,
        stream_dims=dict(ref["stream_dims"]),
    )
    with torch.device("meta"):
        return entry.obj(entry.config(**ref.get("config", {})), ctx)


def test_generators_with_reference_counts_cover_the_paper_models():
    assert {"migen", "histgen", "bigen", "scout"} <= {e.name for e in WITH_REFERENCE}


@pytest.mark.parametrize("entry", WITH_REFERENCE, ids=[e.name for e in WITH_REFERENCE])
def test_generator_parameter_count_matches_reference_after_documented_differences(entry):
    ref = entry.metadata["reference_params"]
    ours = count_parameters(reference_model(entry))
    assert ours == ref["count"] + sum(ref["differences"].values())
    if entry.name in PUBLISHED:
        assert abs(ref["count"] - PUBLISHED[entry.name]) < 0.005e6
    if abs(ours - ref["count"]) > 0.02 * ref["count"]:
        doc = sys.modules[entry.obj.__module__].__doc__ or ""
        assert f"{ours / 1e6:.2f}M" in doc, (
            "the module docstring must state the parameter count it builds"
        )
        assert ref["differences"], (
            "a count more than 2% off the reference needs its differences listed"
        )
