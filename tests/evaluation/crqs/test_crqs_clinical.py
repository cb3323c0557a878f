"""CRQS as a clinical metric: severity weights, profiles, list negation, open-class values.

These properties are what separate CRQS from a lexical metric: a wrong margin status must cost
more than a differently named biopsy procedure; "no A, B or C" negates all three; a diagnosis the
vocabulary does not list is still a diagnosis; the order of numbered items changes nothing.
"""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import (
    CRQSConfig,
    SchemaError,
    build_schema,
    extract,
    score_fields,
    score_pair,
)
from pathreport.evaluation.crqs.extractors import get_extractor

TOY = {
    "name": "toy",
    "key_fields": ["diagnosis"],
    "profiles": {"paper": {"fields": ["diagnosis", "specimen"], "key_fields": ["diagnosis"]}},
    "fields": [
        {
            "name": "diagnosis",
            "type": "categorical",
            "severity": "critical",
            "values": {
                "hyperplasia": ["hyperplasia"],
                "adenoma": {"synonyms": ["adenoma"], "implies": {"margin": "free"}},
                "carcinoma": ["carcinoma", "adenocarcinoma"],
            },
            "open_class": {"heads": ["tumor"], "suffixes": ["oma"], "exclude": ["stroma"]},
            "select": "max",
        },
        {"name": "entities", "type": "categorical", "values_from": "diagnosis", "select": "all"},
        {"name": "necrosis", "type": "presence", "values": {"present": ["necrosis"]}},
        {"name": "lvi", "type": "presence", "values": {"present": ["lymphovascular invasion"]}},
        {"name": "pni", "type": "presence",
         "values": {"present": ["perineural invasion", "perineural"]}},
        {"name": "margin", "type": "categorical", "severity": "critical",
         "values": {"involved": ["margin involved"], "free": ["margin free"]}},
        {"name": "specimen", "type": "categorical", "severity": "minor",
         "values": {"biopsy": ["biopsy"], "resection": ["resection"]}},
    ],
}  # fmt: skip
SCHEMA = build_schema(TOY)


def fields(text: str, schema=SCHEMA) -> dict:
    return get_extractor("rule", schema).extract(text)


def test_crqs_severity_a_critical_error_costs_more_than_a_minor_one():
    ref = {"diagnosis": "carcinoma", "margin": "free", "necrosis": "present", "specimen": "biopsy"}
    wrong_margin = score_fields(ref, {**ref, "margin": "involved"}, SCHEMA, CRQSConfig())
    wrong_specimen = score_fields(ref, {**ref, "specimen": "resection"}, SCHEMA, CRQSConfig())
    assert wrong_margin.CRQS < wrong_specimen.CRQS < 1.0
    # By hand: weights 3 (diagnosis), 3 (margin), 1 (necrosis), 0.25 (specimen); total 7.25.
    assert pytest.approx(7 / 7.25) == wrong_specimen.CFC
    assert pytest.approx(3 / 7.25) == wrong_margin.CDS
    # Unweighted, both errors cost the same (the paper's counts).
    uniform = CRQSConfig(weighting="uniform")
    assert (
        pytest.approx(score_fields(ref, {**ref, "specimen": "resection"}, SCHEMA, uniform).CRQS)
        == score_fields(ref, {**ref, "margin": "involved"}, SCHEMA, uniform).CRQS
    )


