"""The rule extractor: canonical values, negation scope, structured values, per report style."""

from __future__ import annotations

import pytest

from pathreport.evaluation.crqs import build_schema, extract, get_extractor, load_schema


@pytest.mark.parametrize(
    "sentence",
    [
        "No necrosis.",
        "Necrosis: absent.",
        "Tumour necrosis is not identified.",
        "Without necrosis.",
        "Negative for necrosis and lymphovascular invasion.",
    ],
)
def test_extract_negation_forms_give_absent_not_missing(sentence):
    fields = extract("Kidney, nephrectomy: renal cell carcinoma. " + sentence, "tcga")
    assert fields["necrosis"] == "absent"


@pytest.mark.parametrize(
    "sentence",
    [
        "Negative for LVI.",
        "LVI not identified.",
        "Without lymphovascular invasion.",
        "Lymphovascular invasion: absent.",
        "LVI (-).",
    ],
)
def test_extract_lymphovascular_negations(sentence):
    assert (
        extract("Adenocarcinoma of the colon. " + sentence, "tcga")["lymphovascular_invasion"]
        == "absent"
    )


def test_extract_negation_scope_ends_at_clause_boundaries_and_affirmations():
    fields = extract(
        "No necrosis; lymphovascular invasion is present. Perineural invasion: not identified.",
        "tcga",
    )
    assert fields["necrosis"] == "absent"
    assert fields["lymphovascular_invasion"] == "present"
    assert fields["perineural_invasion"] == "absent"
    # Across a comma an affirmation wins; within the cue's own segment the cue wins.
    assert (
        extract("No necrosis, lymphovascular invasion present.", "tcga")["lymphovascular_invasion"]
        == "present"
    )
    assert (
        extract("No extraprostatic extension identified.", "histai")["extraprostatic_extension"]
        == "absent"
    )
    # A negated diagnosis is no diagnosis; "no special type" is not a negation.
    assert "diagnosis" not in extract("No evidence of adenocarcinoma.", "reg2025")
    assert (
        extract("Invasive carcinoma of no special type", "reg2025")["histologic_type"]
        == "no special type"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Gleason score 3+4=7", "3+4=7"),
        ("Gleason's score 7 (3+4)", "3+4=7"),
        ("gleason 7 (3 + 4)", "3+4=7"),
        ("Gleason score 4+3", "4+3=7"),
        ("Adenocarcinoma, 3+4=7, grade group 2", "3+4=7"),
        ("Gleason's score 7", "7"),
    ],
)
def test_extract_gleason_forms_are_one_canonical_value(text, expected):
    assert (
        extract("Prostate, biopsy; Acinar adenocarcinoma, " + text, "histai")["gleason_score"]
        == expected
    )


def test_extract_gleason_sum_only_matches_either_pattern_order_but_patterns_must_agree():
    spec = load_schema("histai").field("gleason_score")
    assert spec.matches("3+4=7", "7") and spec.matches("7", "4+3=7")
    assert not spec.matches("3+4=7", "4+3=7")


@pytest.mark.parametrize(
    "text",
    ["grade group 2", "ISUP grade group 2", "WHO/ISUP grade group II", "GG2", "ISUP grade 2"],
)
def test_extract_grade_group_forms(text):
    assert extract(f"Acinar adenocarcinoma, Gleason 3+4=7, {text}.", "histai")["grade_group"] == "2"


def test_extract_roman_numerals_and_grade_contexts():
    assert (
        extract("Invasive carcinoma of no special type, grade III (Nuclear grade: 2)", "reg2025")[
            "tumor_grade"
        ]
        == "3"
    )
    fields = extract("Tubular adenoma with high grade dysplasia", "reg2025")
    assert "tumor_grade" not in fields and fields["dysplasia_grade"] == "high"
    assert extract("OLGA stage III, OLGIM stage 0", "histai") == {
        "olga_stage": "3",
        "olgim_stage": "0",
    }


