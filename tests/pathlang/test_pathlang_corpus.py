"""The shipped PathLang prompt corpus and the user prompts-file format."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from pathreport.pathlang.corpus import CorpusError, builtin_prompts_path, load_corpus

# Classes per dataset, in the order of the paper's D.T1 table.
EXPECTED_CLASSES = {
    "panda": ("Grade 0", "Grade 1", "Grade 2", "Grade 3", "Grade 4", "Grade 5"),
    "unitopatho": ("NORM", "HP", "TA.LG", "TA.HG", "TVA.LG", "TVA.HG"),
    "camelyon16": ("Normal", "Metastasis"),
    "camelyon17": ("Negative", "ITC", "Micro", "Macro"),
    "tcga_gbmlgg": ("LGG", "GBM"),
}


def _count_strings(value: object) -> int:
    if isinstance(value, str):
        return 1
    if isinstance(value, list):
        return sum(_count_strings(v) for v in value)
    if isinstance(value, dict):
        return sum(_count_strings(v) for v in value.values())
    return 0


def test_corpus_file_has_the_papers_665_strings_unchanged() -> None:
    raw = json.loads(builtin_prompts_path().read_text(encoding="utf-8"))
    per_section = {k: _count_strings(v) for k, v in raw.items() if k != "_meta"}
    assert per_section == {
        "T1_canonical": 20,
        "T2_positive_bank": 80,
        "T3_V1_paraphrases": 100,
        "T3_V2_length_style": 80,
        "T4_set1": 40,
        "T4_set2": 220,
        "T4_set3": 86,
        "T4_set4": 39,
    }
    assert sum(per_section.values()) == 665
    digest = hashlib.sha256(builtin_prompts_path().read_bytes()).hexdigest()
    assert digest == "6d03770e312abbed2825620dfa7489a5c2c110b44a27f7aada6272198d35c535"


def test_corpus_counts_per_dataset_and_class_match_the_spec() -> None:
    corpus = load_corpus()
    assert corpus.names() == sorted(EXPECTED_CLASSES)
    for name, classes in EXPECTED_CLASSES.items():
        ds = corpus.dataset(name)
        assert ds.classes == classes
        assert len(ds.canonical) == len(classes)
        assert all(len(p) == 4 for p in ds.positives)
        assert all(len(p) == 5 for p in ds.paraphrases)
        assert ds.style_names == ("short", "medium", "long", "clinical")
        assert len(ds.set1.pool) == 20 and len(set(ds.set1.pool)) == 20
        assert all(len(pool) == 10 for _, pool in ds.set2)
        assert len(ds.set4.pool) == 19
    assert len(corpus.set4_one_per_label()) == 20
    assert Counter(corpus.set4_one_per_label())["normal lymph node"] == 2
    assert {n: len(corpus.dataset(n).set3_shared_pool) for n in EXPECTED_CLASSES} == {
        "panda": 9,
        "unitopatho": 9,
        "camelyon16": 10,
        "camelyon17": 9,
        "tcga_gbmlgg": 9,
    }
    # The two Set 2 pools with a duplicated distractor (paper D.T6).
    unito, tcga = corpus.dataset("unitopatho"), corpus.dataset("tcga_gbmlgg")
    assert len(set(unito.set2[unito.classes.index("TVA.LG")][1])) == 9
    assert len(set(tcga.set2[tcga.classes.index("LGG")][1])) == 9


def test_corpus_labels_resolve_through_aliases_and_case() -> None:
    corpus = load_corpus()
    c16, panda, c17 = (
        corpus.dataset("CAMELYON16"),
        corpus.dataset("PANDA"),
        corpus.dataset("camelyon17"),
    )
    assert c16.class_index("Tumor") == c16.class_index("metastasis") == 1
    assert panda.class_index("3") == panda.classes.index("Grade 3")
    assert c17.class_index("itc") == 1 and c17.class_index("macro") == 3
    assert c16.class_index("Lymphoma") is None
    assert corpus.dataset("tcga-gbmlgg").key == "TCGA-GBMLGG"


def test_corpus_unknown_dataset_suggests_a_close_name() -> None:
    with pytest.raises(CorpusError, match="Did you mean 'camelyon16'"):
        load_corpus().dataset("camelyn16")


def _user_file(tmp_path, payload: dict) -> str:
    path = tmp_path / "prompts.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    return str(path)


NEW_DATASET = {
    "T1_canonical": {"Skin-X": {"benign": "Benign skin.", "melanoma": "Invasive melanoma."}},
    "T3_V1_paraphrases": {
        "Skin-X": {
            "benign": ["normal skin", "benign dermis"],
            "melanoma": ["melanoma", "malignant melanoma"],
        }
    },
    "T4_set2": {
        "Skin-X": {
            "benign": {"gt": "normal skin", "pool": ["normal skin", "melanoma", "normal skin"]},
            "Mel": {"gt": "melanoma", "pool": ["melanoma", "normal skin"]},
        }
    },
    "_datasets": {
        "Skin-X": {"name": "skin_x", "positive_class": "melanoma", "aliases": {"Mel": "melanoma"}}
    },
}


def test_corpus_user_file_adds_a_sixth_dataset(tmp_path) -> None:
    corpus = load_corpus(_user_file(tmp_path, NEW_DATASET))
    assert "skin_x" in corpus.names() and len(corpus.names()) == 6
    skin = corpus.dataset("skin_x")
    assert skin.classes == ("benign", "melanoma") and skin.positive_class == "melanoma"
    assert skin.set2[1] == (
        "melanoma",
        ("melanoma", "normal skin"),
    )  # "Mel" resolved through the alias
    assert skin.positives is None and skin.set1 is None
    with pytest.raises(CorpusError, match="no T2_positive_bank prompts"):
        skin.require("T2_positive_bank")
    assert corpus.dataset("camelyon16").positives is not None  # shipped datasets untouched


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {
                "T1_canonical": {"Skin-X": {"benign": "a", "melanoma": "b"}},
                "T3_V1_paraphrases": {"Skin-X": {"benign": ["x"], "nevus": ["y"]}},
            },
            "has class 'nevus', which T1_canonical.Skin-X does not define",
        ),
        (
            {
                "T1_canonical": {"Skin-X": {"benign": "a", "melanoma": "b"}},
                "T3_V1_paraphrases": {"Skin-X": {"benign": ["x", "y"], "melanoma": ["z"]}},
            },
            "different numbers of paraphrases per class",
        ),
        (
            {
                "T1_canonical": {"Skin-X": {"benign": "a", "melanoma": "b"}},
                "T4_set2": {
                    "Skin-X": {
                        "benign": {"gt": "zz", "pool": ["x"]},
                        "melanoma": {"gt": "x", "pool": ["x"]},
                    }
                },
            },
            "is not in its pool",
        ),
        ({"T1_canonicals": {}}, "Did you mean 'T1_canonical'"),
        ({"T1_canonical": {"Skin-X": {"benign": "", "melanoma": "b"}}}, "empty string"),
        (
            {
                "T1_canonical": {"Skin-X": {"benign": "a", "melanoma": "b"}},
                "T4_set1": {"gt": {"Skin-X": {"benign": "benign tissue", "melanoma": "melanoma"}}},
            },
            "not in T4_set1.shared_pool",
        ),
    ],
)
def test_corpus_user_file_errors_name_the_place_and_the_fix(
    tmp_path, change: dict, message: str
) -> None:
    path = _user_file(tmp_path, change)
    with pytest.raises(CorpusError, match=message) as err:
        load_corpus(path)
    assert "prompts.json" in str(err.value)