def test_crqs_a_set_field_keeps_the_share_of_its_elements_both_reports_state():
    sites = {
        "name": "sites",
        "fields": [
            {"name": "diagnosis", "type": "categorical", "severity": "critical",
             "values": {"carcinoma": ["carcinoma"]}},
            {"name": "cores", "type": "categorical", "select": "all",
             "values": {"left apex": ["left apex"], "left base": ["left base"],
                        "right apex": ["right apex"], "right base": ["right base"]}},
            {"name": "free_statements", "type": "count", "select": "number", "negatable": True,
             "negated_value": "absent", "negated_mentions": ["tumor"]},
        ],
    }  # fmt: skip
    schema = build_schema(sites)
    ref = {"diagnosis": "carcinoma", "cores": "left apex + left base + right apex + right base"}
    one_dropped = score_fields(
        ref, {**ref, "cores": "left apex + left base + right apex"}, schema, CRQSConfig()
    )
    all_moved = score_fields(ref, {**ref, "cores": "left apex"}, schema, CRQSConfig())
    # By hand: weights 3 (diagnosis) + 1 (cores); three of four cores shared -> 3.75 of 4.
    assert pytest.approx(3.75 / 4) == one_dropped.CFC
    assert pytest.approx(0.25 / 4) == one_dropped.CDS
    assert one_dropped.discordant == ["cores"]  # still reported as a discordant field
    assert 1.0 > one_dropped.CRQS > all_moved.CRQS
    # Three of four tumour-free statements shared.
    counted = {"diagnosis": "carcinoma", "free_statements": "4"}
    three = score_fields(counted, {**counted, "free_statements": "3"}, schema, CRQSConfig())
    assert pytest.approx(3.75 / 4) == three.CFC
    # The paper's unweighted counts have no partial credit.
    uniform = score_fields(
        ref, {**ref, "cores": "left apex + left base + right apex"}, schema,
        CRQSConfig(weighting="uniform"),
    )  # fmt: skip
    assert pytest.approx(0.5) == uniform.CFC


def test_crqs_profiles_restrict_fields_and_drop_implications_outside_them():
    paper = SCHEMA.for_profile("paper")
    assert paper.field_names == ("diagnosis", "specimen") and paper.profile == "paper"
    assert paper.digest != SCHEMA.digest and paper.describe()["schema_profile"] == "paper"
    assert fields("Adenoma, biopsy. Necrosis present.", paper) == {
        "diagnosis": "adenoma",
        "specimen": "biopsy",
    }
    assert fields("Adenoma.")["margin"] == "free"  # the complete profile keeps the implication
    with pytest.raises(SchemaError, match="no profile 'papr'. Did you mean 'paper'"):
        SCHEMA.for_profile("papr")


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"severity": "fatal"}, "severity 'fatal'"),
        ({"open_class": {"max_modifiers": 2}}, "needs 'heads' or 'suffixes'"),
        ({"values_from": "nonexistent"}, "values_from 'nonexistent'"),
    ],
)
def test_crqs_schema_rejects_bad_clinical_keys(bad, message):
    raw = {
        "name": "toy",
        "fields": [{"name": "x", "type": "presence", "values": {"present": ["x"]}}],
    }
    raw["fields"][0].update(bad)
    with pytest.raises(SchemaError, match=message):
        build_schema(raw)


def test_crqs_profile_must_name_schema_fields():
    raw = dict(TOY, profiles={"paper": {"fields": ["diagnosis", "grade"]}})
    with pytest.raises(SchemaError, match=r"\['grade'\] are not fields"):
        build_schema(raw)


@pytest.mark.parametrize(
    "text",
    [
        "No necrosis, lymphovascular invasion or perineural invasion.",
        "No lymphovascular invasion, necrosis, or perineural invasion is identified.",
        "Necrosis, lymphovascular invasion, and perineural invasion are not identified.",
        "Lymphovascular invasion, perineural invasion, necrosis: not identified.",
        "Negative for: necrosis, lymphovascular invasion and perineural invasion.",
        "Necrosis, lymphovascular invasion and perineural invasion were not identified.",
    ],
)
def test_crqs_one_negation_covers_a_list_of_findings(text):
    found = fields(text)
    assert (found["necrosis"], found["lvi"], found["pni"]) == ("absent", "absent", "absent")