@pytest.mark.parametrize(
    ("text", "diagnosis", "histologic_type", "dysplasia"),
    [
        ("High-grade squamous intraepithelial lesion (HSIL; CIN 2)", "hsil", "cin 2", "high"),
        ("HSIL, CIN III", "hsil", "cin 3", "high"),
        ("Low-grade squamous intraepithelial lesion (LSIL; CIN 1)", "lsil", "cin 1", "low"),
        ("CIN2", "hsil", "cin 2", "high"),
    ],
)
def test_extract_cervical_lesions(text, diagnosis, histologic_type, dysplasia):
    fields = extract("Uterine cervix, colposcopic biopsy;\n  " + text, "reg2025")
    assert (fields["diagnosis"], fields["histologic_type"], fields["dysplasia_grade"]) == (
        diagnosis,
        histologic_type,
        dysplasia,
    )


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("H. pylori not detected.", "absent"),
        ("Helicobacter pylori detected (++).", "present"),
        ("HP (-).", "absent"),
        ("H. pylori-associated gastritis.", "present"),
    ],
)
def test_extract_hpylori_status(text, status):
    assert extract("Chronic gastritis. " + text, "histai")["hpylori_status"] == status


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Surgical margins are negative for carcinoma.", "negative"),
        ("All margins free of tumor.", "negative"),
        ("Tumor extends to the inked margin.", "positive"),
        ("Margin status: close.", "close"),
        ("R0 resection.", "negative"),
    ],
)
def test_extract_margin_status(text, status):
    assert extract("Invasive ductal carcinoma. " + text, "tcga")["margin_status"] == status


@pytest.mark.parametrize(
    ("text", "nodes"),
    [
        ("Metastatic carcinoma in 2 of 14 lymph nodes.", "2/14"),
        ("Lymph nodes: 0/12.", "0/12"),
        ("Two of fourteen axillary lymph nodes contain carcinoma.", "2/14"),
        ("No lymph node metastasis.", "absent"),
        ("Stage pT2 pN1a.", "present"),
    ],
)
def test_extract_lymph_node_counts(text, nodes):
    assert extract("Invasive ductal carcinoma. " + text, "tcga")["lymph_node_involvement"] == nodes


def test_extract_lymph_node_counts_compare_status_and_counts():
    spec = load_schema("tcga").field("lymph_node_involvement")
    assert spec.matches("2/14", "present") and spec.matches("0/12", "absent")
    assert not spec.matches("2/14", "5/14") and not spec.matches("2/14", "absent")


def test_extract_sizes_convert_units_and_take_the_greatest_dimension():
    tcga = load_schema("tcga")
    assert extract("Tumor measures 3.5 x 2.0 x 1.5 cm.", "tcga")["tumor_size"] == 3.5
    assert extract("Tumor size 21 mm.", "tcga")["tumor_size"] == 2.1
    spec = tcga.field("tumor_size")
    # Another backend's raw answers go through the same canonical vocabulary and units.
    assert spec.canonicalize("25 mm") == 2.5 and spec.canonicalize(3) == 3.0
    assert tcga.field("diagnosis").canonicalize("Clear cell RCC") is None
    assert tcga.field("diagnosis").canonicalize("RCC") == "renal cell carcinoma"
    assert spec.matches(2.0, 2.25) and not spec.matches(2.0, 2.5)  # 15 % relative tolerance
    assert (
        extract("Prostate, biopsy; Acinar adenocarcinoma, tumor volume: 30%", "reg2025")[
            "tumor_volume"
        ]
        == 30.0
    )


