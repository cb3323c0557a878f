"""Latin anatomical names and sides, written in English.

Pathologists trained in much of Europe and Asia name specimens in Latin ("Mamma dextra, core
biopsy", "Pulmo sinister, lobus superior", "Vesica urinaria, TUR-B", "Lymph node, axilla dx.").
The schemas name organs, sites and sides in English, so a report in Latin would lose its organ,
site and side, and a rewrite between the two languages would cost as much as a wrong organ.
Writing the Latin names in English once, before the vocabularies are matched, keeps one name
per structure.

A side written after its structure in Latin ("mamma dextra", "apex sinister") moves before it
("right breast", "left apex"), the order in which the schemas pair a side with its structure.
The abbreviations "dx." and "sin." are read as sides only after a structure, so that "Dx:"
(diagnosis) stays what it is.

The names are the Terminologia Anatomica terms that appear in specimen headers; the translation
is the English term the schemas use.

Diagnoses are written in Latin in the same traditions (Polish, Czech and Hungarian reports:
"Adenocarcinoma endometrioides endometrii", "Carcinoma planoepitheliale keratodes", "Polypus
hyperplasticus"); their names, in the WHO classification's Latin forms, become the English
entity names. They are looked up only when one of their Latin-only words occurs, so that
"carcinoma" or "adenoma", English words too, cost nothing.
"""

from __future__ import annotations

import re

from pathreport.evaluation.crqs.abbreviations import WORD_RUN