def test_crqs_list_negation_stops_where_the_list_does():
    assert fields("No necrosis, lymphovascular invasion present.")["lvi"] == "present"
    assert fields("No necrosis; perineural invasion present.")["pni"] == "present"
    found = fields("1. Hyperplasia without necrosis, (2) adenoma")
    assert found["necrosis"] == "absent" and found["diagnosis"] == "adenoma"
    # ", and" after a single item joins a new clause: a two-item list takes no comma.
    found = fields("Margin free of necrosis, and carcinoma is seen in the second piece.")
    assert found["necrosis"] == "absent" and found["diagnosis"] == "carcinoma"
    assert (
        fields("No necrosis, lymphovascular invasion, and perineural invasion.")["pni"] == "absent"
    )


def test_crqs_an_explicit_status_outranks_a_bare_mention():
    found = fields("Perineural invasion: not identified. A nerve with perineural fibrosis.")
    assert found["pni"] == "absent"
    assert fields("Tumour with perineural invasion.")["pni"] == "present"
    assert fields("Perineural invasion: present. No perineural invasion in block B.")["pni"] == (
        "present"
    )


def test_crqs_open_class_names_unlisted_entities_and_they_are_discordant():
    assert fields("Granular cell tumor, biopsy.")["diagnosis"] == "unlisted: granular cell tumor"
    assert fields("Xanthoma.")["diagnosis"] == "unlisted: xanthoma"
    assert "diagnosis" not in fields("Fibrous stroma, biopsy.")  # excluded word
    assert "diagnosis" not in fields("No xanthoma.")  # negated
    assert fields("Adenoma next to a xanthoma.")["diagnosis"] == "adenoma"  # listed value wins
    ref = fields("Carcinoma, biopsy.")
    score = score_fields(ref, fields("Xanthoma, biopsy."), SCHEMA, CRQSConfig())
    assert "diagnosis" in score.discordant


def test_crqs_main_diagnosis_and_entity_set_ignore_item_order():
    a = fields("1. Hyperplasia\n2. Adenoma")
    b = fields("1. Adenoma\n2. Hyperplasia")
    assert a == b and a["diagnosis"] == "adenoma" and a["entities"] == "hyperplasia + adenoma"
    dropped = fields("1. Adenoma")
    assert score_fields(a, dropped, SCHEMA, CRQSConfig()).discordant == ["entities"]


def test_crqs_reg2025_profiles_and_real_report_shapes():
    report = (
        "Prostate, biopsy;\n  Acinar adenocarcinoma, Gleason's score 7 (3+4), grade group 2 "
        "(Gleason pattern 4: 10%), tumor volume: 30%"
    )
    complete = extract(report, "reg2025")
    assert complete["gleason_pattern4_percent"] == 10.0
    assert "gleason_pattern4_percent" not in extract(report, "reg2025", profile="paper")
    more_pattern4 = report.replace("10%", "40%")
    assert score_pair(report, more_pattern4, "reg2025").CRQS < 1.0
    assert pytest.approx(1.0) == score_pair(report, more_pattern4, "reg2025", profile="paper").CRQS
    gastritis = extract(
        "Stomach, endoscopic biopsy;\n  Chronic active gastritis\n   with 1) interstinal "
        "metaplasia\n"
        "         2) lymphoid aggregates",
        "reg2025",
    )
    assert gastritis["intestinal_metaplasia"] == gastritis["lymphoid_aggregates"] == "present"
    assert gastritis["inflammation_activity"] == "chronic active"
    flipped = extract("Stomach, biopsy;\n  Chronic gastritis\n   without ulcer", "reg2025")
    assert flipped["ulceration"] == "absent"


def test_crqs_evaluate_cli_records_the_profile_and_weighting(tmp_path):
    import json

    from pathreport.app.cli import main

    ref = (
        "Breast, biopsy;\n  Invasive carcinoma of no special type, grade II\n"
        "  Lymphovascular invasion: absent"
    )
    pred = ref.replace("absent", "present")
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"id": "a", "reference": ref, "prediction": pred}) + "\n")
    summaries = {}
    for profile in ("complete", "paper"):
        out = tmp_path / profile
        args = ["evaluate", "--predictions", str(preds), "--dataset", "reg2025", "--out", str(out)]
        assert main([*args, "--metrics", "crqs", "--schema-profile", profile]) == 0
        summaries[profile] = json.loads((out / "summary.json").read_text())
    complete, paper = summaries["complete"], summaries["paper"]
    assert complete["crqs_settings"]["schema_profile"] == "complete"
    assert complete["crqs_settings"]["field_weighting"] == "severity"
    assert paper["crqs_settings"]["schema_profile"] == "paper"
    assert paper["crqs_settings"]["field_weighting"] == "uniform"
    # The paper's REG fields have no lymphovascular invasion: only the complete profile sees it.
    assert complete["CRQS"] < 1.0 and paper["CRQS"] == 1.0