def test_extract_reg_report_keeps_diagnosis_and_subtype_apart():
    fields = extract(
        "Urinary bladder, trigone, transurethral resection;\n  Invasive urothelial carcinoma,\n  "
        "with involvement of muscle proper\n\n"
        "Note) The specimen includes muscle proper.",
        "reg2025",
    )
    assert fields == {
        "diagnosis": "urothelial carcinoma",
        "findings": "urothelial carcinoma",
        "invasion_depth": "muscularis propria",
        "tumor_site": "trigone",
        "organ_site": "urinary bladder",
        "specimen_type": "transurethral resection",
        "muscle_proper_status": "included",
    }
    dcis = extract(
        "Breast, biopsy;\n  Ductal carcinoma in situ\n  - Type: Cribriform and solid\n  - Nuclear "
        "grade: High\n  - Necrosis: Absent",
        "reg2025",
    )
    assert (
        dcis["diagnosis"] == "ductal carcinoma in situ"
        and dcis["histologic_type"] == "solid + cribriform"
    )
    assert (
        extract("Ductal carcinoma in situ\n  - Type: Solid and cribriform", "reg2025")[
            "histologic_type"
        ]
        == "solid + cribriform"
    )
    assert dcis["nuclear_grade"] == "high" and dcis["necrosis"] == "absent"
    assert (
        extract(
            "Urinary bladder, TURBT; no tumor. The specimen does not include muscle proper.",
            "reg2025",
        )["muscle_proper_status"]
        == "not included"
    )


def test_extract_histai_report_implies_the_diagnosis_hierarchy():
    fields = extract("Colon, polypectomy: tubular adenoma with low-grade dysplasia.", "histai")
    assert fields["diagnosis"] == "adenoma" and fields["benign_vs_malignant"] == "premalignant"
    assert fields["lineage"] == "epithelial" and fields["adenoma_type"] == "tubular"
    # A stated "no evidence of malignancy" (benign) does not hide the adenoma (premalignant).
    assert (
        extract("Tubular adenoma. No evidence of malignancy.", "histai")["benign_vs_malignant"]
        == "premalignant"
    )
    # Word matching: "reactive" is not "active".
    assert "inflammation_activity" not in extract("Reactive lymph node hyperplasia.", "histai")


def test_extract_stage_parser_in_a_schema_that_has_a_t_stage():
    schema = build_schema(
        {
            "name": "staged",
            "fields": [
                {
                    "name": "pt_stage",
                    "type": "ordinal",
                    "parser": "stage",
                    "values": {},
                    "patterns": [
                        "(?<![a-z])(?P<value>y?p\\s?t\\s?(?:[0-4][a-d]?|is|x))(?![a-z0-9])"
                    ],
                }
            ],
        }
    )
    backend = get_extractor("rule", schema)
    assert backend.extract("Tumour stage pT2a pN0") == {"pt_stage": "pt2a"}
    assert backend.extract("ypT3 N1") == {"pt_stage": "ypt3"}


def test_extract_explain_shows_the_evidence_and_the_cue():
    backend = get_extractor("rule", load_schema("reg2025"))
    fields, findings = backend.explain(
        "Lung, left upper lobe, biopsy;\n  Chronic granulomatous inflammation without necrosis"
    )
    assert fields["necrosis"] == "absent"
    necrosis = [f for f in findings if f.field == "necrosis"][0]
    assert (
        necrosis.negated
        and necrosis.cue == "without"
        and necrosis.snippet == "necrosis"
        and necrosis.selected
    )


def test_extract_synthetic_schema_recovers_every_generated_attribute():
    from pathreport.data.synthetic import generate_cases

    backend = get_extractor("rule", load_schema("synthetic"))
    for report, attrs in generate_cases(300, seed=11):
        expected = {}
        for key, value in attrs.items():
            if key in ("gleason_primary", "gleason_secondary"):
                continue
            expected[key] = (
                ("present" if value else "absent")
                if isinstance(value, bool)
                else (float(value) if key == "tumor_volume" else str(value))
            )
        if "gleason_primary" in attrs:
            p, s = attrs["gleason_primary"], attrs["gleason_secondary"]
            expected["gleason_score"] = f"{p}+{s}={p + s}"
        fields = backend.extract(report)
        assert {k: fields.get(k) for k in expected} == expected, report
        extra = set(fields) - set(expected)
        # The only field a report states beyond its attributes: invasive urothelial carcinoma is
        # "high grade".
        assert extra <= (
            {"urothelial_grade"} if attrs["diagnosis"] == "invasive_urothelial" else set()
        ), report


