"""SCOUT's gate-entropy loss term and its weight ``g_lambda``, and its concept count."""

from __future__ import annotations

import math

import pytest
import torch

from pathreport.registry import GENERATORS
from tests.conftest import compose_train
from tests.helpers.generators import (
    PAD,
    build,
    make_batch,
    one_torch_thread,  # noqa: F401  (autouse fixture)
)

SCOUT = GENERATORS.get("scout")


def test_scout_loss_adds_g_lambda_times_gate_entropy(tmp_path):
    batch = make_batch(SCOUT)
    with torch.no_grad():
        plain, parts0 = build(SCOUT, tmp_path, g_lambda=0.0).loss(batch)
        weighted, parts = build(SCOUT, tmp_path, g_lambda=0.5).loss(batch)
    torch.testing.assert_close(plain, parts0["nll"])
    torch.testing.assert_close(weighted, parts["nll"] + 0.5 * parts["gate_entropy"])
    assert 0 < float(parts["gate_entropy"]) <= math.log(3) + 1e-9  # entropy over 3 sources


def test_scout_gate_entropy_ignores_padded_target_positions(tmp_path):
    model = build(SCOUT, tmp_path, g_lambda=1.0)
    batch = make_batch(SCOUT)
    longer = make_batch(SCOUT)
    longer.tokens = torch.cat([longer.tokens, torch.full((len(batch), 4), PAD)], dim=1)
    with torch.no_grad():
        torch.testing.assert_close(
            model.loss(batch)[1]["gate_entropy"], model.loss(longer)[1]["gate_entropy"]
        )


@pytest.mark.parametrize(
    ("dataset", "n_concepts"), [("reg2025", 66), ("tcga", 254), ("histai", None)]
)
def test_scout_concept_count_comes_with_the_dataset_preset_and_reaches_the_concept_stream(
    dataset, n_concepts, tmp_path
):
    from pathreport.generation.generator import typed_generator_config

    cfg = compose_train(
        [
            f"experiment={dataset}-scout",
            "paths.features_dir=/data/trident",
            "data.splits=/data/splits.json",
        ],
        tmp_path,
    )
    assert cfg.model.n_concepts == n_concepts
    streams = SCOUT.obj.input_streams(typed_generator_config(cfg.model))
    assert (
        streams["concept"].dim == n_concepts
    )  # checked against every concept file by the data module
    assert streams["concept_deep"].dim is None
