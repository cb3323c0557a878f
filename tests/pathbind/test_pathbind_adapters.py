"""Adapter plumbing end to end with tiny randomly initialised models built from configs (no
download):
attention maps on the right grid, the VQA loop with and without the image, loading and hints."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from pathreport.pathbind import PathBind
from pathreport.pathbind.adapters.internvl import InternVLModel, InternVLOptions, tile_layout
from pathreport.pathbind.adapters.llava import LLAVA_V1_TEMPLATE, LlavaOptions, LlavaVLM
from pathreport.pathbind.adapters.qwen_vl import QwenVLModel
from pathreport.pathbind.config import GroundingConfig, VLMDecodingConfig, VQAConfig
from pathreport.pathbind.data import read_grounding, read_vqa
from pathreport.pathbind.grounding import entity_span
from pathreport.pathbind.vlm import build_vlm
from pathreport.registry import GENERATIVE_VLMS
from tests.helpers.pathbind import (
    grounding_line,
    tiny_internvl,
    tiny_llava,
    tiny_qwen2_vl,
    write_image,
    write_jsonl,
)

SHORT = VQAConfig(decoding=VLMDecodingConfig(max_new_tokens=3))


@pytest.fixture(scope="module")
def llava():
    return LlavaVLM.from_components("tiny_llava", *tiny_llava())


@pytest.fixture(scope="module")
def qwen():
    return QwenVLModel.from_components("tiny_qwen2_vl", *tiny_qwen2_vl())


@pytest.fixture
def data(tmp_path):
    write_image(tmp_path / "a.png", (60, 40), seed=1)
    write_image(tmp_path / "b.png", (30, 50), seed=2)
    vqa = write_jsonl(
        tmp_path / "vqa.jsonl",
        [
            {
                "id": "q1",
                "image": "a.png",
                "question": "Which pattern?",
                "options": ["glands", "sheets"],
                "answer": "A",
                "dimension": "D1",
                "source": "S",
            },
            {
                "id": "q2",
                "image": "b.png",
                "question": "Is there necrosis?",
                "answer": "no",
                "dimension": "D2",
                "source": "S",
            },
        ],
    )
    grounding = write_jsonl(
        tmp_path / "g.jsonl",
        [
            grounding_line(
                [0, 0, 30, 20], id="g1", image="a.png", expression="tumor cells in the upper left"
            ),
            grounding_line([5, 5, 25, 45], id="g2", image="b.png", expression="gland"),
        ],
    )
    return read_vqa(vqa), read_grounding(grounding)


def _image(size=(60, 40)):
    from PIL import Image

    return Image.fromarray(
        np.random.default_rng(0).integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    )


def test_llava_adapter_maps_come_on_the_4x4_grid_of_a_padded_square(llava):
    prompt, span = entity_span("Look at the image and locate: {entity}", "tumor cells.", True)
    attention = llava.entity_attention(_image(), prompt, span)
    assert attention.layer_token_maps.shape[0] == 6 and attention.layer_token_maps.shape[2] == 16
    assert attention.grid_shape == (4, 4)
    assert attention.view_box == (0, -10, 60, 50)  # the 60 x 40 image padded to a 60 px square
    # every token of the entity, none of the trailing "." and no token that is only a space
    assert (
        "".join(attention.entity_tokens).replace("Ġ", "") == "tumorcells"
        and "Ġ" not in attention.entity_tokens
    )
    assert np.all(attention.layer_token_maps >= 0) and np.all(
        attention.layer_token_maps.sum(axis=2) <= 1 + 1e-5
    )


def test_attention_hooks_equal_a_slice_of_output_attentions(llava):
    prompt, span = entity_span("Look at the image and locate: {entity}", "gland", True)
    image = _image()
    attention = llava.entity_attention(image, prompt, span)
    prepared = llava._prepare(None, prompt, image, offsets=True)
    rows = llava.entity_positions(prepared, prompt, span)
    with torch.no_grad():
        outputs = llava.model(**prepared.inputs, output_attentions=True)
    expected = torch.stack(
        [a[0][:, rows][:, :, prepared.image_positions].mean(0) for a in outputs.attentions]
    )
    assert np.allclose(attention.layer_token_maps, expected.numpy(), atol=1e-6)


def test_llava_vqa_loop_runs_with_and_without_the_image(tmp_path, llava, data):
    items, _ = data
    with_image = llava._prepare("system", "question", _image())
    text_only = llava._prepare("system", "question", None)
    assert len(with_image.image_positions) == 16 and "pixel_values" in with_image.inputs
    assert text_only.image_positions == [] and "pixel_values" not in text_only.inputs
    doc = PathBind().vqa(llava, items, tmp_path / "out", SHORT)
    answers = [
        json.loads(line) for line in (tmp_path / "out" / "answers.jsonl").read_text().splitlines()
    ]
    assert [(a["id"], a["condition"]) for a in answers] == [
        ("q1", "image"),
        ("q1", "text"),
        ("q2", "image"),
        ("q2", "text"),
    ]
    assert all(isinstance(a["raw"], str) for a in answers)
    assert (
        doc["settings"]["model"]["decoder_layers"] == 6
        and doc["settings"]["model"]["preprocessing"]["image_aspect"] == "pad"
    )


def test_qwen2_vl_adapter_grid_follows_the_resized_image_and_runs_both_protocols(
    tmp_path, qwen, data
):
    items, samples = data
    prompt, span = entity_span("Look at the image and locate: {entity}", "gland", True)
    attention = qwen.entity_attention(_image((60, 40)), prompt, span)
    # 60 x 40 px -> 64 x 40 (multiples of patch 4 x merge 2) -> 8 x 5 merged tokens
    assert attention.grid_shape == (5, 8) and attention.layer_token_maps.shape[2] == 40
    assert attention.view_box == (0.0, 0.0, 60.0, 40.0)
    assert qwen._prepare("s", "q", None).image_positions == []
    doc = PathBind().vqa(qwen, items, tmp_path / "vqa", SHORT)
    assert doc["cells"]["text"]["D1"]["n"] == 1 and doc["cells"]["image"]["D2"]["n"] == 1
    result = PathBind().grounding(
        qwen, samples, tmp_path / "grounding", GroundingConfig(alternatives=1)
    )
    assert result["counts"]["all"]["n"] == 2 and 0 <= result["metrics"]["all"]["iou"] <= 100
    per_sample = [
        json.loads(line)
        for line in (tmp_path / "grounding" / "per_sample.jsonl").read_text().splitlines()
    ]
    assert [s["grid"] for s in per_sample] == [
        [5, 8],
        [6, 4],
    ]  # 30 x 50 px -> 32 x 48 -> 4 x 6 tokens


def test_internvl_adapter_maps_tiles_to_a_mosaic_grid_and_answers_without_image():
    vlm = InternVLModel.from_components(
        "tiny_internvl", *tiny_internvl(), options=InternVLOptions(max_tiles=4)
    )
    prompt, span = entity_span("Look at the image and locate: {entity}", "gland", True)
    attention = vlm.entity_attention(_image((40, 20)), prompt, span)
    # aspect 2:1 -> 2 x 1 tiles of 2 x 2 tokens, plus a 4-token thumbnail outside the grid
    assert attention.layer_token_maps.shape[2] == 12
    assert attention.token_grid.tolist() == [[0, 1, 4, 5], [2, 3, 6, 7]]
    assert isinstance(vlm.generate("s", "q", None, VLMDecodingConfig(max_new_tokens=2)), str)
    assert tile_layout(448 * 3, 448, 448, 1, 12) == (3, 1) and tile_layout(500, 500, 448, 1, 1) == (
        1,
        1,
    )


def test_llava_checkpoint_folder_loads_through_the_registry(tmp_path):
    model, tokenizer, processor = tiny_llava()
    tokenizer.chat_template = LLAVA_V1_TEMPLATE
    for part in (model, tokenizer, processor):
        part.save_pretrained(tmp_path / "ckpt")
    vlm = build_vlm("llava", checkpoint=str(tmp_path / "ckpt"), device="cpu", image_aspect="crop")
    answer = vlm.generate("system", "Which pattern?", _image(), VLMDecodingConfig(max_new_tokens=2))
    assert isinstance(answer, str)
    info = vlm.describe()
    assert info["checkpoint"] == str(tmp_path / "ckpt") and info["chat_template_source"] in (
        "tokenizer",
        "processor",
    )
    assert info["preprocessing"]["image_aspect"] == "crop"


def test_missing_weights_give_a_download_hint(tmp_path):
    with pytest.raises(FileNotFoundError, match="hf download"):
        build_vlm("llava", checkpoint=str(tmp_path / "absent")).generate(
            "s", "q", None, VLMDecodingConfig()
        )
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "config.json").write_text("{}")
    with pytest.raises(FileNotFoundError, match="convert_llava_weights_to_hf"):
        build_vlm("quilt_llava", checkpoint=str(tmp_path / "empty")).describe()
    with pytest.raises(ValueError, match="Unknown option"):
        build_vlm("llava", image_aspects="crop")


@pytest.mark.parametrize("name", GENERATIVE_VLMS.names())
def test_every_registered_model_builds_without_loading_weights(name):
    entry = GENERATIVE_VLMS.get(name)
    options = {"model": "some-model-id"} if entry.metadata.get("family") == "api" else {}
    vlm = build_vlm(name, **options)
    assert vlm.name == name and vlm.supports_attention == entry.metadata["attention"]
    if isinstance(vlm, (LlavaVLM, QwenVLModel, InternVLModel)):
        assert vlm._model is None  # weights load on first use only
        assert vlm.base_model == entry.metadata.get("base_model")


def test_llava_options_reject_an_unknown_aspect(llava):
    vlm = LlavaVLM.from_components(
        "x",
        llava.model,
        llava.tokenizer,
        llava.image_processor,
        options=LlavaOptions(image_aspect="tile"),
    )
    with pytest.raises(ValueError, match="image_aspect must be pad, crop or resize"):
        vlm.encode_image(_image())