# -- TCGA and HistAI complete profiles: the CAP synoptic elements ------------------------------
@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Clear cell renal cell carcinoma, WHO/ISUP grade 2.", "tumor_grade", "2"),
        ("Clear cell renal cell carcinoma, WHO/ISUP grade 2.", "nuclear_grade", "2"),
        ("Fuhrman nuclear grade of 4.", "nuclear_grade", "4"),
        ("The Nuclear grade (Fuhrman) is 2/4.", "nuclear_grade", "2"),
        ("Squamous cell carcinoma, G III.", "tumor_grade", "3"),
        ("Endometrioid adenocarcinoma, FIGO grade 2.", "figo_grade", "2"),
        ("Acinar adenocarcinoma, Gleason score 4+3=7, grade group 3.", "gleason_score", "4+3=7"),
        ("Gleason pattern 4 comprises 60%.", "gleason_pattern4_percent", 60.0),
        ("The margins were negative.", "margin_status", "negative"),
        ("Margins of the excised tissue are all free of tumor.", "margin_status", "negative"),
        ("Carcinoma extends to the inked deep margin.", "margin_involved", "deep"),
        ("Tumor is 0.3 cm from the closest (deep) margin.", "margin_distance", 0.3),
        ("Tumor is 7.5 cm in its largest dimension.", "tumor_size", 7.5),
        ("Breslow thickness 2.3 mm, ulceration present.", "breslow_thickness", 2.3),
        ("Extraprostatic extension is present.", "extraprostatic_extension", "present"),
        ("Seminal vesicles are free of tumor.", "seminal_vesicle_invasion", "absent"),
        ("Visceral pleural invasion present (PL1).", "pleural_invasion", "present"),
        ("Invading less than half of the myometrium.", "myometrial_invasion", "less than half"),
        ("Peritoneal washings negative for malignant cells.", "peritoneal_cytology", "negative"),
        (
            "Metastatic adenocarcinoma, consistent with colorectal primary.",
            "primary_site",
            "colorectum",
        ),
        ("Left upper lobe, lobectomy.", "tumor_site", "upper lobe"),
        ("Left upper lobe, lobectomy.", "laterality", "left"),
        ("pT3a pN1b pM0", "pt_stage", "pt3a"),
        ("pT3a pN1b pM0", "pn_stage", "n1b"),
        ("ER positive (95%), PR negative, HER2 3+.", "her2_status", "positive"),
        ("The ER, PR, and HER2 statuses were negative.", "er_status", "negative"),
        ("Glioblastoma, IDH-wildtype.", "idh_status", "wild type"),
        ("1p/19q codeleted; MGMT promoter methylated.", "codeletion_1p19q", "codeleted"),
        ("Mismatch repair proteins intact.", "mmr_msi_status", "proficient"),
        ("No KRAS mutation was detected.", "kras_status", "wild type"),
        ("The MIB-1 labeling index is 2.8 per cent.", "ki67_index", 2.8),
        ("Thymic carcinoma, resected.", "diagnosis", "thymic carcinoma"),
        ("Thymoma, type B2.", "diagnosis", "thymoma"),
    ],
)
def test_extract_tcga_complete_profile_fields(text, field, value):
    assert extract(text, "tcga")[field] == value


def test_extract_tcga_negated_features_are_not_a_type_and_pn1_is_not_perineural():
    fields = extract("Clear cell renal cell carcinoma. No sarcomatoid features.", "tcga")
    assert fields["histologic_type"] == "clear cell" and fields["sarcomatoid_features"] == "absent"
    fields = extract("pT2 pN1 M0.", "tcga")
    assert "perineural_invasion" not in fields and fields["lymph_node_involvement"] == "present"


