"""SCOUT's gate-entropy loss term and its weight ``g_lambda``."""

from __future__ import annotations

import math

import torch

from pathreport.registry import GENERATORS
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
        torch.testing.assert_close(model.loss(batch)[1]["gate_entropy"], model.loss(longer)[1]["gate_entropy"])