@pytest.mark.parametrize(
    "text, count",
    [
        ("Lymph nodes, right, dissection: Seven benign lymph nodes.", "0/7"),
        ("Left neck dissection shows twenty-five benign lymph nodes.", "0/25"),
        ("Four lymph nodes in the right central neck were negative for malignancy.", "0/4"),
        ("Axilla: one lymph node showing micrometastatic carcinoma.", "1"),
        ("One central lymph node examined was negative for carcinoma.", "0/1"),
        ("Multiple lymph nodes were identified and involved by metastatic melanoma.", "present"),
        ("Pelvic lymph nodes were also excised, which are negative for tumor.", "absent"),
        ("Pelvic lymph nodes were also excised, which are involved by carcinoma.", "present"),
        ("The hilar lymph nodes were not involved by tumor.", "absent"),
    ],
)
def test_crqs_node_counts_stated_as_a_status_are_counts(text, count):
    assert extract(text, "tcga")["lymph_node_involvement"] == count


def test_crqs_pattern_value_templates_are_checked_against_the_regex():
    raw = {"name": "toy", "fields": [{"name": "n", "type": "count", "patterns": [
        {"regex": "(?P<n>\\d+) benign nodes", "value": "0/{n}"}]}]}  # fmt: skip
    schema = build_schema(raw)
    assert fields("7 benign nodes", schema) == {"n": "0/7"}
    raw["fields"][0]["patterns"][0]["value"] = "0/{total}"
    with pytest.raises(SchemaError, match=r"names group\(s\) \['total'\]"):
        build_schema(raw)


def test_crqs_each_reads_every_value_inside_a_region():
    raw = {"name": "toy", "fields": [{"name": "n", "type": "count", "select": "total",
        "patterns": [{"regex": "nodes (?P<value>\\([^()]*\\))",
                      "each": "(?P<value>\\d+/\\d+)"}]}]}  # fmt: skip
    schema = build_schema(raw)
    assert fields("nodes (right 1/4, left 0/3)", schema) == {"n": "1/7"}
    # Equal parts of one breakdown are two stations, not one count stated twice.
    assert fields("nodes (right 0/5, left 0/5)", schema) == {"n": "0/10"}
    raw["fields"][0]["patterns"][0]["value"] = "present"
    with pytest.raises(SchemaError, match="'each' reads several values"):
        build_schema(raw)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        # A breakdown that adds up to the stated total keeps the total; one that does not is
        # another count.
        ("Lymph nodes: 4/26 (perigastric 1/8, left gastric 3/11, other stations 0/7).", "4/26"),
        ("Lymph nodes: 4/26 (perigastric 1/8, left gastric 3/11, other stations 2/7).", "10/52"),
        ("Station 10R: carcinoma in 1 of 3 nodes; stations 7 and 4L: 0 of 6.", "1/9"),
        # Stations with equal counts, and the same breakdown read by several rules.
        ("Lymph nodes: level II 0/6, level III 0/4, level IV 0/6, level V 0/1.", "0/17"),
        ("Obturator lymph nodes (left 0/3, right 0/3): benign.", "0/6"),
        ("Lymph nodes: 1/9 (level I 0/4, level II 1/1, level III 0/4).", "1/9"),
        # A count restated in brackets, and the same statement with a changed count.
        ("Nineteen lymph nodes all free (pN0, 0/19).", "0/19"),
        ("Two lymph nodes all free (pN0, 0/19).", "0/21"),
        ("Lymph nodes: six nodes, no metastasis (0/6).", "0/6"),
        # Two groups that share one status.
        ("Five lymph nodes from the right pelvis and two from the left were negative.", "0/7"),
        (
            "Four lymph nodes with fat from level 3 and one lymph node from level 4 had no tumor.",
            "0/5",
        ),
        ("Two lymph nodes and three blocks were negative.", "0/2"),
    ],
)
def test_crqs_node_counts_spread_over_a_statement(text, count):
    assert extract(text, "tcga")["lymph_node_involvement"] == count