# Latin name -> English name. Longer names win where two could match.
_NAMES = {
    # organs
    "mamma": "breast", "mammae": "breast", "pulmo": "lung", "hepar": "liver", "ren": "kidney",
    "ventriculus": "stomach", "gaster": "stomach", "cutis": "skin", "prostata": "prostate",
    "thyroidea": "thyroid", "glandula thyroidea": "thyroid gland", "thyreoidea": "thyroid",
    "glandula thyreoidea": "thyroid gland", "collum": "neck", "inguen": "groin", "ovarium": "ovary",
    "lingua": "tongue", "palpebra": "eyelid", "cerebrum": "brain", "vesica urinaria":
    "urinary bladder", "vesica fellea": "gallbladder", "cervix uteri": "cervix",
    "corpus uteri": "uterine corpus", "tuba uterina": "fallopian tube",
    "appendix vermiformis": "appendix", "glandula suprarenalis": "adrenal gland",
    "glandula parotis": "parotid gland", "glandula parotidea": "parotid gland",
    "glandula submandibularis": "submandibular gland", "funiculus spermaticus": "spermatic cord",
    "vesicula seminalis": "seminal vesicle", "vesiculae seminales": "seminal vesicles",
    "vena renalis": "renal vein", "nodus lymphaticus": "lymph node",
    "nodi lymphatici": "lymph nodes", "lymphonodus": "lymph node", "lymphonodi": "lymph nodes",
    # parts of organs
    "colon sigmoideum": "sigmoid colon", "colon transversum": "transverse colon",
    "colon descendens": "descending colon", "colon ascendens": "ascending colon",
    "caput pancreatis": "pancreatic head", "corpus pancreatis": "pancreatic body",
    "cauda pancreatis": "pancreatic tail", "corpus ventriculi": "gastric body",
    "antrum ventriculi": "gastric antrum", "fundus ventriculi": "gastric fundus",
    "bronchus principalis": "main bronchus", "ala nasi": "nasal ala",
    "ileum terminale": "terminal ileum", "margo lateralis linguae": "lateral tongue",
    "margo lateralis": "lateral border",
    "pleura visceralis": "visceral pleura", "pleura parietalis": "parietal pleura",
    "curvatura minor": "lesser curvature", "curvatura major": "greater curvature",
    "os femoris": "femur", "os humeri": "humerus", "os ilium": "ilium",
    "lobus superior": "upper lobe", "lobus medius": "middle lobe", "lobus inferior": "lower lobe",
    "lobus frontalis": "frontal lobe", "lobus temporalis": "temporal lobe",
    "lobus parietalis": "parietal lobe", "lobus occipitalis": "occipital lobe", "lobus": "lobe",
    # limbs and regions
    "brachium": "upper arm", "antebrachium": "forearm", "regio femoris": "thigh",
    "pelvis renalis": "renal pelvis",
    # procedures
    "gastrectomia totalis": "total gastrectomy", "gastrectomia partialis": "partial gastrectomy",
    "thyroidectomia totalis": "total thyroidectomy", "nephroureterectomia": "nephroureterectomy",
    "nephrectomia": "nephrectomy", "hemicolectomia": "hemicolectomy", "conisatio": "conization",
    "lymphadenectomia": "lymphadenectomy", "cystectomia": "cystectomy",
    "prostatectomia": "prostatectomy", "mastectomia": "mastectomy", "orchiectomia": "orchiectomy",
    "lobectomia": "lobectomy", "radicalis": "radical",
    # the Nordic languages' name of the stomach, in the same headings ("Ventrikel, antrum")
    "ventrikel": "stomach",
}  # fmt: skip
# Latin diagnoses -> the English names of the vocabularies. Longer names win.
_DIAGNOSES = {
    "adenocarcinoma endometrioides": "endometrioid adenocarcinoma",
    "endometrii": "of the endometrium", "glandulae thyreoideae": "of the thyroid",
    "thyreoideae": "of the thyroid", "prostatae": "of the prostate",
    "carcinoma papillare": "papillary carcinoma",
    "carcinoma renis clarocellulare": "clear cell renal cell carcinoma",
    "carcinoma clarocellulare": "clear cell carcinoma",
    "adenocarcinoma acinare": "acinar adenocarcinoma",
    "adenocarcinoma tubulare": "tubular adenocarcinoma",
    "adenocarcinoma mucinosum": "mucinous adenocarcinoma",
    "adenocarcinoma mucoides": "mucinous adenocarcinoma",
    "adenocarcinoma metastaticum": "metastatic adenocarcinoma",
    "carcinoma metastaticum": "metastatic carcinoma",
    "carcinoma planoepitheliale keratodes": "keratinizing squamous cell carcinoma",
    "carcinoma planoepitheliale akeratodes": "non-keratinizing squamous cell carcinoma",
    "carcinoma planoepitheliale non keratodes": "non-keratinizing squamous cell carcinoma",
    "carcinoma planoepitheliale": "squamous cell carcinoma",
    "carcinoma basocellulare": "basal cell carcinoma",
    "carcinoma urotheliale invasivum": "invasive urothelial carcinoma",
    "carcinoma urotheliale papillare": "papillary urothelial carcinoma",
    "carcinoma urotheliale": "urothelial carcinoma",
    "carcinoma ductale invasivum": "invasive ductal carcinoma",
    "carcinoma lobulare invasivum": "invasive lobular carcinoma",
    "carcinoma ductale in situ": "ductal carcinoma in situ",
    "carcinoma hepatocellulare": "hepatocellular carcinoma",
    "carcinoma microcellulare": "small cell carcinoma",
    "carcinoma parvocellulare": "small cell carcinoma",
    "adenoma tubulare": "tubular adenoma", "adenoma tubulovillosum": "tubulovillous adenoma",
    "adenoma villosum": "villous adenoma",
    "adenoma corticis glandulae suprarenalis": "adrenal cortical adenoma",
    "adenoma corticis": "cortical adenoma",
    "melanoma malignum": "malignant melanoma",
    "carcinoma basocellulare nodulare": "nodular basal cell carcinoma",
    "adenocarcinoma ductale": "ductal adenocarcinoma",
    "nevus melanocyticus compositus": "compound nevus",
    "nevus melanocyticus intradermalis": "intradermal nevus",
    "nevus melanocyticus junctionalis": "junctional nevus",
    "polypus hyperplasticus": "hyperplastic polyp", "polypus adenomatosus": "adenomatous polyp",
    "dysplasia epithelialis levis": "mild epithelial dysplasia",
    "dysplasia epithelialis moderata": "moderate epithelial dysplasia",
    "dysplasia epithelialis gravis": "severe epithelial dysplasia",
    "struma nodosa": "nodular goiter",
    "cholecystitis chronica": "chronic cholecystitis",
    "cholecystitis acuta": "acute cholecystitis",
    "appendicitis acuta phlegmonosa": "acute suppurative appendicitis",
    "appendicitis acuta": "acute appendicitis", "gastritis chronica": "chronic gastritis",
    "gastritis chronica activa": "chronic active gastritis",
    "metaplasia intestinalis": "intestinal metaplasia", "morbus crohn": "crohn disease",
    "hyperplasia nodosa": "nodular hyperplasia", "hyperplasia nodularis": "nodular hyperplasia",
    "colitis ulcerosa": "ulcerative colitis", "colitis chronica activa": "chronic active colitis",
    "colitis chronica": "chronic colitis", "thyroiditis lymphocytica": "lymphocytic thyroiditis",
    "thyreoiditis lymphocytica": "lymphocytic thyroiditis",
}  # fmt: skip
_ENGLISH_WORDS = {"adenocarcinoma", "carcinoma", "adenoma", "in", "situ", "non", "dysplasia",
                  "cholecystitis", "appendicitis", "gastritis", "hyperplasia", "melanoma",
                  "metaplasia", "crohn", "colitis", "thyroiditis"}  # fmt: skip
