"""The VQA protocol with fake models of known behaviour: Multimodal Gain, conditions, parsing
failures, averaging and resuming."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pathreport.pathbind import PathBind
from pathreport.pathbind.config import VLMDecodingConfig, VQAConfig
from pathreport.pathbind.data import read_vqa
from pathreport.pathbind.vqa import plan_images
from tests.helpers.pathbind import blind_vlm, colour_vqa_file, seeing_vlm

ANSWERS = [
    ("A", "D1", "PathMMU"),
    ("B", "D1", "PathMMU"),
    ("A", "D1", "PathVQA"),
    ("C", "D2", "PathVQA"),
    ("D", "D2", "PathMMU"),
    ("A", "D2", "PathVQA"),
    ("B", "D2", "PathMMU"),
    ("A", "D3", "PathVQA"),
]


@pytest.fixture
def items(tmp_path):
    path = colour_vqa_file(tmp_path, ANSWERS)
    return path, read_vqa(path)


def test_vqa_model_that_ignores_the_image_has_zero_multimodal_gain(tmp_path, items):
    path, data = items
    doc = PathBind().vqa(blind_vlm(), data, tmp_path / "out", questions_file=path)
    assert doc["gain"] == {"D1": 0.0, "D2": 0.0, "D3": 0.0, "Avg": 0.0}
    assert doc["cells"]["image"]["D2"]["n"] == 4
    assert (
        0 < doc["pooled_accuracy"]["image"] < 100
    )  # the fake is right on some items and wrong on others


def test_vqa_model_that_reads_the_image_gains_exactly_its_text_only_errors(tmp_path, items):
    path, data = items
    doc = PathBind().vqa(seeing_vlm(), data, tmp_path / "out", questions_file=path)
    # with the image every answer is right; without it the model always says A
    assert doc["cells"]["image"]["D1"]["accuracy"] == 100.0
    text = {"D1": 100 * 2 / 3, "D2": 100 * 1 / 4, "D3": 100.0}
    for column, accuracy in text.items():
        assert doc["cells"]["text"][column]["accuracy"] == pytest.approx(accuracy)
        assert doc["gain"][column] == pytest.approx(100.0 - accuracy)
    # Avg is the unweighted mean of the three columns, not the pooled accuracy over 8 items
    assert doc["avg"]["text"] == pytest.approx(np.mean(list(text.values())))
    assert doc["pooled_accuracy"]["text"] == pytest.approx(100 * 4 / 8)
    assert doc["gain"]["Avg"] == pytest.approx(100.0 - np.mean(list(text.values())))
    assert doc["random"]["Avg"] == pytest.approx(25.0)


def test_vqa_text_condition_sends_the_same_prompts_without_the_image(tmp_path, items):
    path, data = items
    vlm = blind_vlm()
    PathBind().vqa(vlm, data[:2], tmp_path / "out", questions_file=path)
    (s1, u1, i1), (s2, u2, i2), *_ = vlm.calls
    assert (s1, u1) == (s2, u2) and i1 is not None and i2 is None
    assert "provided pathology image" in s2 and "<answer>" in s2 and "<think>" in s2
    assert u1.startswith("Question number 0?\nA. option a\nB. option b\nC. option c\nD. option d\n")


def test_vqa_unparseable_answers_are_counted_and_reported(tmp_path, items):
    path, data = items
    config = VQAConfig(conditions=("image", "blank"))
    doc = PathBind().vqa(seeing_vlm(), data, tmp_path / "out", config, questions_file=path)
    # the white blank image carries no colour the fake can read: every blank answer is unparsed
    assert doc["unparsed"]["blank"] == {"count": 8, "rate": 100.0}
    assert doc["cells"]["blank"]["D1"] == {
        "n": 3,
        "n_scored": 3,
        "n_correct": 0,
        "n_unparsed": 3,
        "accuracy": 0.0,
    }
    excluded = PathBind().vqa(
        seeing_vlm(),
        data,
        tmp_path / "out2",
        VQAConfig(conditions=("image", "blank"), unparsed="exclude"),
    )
    assert (
        excluded["cells"]["blank"]["D1"]["n_scored"] == 0
        and excluded["unparsed"]["blank"]["count"] == 8
    )
    answers = [
        json.loads(line) for line in (tmp_path / "out" / "answers.jsonl").read_text().splitlines()
    ]
    blank = [a for a in answers if a["condition"] == "blank"]
    assert all(a["parse_failed"] and not a["correct"] and a["parse_reason"] for a in blank)


def test_vqa_replacement_images_are_reproducible_and_come_from_the_right_subset(tmp_path, items):
    path, data = items
    config = VQAConfig(conditions=("same_subset", "cross_subset"), seed=7)
    plan = plan_images(data, config)
    assert plan == plan_images(list(reversed(data)), config)  # a draw never depends on item order
    pool = {item.id: item.source for item in data}
    for (item_id, condition), choice in plan.items():
        assert choice.source != item_id
        assert (pool[choice.source] == pool[item_id]) == (condition == "same_subset")
    doc = PathBind().vqa(seeing_vlm(), data, tmp_path / "out", config, questions_file=path)
    answers = [
        json.loads(line) for line in (tmp_path / "out" / "answers.jsonl").read_text().splitlines()
    ]
    by_id = {item.id: item for item in data}
    for answer in answers:  # the fake reads the replacement's colour, i.e. the replacement's answer
        assert answer["parsed"] == by_id[answer["image_source"]].answer
    assert set(doc["conditions"]) == {"same_subset", "cross_subset"}


def test_vqa_blur_conditions_and_settings_are_recorded(tmp_path, items):
    path, data = items
    config = VQAConfig(
        conditions=("image", "text", "blur"),
        blur_radii=(1.0, 3.0),
        decoding=VLMDecodingConfig(max_new_tokens=16),
    )
    doc = PathBind().vqa(seeing_vlm(), data[:2], tmp_path / "out", config, questions_file=path)
    assert doc["conditions"] == ["image", "text", "blur_1", "blur_3"]
    settings = json.loads((tmp_path / "out" / "run.json").read_text())
    assert settings["config"]["decoding"] == {
        "do_sample": False,
        "temperature": 0.0,
        "top_p": 1.0,
        "max_new_tokens": 16,
        "seed": 0,
    }
    assert settings["data"]["n_items"] == 2 and len(settings["data"]["sha256"]) == 64
    assert (tmp_path / "out" / "table.md").read_text().count("seeing") == 2


def test_vqa_resume_continues_and_refuses_changed_settings(tmp_path, items):
    path, data = items
    vlm = blind_vlm()
    PathBind().vqa(vlm, data[:3], tmp_path / "out", questions_file=path)
    with pytest.raises(ValueError, match="already exists; pass --resume"):
        PathBind().vqa(vlm, data, tmp_path / "out", questions_file=path)
    resumed = blind_vlm()
    doc = PathBind().vqa(resumed, data[:3], tmp_path / "out", questions_file=path, resume=True)
    assert resumed.calls == [] and doc["cells"]["image"]["D1"]["n"] == 3
    with pytest.raises(ValueError, match="settings differ"):
        PathBind().vqa(
            blind_vlm(),
            data[:3],
            tmp_path / "out",
            VQAConfig(seed=1),
            questions_file=path,
            resume=True,
        )


def test_vqa_columns_by_component_and_dimension_follow_the_paper_order(tmp_path):
    path = colour_vqa_file(tmp_path, [("A", "D2", "S"), ("B", "D1", "S")], component="PathBind-VQA")
    doc = PathBind().vqa(seeing_vlm(), read_vqa(path), tmp_path / "out")
    assert doc["columns"] == ["PathBind-VQA D1", "PathBind-VQA D2"]