def test_crqs_a_negated_mention_inside_another_finding_belongs_to_it():
    # "no perineural invasion" excludes perineural invasion, not malignancy.
    found = extract("Prostate biopsy: acinar adenocarcinoma. No perineural invasion.", "histai")
    assert found["perineural_invasion"] == "absent" and "malignancy_status" not in found
    assert (
        extract("Breast: fibroadenoma. No invasive carcinoma.", "histai")["malignancy_status"]
        == "absent"
    )
    # Beside DCIS (itself malignant) the same sentence rules out invasion, not malignancy.
    found = extract("Breast: DCIS. No invasive carcinoma.", "histai")
    assert found["invasion_status"] == "absent" and "malignancy_status" not in found


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_crqs_a_side_moved_between_two_structures_is_discordant(dataset):
    # Both reports state a left and a right side: only the side of each structure tells them apart.
    ref = "Right ovary: cyst. Left ovary and left fallopian tube: no tumor."
    swapped = "Left ovary: cyst. Right ovary and right fallopian tube: no tumor."
    assert (
        extract(ref, dataset)["lateral_sites"]
        == "left fallopian tube free + left ovary free + right ovary"
    )
    assert extract(swapped, dataset)["laterality"] == extract(ref, dataset)["laterality"]
    assert "lateral_sites" in score_pair(ref, swapped, dataset).discordant
    cores = "Left apex: adenocarcinoma. Right base, right apex: benign."
    assert (
        "lateral_sites"
        in score_pair(cores, cores.replace("Right base", "Left base"), dataset).discordant
    )
    header = extract("Breast, right, core biopsy: invasive carcinoma.", dataset)
    assert header["lateral_sites"] == "right breast"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_crqs_the_side_whose_nodes_are_involved_is_compared(dataset):
    # Both reports name left and right pelvic nodes; only one side holds the metastases.
    ref = (
        "Three of nine right pelvic lymph nodes involved by metastatic carcinoma. "
        "No evidence of tumor in the seven left pelvic lymph nodes."
    )
    swapped = ref.replace("right", "LEFT").replace("left", "right").replace("LEFT", "left")
    assert extract(ref, dataset)["lateral_sites"] == "left pelvic free + right pelvic"
    assert "lateral_sites" in score_pair(ref, swapped, dataset).discordant
    # A structure that labels its clause takes the clause's status; a free margin is not the
    # structure's status, and a status far away in a run-on clause is not either.
    assert extract("Right lobe: high-grade PIN, no carcinoma.", dataset)["lateral_sites"] == (
        "right lobe free"
    )
    assert extract("Left lobe: adenocarcinoma, margins negative.", dataset)["lateral_sites"] == (
        "left lobe"
    )
    run_on = (
        "Specimen: right breast and axillary contents Diagnosis: invasive ductal carcinoma "
        "grade 3 size 5.5 cm estrogen receptor positive progesterone receptor positive HER2 "
        "equivocal lymph nodes negative for tumor"
    )
    assert extract(run_on, dataset)["lateral_sites"] == "right breast"


@pytest.mark.parametrize("dataset", ["tcga", "histai"])
def test_crqs_a_missing_item_is_not_a_negated_finding(dataset):
    # "Age not specified" ends a flattened header line; the specimen after it is not negated.
    text = "Patient: female, age not specified Specimen: right breast and axillary lymph nodes"
    assert extract(text, dataset)["lateral_sites"] == "right breast"
    assert "tumor_free_sites" not in extract(text, dataset)


