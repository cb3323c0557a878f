"""Answer parsing: every answer style models produce, and no silent guessing."""

from __future__ import annotations

import pytest

from pathreport.pathbind.parsing import parse_answer

OPTIONS = {"A": "Adenocarcinoma", "B": "Squamous cell carcinoma", "C": "Lymphoma", "D": "Carcinoma"}


@pytest.mark.parametrize(
    ("raw", "letter", "method"),
    [
        ("<think>A looks likely</think>\n<answer>B</answer>", "B", "answer_tag"),
        ("<answer>A</answer> ... on reflection <answer>(C)</answer>", "C", "answer_tag"),
        ("C", "C", "bare_letter"),
        ("(d).", "D", "bare_letter"),
        ("The answer is (C).", "C", "phrase"),
        ("I first thought A, but the correct answer is option b", "B", "phrase"),
        ("B. Squamous cell carcinoma", "B", "leading_letter"),
        ("<answer>Lymphoma</answer>", "C", "answer_tag+option_text"),
        ("It is squamous cell carcinoma.", "B", "option_text"),
        ("<answer>carcinoma</answer>", "D", "answer_tag+option_text"),
    ],
)
def test_parse_answer_reads_tags_letters_phrases_and_option_text(raw, letter, method):
    parsed = parse_answer(raw, OPTIONS)
    assert (parsed.value, parsed.method, parsed.failed) == (letter, method, False)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("<answer>E</answer>", "letter E is not an option"),
        ("The tissue shows glands.", "no option letter or option text found"),
        ("<think>reasoning that never finishes", "empty output"),
        ("", "empty output"),
        ("<answer>Lymphoma or carcinoma</answer>", "no option letter or option text found"),
    ],
)
def test_parse_answer_reports_unparseable_outputs_with_a_reason(raw, reason):
    parsed = parse_answer(raw, OPTIONS)
    assert parsed.failed and parsed.value is None and parsed.method == "failed"
    assert reason in parsed.reason


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("<answer>yes</answer>", "yes"),
        ("<answer> No </answer>", "no"),
        ("No, there is no invasion.", "no"),
        ("Based on the image, the answer is yes.", "yes"),
        ("Yes", "yes"),
    ],
)
def test_parse_answer_reads_yes_no(raw, value):
    assert parse_answer(raw, None).value == value


def test_parse_answer_refuses_ambiguous_yes_no():
    parsed = parse_answer("It could be yes, or it could be no.", None)
    assert parsed.failed and "no unambiguous yes or no" in parsed.reason
