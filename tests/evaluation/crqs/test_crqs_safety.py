"""The extractor is safe on any input: no crash, no catastrophic regex backtracking, to 100 KB."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathreport.evaluation.crqs import available_schemas, get_extractor, load_schema

# Fragments that exercise every kind of rule: cues, numbers, units, Gleason and count syntax,
# punctuation runs and long runs of one character class (the classic backtracking traps).
FRAGMENTS = [
    "no ", "not identified ", "negative for ", "gleason ", "gleason's score ", "3+4=", "7 (", ")",
    "grade ", "group ", "isup ", "lymph nodes ", "2/14 ", " of ", "1.5 x ", "x ", "cm", "mm", "%",
    "margin ", "margins ", "invasion of the ", "muscle proper", "type:", " - ", ":", ";", ",", ". ",
    "\n", "(", "((((", "++++", "....", "h. pylori ", "carcinoma in situ ", "tumor measures ",
    "olga stage ", "iii ", "g2 ", "pt2a ", "'s", "é–’×",
    "specimen: ", "cutting edge ", "(group ", "primary gleason grade: 3 ", "secondary ", "=",
    "marg: ", "lvi=n | ", "isolated tumor cells in 1/", "cancer thrombus ", "ganglia ", "(-)",
]  # fmt: skip
MAX_SECONDS = (
    2.0  # a linear extractor needs well under 0.1 s for 100 KB; backtracking needs minutes
)


@pytest.fixture(scope="module")
def extractors():
    return [get_extractor("rule", load_schema(name)) for name in available_schemas()]


def _timed(extractor, text: str) -> dict:
    start = time.perf_counter()
    fields = extractor.extract(text)
    elapsed = time.perf_counter() - start
    assert elapsed < MAX_SECONDS, (
        f"{extractor.schema.name}: {elapsed:.2f} s on {len(text)} characters"
    )
    assert isinstance(fields, dict)
    return fields


@pytest.mark.parametrize(
    "text",
    [
        " " * 100_000,
        "no " * 33_000,
        "1" * 100_000,
        "3+" * 50_000,
        "1.5 x " * 16_000 + "cm",
        "lymph nodes (" * 7_000,
        ", 1" * 33_000,
        "type:" + " a" * 50_000,
        "gleason's score " * 6_000,
        "\n" * 100_000,
        "-" * 100_000,
        "é–—’×\u00a0ß" * 14_000,
    ],
    ids=[
        "spaces",
        "cues",
        "digits",
        "plus",
        "dimensions",
        "parens",
        "commas",
        "type",
        "gleason",
        "newlines",
        "dashes",
        "unicode",
    ],
)
def test_safety_adversarial_100kb_inputs_finish_quickly(extractors, text):
    for extractor in extractors:
        fields = _timed(extractor, text)  # asserts the time limit
        assert all(isinstance(k, str) for k in fields)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    parts=st.lists(
        st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=40)), min_size=1, max_size=60
    ),
    repeat=st.integers(min_value=1, max_value=2_000),
)
def test_safety_random_text_never_fails_or_hangs(extractors, parts, repeat):
    text = ("".join(parts) * repeat)[:100_000]
    results = [_timed(extractor, text) for extractor in extractors]
    # Deterministic: the same text always gives the same fields.
    assert results[0] == extractors[0].extract(text)