@pytest.mark.parametrize("dataset", ["tcga", "histai", "reg2025"])
def test_crqs_a_differentiation_range_is_one_grade(dataset):
    def grade(text):
        return extract(f"Adenocarcinoma, {text} differentiated.", dataset)["differentiation"]

    assert grade("well to moderately") == "well to moderate"
    assert grade("poorly to moderately") == grade("moderately to poorly") == "moderate to poor"
    assert grade("well to moderately") != grade("poorly to moderately")


def test_crqs_tcga_structure_invaded_is_read_from_any_verb_form():
    # The depth of a soft-tissue tumour (subcutis vs skeletal muscle) changes its stage.
    muscle = "The sarcoma was seen to infiltrate the skeletal muscle."
    assert extract(muscle, "tcga")["organ_involvement"] == "skeletal muscle"
    fat = muscle.replace("skeletal muscle", "subcutaneous fat")
    assert extract(fat, "tcga")["organ_involvement"] == "subcutaneous tissue"
    assert "organ_involvement" in score_pair(muscle, fat, "tcga").discordant
    assert "organ_involvement" not in extract("It does not invade the skeletal muscle.", "tcga")
    deep = extract("The tumour extends into the deep subcutaneous tissue.", "tcga")
    assert deep["organ_involvement"] == "subcutaneous tissue"


TCGA_STATUS_WORDINGS = {
    "The margins are without tumor.": ("margin_status", "negative"),
    "The lymph nodes sampled are without carcinoma.": ("lymph_node_involvement", "absent"),
    "Sarcoma involving the deep , lateral , and medial margins.": ("margin_status", "positive"),
    "No lymphatic or perineural infiltration is seen.": ("lymphovascular_invasion", "absent"),
    "Venous or perineural involvement is present.": ("lymphovascular_invasion", "present"),
    "All sentinel nodes were positive for cancer.": ("lymph_node_involvement", "present"),
    "Sentinel lymph node #2 of the axilla is positive for carcinoma.": (
        "lymph_node_involvement",
        "present",
    ),
    "The thyroid gland was found to be involved by tumor.": ("organ_involvement", "thyroid"),
}


def test_crqs_tcga_status_wordings_of_margins_nodes_and_vessels():
    found = {
        text: extract(text, "tcga").get(field) for text, (field, _) in TCGA_STATUS_WORDINGS.items()
    }
    assert found == {text: value for text, (_, value) in TCGA_STATUS_WORDINGS.items()}


def test_crqs_tcga_biomarker_statuses_are_a_set_and_do_not_cross_markers():
    # Two statuses of one marker contradict each other: that is not the report that states one.
    one = "Glioma. The MGMT promoter is methylated."
    both = one + " MGMT promoter methylation was not detected."
    assert extract(both, "tcga")["mgmt_status"] == "methylated + unmethylated"
    assert "mgmt_status" in score_pair(one, both, "tcga").discordant
    # A status belongs to the marker it follows, not to one across "and" or a list dash.
    found = extract("The cells are positive for IDH1 and negative for p53.", "tcga")
    assert found["idh_status"] == "mutant" and found["p53_status"] == "negative"
    found = extract(
        "- Negative for IDH1-R132H immunostain - Positive for 1p/19q codeletion", "tcga"
    )
    assert found["idh_status"] == "wild type"
    # A negated entity that only marks an absence still gives way to a stated one.
    assert (
        extract("Ductal carcinoma in situ; no lobular carcinoma in situ.", "tcga")[
            "in_situ_component"
        ]
        == "dcis"
    )