def test_extract_tcga_node_counts_and_status_forms_are_one_fact():
    tcga = load_schema("tcga").field("lymph_node_involvement")
    counts = {
        text: extract(text, "tcga")["lymph_node_involvement"]
        for text in (
            "Lymph nodes negative for metastasis (0/11).",
            "Lymph nodes: 0/11.",
            "No lymph node metastasis.",
            "Metastatic carcinoma in 1 of the 12 lymph nodes.",
            "Metastatic ductal carcinoma in two out of twenty-six lymph nodes examined.",
        )
    }
    assert list(counts.values()) == ["0/11", "0/11", "absent", "1/12", "2/26"]
    assert tcga.matches("0/11", "absent") and not tcga.matches("0/11", "1/12")
    # Several stations: repeats count once, a stated total wins, otherwise they add up.
    total = "Right: 0/5 lymph nodes; left: 1/7 lymph nodes; total 1/12 lymph nodes."
    assert extract(total, "tcga")["lymph_node_involvement"] == "1/12"
    assert extract("0/5 lymph nodes. 1/7 lymph nodes.", "tcga")["lymph_node_involvement"] == "1/12"


def test_extract_tcga_main_diagnosis_does_not_depend_on_sentence_order():
    a = "No tumor in the pelvic lymph nodes. Invasive urothelial carcinoma of the bladder."
    b = "Invasive urothelial carcinoma of the bladder. No tumor in the pelvic lymph nodes."
    assert extract(a, "tcga") == extract(b, "tcga")
    assert extract(a, "tcga")["diagnosis"] == "urothelial carcinoma"
    both = extract("Metastatic melanoma; a basal cell carcinoma is also present.", "tcga")
    assert both["diagnosis"] == "melanoma"
    assert both["findings"] == "basal cell carcinoma + melanoma"


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        (
            "Skin, excision: basal cell carcinoma. Resection margins are free of tumor.",
            "margin_status",
            "negative",
        ),
        (
            "Skin: melanoma, Breslow 1.2 mm. The lesion is completely excised.",
            "margin_status",
            "negative",
        ),
        ("Tumour cells are present in the resection margin.", "margin_status", "positive"),
        ("Cervix, bx: HSIL (CIN 3).", "cin_grade", "3"),
        ("Cervix, bx: HSIL (CIN 3).", "specimen_type", "biopsy"),
        ("Gastric antrum and body biopsies.", "tumor_site", "body + antrum"),
        ("Negative for adenocarcinoma.", "malignancy_status", "absent"),
        ("Breast, left, core biopsy: ER positive, HER2 negative (1+).", "her2_status", "negative"),
        ("Metastasis of adenocarcinoma in 2 of 5 lymph nodes.", "lymph_node_involvement", "2/5"),
    ],
)
def test_extract_histai_complete_profile_fields(text, field, value):
    assert extract(text, "histai")[field] == value


def test_extract_pd_l1_is_not_lymphovascular_invasion():
    fields = extract("PD-L1 (22C3) tumour proportion score 60%.", "histai")
    assert "lymphovascular_invasion" not in fields and fields["pdl1_score"] == 60.0


@pytest.mark.parametrize(
    "text", ["Flat epithelial atypia", "Columnar cell lesion with atypia", "FEA"]
)
def test_reg_flat_epithelial_atypia_is_not_a_plain_columnar_cell_lesion(text):
    # A columnar cell lesion with atypia is usually excised after a core biopsy; one without is not.
    assert extract(f"Breast, core-needle biopsy;\n  {text}", "reg2025")["diagnosis"] == (
        "flat epithelial atypia"
    )
    plain = extract("Breast, core-needle biopsy;\n  Columnar cell lesion", "reg2025")
    assert plain["diagnosis"] == "columnar cell lesion"