_DIAGNOSIS_TRIGGERS = frozenset(w for name in _DIAGNOSES for w in name.split()) - _ENGLISH_WORDS
_DIAGNOSIS = re.compile(
    r"(?<![a-z])("
    + "|".join(sorted((n.replace(" ", r"[ \t]+") for n in _DIAGNOSES), key=len, reverse=True))
    + r")(?![a-z])"
)
_DIAGNOSIS_SPACES = re.compile(r"[ \t]+")
# Names read only with a Latin side after them: "crus" alone is also the diaphragm's.
_NAMES_WITH_SIDE = {"crus": "lower leg"}
_SIDES = {
    "dexter": "right", "dextra": "right", "dextrum": "right", "dextri": "right",
    "dextrae": "right", "sinister": "left", "sinistra": "left", "sinistrum": "left",
    "sinistri": "left", "sinistrae": "left",
}  # fmt: skip
_SIDE_ABBREVIATIONS = {"dx": "right", "sin": "left"}
# English structures after which "dx." or "sin." is a side (the Latin names above count too).
_STRUCTURES = frozenset([
    "breast", "axilla", "lung", "kidney", "ovary", "testis", "adrenal", "thyroid", "lobe",
    "apex", "base", "arm", "forearm", "leg", "thigh", "cheek", "temple", "hand", "foot", "knee",
    "shoulder", "hip", "buttock", "flank", "back", "eyelid", "ear", "neck", "groin", "tube",
    "ureter", "parotid", "tonsil", "side",
])  # fmt: skip

_NAME = "|".join(sorted((re.escape(n) for n in _NAMES), key=len, reverse=True))
_NAME_WITH_SIDE = "|".join(sorted({**_NAMES, **_NAMES_WITH_SIDE}, key=len, reverse=True))
_SIDE = "|".join(sorted(_SIDES, key=len, reverse=True))
# A structure (Latin or any one word) followed by a Latin side: the side moves before it.
_STRUCTURE_THEN_SIDE = re.compile(
    rf"(?<![a-z])(?P<structure>{_NAME_WITH_SIDE}|[a-z]+)(?P<gap>,?[ \t]+)"
    rf"(?:(?P<side>{_SIDE})|(?P<abbr>dx|sin)(?:\.(?=[ \t]*[,;:)])|(?![a-z.])|\.(?!\S)))(?![a-z])"
)
_LATIN_NAME = re.compile(rf"(?<![a-z])({_NAME})(?![a-z])")
# Words without which nothing above applies (English words that begin a Latin name excluded).
_ENGLISH_TOO = {
    "colon", "appendix", "cervix", "corpus", "antrum", "fundus", "bronchus", "ileum", "pelvis",
}  # fmt: skip
_TRIGGERS = frozenset(w for name in _NAMES for w in name.split()) - _ENGLISH_TOO
_TRIGGERS |= frozenset(_SIDES) | frozenset(_SIDE_ABBREVIATIONS)
_ANY_TRIGGER = _TRIGGERS | _DIAGNOSIS_TRIGGERS


def english_anatomy(text: str, words: set[str] | None = None) -> str:
    """``text`` (normalised, lower case) with Latin diagnoses, anatomical names and sides in
    English.

    ``words`` are the text's runs of letters and digits, when the caller has them already.
    """
    if words is None:
        words = set(WORD_RUN.findall(text))
    if words.isdisjoint(_ANY_TRIGGER):  # most reports: one set test
        return text
    if not words.isdisjoint(_DIAGNOSIS_TRIGGERS):  # "Adenocarcinoma endometrioides"
        text = _DIAGNOSIS.sub(lambda m: _DIAGNOSES[_DIAGNOSIS_SPACES.sub(" ", m.group(1))], text)
    if words.isdisjoint(_TRIGGERS):
        return text
    if not words.isdisjoint(_SIDES) or not words.isdisjoint(_SIDE_ABBREVIATIONS):
        text = _STRUCTURE_THEN_SIDE.sub(_side_first, text)
    return _LATIN_NAME.sub(lambda m: _NAMES[m.group(1)], text)


def _side_first(match: re.Match) -> str:
    structure = match.group("structure")
    if match.group("side") is not None:
        side = _SIDES[match.group("side")]
    elif structure in _NAMES or structure in _NAMES_WITH_SIDE or structure in _STRUCTURES:
        side = _SIDE_ABBREVIATIONS[match.group("abbr")]
    else:
        return match.group(0)  # "Dx", "sin" after a word that is no structure
    english = _NAMES.get(structure) or _NAMES_WITH_SIDE.get(structure, structure)
    return f"{side} {english}"