def test_crqs_the_greatest_of_several_sizes_is_the_tumour_size():
    two = "Colon, polypectomy: (1) tubular adenoma, 5 mm; (2) tubular adenoma, 8 mm."
    assert extract(two, "histai")["tumor_size"] == 0.8
    assert "tumor_size" in score_pair(two, two.replace("8 mm", "3 mm"), "histai").discordant


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # HER2: the in situ hybridisation result settles an equivocal IHC score.
        ("HER2: IHC 2+ (equivocal); SISH amplified, ratio 2.4.", "her2_status", "positive"),
        ("HER2 by IHC 2+, FISH not amplified (ratio 1.2).", "her2_status", "negative"),
        ("HER2 2+ by IHC with no amplification on dual-probe ISH.", "her2_status", "negative"),
        ("HER2 ISH: group 5, non-amplified.", "her2_status", "negative"),
        ("HER2 (4B5): score 1+.", "her2_status", "negative"),
        ("ER+, PR-, HER2-.", "her2_status", "negative"),
        ("HER2 3+. EBER-ISH negative.", "her2_status", "positive"),
        # Hormone receptors by Allred score, percentage or absent staining.
        ("ER (SP1): Allred score 7/8.", "er_status", "positive"),
        ("PgR: Allred 2/8.", "pr_status", "negative"),
        ("ER: 0% of invasive tumour nuclei.", "er_status", "negative"),
        ("Oestrogen receptor: 85% strong.", "er_status", "positive"),
        ("PR: no nuclear staining in the tumour.", "pr_status", "negative"),
        # Mismatch repair.
        ("No loss of mismatch repair proteins by IHC.", "mmr_msi_status", "proficient"),
        ("MMR immunohistochemistry: no loss.", "mmr_msi_status", "proficient"),
        ("No loss of MLH1, PMS2, MSH2 or MSH6 expression.", "mmr_msi_status", "proficient"),
        # Size labels and dimensions with a unit each.
        ("Size of invasive component: 14 mm.", "tumor_size", 1.4),
        ("Greatest dimension (centimeters): 2.7 cm", "tumor_size", 2.7),
        ("Tumour dimensions: 1.9 cm x 3.1 cm x 2.2 cm.", "tumor_size", 3.1),
        # Gleason given as primary and secondary patterns.
        ("Gleason pattern: primary 3, secondary 4; total 7.", "gleason_score", "3+4=7"),
        ("Primary grade: 4. Secondary grade: 3.", "gleason_score", "4+3=7"),
    ],
)  # fmt: skip
def test_biomarkers_sizes_and_gleason_in_synoptic_and_prose_forms(text, field, value):
    assert extract(text, "tcga")[field] == value


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Three out of twenty-four regional nodes contain metastatic carcinoma.", "3/24"),
        (
            "Four of 13 axillary nodes and two of twenty-one iliac nodes are involved.",
            "6/34",
        ),
        ("Metastatic carcinoma in two (2) of nineteen (19) lymph nodes.", "2/19"),
        ("Regional lymph nodes: 3 positive / 11 examined.", "3/11"),
        ("Lymph nodes: 1 positive (deposit 4 mm) out of 9 examined.", "1/9"),
        ("Lymph nodes examined: 16. Lymph nodes positive: 0.", "0/16"),
    ],
)
def test_node_counts_with_compound_numbers_echoes_and_synoptic_labels(text, count):
    """ "twenty-four" is one number, not also "four"; "two (2)" is one number."""
    assert extract(text, "tcga")["lymph_node_involvement"] == count


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Lymph nodes: right pelvic 0/11, left pelvic 2/9.", "2/20"),
        ("Neck: left 0/17; right 1/22, largest deposit 9 mm.", "1/39"),
    ],
)
def test_a_labelled_list_of_node_counts_adds_up(text, count):
    assert extract(text, "tcga")["lymph_node_involvement"] == count


def test_histai_reads_the_cns_molecular_markers():
    fields = extract(
        "Diffuse astrocytoma. IDH1 R132H: positive. 1p/19q: not co-deleted. MGMT unmethylated.",
        "histai",
    )
    assert fields["idh_status"] == "mutant"
    assert fields["codeletion_1p19q"] == "not codeleted"
    assert fields["mgmt_status"] == "unmethylated"
