"""The grounding protocol on fake models whose attention is known, so every score can be worked out
by hand."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from pathreport.pathbind import PathBind
from pathreport.pathbind.config import AttentionConfig, GroundingConfig
from pathreport.pathbind.data import read_grounding
from pathreport.pathbind.grounding import alternative_expressions, entity_span
from tests.helpers.pathbind import blind_vlm, blob_vlm, grounding_line, write_image, write_jsonl


def blob_maps() -> np.ndarray:
    """3 layers x 2 entity tokens x 16 image tokens (4 x 4 grid). Only layer 1 is the middle third.

    Token 0 attends to cells (1,1), (1,2) with 1.0; token 1 to cells (2,1), (2,2) with 0.5; every
    other cell gets 0.1. Layers 0 and 2 hold a different pattern that must NOT be used.
    """
    maps = np.full((3, 2, 16), 0.1)
    maps[1, 0, [5, 6]] = 1.0
    maps[1, 1, [9, 10]] = 0.5
    maps[0] = 0.3
    maps[2, :, 0] = 5.0
    return maps


@pytest.fixture
def one_sample(tmp_path):
    write_image(tmp_path / "img" / "s.png", (40, 40))
    # GT box covers cells (1,0), (1,1), (2,0), (2,1): pixels x 0..19, y 10..29
    path = write_jsonl(
        tmp_path / "g.jsonl",
        [grounding_line([0, 10, 20, 30], id="s", image="img/s.png", expression="tumour nest.")],
    )
    return path, read_grounding(path)


def test_grounding_blob_attention_gives_hand_computed_iou_precision_recall_ap_and_neff(
    tmp_path, one_sample
):
    path, items = one_sample
    config = GroundingConfig(
        q=0.2,
        sweep=(0.1, 0.2),
        specificity=False,
        attention=AttentionConfig(sigma=0.0, upsample="nearest"),
    )
    doc = PathBind().grounding(
        blob_vlm(blob_maps(), (4, 4)), items, tmp_path / "out", config, samples_file=path
    )
    sample = json.loads((tmp_path / "out" / "per_sample.jsonl").read_text().splitlines()[0])
    # M = max over tokens of layer 1: 1.0 at (1,1),(1,2); 0.5 at (2,1),(2,2); 0.1 elsewhere.
    # min-max -> 1, 4/9, 0. The 0.8 quantile of the 1600 pixels falls in the 4/9 block, so the mask
    # is both blocks: 400 px (ties push it to 25% > q, the paper's Eq. 5 rule).
    assert sample["mask_fraction"] == pytest.approx(0.25)
    # mask and GT share cells (1,1), (2,1): A = 200, U = 600, |mask| = |GT| = 400
    assert sample["iou"] == pytest.approx(100 * 200 / 600)
    assert sample["precision"] == pytest.approx(50.0) and sample["recall"] == pytest.approx(50.0)
    # q = 0.1: the 0.9 quantile lies in the 1.0 block -> mask (1,1),(1,2):
    # A = 100, U = 200 + 400 - 100
    assert sample["iou@0.1"] == pytest.approx(100 * 100 / 500)
    # AP: thresholds 1 (P 1/2, R 1/4), 4/9 (P 1/2, R 1/2), 0 (P 1/4, R 1)
    assert sample["pixel_ap"] == pytest.approx(100 * (0.25 * 0.5 + 0.25 * 0.5 + 0.5 * 0.25))
    # N_eff/N on the raw grid: masses 2 x 1.0, 2 x 0.5, 12 x 0.1 (total 4.2)
    entropy = -(
        2 * (1 / 4.2) * math.log(1 / 4.2)
        + 2 * (0.5 / 4.2) * math.log(0.5 / 4.2)
        + 12 * (0.1 / 4.2) * math.log(0.1 / 4.2)
    )
    assert sample["neff_ratio"] == pytest.approx(math.exp(entropy) / 16)
    # the shallow third (layer 0) is uniform: a degenerate map whose mask is every pixel
    assert sample["iou_shallow"] == pytest.approx(100 * 400 / 1600)
    assert (
        doc["metrics"]["testA"]["iou"]
        == doc["metrics"]["all"]["iou"]
        == pytest.approx(sample["iou"])
    )
    assert doc["settings"]["config"]["attention"]["sigma"] == 0.0


def test_grounding_prompt_is_the_papers_and_the_entity_span_drops_trailing_punctuation(
    tmp_path, one_sample
):
    path, items = one_sample
    vlm = blob_vlm(blob_maps(), (4, 4))
    PathBind().grounding(
        vlm, items, tmp_path / "out", GroundingConfig(specificity=False), samples_file=path
    )
    prompt, span = vlm.prompts[0]
    assert prompt == "Look at the image and locate: tumour nest."
    assert prompt[span[0] : span[1]] == "tumour nest"


def test_grounding_default_settings_respect_the_specs_validation_checks(tmp_path, one_sample):
    path, items = one_sample
    maps = np.random.default_rng(0).random((6, 3, 16))
    doc = PathBind().grounding(
        blob_vlm(maps, (4, 4)),
        items,
        tmp_path / "out",
        GroundingConfig(specificity=False),
        samples_file=path,
    )
    metrics = doc["metrics"]["all"]
    assert metrics["iou"] <= min(metrics["precision"], metrics["recall"]) + 1e-9
    assert metrics["mask_fraction"] == pytest.approx(0.2, abs=0.02)
    assert metrics["iou@0.2"] == pytest.approx(metrics["iou"]) and metrics[
        "iou_mid"
    ] == pytest.approx(metrics["iou"])


def test_alternative_expressions_come_from_the_same_split_differ_and_repeat(tmp_path):
    for i in range(4):
        write_image(tmp_path / f"{i}.png", (8, 8), seed=i)
    rows = [
        {"id": f"a{i}", "image": f"{i}.png", "expression": e, "box": [0, 0, 4, 4], "split": s}
        for i, (e, s) in enumerate(
            [("gland", "A"), ("Gland ", "A"), ("nest", "A"), ("stroma", "B")]
        )
    ]
    items = read_grounding(write_jsonl(tmp_path / "g.jsonl", rows))
    chosen = alternative_expressions(items, 2, seed=0)
    assert chosen == alternative_expressions(items, 2, seed=0)
    assert chosen["a0"] == ["nest"]  # "Gland " is the same expression; "stroma" is another split
    assert chosen["a2"] in (["gland"], ["Gland "]) and chosen["a3"] == []


def _grid_of_cell(cell: int) -> np.ndarray:
    maps = np.zeros((3, 1, 16))
    maps[:, 0, cell] = 1.0
    return maps


def test_cross_query_correlation_is_one_when_the_query_changes_nothing(tmp_path):
    for i in range(3):
        write_image(tmp_path / f"{i}.png", (40, 40), seed=i)
    rows = [
        {"id": f"s{i}", "image": f"{i}.png", "expression": e, "box": [0, 0, 10, 10], "split": "A"}
        for i, e in enumerate(["gland", "nest", "stroma"])
    ]
    path = write_jsonl(tmp_path / "g.jsonl", rows)
    items = read_grounding(path)
    config = GroundingConfig(attention=AttentionConfig(sigma=0.0, upsample="nearest"))
    same = PathBind().grounding(
        blob_vlm(_grid_of_cell(5), (4, 4)), items, tmp_path / "same", config, samples_file=path
    )
    assert same["metrics"]["all"]["specificity"] == pytest.approx(1.0)
    # one 10 x 10 px block per query in a 40 x 40 image, disjoint:
    # Pearson = -k / (n - k) = -100 / 1500
    cells = {"gland": 0, "nest": 5, "stroma": 10}
    specific = blob_vlm(None, (4, 4), per_query=lambda entity: _grid_of_cell(cells[entity]))
    doc = PathBind().grounding(specific, items, tmp_path / "specific", config, samples_file=path)
    assert doc["metrics"]["all"]["specificity"] == pytest.approx(-100 / 1500)
    assert doc["counts"]["all"]["n"] == 3


def test_grounding_rescores_saved_maps_without_the_model(tmp_path, one_sample):
    path, items = one_sample
    first = PathBind().grounding(
        blob_vlm(blob_maps(), (4, 4)),
        items,
        tmp_path / "run",
        GroundingConfig(specificity=False),
        samples_file=path,
    )
    assert (tmp_path / "run" / "maps" / "000000.npz").exists()
    again = PathBind().grounding(
        None,
        items,
        tmp_path / "rescored",
        GroundingConfig(specificity=False),
        from_maps=tmp_path / "run" / "maps",
    )
    assert again["metrics"]["all"]["iou"] == pytest.approx(first["metrics"]["all"]["iou"], abs=1e-3)
    assert again["model"] == "blob" and again["settings"]["model"]["rescored_from"].endswith("maps")
    shallow = PathBind().grounding(
        None,
        items,
        tmp_path / "shallow",
        GroundingConfig(specificity=False, attention=AttentionConfig(layers="deep")),
        from_maps=tmp_path / "run" / "maps",
    )
    assert shallow["metrics"]["all"]["iou"] == pytest.approx(
        first["metrics"]["all"]["iou_deep"], abs=1e-3
    )


def test_grounding_refuses_a_model_without_attention(tmp_path, one_sample):
    path, items = one_sample
    with pytest.raises(ValueError, match="exposes no attention weights"):
        PathBind().grounding(blind_vlm(), items, tmp_path / "out", samples_file=path)


def test_entity_span_skips_leading_spaces_of_the_expression():
    prompt, span = entity_span(
        "Look at the image and locate: {entity}", "  clustered nuclei!", True
    )
    assert prompt[span[0] : span[1]] == "clustered nuclei"


def test_specificity_is_undefined_when_the_query_map_is_constant(tmp_path):
    """A constant own map has no correlation with anything: the sample's specificity is NaN and
    counted as undefined, never a mean of the alternatives' pairs alone."""
    for i in range(3):
        write_image(tmp_path / f"{i}.png", (40, 40), seed=i)
    rows = [
        {"id": f"s{i}", "image": f"{i}.png", "expression": e, "box": [0, 0, 10, 10], "split": "A"}
        for i, e in enumerate(["gland", "nest", "stroma"])
    ]
    path = write_jsonl(tmp_path / "g.jsonl", rows)
    items = read_grounding(path)
    cells = {"nest": 5, "stroma": 10}
    flat = np.full((3, 1, 16), 0.25)
    vlm = blob_vlm(
        None, (4, 4), per_query=lambda e: flat if e == "gland" else _grid_of_cell(cells[e])
    )
    config = GroundingConfig(attention=AttentionConfig(sigma=0.0, upsample="nearest"))
    doc = PathBind().grounding(vlm, items, tmp_path / "out", config, samples_file=path)
    samples = {
        json.loads(line)["id"]: json.loads(line)
        for line in (tmp_path / "out" / "per_sample.jsonl").open()
    }
    gland = samples["s0"]
    assert gland["specificity"] is None  # NaN, written as null
    assert doc["counts"]["all"]["undefined_specificity"] >= 1
