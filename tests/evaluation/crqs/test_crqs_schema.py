"""CRQS schemas: the shipped field lists, and clear errors for broken schema files."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from pathreport.evaluation.crqs import SchemaError, available_schemas, build_schema, load_schema
from pathreport.evaluation.crqs.schema import DEFAULT_SEVERITY_WEIGHTS

# Field lists and key fields from the paper (App. A.7, Tables 9 and 11) and the authors' code.
REG_FIELDS = {
    "organ_site", "specimen_type", "diagnosis", "histologic_type", "tumor_grade", "gleason_score",
    "grade_group", "tumor_volume", "differentiation", "invasion_depth", "in_situ_component",
    "nuclear_grade", "mitotic_score", "tubule_score", "necrosis", "calcification",
    "dysplasia_grade", "muscle_proper_status",
}  # fmt: skip
HISTAI_FIELDS = [
    "benign_vs_malignant", "diagnosis", "primary_vs_metastatic", "lineage", "histologic_type",
    "in_situ_vs_invasive", "in_situ_component", "tumor_grade", "differentiation", "gleason_score",
    "grade_group", "nuclear_grade", "mitotic_score", "invasion_status", "invasion_depth",
    "lymphovascular_invasion", "perineural_invasion", "extraprostatic_extension", "dysplasia_grade",
    "epithelial_atypia", "necrosis", "inflammation_status", "inflammation_activity",
    "calcification",
    "tumor_extent", "tumor_volume", "atrophy", "intestinal_metaplasia", "metaplasia_type",
    "hpylori_status", "gastritis_type", "olga_stage", "olgim_stage", "polyp_type",
    "serrated_lesion",
    "adenoma_type", "multifocality", "bilateral_involvement",
]  # fmt: skip
TCGA_FIELDS = [
    "benign_vs_malignant", "diagnosis", "primary_vs_metastatic", "lineage", "histologic_type",
    "in_situ_vs_invasive", "in_situ_component", "tumor_focality", "tumor_grade", "differentiation",
    "invasion_status", "lymphovascular_invasion", "perineural_invasion", "capsular_invasion",
    "organ_specific_invasion", "metastatic_involvement", "lymph_node_involvement",
    "multifocal_involvement", "dysplasia_grade", "epithelial_atypia", "carcinoma_in_situ",
    "intratubular_germ_cell_neoplasia", "necrosis", "inflammation_status", "calcification",
    "psammoma_bodies", "hemorrhage", "papillary_features", "cystic_change", "tumor_size",
    "organ_site", "specimen_type", "margin_status",
]  # fmt: skip
HISTAI_KEYS = {
    "benign_vs_malignant", "diagnosis", "histologic_type", "in_situ_vs_invasive", "tumor_grade",
    "gleason_score", "dysplasia_grade", "invasion_status", "intestinal_metaplasia",
    "inflammation_status",
}  # fmt: skip
TCGA_KEYS = {
    "benign_vs_malignant", "diagnosis", "histologic_type", "tumor_grade", "differentiation",
    "invasion_status", "lymphovascular_invasion", "metastatic_involvement", "necrosis",
}  # fmt: skip


def test_schema_shipped_field_lists_match_the_paper():
    reg, histai, tcga = load_schema("reg2025"), load_schema("histai"), load_schema("tcga")
    reg = reg.for_profile(
        "paper"
    )  # the complete profile adds fields; the paper's stay reproducible
    assert set(reg.field_names) == REG_FIELDS and len(reg.field_names) == 18
    assert reg.key_fields == (
        "diagnosis",
        "histologic_type",
        "tumor_grade",
        "gleason_score",
        "invasion_depth",
    )
    for schema, paper_fields, paper_keys in (
        (histai, HISTAI_FIELDS, HISTAI_KEYS),
        (tcga, TCGA_FIELDS, TCGA_KEYS),
    ):
        paper = schema.for_profile("paper")
        assert list(paper.field_names) == paper_fields  # paper order (Tables 9 and 11)
        assert set(paper.key_fields) == paper_keys
        # The complete profile keeps every paper field, in the paper's order, and its key fields.
        assert [f for f in schema.field_names if f in paper_fields] == paper_fields
        assert paper_keys <= set(schema.key_fields)
    assert tcga.field("tumor_size").tolerance_rel == pytest.approx(0.15)
    # REG keeps the disease category and the subtype apart (the reference code filled both).
    assert reg.field("diagnosis").values != reg.field("histologic_type").values


def test_schema_every_shipped_schema_loads_and_records_its_identity():
    assert {"reg2025", "histai", "tcga", "synthetic"} <= set(available_schemas())
    for name in available_schemas():
        described = load_schema(name).describe()
        assert described["schema"] == name and len(described["schema_digest"]) == 12


def _minimal() -> dict:
    return {
        "name": "toy",
        "version": 1,
        "groups": ["diagnosis_hierarchy", "associated_morphology"],
        "key_fields": ["diagnosis"],
        "fields": [
            {
                "name": "diagnosis",
                "group": "diagnosis_hierarchy",
                "type": "categorical",
                "values": {"carcinoma": ["carcinoma"]},
            },
            {
                "name": "necrosis",
                "group": "associated_morphology",
                "type": "presence",
                "values": {"present": ["necrosis"]},
            },
        ],
    }


def _broken(change) -> dict:
    raw = copy.deepcopy(_minimal())
    change(raw)
    return raw


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(colour="red"), r"unknown key\(s\) \['colour'\]"),
        (
            lambda r: r["fields"][0].update(synonym=["x"]),
            r"unknown key\(s\) \['synonym'\].*field 'diagnosis'",
        ),
        (lambda r: r["fields"].append(dict(r["fields"][1])), r"field 'necrosis' is defined twice"),
        (
            lambda r: r.update(key_fields=["diagnosis", "grade"]),
            r"key field 'grade' is not in the field list",
        ),
        (lambda r: r["fields"][0].update(type="category"), r"'type' must be one of"),
        (lambda r: r["fields"][0].update(group="grade"), r"group 'grade' is not declared"),
        (lambda r: r["fields"].reverse(), r"hierarchical group order"),
        (lambda r: r["fields"][1].update(patterns=["(necr"]), r"invalid regex"),
        (
            lambda r: r["fields"][1].update(patterns=[{"regex": "(a+)+b", "value": "present"}]),
            r"catastrophically",
        ),
        (
            lambda r: r["fields"][1].update(patterns=[{"regex": "Necrosis", "value": "present"}]),
            r"lower case",
        ),
        (lambda r: r["fields"][1].update(patterns=["necrosis"]), r"needs a \(\?P<value>"),
        (
            lambda r: r["fields"][1].update(
                patterns=[{"regex": "necrosis", "value": "present", "anchors": "necr"}]
            ),
            r"'anchors' must be a list of literal strings",
        ),
        (
            lambda r: r["fields"][1].update(
                patterns=[{"regex": "necrosis", "value": "present", "total": True}]
            ),
            r"'total: true' states the total of a count, but the field selects",
        ),
        (lambda r: r["fields"][0]["values"].update(adenocarcinoma=["carcinoma"]), r"maps to both"),
        (lambda r: r["fields"][1].update(values={"yes": ["necrosis"]}), r"'present' and 'absent'"),
        (
            lambda r: r["fields"][0]["values"].update(
                x={"synonyms": ["x"], "implies": {"grade": "1"}}
            ),
            r"implies unknown field 'grade'",
        ),
        (
            lambda r: r["fields"][0]["values"].update(
                x={"synonyms": ["x"], "implies": {"necrosis": "maybe"}}
            ),
            r"not a value of 'necrosis'",
        ),
        (lambda r: r["fields"][0].update(tolerance={"abs": 1}), r"only to numeric"),
        (
            lambda r: r["fields"][0].update(equivalent=[["carcinoma"]]),
            r"'equivalent' must be a list of pairs of two different values",
        ),
        (
            lambda r: r["fields"][0].update(equivalent=[["carcinoma", "sarcoma"]]),
            r"equivalent names \['sarcoma'\], which are not values of the field",
        ),
        (lambda r: r.update(name="Toy"), r"'name' must be a dataset name"),
        (
            lambda r: r["fields"][0].update(agrees_within="necrosis"),
            r"field 'diagnosis': agrees_within 'necrosis' must name a numeric field",
        ),
    ],
)
def test_schema_invalid_definitions_fail_with_a_clear_message(change, message):
    with pytest.raises(SchemaError, match=message):
        build_schema(_broken(change))


def test_schema_file_name_must_match_its_name_and_yaml_errors_name_the_file(tmp_path: Path):
    wrong_name = tmp_path / "other.yaml"
    wrong_name.write_text(yaml.safe_dump(_minimal()))
    with pytest.raises(SchemaError, match=r"'name' is 'toy' but the file is other.yaml"):
        load_schema(wrong_name)
    bad_yaml = tmp_path / "toy.yaml"
    bad_yaml.write_text("name: toy\nfields: [a: b: c]\n")
    with pytest.raises(SchemaError, match=r"toy.yaml: not valid YAML"):
        load_schema(bad_yaml)


def test_schema_unknown_dataset_suggests_the_closest_schema():
    with pytest.raises(FileNotFoundError, match=r"Did you mean 'reg2025'"):
        load_schema("reg2026")


@pytest.mark.parametrize("name", ["tcga", "histai"])
def test_schema_complete_profile_declares_a_reasoned_severity_per_field(name):
    raw = yaml.safe_load(Path(load_schema(name).path).read_text(encoding="utf-8"))
    for item in raw["fields"]:
        assert item.get("severity") in DEFAULT_SEVERITY_WEIGHTS, item["name"]
        assert len(str(item.get("severity_reason", ""))) > 20, item["name"]
    schema = load_schema(name)
    assert any("College of American Pathologists" in s for s in schema.sources)
    critical = {f.name for f in schema.fields if f.severity == "critical"}
    # Fields that change management weigh more than specimen wording.
    assert {
        "diagnosis",
        "margin_status",
        "lymph_node_involvement",
        "lymphovascular_invasion",
    } <= critical
    assert schema.field("specimen_type").severity == "minor"


def test_a_replaced_schema_keeps_the_original_s_field_index():
    """``dataclasses.replace`` on a schema (as a profile or a test builds one) must not refill
    the cached original's name index with the copy's fields."""
    import dataclasses

    schema = load_schema("tcga")
    original = schema.field("lymph_node_involvement")
    copy_ = dataclasses.replace(
        schema,
        fields=tuple(dataclasses.replace(f, description="changed") for f in schema.fields),
    )
    assert copy_.field("lymph_node_involvement").description == "changed"
    assert schema.field("lymph_node_involvement") is original


def test_a_key_repeated_in_a_schema_mapping_is_refused(tmp_path):
    """YAML keeps the last of two equal keys in the first one's place, so a vocabulary entry
    written twice would change silently when one copy is edited; the loader names both lines."""
    path = tmp_path / "twice.yaml"
    path.write_text(
        "name: twice\nversion: 1\nfields:\n  - name: diagnosis\n    type: categorical\n"
        "    values:\n      adenoma: [adenoma]\n      adenoma: [tubular adenoma]\n",
        encoding="utf-8",
    )
    with pytest.raises(SchemaError, match=r"line 8: key 'adenoma' repeated \(first on line 7\)"):
        load_schema(path)
