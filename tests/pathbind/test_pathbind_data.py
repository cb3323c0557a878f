"""PathBind data files: the documented formats load, and every mistake is named precisely."""

from __future__ import annotations

import pytest

from pathreport.pathbind.data import DataFormatError, read_grounding, read_vqa
from tests.helpers.pathbind import grounding_line, vqa_line, write_image, write_jsonl


@pytest.fixture
def images(tmp_path):
    write_image(tmp_path / "img" / "a.png", (40, 30))
    write_image(tmp_path / "img" / "b.png", (40, 30), seed=1)
    return tmp_path


def test_read_vqa_accepts_dict_list_and_yes_no_items(images):
    path = write_jsonl(
        images / "vqa.jsonl",
        [
            {
                "id": 1,
                "image": "img/a.png",
                "question": "Which?",
                "options": {"a": "x", "b": "y"},
                "answer": "b",
                "dimension": "d2",
                "source": "PathMMU",
                "component": "PathBind-VQA",
            },
            {
                "id": "two",
                "image_path": "img/b.png",
                "question": "Which?",
                "options": ["x", "y", "z"],
                "answer": "C",
                "source": "PTA",
            },
            {
                "id": "three",
                "image": "img/b.png",
                "question": "Is it?",
                "answer": "Yes",
                "source": "Quilt-VQA",
            },
        ],
    )
    first, second, third = read_vqa(path)
    assert (first.id, first.answer, first.dimension, first.options) == (
        "1",
        "B",
        "D2",
        {"A": "x", "B": "y"},
    )
    assert first.qtype == "mc" and first.pool == "PathMMU"
    assert second.options == {"A": "x", "B": "y", "C": "z"} and second.dimension is None
    assert (third.qtype, third.answer, third.options) == ("yesno", "yes", None)


def test_read_vqa_names_file_line_id_field_and_fix_for_a_missing_image(images):
    path = write_jsonl(
        images / "vqa.jsonl",
        [
            vqa_line(image="img/missing.png"),
        ],
    )
    with pytest.raises(DataFormatError) as err:
        read_vqa(path)
    message = str(err.value)
    assert f"{path}:1 (id 'q1')" in message
    assert (
        "field 'image' is 'img/missing.png'" in message
        and "does not exist" in message
        and "--images" in message
    )


def test_read_vqa_rejects_an_answer_letter_not_among_the_options(images):
    path = write_jsonl(
        images / "vqa.jsonl",
        [
            vqa_line(options=["x", "y", "z", "w"], answer="E"),
        ],
    )
    with pytest.raises(
        DataFormatError,
        match=r"field 'answer' is 'E', which is not among the options \(A, B, C, D\)",
    ):
        read_vqa(path)


def test_read_vqa_lists_every_problem_of_the_file_at_once(images):
    path = write_jsonl(
        images / "vqa.jsonl",
        [
            vqa_line(dimension="D9"),
            vqa_line(),
            {"id": "q3", "image": "img/a.png", "question": "", "answer": "maybe"},
        ],
    )
    (images / "vqa.jsonl").write_text(path.read_text() + "{not json\n")
    with pytest.raises(DataFormatError) as err:
        read_vqa(path)
    message = str(err.value)
    assert message.startswith("6 problem(s)")
    for expected in (
        "field 'dimension' is 'D9'",
        "id is not unique: line 1",
        "field 'question' must be a non-empty string",
        "must be 'yes' or 'no'",
        "field 'source' is missing",
        ":4: not valid JSON",
    ):
        assert expected in message


def test_read_grounding_rejects_a_box_outside_the_image(images):
    path = write_jsonl(
        images / "g.jsonl",
        [
            grounding_line([10, 5, 41, 20]),
        ],
    )
    with pytest.raises(
        DataFormatError,
        match=r"reaches outside the 40x30 image \(x must lie in \[0, 40\], y in \[0, 30\]\)",
    ):
        read_grounding(path)


def test_read_grounding_reads_xywh_boxes_and_image_sizes(images):
    path = write_jsonl(
        images / "g.jsonl",
        [
            grounding_line([10, 5, 20, 10]),
        ],
    )
    (item,) = read_grounding(path, box_format="xywh")
    assert (
        item.box == (10.0, 5.0, 30.0, 15.0)
        and item.image_size == (40, 30)
        and item.split == "testA"
    )
    with pytest.raises(DataFormatError, match="has no area"):
        read_grounding(
            write_jsonl(
                images / "bad.jsonl",
                [grounding_line([10, 5, 5, 10], expression="x")],
            )
        )
