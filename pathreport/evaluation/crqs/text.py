"""Report text as the extractor sees it: normalised characters and word tokens with their gaps.

Extraction runs on the RAW report (never on tokenizer-cleaned text, which eats numbers such as
"2.5 cm"), so the only normalisation here keeps every character class that carries meaning:
lower case, Unicode compatibility forms and one dash and one quote character. Everything the
extractor matches is aligned on this normalised string.

Words are maximal runs of letters and digits (a possessive "'s" is dropped, so "Gleason's score"
reads as "gleason score"). The characters between two words (the *gap*) decide two things:

* whether a phrase may continue across it (spaces, hyphens and slashes join words, so
  "well-differentiated" matches the phrase "well differentiated"; a full stop joins only after a
  one-letter word, so "H. pylori" matches "h pylori");
* where a negation scope ends (sentence and clause punctuation, newlines, and a dash between
  spaces, which separates the items of a list written on one line).
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate, compress

from pathreport.evaluation.crqs.abbreviations import DIMENSION_TIMES, WORD_RUN, spell_out
from pathreport.evaluation.crqs.latin import english_anatomy
from pathreport.evaluation.crqs.templates import expander
from pathreport.evaluation.crqs.values import NUMBER_WORDS, TENS, to_int

# One dash, one apostrophe; keeps patterns simple.
_CHAR_MAP = str.maketrans(
    {
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
        "\u2018": "'", "\u2019": "'", "\u201b": "'", "\u00b4": "'", "`": "'",
        "\u201c": '"', "\u201d": '"', "\u00d7": "x", "\u00a0": " ", "\t": " ", "\r": "\n",
        # "Adenocarcinoma [55 mm]": square brackets hold what round ones do in other reports.
        "[": "(", "]": ")",
    }
)  # fmt: skip
# The ASCII characters the map rewrites, found in one scan (most reports have none of them).
_ASCII_MAPPED = re.compile("[" + re.escape("".join(chr(c) for c in _CHAR_MAP if c < 128)) + "]")
_APPROXIMATELY = re.compile("[~\u2248][ \t]*(?=[0-9])")
# "approx. 40 %", "ca. 40%": the abbreviation's point ends no statement.
_APPROX_POINT = re.compile(r"(?<![a-z])(?:approx|ca)\.[ \t]*(?=[0-9])")
# A decimal comma before a unit ("2,8 cm", "0,6 mm", "12,5 %"): European reports write it, and
# read as two numbers "2,8 cm" became 8 cm. A thousands separator has three
# digits after the comma and a list ("1,2,3") a comma after them; neither is rewritten.
_DECIMAL_COMMA = re.compile(
    r"(?<![\d,.])(\d{1,3}),(\d{1,2})(?![\d,])(?=[ \t]*(?:cm|mm|%|x(?![a-z])))"
)
# A thousands separator before micrometres ("a depth of 1,800 um"): one number.
_THOUSANDS_MICRONS = re.compile(
    r"(?<![\d,.])(\d{1,2}),(\d{3})(?![\d,])(?=[ \t]*(?:μm|um|microns?|micromet))"
)
# A stain's sign written apart from its name ("CK7 -, TTF1 -."; "CDX2 +"): the sign of "CK7-".
# (Searched from its space: a pattern that starts with a class tries every position.)
# A bracket after the sign closes it only after a stain whose name ends in a digit ("MSH6 - (MMR
# deficient)"), where no dash of prose stands.
_SPACED_SIGN = re.compile(
    r" (?<=[a-z0-9] )([+-])(?:(?=[ \t]*(?:[,;.)\n]|$))|(?<=[0-9] [+-])(?=[ \t]*\())"
)
# A finding's sign after its heading's colon ("LVI: -", "Margins: -; closest 5 mm", "Invasive
# carcinoma: -") is the word a checklist writes there: the sign alone reaches only the stain and
# finding names it follows, the word every field's status patterns.
_COLON_SIGN = re.compile(r":[ \t]*(all[ \t]+)?(?:(-)|\+{1,3})(?=[ \t]*(?:[,;.()\n]|$))")
# A node count's sign after it ("Nodes: 2/15 +", "SLN 0/3 -") is the count's status.
_COUNT_SIGN = re.compile(r"/(?<=\d/)([ \t]*\d{1,3})[ \t]*(?:(-)|\+)(?=[ \t]*(?:[,;.()\n]|$))")
# "Non-atypical endometrial hyperplasia" is the hyperplasia without atypia (the WHO name); read
# as "non" before "atypical hyperplasia" it would rule out the atypical one and name nothing.
_NON_ATYPICAL = re.compile(r"(?<![a-z])non[- ]?atypical[ \t]+((?:[a-z]+[ \t]+){0,2}?hyperplasia)")
# "Not seen sarcomatoid component.", "Note) Not identified invasive carcinoma": a sentence that
# opens with the negated verb before its object, as writers of Spanish and Italian put it. Read
# as "No sarcomatoid component" (the verb alone would end the scope of "not").
_NOT_SEEN_FIRST = re.compile(
    r"not[ \t]+(?:seen|identified|observed|detected|found|evidenced)[ \t]+"
    r"(?!in |at |on |within |by |and |or |to |anywhere|elsewhere)(?=[a-z])"
)

# Replacement functions of rewrites, which ``sub`` calls only per match (see ``templates``).
_FIRST_GROUP = expander(r"\1")
_SUBTYPE_TYPED = expander(r", \1 type")
_NODES_WITHOUT = expander(r"\2 without \3 (0/\1)")
_NO_METASTASIS = expander(r"no metasta\1 (0/\2)")
_SLASHED_COUNT = expander(r"(\1/\2)")
_SPECIMEN_NAMED = expander(r"\1specimen ")


def _opens_with_not(text: str) -> bool:
    """A sentence, a line or a "Note)" of the (lower-case) text begins with "not"."""
    return (
        text.startswith("not")
        or ". not " in text
        or "\nnot " in text
        or ") not " in text
        or "; not " in text
    )


def _not_seen_first(text: str) -> str:
    """ "Not seen X" as "no X" where it opens a sentence, a line or a "Note)"."""

    def opens(m: re.Match) -> str:
        at = m.start()
        while at and text[at - 1] in " \t":
            at -= 1
        if not at or text[at - 1] in ".;\n" or text.endswith("note)", 0, at):
            return "no "
        return m.group(0)

    return _NOT_SEEN_FIRST.sub(opens, text)


# "Immunopanel all negative (cytokeratin, S-100, desmin)": the markers a shared result names in
# brackets, written as the list that the result leads ("negative for cytokeratin, S-100, ...").
_SHARED_RESULT_LIST = re.compile(
    r"(?<![a-z])(?:all|both)[ \t]+(negative|positive)[ \t]*\((?![^()]*(?:mm|cm|closest|nearest))"
    r"([^()/%\n]{3,160})\)"
)
# "AFB and GMS stains negative for organisms.", "stains for mycobacteria and fungi do not show
# microorganisms.", "special stains show no microorganisms": the stains' result, written as the
# sign after them (not inside a list: "negative for microorganisms, granulomas and dysplasia"
# negates the list).
_NO_ORGANISMS_SHOWN = re.compile(
    r"[ \t]+(?:(?:are|were|is|was)[ \t]+)?(?:negative[ \t]+for|(?:do|does|did)[ \t]+not[ \t]+"
    r"(?:show|demonstrate|reveal|identify)|(?:show|shows|showed|demonstrate|demonstrated|reveal|"
    r"revealed)[ \t]+no)[ \t]+(?:any[ \t]+)?(?:micro-?)?organisms"
    r"(?=[ \t]*(?:[.;]|$))"
)
# p16 is read by its pattern: block (diffuse, continuous) staining is positive, patchy or
# non-block staining (or block staining stated absent) negative ("p16 IHC shows patchy,
# non-block staining, interpreted as negative", "strong continuous (block) p16 staining").
_P16_NON_BLOCK = re.compile(
    r"(?<![a-z0-9])p16(?![0-9])[^.;\n]{0,60}?(?:non-?block|not[ \t]+block|patchy|mosaic"
    r"|(?:no|without)[ \t]+block|block(?:[- \t]+(?:type|pattern|staining|positivity|expression))*"
    r"[ \t]+(?:is[ \t]+|was[ \t]+)?(?:absent|not[ \t]+(?:seen|identified|present)))"
    r"(?:[- \t]*(?:type|pattern|staining|expression))*\)?"
    r"(?:,?[ \t]*(?:interpreted|read|reported)[ \t]+as[ \t]+negative)?"
)
_P16_BLOCK = re.compile(
    r"(?<![a-z0-9])p16(?![0-9])[^.;\n]{0,40}?(?<![a-z-])(?<!not )block(?![a-z])"
    r"(?:[- \t]*(?:type|pattern|positive|positivity|staining|expression))*\)?"
    r"|(?:strong|diffuse|continuous)[^.;\n]{0,30}?\(?block(?:-type)?\)?[ \t]+p16[ \t]+"
    r"(?:staining|expression|immunostaining|immunoreactivity)"
)
# "Criteria for atypical meningioma (grade 2) are not met": the entity is ruled out, as in "does
# not meet criteria for atypical meningioma" (a pre cue).
_CRITERIA_NOT_MET = re.compile(
    r"(?<![a-z])criteria[ \t]+for[ \t]+([^.;:\n]{3,80}?)[ \t]+(?:(?:are|is|were|was)[ \t]+)?"
    r"not[ \t]+(?:met|fulfilled|satisfied)(?![a-z])"
)
# Key-value records that a laboratory system exports from its templates ("SITE=COLON | LAT=L |
# LVI=N | MARG=NEG (2 MM, DEEP) | LN=0/12"): each "KEY=value" field is written as the heading and
# colon a report prints, its fields as lines, its one-letter answers and side codes as words and
# its short keys as the names they stand for. A text is a record when it holds two such fields,
# so a lone "closest = uncinate" or "3+4=7" stays as it is.
_RECORD_FIELD = re.compile(
    r"(?:^|(?<=[\n|;,])|(?<=[a-z]:))[ \t]*([a-z][a-z0-9 .-]{0,24}?)[ \t]*=[ \t]*(?=[^=\s])",
    re.MULTILINE,
)
_RECORD_SIDE_KEYS = frozenset(["lat", "side", "laterality"])
_RECORD_SIDES = {"l": "left", "lt": "left", "r": "right", "rt": "right", "b": "bilateral",
                 "bil": "bilateral", "bilat": "bilateral"}  # fmt: skip
_RECORD_KEYS = {
    "dx": "diagnosis", "diag": "diagnosis", "proc": "procedure", "histotype": "histologic type",
    "htype": "histologic type", "marg": "margins", "margs": "margins", "ln": "lymph nodes",
    "lns": "lymph nodes", "hp": "helicobacter pylori", "im": "intestinal metaplasia",
    "dyspl": "dysplasia", "dysp": "dysplasia", "gg": "grade group", "necr": "necrosis",
    "mvi": "microvascular invasion", "emvi": "extramural venous invasion", "calc": "calcifications",
    "calcs": "calcifications", "td": "tumor deposits", "tb": "tumor budding", "perf": "perforation",
    "doi": "depth of invasion",
}  # fmt: skip
# The words of a multi-word key, spelled out: "CAPS INV" is capsular invasion, "VAGINAL MARG" the
# vaginal margin.
_RECORD_KEY_WORDS = {"inv": "invasion", "vasc": "vascular", "caps": "capsular", "marg": "margin",
                     "spec": "specimen", "loc": "location", "ext": "extension",
                     "bg": "background"}  # fmt: skip
_RECORD_ANSWER = re.compile(r"(?<=: )(y|yes|n|no)(?=[ \t]*(?:[\n;,()]|$))", re.MULTILINE)
# "NEG"/"POS" as a record's values are the words they stand for ("HER2=POS", "MARG: deep NEG").
_RECORD_SIGN = re.compile(r"(?<![a-z])(neg|pos)(?![a-z])")
# Margins named inside the margin field, each with its own value ("MARG: ecto=NEG, endo=POS"):
# each becomes "ecto margin negative", which the margin patterns read one by one.
_RECORD_MARGINS = re.compile(r"(?<![a-z])margs?([ \t]*:[^\n|]*)")
_RECORD_NAMED_MARGIN = re.compile(r"([a-z][a-z .-]{0,20}?)[ \t]*=[ \t]*")
# A side code among the words of a site field ("SITE=Kidney, R, lower pole"; "SPEC=Testis, R").
_RECORD_SITE_SIDE = re.compile(
    r"^((?:site|specimen|location): [^\n]*?[ ,])(l|r|lt|rt)(?=[ \t]*(?:[,+;\n]|$))", re.MULTILINE
)
_RECORD_ANSWERS = {"y": "present", "yes": "present", "n": "absent", "no": "absent"}
_RECORD_SIDE_VALUE = re.compile(r"(?<=^laterality: )(l|lt|r|rt|b|bil|bilat)(?![a-z])", re.M)
# Margins listed by name, each with its own status ("Margins: ecto -, endo -, deep -";
# "Margins: neck negative, bile duct negative"): the heading gets the status they share, which
# the margin patterns read; names outside their lists would leave the status unread.
_MARGIN_LIST = re.compile(r"margins?[ \t]*:[ \t]*(?=[a-z(])((?:[^;.:\n]|(?<=\d)\.(?=\d)){1,160})")
# "Margins (pancreatic neck, bile duct, uncinate/SMA): all negative": the margins named in brackets
# before their status are "pancreatic neck, bile duct, uncinate/SMA margins".
_MARGINS_NAMED_IN_BRACKETS = re.compile(
    r"(?<![a-z])margins[ \t]*\(([a-z][^()\n:]{0,80})\)(?=[ \t]*:)"
)
_LIST_ITEMS = re.compile(r",|[ \t]and[ \t]")
_ITEM_STATUS = re.compile(
    r"[a-z)][ \t]*(?:(-)|\+|(?<![a-z])(?:(negative|free|clear|uninvolved|not involved)|positive"
    r"|involved))(?:[ \t]*\([^()]*\))?$"
)
# Isolated tumour cells do not make a node positive (AJCC: pN0(i+)): "isolated tumour cells in 1
# of 3 sentinel nodes" and "ITC only, 1 of 14 nodes" count 0 involved of 3 and of 14.
_ISOLATED_CELLS_COUNT = re.compile(
    r"((?:isolated[ \t]+tumor[ \t]+cells(?:[ \t]*\(itcs?\))?|(?<![a-z])itcs?)"
    r"(?:[ \t]+only)?[ \t]*,?[ \t]*"  # "ITC only, 1 of 14 nodes"
    r"(?:\([^()\n]{1,30}\)[ \t]*)?"  # "ITC (0.15 mm) in one of two nodes"
    r"(?:[a-z][^,.;()\n]{0,60},[ \t]*)?"  # "ITCs, highlighted by pancytokeratin, in 1 of 3"
    r"(?:(?:in|within|involving)[ \t]+)?)(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine)"
    r"(?=[ \t]*(?:/|of(?![a-z])))"
)
# The Japanese Classification's oesophageal locations between commas ("Squamous cell carcinoma,
# Lt, Type 2"): the lower thoracic oesophagus, not the left side.
_ESOPHAGEAL_LOCATIONS = {
    "ut": "upper thoracic esophagus",
    "mt": "middle thoracic esophagus",
    "lt": "lower thoracic esophagus",
}
_ESOPHAGEAL_LOCATION = re.compile(r"(?<=, )(ut|mt|lt)(?=[ \t]*[,;])")
# The Japanese thyroid code "Ex0" states no extrathyroidal extension: under its heading
# ("Extrathyroidal extension: Ex0") as the heading's status, alone in words.
_NO_EXTRATHYROIDAL_EXTENSION = re.compile(
    r"(extrathyroidal[ \t]+extension[ \t]*:?[ \t]*)?(?<![a-z0-9])ex0(?![a-z0-9])"
)


def _no_extrathyroidal_extension(match: re.Match) -> str:
    """ "Extrathyroidal extension: Ex0" -> "...: absent (ex0)"; a bare "Ex0" -> its words."""
    if match.group(1):
        return f"{match.group(1)}absent (ex0)"
    return "no extrathyroidal extension (ex0)"


# The synonyms that explain CIN 3 in brackets are the same lesion, not a carcinoma of its own:
# "CIN3 (severe dysplasia / carcinoma in situ)".
_CIN3_SYNONYMS = re.compile(
    r"(cin[ \t]?(?:3|iii))[ \t]*\([ \t]*(?:severe[ \t]+dysplasia[ \t]*(?:/|,|or|and)?[ \t]*)?"
    r"carcinoma[ \t]+in[ \t]+situ[ \t]*\)"
)
# A measurement written as an adjective ("a 1.4-cm nodule", "23-mm PTC") is the measurement.
_HYPHENATED_UNIT = re.compile(r"(\d)-(cm|mm)(?![a-z0-9])")
# The count first: "1 of 2 with isolated tumour cells", "one of three nodes showing ITCs only".
_COUNT_WITH_ISOLATED_CELLS = re.compile(
    r"(?<![0-9/.])(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine)(?=[ \t]*(?:/|of)[ \t]*"
    r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[ \t]+"
    r"(?:(?:sentinel|lymph|axillary)[ \t]+)*(?:nodes?[ \t]+)?(?:with|showing|containing)[ \t]+"
    r"(?:only[ \t]+)?(?:isolated[ \t]+tumor[ \t]+cells|itcs?(?![a-z])))"
)
# A synoptic Gleason grade stated as its parts ("Primary Gleason grade: 3 / Secondary Gleason
# grade: 4 / Gleason sum score: 7") is one score, "gleason score 3+4=7": read part by part, its
# lines would be three scores.
_GLEASON_PART = (
    r"(?:[ \t]+gleason)?[ \t]+(?:grade|pattern)[ \t]*(?:is[ \t]+|of[ \t]+|:[ \t]*|=[ \t]*)?"
)
_GLEASON_PARTS = re.compile(
    r"primary"
    + _GLEASON_PART
    + r"([1-5])(?![\d+])(?!\.\d)[^a-z0-9]{0,12}(?:and[ \t]+(?:a[ \t]+)?)?"
    r"secondary" + _GLEASON_PART + r"([1-5])(?![\d+])(?!\.\d)"
    r"(?:[^a-z0-9]{0,12}(?:and[ \t]+)?(?:(?:a|the)[ \t]+)?(?:gleason[ \t]+)?(?:sum|total)"
    r"(?:[ \t]+gleason)?(?:[ \t]+score)?[ \t]*(?:is[ \t]+|of[ \t]+|:[ \t]*|=[ \t]*)?(10|[2-9])"
    r"(?![\d+]))?"
)
# The measurements on a specimen's line are the specimen's ("Specimen: skin ellipse, right
# temple, 32 x 18 mm", "ESD specimen, gastric antrum, 28 x 22 mm"), not the tumour's, unless a
# tumour is named before them on that line ("Hemicolectomy specimen: adenocarcinoma, 45 x 40 mm").
_TUMOUR_WORD = (
    r"(?:carcinoma|carcinoid|cancer|tumor|mass|lesion|nodule|neoplasm|neoplasia|neoplastic|polyp"
    r"|[a-z]{0,16}oma(?![a-z])|(?<![a-z])(?:scc|bcc|hcc|rcc|gist|net|dcis|idc|ilc|ptc|crc|agc|egc"
    r"|pdac|sqcc|escc|ccrcc|prcc|chrcc|hgsc|ups|acc)(?![a-z])"
    r"|(?<![a-z])adenoca(?![a-z])"  # "adenoCa of antrum, 50 mm"
    r"|(?<![a-z])(?:adeno)?ca(?=\.?[ \t]*[,;(]))"  # "adenoCa., 2.8 cm" (not "ca. 3 cm", circa)
)
_SPECIMEN_LINE = re.compile(
    r"^(?:[^\n]{0,40}?(?<![a-z])(?:specimen|excision|resection|biopsy|ellipse|[a-z]*ectomy)"
    r"(?![a-z])|material[ \t]*:"
    r"|(?:macroscop(?:ic|y)|macro|gross)(?:[ \t]+description)?[ \t]*:)[^\n;]*",
    re.MULTILINE,
)
# Literal parts of a specimen line's opening (above), searched before the pattern runs.
_SPECIMEN_LINE_WORDS = (
    "specimen", "material:", "macro", "gross", "ectom", "excision", "resection", "biopsy",
    "ellipse",
)  # fmt: skip
_TUMOUR_NAMED = re.compile(_TUMOUR_WORD)
# A size after a comma or "of": in two or three dimensions, or in one that closes its clause
# ("Segment of ileum, 120 mm, with a nodule 11 mm"; not ", 6 mm pigmented lesion").
_SPECIMEN_SIZE = re.compile(
    r"([,;][ \t]*|of(?<![a-z]of)[ \t]+)(?=\d{1,3}(?:[.,]\d{1,2})?[ \t]*"
    r"(?:x[ \t]*\d|(?:cm|mm)[ \t]*(?:[,;]|\.(?!\d)|\n|$)))"
)
# "Low grade (FIGO 1)": the FIGO grade in brackets after the binary grade, not a FIGO stage.
_FIGO_GRADE_BRACKET = re.compile(
    r"(?:low|high)[ \t-]+grade[ \t]*\([ \t]*figo[ \t]*(?:grade[ \t]*)?([1-3])[ \t]*\)"
)
# "Endometrioid type adenocarcinoma": the type's word before the entity's name.
_TYPE_BEFORE_CARCINOMA = re.compile(
    r"(endometrioid|serous|mucinous|clear[ \t]+cell)[ \t-]+type[ \t]+((?:adeno)?carcinoma)"
)
# "CIN grade 3", "CIN grade III": the CIN's number.
_CIN_GRADE = re.compile(r"(?<![a-z])cin[ \t]+grade[ \t]*(iii|ii|i|[1-3])(?![a-z0-9])")
# "Angio-invasion: extramural, not present", "Angio-invasion: microvascular, present": the
# kind of vessel before its status, as a qualifier of the finding ("extramural angio-invasion:
# not present"), so that the status reaches the finding across the comma.
_VESSEL_KIND_STATUS = re.compile(
    r"(angio-?invasion|vascular[ \t]+invasion|venous[ \t]+invasion)[ \t]*:[ \t]*"
    r"(extramural|intramural|microvascular|macrovascular|lymphatic|venous|small[ \t]+vessel"
    r"|large[ \t]+vessel)[ \t]*,[ \t]*(?=(?:not[ \t]+)?(?:present|identified|seen)|absent)"
)
_VESSEL_KINDS = frozenset(
    ["extramural", "intramural", "microvascular", "macrovascular", "lymphatic", "venous", "small",
     "large"]
)  # fmt: skip
_EBV_ISH = re.compile(
    r"(?<![a-z])(?:ebv|eber)[ \t]*(?:\([ \t]*(?:ish|eber)[ \t]*\)|ish|eber)(?![a-z])"
)
_TYPE_ADJECTIVES = frozenset(["endometrioid", "serous", "mucinous", "clear"])
_PDL1_CLONES = frozenset(["22c3", "sp263", "sp142", "28", "73", "e1l3n"])
# "Skin of the right temporal region" is the temple's skin, not the brain's temporal lobe.
_TEMPORAL_SURFACES = frozenset(["region", "area", "skin", "scalp"])
_TEMPORAL_SKIN = re.compile(
    rf"(?<![a-z])temporal[ \t]+(?:{'|'.join(sorted(_TEMPORAL_SURFACES))})(?![a-z])"
)
_MESORECTUM_WORDS = frozenset(["quirke", "mesorectal", "mesorectum"])
# The words of a fibrosis description, and of a stain's result written as one word.
_FIBROSIS_WORDS = frozenset(
    ["fibrosis", "fibrous", "fibrotic", "bridging", "bridges", "septa", "septal", "cirrhosis"]
)
_IMMUNO_SIGN_WORDS = frozenset(["immunonegative", "immunopositive", "immuno"])
# The kinds named in brackets after an entity (see _KIND_IN_BRACKETS_AFTER).
_KINDS_IN_BRACKETS = frozenset(["mature", "immature", "urothelial"])
# A lung's nodal groups, named with their station number in brackets (see _GROUP_STATION).
_NODAL_GROUPS = frozenset(
    ["hilar", "interlobar", "subcarinal", "paratracheal", "pretracheal", "subaortic", "lobar"]
)
# The verb of a favoured lineage (see _FAVOURED_DIFFERENTIATION).
_FAVOUR_WORDS = frozenset(
    ["favor", "favour", "favoring", "favouring", "favors", "favours", "favored", "favoured"]
)
# The words without which no rule of _other_labs_wording after its shared test applies.
_OTHER_LABS_WORDS = (
    _VESSEL_KINDS
    | _TYPE_ADJECTIVES
    | _MESORECTUM_WORDS
    | {"figo", "cin", "l1", "ve", "progesterone", "plus", "contralateral", "ipsilateral", "none"}
    | {"ebv", "eber", "temporal", "gall", "involvement"}
    | {"loss", "conserved", "mandard", "third", "out"}
    | {"trichrome", "reticulin", "sirius", "sided", "lauren", "laur", "clock"}
    | {"lobectomy", "papillary", "ends", "eye", "ala"}
    | _FAVOUR_WORDS
    | _NODAL_GROUPS
    | _FIBROSIS_WORDS
    | _IMMUNO_SIGN_WORDS
)
# "perisinusoidal fibrosis on trichrome (stage 1a)": the stain named between a fibrosis and its
# stage in brackets.
_FIBROSIS_ON_STAIN = re.compile(
    r"fibrosis[ \t]+(?:on|by|in)[ \t]+(?:the[ \t]+)?(?:masson[ \t]+)?"
    r"(?:trichrome|reticulin|sirius[ \t]+red)(?:[ \t]+stains?)?[ \t]*(?=\()"
)
# "intestinal (Lauren) type", "diffuse-type (Lauren)", "intestinal sec. Laurén": the Lauren type
# by its word.
_LAUREN_TYPE = re.compile(
    r"(?<![a-z])(intestinal|diffuse|mixed)(?:-type|[ \t]+type)?[ \t]+"
    r"(?:\((?:sec\.?[ \t]+)?laur[eé]n\)(?:[ \t]+type)?"
    r"|(?:sec\.?|sec\.?[ \t]+|according[ \t]+to[ \t]+)[ \t]*laur[eé]n)(?![a-z])"
)
# "Histologic grade: FIGO 1": a FIGO grade after a grade's label, not a FIGO stage.
_FIGO_AFTER_GRADE_LABEL = re.compile(r"(grade[ \t]*:[ \t]*)figo[ \t]+([1-3])(?![0-9a-z]|\.\d)")
# "Lauren: intestinal", "Lauren classification: diffuse", "(Laurén diffuse)", "Lauren intestinal
# type": the type after the classification's name.
_LAUREN_LABEL = re.compile(
    r"laur(?<![a-z]laur)[eé]n(?:[ \t]+(?:type|classification)[ \t]*:|[ \t]*:)?[ \t]*"
    r"(intestinal|diffuse|mixed)(?:-type|[ \t]+type)?(?![a-z])"
)
# "biopsies at 3, 6 and 12 o'clock": each hour of the list is a clock position of its own.
_HOUR = r"(?:1[0-2]|[1-9])"
_CLOCK_HOUR_LIST = re.compile(
    rf"(?<![\d:.,])({_HOUR}(?:[ \t]*,[ \t]*{_HOUR})*)[ \t]*(,?[ \t]*(?:and|&)[ \t]*)"
    rf"({_HOUR})[ \t]*o'?[ \t]*clock"
)


# "Cervical biopsy, h 12", "biopsy at 12 h": a clock position written with the hour's "h", as
# Italian and French reports of the cervix and the breast do.
_CLOCK_H = re.compile(rf"(?<![a-z0-9])(?:h[ \t]*({_HOUR})|(?<=at )({_HOUR})[ \t]*h)(?![a-z0-9])")
_CLOCK_FACE_ORGANS = frozenset(["cervix", "cervical", "ectocervix", "breast", "portio"])
# "(Cervix 6 point)", "(cervix 3, 9, 12 points)": the clock positions of reports translated from
# Chinese (dian, "point").
_CLOCK_POINTS = re.compile(
    rf"(cervix[ \t]+)((?:{_HOUR}[ \t]*,[ \t]*)*{_HOUR})[ \t]+points?(?![a-z])"
)


def _clock_hours(match: re.Match) -> str:
    """ "3, 6 and 12 o'clock" -> "3 o'clock, 6 o'clock and 12 o'clock"."""
    hours = [h.strip() for h in match.group(1).split(",")]
    return ", ".join(f"{h} o'clock" for h in hours) + f" and {match.group(3)} o'clock"


_CORE_NUMBER = r"(\d{1,2}|" + "|".join(w for w, v in NUMBER_WORDS.items() if 1 <= v <= 20) + ")"
# "found in one core out of twelve": the cores a carcinoma involves, in the "1 of 12 cores" form.
_CORES_OUT_OF = re.compile(
    rf"(?<![a-z0-9]){_CORE_NUMBER}[ \t]+cores?[ \t]+out[ \t]+of[ \t]+{_CORE_NUMBER}"
    r"(?:[ \t]+(?:cores|biopsies))?(?![a-z0-9])"
)
# A prostate biopsy's sextant named from its side: "apex of left side" is the left apex, "right
# middle third" the right mid.
_PROSTATE_PART_OF_SIDE = re.compile(
    r"(?<![a-z])(apex|base|mid)[ \t]+of[ \t]+(?:the[ \t]+)?(left|right)"
    r"(?:[ \t]+(?:side|lobe))?(?![a-z])"
)
_PROSTATE_PART_THEN_SIDE = re.compile(r"(?<![a-z])(apex|base|mid)[ \t]+(left|right)(?![a-z])")
_PROSTATE_MIDDLE_THIRD = re.compile(r"(?<![a-z])(left|right)[ \t]+middle[ \t]+third(?![a-z])")
_SEXTANT_WORDS = frozenset({"apex", "base", "mid", "middle"})  # a report without them has none
# "right-sided neck node mass", "left-sided colon": the side.
_SIDED = re.compile(r"(?<![a-z])(left|right)[ \t-]+sided(?![a-z])")
# "the left ala of the nose": the side's nasal ala, as a skin site.
_ALA_OF_NOSE = re.compile(
    r"(?<![a-z])(left|right)[ \t]+ala[ \t]+of[ \t]+(?:the[ \t]+)?nose(?![a-z])"
)
# "Invasive ductal carcinoma of the pancreatic head": the pancreas's ductal adenocarcinoma, not the
# breast's carcinoma of no special type.
_PANCREAS_WORDS = frozenset(
    ["pancreas", "pancreatic", "pancreaticoduodenectomy", "pancreatoduodenectomy", "whipple"]
)
_DUCTAL_CARCINOMA = re.compile(r"(?<![a-z])ductal[ \t]+carcinoma(?![ \t]+in[ \t]+situ)")
# "atypical glands suspicious for, but not diagnostic of, carcinoma (ASAP)": the lesion's name in
# brackets goes before the phrase whose "not diagnostic of" would otherwise deny it too.
_SUSPICIOUS_NOT_DIAGNOSTIC = re.compile(
    r"(suspicious[ \t]+(?:for|of),?[ \t]+but[ \t]+not[ \t]+diagnostic[ \t]+(?:of|for),?[ \t]+"
    r"(?:adeno)?carcinoma)[ \t]*(\((?:asap|atypical[ \t]+small[ \t]+acinar[ \t]+proliferation)\))"
)
# "teratoma (mature)", "CIS (urothelial)", "CIS, urothelial.": the kind after its entity.
_KIND_IN_BRACKETS_AFTER = re.compile(
    r"(?<![a-z])(teratomas?|cis|carcinoma[ \t]+in[ \t]+situ)"
    r"(?:[ \t]*\((mature|immature|urothelial)\)|,[ \t]*(urothelial)(?=[ \t]*(?:[.;]|$)))"
)
# "the lower lid of the right eye", "right eye, upper lid": the side's eyelid, as a skin site.
_LID_OF_EYE = re.compile(
    r"(?<![a-z])(?:(upper|lower)[ \t]+(?:eye)?lid[ \t]+of[ \t]+the[ \t]+(right|left)[ \t]+eye"
    r"|(right|left)[ \t]+eye[ \t]*,[ \t]*(upper|lower)[ \t]+(?:eye)?lid)(?![a-z])"
)
# "MLH1 and PMS2 show loss of nuclear expression": the markers' word for it is "lost"; "with
# conserved expression" is "retained".
_LOSS_OF_EXPRESSION = re.compile(
    r"(?:shows?|showed|showing|with|demonstrates?|demonstrating)[ \t]+(?:complete[ \t]+)?loss[ \t]+"
    r"of[ \t]+(?:(?:nuclear|immunohistochemical)[ \t]+)?(?:expression|staining|immunoreactivity)"
    r"(?![ \t]+of)(?![a-z])"
)
_CONSERVED_EXPRESSION = re.compile(
    r"(?:with[ \t]+)?conserved[ \t]+(?:nuclear[ \t]+)?(?:expression|staining)(?![a-z])"
)
# "Biopsies (terminal ileum, ascending, transverse, descending, sigmoid, rectum)": a colon segment
# named by its adjective alone in a list of segments.
_BARE_COLON_SEGMENT = re.compile(
    r"(?<![a-z])(ascending|transverse|descending)(?=[ \t]*(?:,|and[ \t]|&)[ \t]*(?:the[ \t]+)?"
    r"(?:ascending|transverse|descending|sigmoid|rectum|cecum|caecum)(?![a-z]))"
)
# "Pericolorectal (subserosal) adipose tissue", "subserosal (pericolic) fat": the fat beyond the
# muscle named twice; the subserosa, which one of the two names says and the depth field ranks.
_PERIVISCERAL = r"(?:pericolic|pericolonic|pericolorectal|perirectal|mesocolic|perigastric)"
_SUBSEROSAL_NAMED_TWICE = re.compile(
    rf"(?<![a-z]){_PERIVISCERAL}[ \t]*\([ \t]*subserosal[ \t]*\)"
    rf"|subserosal[ \t]*\([ \t]*{_PERIVISCERAL}[ \t]*\)"
)
# "Capsular/vascular invasion": two kinds of invasion sharing the noun, as "capsular or vascular
# invasion" are (the slash would join the two words into one).
_SLASHED_INVASION_WORDS = frozenset(
    ["capsular", "vascular", "lymphatic", "venous", "angiolymphatic"]
)
_SLASHED_INVASIONS = re.compile(
    r"(?<![a-z])(capsular|vascular|lymphatic|venous|angiolymphatic)[ \t]*/[ \t]*"
    r"(capsular|vascular|lymphatic|venous|angiolymphatic)(?=[ \t]+invasion(?![a-z]))"
)
# "Tumour regression grade 3 of Mandard", "TRG3 according to Mandard" are "Mandard TRG 3".
_MANDARD_AFTER = re.compile(
    r"(?:tumou?r[ \t]+regression[ \t]+grade[ \t]+(?:\(trg\)[ \t]+)?|(?<![a-z])trg[ \t]*)"
    r"([1-5])[ \t]+"
    r"(?:of|by|according[ \t]+to|on[ \t]+the)[ \t]+mandard(?![a-z])"
)
# "Endometrioid endometrial carcinoma", "endometrioid-type endometrial adenocarcinoma": the
# endometrioid type of an endometrial carcinoma (the organ's adjective would hide the type).
_ENDOMETRIOID_ENDOMETRIAL = re.compile(
    r"endometrioid(?:[ \t-]+type)?[ \t]+endometrial[ \t]+(?=(?:adeno)?carcinoma)"
)
# "grade 2 of FIGO" is "FIGO grade 2".
_GRADE_OF_FIGO = re.compile(r"(?<![a-z])grade[ \t]+([1-3])[ \t]+(?:of|by)[ \t]+figo(?![a-z])")
# "distal (lower) third of oesophagus": the third by its name in brackets.
_THIRD_NAMED_TWICE = re.compile(
    r"(?:distal|proximal|middle|mid)[ \t]+\((lower|upper|middle|mid)\)[ \t]+(?=third)"
)
# The plane of a mesorectal excision, graded by Quirke, is no grade of the tumour:
# "complete (grade 3, Quirke)", "Quirke grade 3", "Mesorectal excision: complete (grade 3)".
_QUIRKE_GRADE = re.compile(
    r"(?<![a-z])(?:grade[ \t]+([1-3])(?=[ \t]*,[ \t]*quirke)"
    r"|quirke[ \t]+grade[ \t]*:?[ \t]*([1-3]))(?![0-9])"
)
_MESORECTUM_GRADE = re.compile(
    r"(mesorect(?:al|um)(?![a-z])[^.;\n(]{0,40}\()[ \t]*grade[ \t]+([1-3])(?=[ \t]*\))"
)
# "Contralateral (left) ovary": the side in brackets is the side.
_SIDE_IN_BRACKETS = re.compile(r"(?<![a-z])(?:contralateral|ipsilateral)[ \t]*\((left|right)\)")
# "CD20 +ve, CK7 -ve": the signs' abbreviated words ("+ve" positive, "-ve" negative).
_VE_SIGN = re.compile(r"[ \t]*(?:(\+)|-)ve(?![a-z])")
# "Estrogen and progesterone receptors negative": the shared head noun given to both receptors.
_RECEPTOR_PAIR = re.compile(
    r"(?<![a-z])o?estrogen[ \t]+(?:and|&)[ \t]+progesterone[ \t]+receptors(?![a-z])"
)
# "Gleason three plus three equals six": a dictated score in digits.
_GLEASON_WORDS = re.compile(
    r"(?<![a-z])(gleason[ \t]+(?:score[ \t]+)?)(three|four|five)[ \t]+plus[ \t]+(three|four|five)"
    r"(?:[ \t]+(?:equals|equal[ \t]+to|=)[ \t]+(six|seven|eight|nine|ten))?(?![a-z])"
)
# "Two cores, 1.5 and 1.8 cm", "depth of invasion 8 of 15 mm": the unit after the last number
# is every number's unit.
_UNIT_FOR_BOTH = re.compile(r" (and|of) (?=\d{1,3}(?:\.\d{1,2})?[ \t]*(cm|mm)(?![a-z0-9]))")
# (Searched from its literal " and " or " of ": a pattern that starts with a class tries every
# position.)
_NUMBER_BEFORE = re.compile(r"(?<![a-z0-9./+=-])\d{1,3}(?:\.\d{1,2})?$")
# "Three polyps, 4, 6 and 11 mm": once the last two share the unit, the numbers listed before
# them take it too (tried only where the pair was found).
_UNIT_FOR_LISTED = re.compile(
    r"(?<![a-z0-9./+=-])(\d{1,3}(?:\.\d{1,2})?)(?=(?:, \d{1,3}(?:\.\d{1,2})?)*"
    r", \d{1,3}(?:\.\d{1,2})? (cm|mm) and \d)"
)
# "PD-L1 22C3 TPS 30%": the antibody clone in brackets, as most reports write it, so that its
# digits are no score.
_PDL1_CLONE = re.compile(
    r"(pd-?l1)[ \t]+(?:clone[ \t]+)?(22c3|sp263|sp142|28-8|73-10|e1l3n)(?![a-z0-9])"
    r"(?:[ \t]+clone(?![a-z]))?"
)
# A molecular test's result written as a sign, with or without the antibody clone between
# ("ALK (D5F3) (-)", "ROS1 (+)", "KRAS (-)"): the word its field reads ("alk negative"). Stains
# read through the negation cues keep their sign; these fields read only words.
_TEST_SIGN = re.compile(
    r"(?<![a-z0-9-])"
    r"(alk|ros1|ret|ntrk[123]?|egfr|braf|kras|nras|idh[12]?|mgmt|p16|hpv"
    r"|(?:helicobacter[ \t]+|h\.?[ \t]?)pylori)"
    r"(?:-v(?![a-z0-9]))?"  # "ALK-V (D5F3)": the Ventana assay
    r"(?:[ \t]+v600e)?"  # "BRAF V600E: (+)"
    # the clone or the method between ("ALK (D5F3)", "H. pylori (Giemsa)"), then a colon or not
    r"(?:[ \t]*\((?:(?=[a-z-]*\d)(?=[\d-]*[a-z])[a-z0-9-]{2,8}|giemsa|ihc|ish|pcr|ngs)\))?"
    r"[ \t]*:?[ \t]*\(([+-])\)"
)
# "HER2 (IHC 1+)": the score in brackets is the HER2 score ("her2 ihc 1+").
_HER2_IHC_BRACKET = re.compile(r"her2[ \t]*\((ihc[ \t]*(?:score[ \t]*)?[0-3]\+?)\)")
# "HER2 (IHC): 3+": the method in brackets before the score ("her2 ihc 3+").
_HER2_IHC_HEADING = re.compile(r"her2[ \t]*\(ihc\)[ \t]*:?[ \t]*(?=(?:score[ \t]*)?[0-3](?![0-9]))")
# "Breast, right, sentinel lymph node biopsy;", "Right breast sentinel nodes;": the specimen is
# the breast's sentinel node (in the axilla), as "Right axillary sentinel node biopsy" says; the
# breast names where the primary is. Only a heading that names the node and nothing else.
_BREAST_SENTINEL_HEADING = re.compile(
    r"(?m)^((?:\d{1,2}[.)][ \t]*)?)"
    r"(?:breast[ \t]*,[ \t]*(left|right)[ \t]*,|(left|right)[ \t]+breast[ \t]*,?)"
    r"[ \t]*(?:axillary[ \t]*,?[ \t]*)?(sentinel[ \t]+(?:lymph[ \t]+)?nodes?)(?![a-z])"
)


def _breast_sentinel_node(match: re.Match[str]) -> str:
    number, side, node = match.group(1), match.group(2) or match.group(3), match.group(4)
    return f"{number}{node}, {side} axillary,"


# A bracketed list of parts with one percent word at its end: "(acinar 50, lepidic 30, papillary
# 20 percent)" gives every part its percentage, as "(acinar 50%, lepidic 30%, papillary 20%)"
# does (looked for only where the word was written: a test of every report for "%)" cost 0.04%
# of the TCGA-length time).
_PERCENT_OF_A_LIST = re.compile(
    r"\(((?:[a-z][a-z -]{0,30}[ \t]\d{1,3}[ \t]*,[ \t]*)+"
    r"(?:and[ \t]+)?[a-z][a-z -]{0,30}[ \t]\d{1,3})%\)"
)
_LIST_NUMBER = re.compile(r"(\d{1,3})(?=[ \t]*,|$)")


def _percent_each(match: re.Match[str]) -> str:
    return "(" + _LIST_NUMBER.sub(r"\1%", match.group(1)) + ")"


# "Temporal lobe, left hemisphere": the left temporal lobe, as "left temporal lobe" names it.
_LOBE_THEN_HEMISPHERE = re.compile(
    r"(?<![a-z])(frontal|temporal|parietal|occipital|insular)[ \t]+lobe[ \t]*,[ \t]*(left|right)"
    r"[ \t]+(?:cerebral[ \t]+)?hemisphere(?![a-z])"
)
# "Supports origin in the colon/rectum": the colorectum as one primary site, not the rectum.
_COLON_OR_RECTUM = re.compile(r"(?<![a-z])colon(?:/| or )rectum(?![a-z])")
# The words of the four rare rewrites of sites in ``normalise`` (one word-set test for them);
# the word set is taken before ``spell_out``, so a sentinel node's shorthand counts too ("SLNB").
_ODD_SITE_WORDS = frozenset(["sentinel", "sln", "slnb", "slns", "hemisphere", "colon"])
# "Biopsies, right and left colon": both halves of the colon, each named as such (not the right
# side of something and the left colon).
_BOTH_SIDES_OF_COLON = re.compile(r"(?<![a-z])(right|left) and (left|right) colon(?![a-z])")
# "Oesophagus, distal, biopsy", "Oesophagus distal": the part after the organ's name is the part
# of the organ ("distal esophagus"), the third the staging names; "Oesophagus, proximal margin"
# names a margin, not a part.
# "Esophageal biopsies, proximal and distal", "Oesophagus (prox + distal)" likewise.
_ESOPHAGUS_PART_AFTER = re.compile(
    r"esophag(?:us|eal([ \t]+biops(?:y|ies))?)[ \t]*[,(]?[ \t]*"
    r"(distal|proximal|prox|lower|upper|mid|middle)(?![a-z])"
    r"(?![ \t]+(?:third|margins?|resection|end)(?![a-z]))"
    r"(?![ \t]*(?:and|&|\+)[ \t]*[a-z]+[ \t]+(?:third|margins?|resection|end)(?![a-z]))"
    r"(?:[ \t]*(?:and|&|\+)[ \t]*(distal|proximal|prox|lower|upper|mid|middle)(?![a-z]))?"
    r"(?:[ \t]*\))?"
)
# "Proximal and distal esophagus (biopsies)", "prox & distal", "mid/distal esophageal": each
# part names the organ.
_ESOPHAGUS_PARTS = re.compile(
    r"(?<![a-z])(distal|proximal|prox|lower|upper|mid|middle)"
    r"(?:[ \t]+and[ \t]+|[ \t]*[&/+][ \t]*)"
    r"(distal|proximal|prox|lower|upper|mid|middle)[ \t]+esophag(us|eal)(?![a-z])"
)
# A stage in brackets after a description of fibrosis is the fibrosis stage, not a TNM stage
# group ("fibrous bridges present (stage 3)", "bridging fibrosis (stage 3 of 4)").
_FIBROSIS_STAGE_IN_BRACKETS = re.compile(
    r"((?<![a-z])(?:fibro|bridg|septa|cirrho|portal expansion)[^.;()\n]{0,40}?)\(stage(?= ?[0-6])"
)
# "Renal cell carcinoma, papillary type" is the papillary renal cell carcinoma (an entity of its
# own), not a papillary architecture.
_RCC_PAPILLARY_TYPE = re.compile(
    r"(?<![a-z])renal[ \t]+cell[ \t]+carcinoma,?[ \t]+(?:of[ \t]+)?papillary[ \t]+type(?![a-z])"
)
# "Non-small cell carcinoma of adenocarcinoma type": the type named (a "favour" stays uncertain).
_NSCC_OF_TYPE = re.compile(
    r"(?<![a-z])non[ -]?small[ -]cell[ \t]+(?:lung[ \t]+)?carcinoma,?[ \t]+(?:of[ \t]+)?"
    r"(adenocarcinoma|squamous[ \t]+cell[ \t]+carcinoma|squamous)[ \t]+type(?![a-z])"
)
# "NSCLC, favouring squamous differentiation": the carcinoma favoured, named by its lineage.
_FAVOURED_DIFFERENTIATION = re.compile(
    r"(?<![a-z])(favou?r(?:ing|s|ed)?|in[ \t]+favou?r[ \t]+of)[ \t]+(squamous|glandular)"
    r"[ \t]+(?:cell[ \t]+)?(?:differentiation|phenotype|lineage)(?![a-z])"
)
# "hilar (10) none of 3, subcarinal (7) none of 4": a lung's nodal group with its station number.
_GROUP_STATION = re.compile(
    r"(?<![a-z])(" + "|".join(sorted(_NODAL_GROUPS)) + r")[ \t]*\([ \t]*(\d{1,2}[rl]?)[ \t]*\)"
)
# "Resection ends (oesophageal and duodenal) clear": the ends of a resected tube are its margins.
_CUT_END_WORDS = frozenset(["resection", "surgical", "cut"])
_RESECTION_ENDS = re.compile(rf"(?<![a-z])({'|'.join(sorted(_CUT_END_WORDS))})[ \t]+ends(?![a-z])")
# A lobectomy named after the thyroid in its sentence is the thyroid's, not a lung's.
_THYROID_LOBECTOMY = re.compile(
    r"(thyroid(?! transcription)[^.;\n]{0,40}?)(?<![a-z])(?<!thyroid )lobectomy"
)
# "IDH1 R132H immunonegative", "immunopositive for CD20": the stain's result in one word.
_IMMUNO_SIGN = re.compile(r"(?<![a-z])immuno-?((?:nega|posi)tive)(?![a-z])")
# "Positivity for CD20, BCL6 and MUM1, negativity for CD10": a stain's result as a noun, read as
# the adjective every marker rule reads ("positive for ...").
_POSITIVITY_FOR = re.compile(r"(?<![a-z])(?:immuno)?(posit|negat)ivity for ")
# "Dysplasia extends to the posterior mucosal margin": the position names the margin, and the
# tissue between adds nothing ("posterior margin"); a "mucosal margin" alone keeps its name.
_POSITION_OF_TISSUE_MARGIN = re.compile(
    r"(?<![a-z])(anterior|posterior|superior|inferior|medial|lateral|proximal|distal|deep"
    r"|peripheral)[ \t]+(?:mucosal|soft[ \t]+tissue)[ \t]+margin"
)
# "Tumour size [18 mm]", "measuring (14 mm)", "a nodule of (38 mm)", "DOI [6 mm]": a size in
# brackets right after the word that introduces it is that word's size.
_SIZE_IN_BRACKETS = re.compile(
    r"(size|measuring|measures|measured|diameter|of|doi|invasion|depth|extension|extent|spread)"
    r"[ \t]*\([ \t]*(\d{1,3}(?:\.\d{1,2})?"
    r"(?:[ \t]*x[ \t]*\d{1,3}(?:\.\d{1,2})?){0,2}[ \t]*(?:cm|mm))[ \t]*\)"
)
# "BCC, nodular", "Melanoma, nodular.", "BCC, nodular + infiltrative patterns", "adenocarcinoma,
# solid / TTF-1 (+)", "papillary carcinoma of classic form", "infiltrative growth pattern": a
# subtype's adjective alone after its entity is its type ("nodular type"), which every
# vocabulary reads.
_SUBTYPE_WORDS = frozenset(
    ["nodular", "infiltrative", "infiltrating", "micronodular", "superficial", "morpheaform"]
    + ["classic", "classical", "conventional", "solid", "acinar", "lepidic", "micropapillary"]
    + ["compound", "junctional", "intradermal", "desmoplastic"]
)
_SUBTYPE = "|".join(sorted(_SUBTYPE_WORDS))
# Three expressions, each led by a literal or run only where its word occurs (one alternation over
# the adjectives would be tried at every position of every prostate report's "acinar").
_SUBTYPE_ALONE = (  # the adjective, its "pattern" or "form", and the end of its item
    rf"[ \t]*({_SUBTYPE})(?:[ \t]+(?:growth[ \t]+)?(?:pattern|patterns|form))?"
    r"(?=[ \t]*(?:[,.;:\n/+]|$))"
)
_LONE_SUBTYPE = re.compile("," + _SUBTYPE_ALONE)
_PLUS_SUBTYPE = re.compile(r"\+" + _SUBTYPE_ALONE)  # "nodular + infiltrative patterns"
# "Osteosarcoma, conventional type" is the "conventional osteosarcoma" of the vocabularies (the
# usual kind of the entity), not the classic subtype of a papillary thyroid carcinoma.
_CONVENTIONAL_SARCOMA = re.compile(
    r"((?:osteo|chondro)sarcoma)[ \t]*,[ \t]*conventional(?:[ \t]+(?:type|variant|subtype))?"
    r"(?=[ \t]*(?:[,.;:\n]|$))"
)
# "PTC (classic)", "BCC (nodular)": the subtype in brackets right after its entity (found from
# the bracket, the entity checked before it).
_BRACKETED_SUBTYPE = re.compile(
    r"\((?:(?<=carcinoma \()|(?<=carcinoma\()|(?<=ptc \()|(?<=ptc\()|(?<=bcc \()|(?<=bcc\()"
    r"|(?<=melanoma \()|(?<=melanoma\()|(?<=nevus \()|(?<=naevus \())"
    rf"[ \t]*({_SUBTYPE})[ \t]*\)"
)
_SUBTYPE_OF_FORM = re.compile(rf"(?<![a-z])of[ \t]+({_SUBTYPE})[ \t]+form(?![a-z])")
_SUBTYPE_GROWTH_PATTERN = re.compile(rf"(?<![a-z])({_SUBTYPE})[ \t]+growth[ \t]+pattern(?![a-z])")
# "Atypia limited to the lower third of the squamous epithelium", "mitoses in the upper third":
# a third of the epithelium (the extent of a squamous dysplasia), not a third of the oesophagus.
_EPITHELIAL_THIRD = re.compile(
    r"(?<![a-z])(lower|middle|upper|basal|mid)[ \t]+(?:one[ \t-]?)?third(s?)(?=[ \t]+of[ \t]+"
    r"(?:the[ \t]+)?(?:squamous[ \t]+|surface[ \t]+|cervical[ \t]+)?epithel)"
)
_THIRD_OF_A_LESION = re.compile(
    r"((?:mitoses|mitosis|mitotic[ \t]+figures|mitotic[ \t]+activity|atypia|koilocyt[a-z]*"
    r"|dysplasia|maturation|atypical[ \t]+cells)[^.;\n]{0,40}?(?<![a-z])(?:lower|middle|upper"
    r"|basal|mid)[ \t]+)(?:one[ \t-]?)?(third)(?![a-z])"
)
# "Pleura, left parietal": the layer named after its membrane ("left parietal pleura"), which no
# rule reads as the parietal lobe of a brain.
_SEROSA_LAYER_AFTER = re.compile(
    r"(pleura|peritoneum)[ \t]*,[ \t]*(?:(left|right)[ \t]+)?(parietal|visceral)(?![a-z])"
)
# "Colon, left side, biopsies": the colon's side after it is the left or right colon, as a
# report that writes "left colon" says ("Colon, right, hemicolectomy" names the operation's side).
_COLON_SIDE_AFTER = re.compile(r"colon[ \t]*,[ \t]*(left|right)[ \t]+side(?=[ \t]*(?:[,:;.)\n]|$))")
# "Skin, forearm, left", "Tonsil, right:": a body part, then its side closing the clause, is the
# side's part ("left forearm"), which the side patterns read. Found from the comma (a pattern that
# started with the part's name would be tried at every position), the part checked before it.
_SIDE_AFTER_COMMA = re.compile(
    r",[ \t]*(left|right)(?![a-z])(?=[ \t]*(?:[,:;.)\n]|side(?![a-z])|$))"
)
_PARTS_WITH_A_SIDE = (
    "shoulder", "arm", "forearm", "leg", "thigh", "chest wall", "flank", "back", "cheek",
    "temple", "hand", "foot", "knee", "ankle", "buttock", "hip", "eye", "ear", "labium",
    "tonsil", "vocal cord", "maxilla", "mandible", "submandibular gland", "ureter",
    "fallopian tube", "femur", "tibia", "fibula", "humerus", "ulna", "elbow", "wrist", "groin",
    "calf",
)  # fmt: skip
# "In situ hybridisation" is the test ISH: one word, which a stain's result reads past as it
# reads past "IHC" ("EBER in situ hybridization negative"), and no carcinoma "in situ".
_IN_SITU_HYBRIDISATION = re.compile(r"in[ \t-]+situ[ \t]+hybridi[sz]ation")
# "BRAF c.1799T>A (p.V600E) mutation": the coding-DNA change, and the "p." of the protein change,
# stand between the gene and its result; the variant's name ("V600E") is what reports compare.
_CODING_DNA_CHANGE = re.compile(r"(?<![a-z0-9])c\.\d+(?:[+-]\d+)?[acgt]>[acgt](?![a-z])[ \t]*")
_PROTEIN_CHANGE_PREFIX = re.compile(r"(?<![a-z0-9])p\.(?=[a-z]{1,3}\d)")
_DIGIT_COMMA_DIGIT = re.compile(r",(?<=\d,)(?=\d)")  # a fast first look (from the comma)
# "myometrial invasion 4/15 mm", "depth of invasion 9/15 mm": a part of a measured whole, each
# a measurement in its unit ("4 mm of 15 mm"); a blood pressure ("120/80 mm Hg") is none.
_PART_OF_MEASURED = re.compile(
    r"(\d(?<![a-z\d.,/]\d)\d{0,2}(?:\.\d{1,2})?)[ \t]*/[ \t]*"
    r"(\d{1,3}(?:\.\d{1,2})?)[ \t]*(mm|cm)(?![a-z0-9])(?![ \t]*hg(?![a-z]))"
)
# "70 by 35 by 20 mm" is "70 x 35 x 20 mm": the dimensions of one size.
_BY_DIMENSION = re.compile(
    r"(?<=\d)([ \t]*(?:cm|mm)?)[ \t]+by[ \t]+"
    r"(?=\d{1,3}(?:\.\d{1,2})?[ \t]*(?:cm|mm|by[ \t]|x[ \t\d]))"
)
# "Tumor size: 1.5 in (3.9 cm)": an American size in inches with its metric one in brackets is
# the metric one (an inch is no unit of the schemas).
_DIMENSIONS = r"\d{1,3}(?:\.\d{1,2})?(?:[ \t]*x[ \t]*\d{1,3}(?:\.\d{1,2})?){0,2}"
_INCHES_THEN_METRIC = re.compile(
    _DIMENSIONS
    + r"[ \t]*(?:in|inch|inches)\.?[ \t]*\([ \t]*("
    + _DIMENSIONS
    + r"[ \t]*(?:cm|mm))[ \t]*\)"
)
# The French count of involved over examined nodes: "1 N+ / 3 N", "0N+/16N" is "1/3", "0/16".
_NODES_PLUS = re.compile(r"(\d{1,3})[ \t]*n[ \t]*\+[ \t]*/[ \t]*(\d{1,3})(?:[ \t]*n(?![a-z0-9+]))?")
# ("0N+/23" after a neck dissection's levels, with no word for the nodes, names them.)
_NODE_WORD_BEFORE = re.compile(r"(?:node|ln)s?[ \t]*(?:\([^()\n]{0,30}\)[ \t]*)?:?[ \t]*$")
# "Nodes: peribronchial 1 of 6 positive, mediastinal 0/8", "L 2 of 31 nodes pos; R 0 of 27": on
# a line that names nodes, a count "k of n" after the label of a node group is the group's count
# "k/n" (not after a preposition, as "metastasis in 2 of 46", nor one of cores or blocks).
_OF_COUNT_ON_NODE_LINE = re.compile(
    r" of (?=\d{1,3}(?![\w/]|,\d)(?!\.\d)"
    r"(?![ \t]+(?:the[ \t]+)?(?:[a-z-]+[ \t]+)?(?:cores?|fragments?|biops|blocks?|slides?"
    r"|cassettes?|specimens?|pieces?|samples?|sections?|cylinders?|columns?|mm|cm|%)))"
)
_LABELLED_NUMBER_BEFORE = re.compile(
    r"(?<![a-z])(?!(?:in|of|to|with|within|involving|total|nodes?|lns?|and|or|out)[ \t])"
    r"[a-z]+[ \t]+\d{1,3}$"
)
# The Nordic count of involved (examined) nodes: "Lymph nodes 2(18)", "hilar 2(5); mediastinal
# 0(7)" is "2/18", "2/5" and "0/7". Read only on a line that names nodes, and only where the
# first number is no larger than the second.
_NODES_IN_BRACKETS = re.compile(r"(?<![\w.,/])(\d{1,3})\((\d{1,3})\)(?![\w/])")

# A word, with a possessive "'s" attached (and dropped). The gaps between words are sliced out
# of the text by position: a pattern that matched "gap then word" would rescan a long run of
# non-word characters from every position of it (quadratic time on 100 KB of spaces).
_WORD = re.compile(r"[^\W_]+(?:'s(?![^\W_]))?")
_WORD_SPLIT = re.compile(f"({_WORD.pattern})")
# The same split for ASCII text, which is lower case here: a plain class scans faster than the
# Unicode word class, and on ASCII text both find the same words.
_ASCII_WORD_SPLIT = re.compile(r"([a-z0-9]+(?:'s(?![a-z0-9]))?)")
_GAP_CACHE: dict[str, tuple[bool, bool, bool, bool]] = {}
_JOINABLE_GAP = re.compile(r"[\s\-/]*")
_N_AFTER_PT = re.compile(
    r"pt(?:(?<![a-z]pt)|(?<=(?<![a-z])ypt))([0-4][a-d]?(?:,[ \t]|[ \t])?)n(?=[0-3x](?![0-9]))"
)  # led by its literal, so that it is looked up, not tried at every character
_M_AFTER_PN = re.compile(r"(pn[0-3x][a-c]?)(m[01x])(?![a-z0-9])")
# "MARGINS - Not involved", "LVI / PNI - Absent / absent": a heading in capitals at a line's
# start, then a spaced dash, as some synoptic reports separate an element from its value (a
# word: "PR - 5%" may be a sign).
_CAPITAL_BEFORE_DASH = re.compile(r"[A-Z0-9)] +- +[A-Za-z]")  # a cheap test before the next
_CAPITAL_HEADING_DASH = re.compile(
    r"(?m)^([ \t]*[A-Z][A-Z0-9 /&+()-]{0,30}?[A-Z0-9)])[ \t]+-[ \t]+(?=[A-Za-z])"
)
_BOUNDARY_CHARS = frozenset(".;!?\n")
_PERCENT_WORD = re.compile(r"(\d)[ \t]*(?:percent|per[ \t]+cent)(?![a-z])")
# "?TB", "? appendicitis": a clinical question mark before a word is the word "query".
_QUESTION_MARK = re.compile(r"(?<![A-Za-z0-9])\?[ \t]?(?=[A-Za-z])")
# "... without involvement of the tunica vaginalis" negates the structure after it, not the finding
# before ("margins without involvement of tumour" states the margins' status, and stays).
_WITHOUT_INVOLVEMENT_OF = re.compile(
    r"without involvement of(?=[ \t]+(?:the[ \t]+)?(?!(?:tumou?r|carcinoma|neoplas|malignan|"
    r"lesion|dysplasia|cancer|melanoma|sarcoma|adenoma)[a-z]*(?![a-z])))"
)
# The Chinese guideline's grade of a hepatocellular carcinoma's microvascular invasion: M0 none,
# M1 and M2 some ("MVI: M0", "MVI (M2)").
_MVI_GRADE = re.compile(
    r"microvascular[ \t]+invasion[ \t]*(?::[ \t]*|\([ \t]*)?m([0-2])(?![a-z0-9])\)?"
)
_SIGN_AFTER_WORD = re.compile(r"(?<=[a-z])[ \t]*\((-|\+)\)")
# "Margins: ectocervical (-), endocervical (+, HSIL)": a sign with a note after it in one bracket.
_SIGN_WITH_NOTE = re.compile(r"\((-|\+)[ \t]*,[ \t]*(?=[a-z][^()\n]{0,40}\))")
# British spellings of the stems a schema names ("tumour", "oesophagus", "haemorrhage", "naevus").
_BRITISH = re.compile(
    r"tumour|oesophag|oestro|haem(?=[a-z])|leukaem|anaem|oedem|gynaec|paediatr|naev(?=[iou])"
)
_AMERICAN = {"tumour": "tumor", "oesophag": "esophag", "oestro": "estro", "leukaem": "leukem",
             "anaem": "anem", "oedem": "edem", "gynaec": "gynec", "paediatr": "pediatr",
             "haem": "hem", "naev": "nev"}  # fmt: skip
_HER2_SPELLING = re.compile(r"(?<![a-z])(?:c[ -]?)?erb[ -]?b[ -]?2(?![0-9])")
_LETTER_O_STAGE = re.compile(r"(?<![a-z])(y?)pno(?![a-z-])")
# "L shoulder", "R ovarian cystectomy": a capital L or R standing alone before a word is a side.
# Read before lower-casing, so that in a report with capitals a lower-case "l" or "r" (a list
# letter, a unit) never is.
_SIDE_LETTER = re.compile(
    r"(?<![A-Za-z0-9/.'+-])(?<!\d )([LR])(?= (?:[A-Za-z]{3,}|SVs?(?![A-Za-z])))"
    r"(?! (?i:local|status|class))"
)  # "R local 0" is the residual tumour class; "L SV" is the left seminal vesicle
_SIDES = {"L": "left", "R": "right", "l": "left", "r": "right"}
# The same letters in a lower-cased report (the benchmark's TCGA and HistAI models write lower
# case): "l thigh", "(r)". In real and written reports a lone lower-case "l" or "r" is a side.
_LOWER_SIDE_LETTER = re.compile(_SIDE_LETTER.pattern, re.IGNORECASE)  # read on lower case only
# The UICC perineural code "Pn0"/"Pn1" ("pT2 pN0 L0 V0 Pn1 R0") differs from the nodal stage
# "pN1" only in case, so it becomes words before the text is lower-cased.
_PERINEURAL_CODE = re.compile(r"(?<![A-Za-z0-9])Pn([01])(?![0-9A-Za-z])")
_PERINEURAL_WORDS = {"0": "perineural invasion absent", "1": "perineural invasion present"}
# "Gastric cancer, L, Less, Type 3": the Japanese Classification's location of a gastric
# carcinoma, its third (U, M, L; E and D for the oesophagus and duodenum it reaches) and its
# wall, read in words before "L" is read as a side.
_GASTRIC_THIRDS = {
    "u": "upper third", "m": "middle third", "l": "lower third", "e": "esophagus", "d": "duodenum"
}  # fmt: skip
_GASTRIC_WALLS = {
    "less": "lesser curvature", "gre": "greater curvature", "ant": "anterior wall",
    "post": "posterior wall", "circ": "circumferential",
}  # fmt: skip
_GASTRIC_LOCATION = re.compile(r"(?<![a-z])([umled]{1,3}),[ \t]*(less|gre|ant|post|circ)(?![a-z])")


def _gastric_location(match: re.Match[str]) -> str:
    """ "LM, Less" -> "lower third and middle third, lesser curvature"."""
    thirds = " and ".join(_GASTRIC_THIRDS[letter] for letter in match.group(1))
    return f"{thirds}, {_GASTRIC_WALLS[match.group(2)]}"


# "pn1, ly0, v0": the code in lower case, read as perineural where the lymphatic code follows it
# (a nodal "pN1" is never written so, nor followed by "ly").
_PERINEURAL_BEFORE_LYMPHATIC = re.compile(r"(?<![A-Za-z0-9])pn([01])(?=,[ \t]*ly[0-3](?![0-9a-z]))")
# Lower-cased, "pn1" is the code only where it follows the venous one ("l0, v1 (evg), pn1"):
# the UICC codes run L, V, Pn.
# The same code in brackets after the finding's name is the finding's: "perineural invasion (pn0)".
_PERINEURAL_AFTER_VENOUS = re.compile(
    r"(?<![a-z0-9])(v[0-3](?: ?\([a-z]{1,6}\))?[ \t]*[,;]?[ \t]*|perineural[a-z \t]{0,30}\()"
    r"pn([01])(?![0-9a-z])"
)
# "RMs all free", "ureteral & urethral RMs negative": the resection margins' initials with a
# lower-case plural, which the rhabdomyosarcoma's "RMS" never has; read before lower-casing.
_MARGINS_INITIALS = re.compile(r"(?<![A-Za-z0-9])RMs(?![A-Za-z0-9])")

# An abbreviation in brackets right after the words it abbreviates adds nothing ("lymph nodes
# (LN): 0/12", "perineural invasion (PNI) absent") but splits a phrase from its value.
_ABBREVIATIONS = (
    r"\((?:lns?|lvi|lvsi|pni|dcis|lcis|ene|ece|ete|epe|svi|e?mvi|vpi|crm|hp|tils?|ihc|nos)\)"
)
_ECHOED_ABBREVIATION = re.compile(r"(?<=[a-z]) ?" + _ABBREVIATIONS)
# A qualifier in brackets inside an entity's name ("atypical proliferative (borderline) serous
# tumour", "ectopic (tubal) pregnancy", "cheek (buccal) mucosa") is part of the name: a name's
# words are matched in a row.
# "Microvascular (small vessel) invasion" and "small-vessel (microscopic) vascular invasion" name
# the finding with the qualifier inside it; so do "tuberculous (caseating granulomatous)
# lymphadenitis", "benign prostatic (nodular) hyperplasia", "extranodal (extracapsular)
# spread", "goblet cell (intestinal) metaplasia", "actinic (solar) keratosis" (or "solar
# (actinic) keratosis") and "nodular (benign) prostatic hyperplasia".
_BRACKETED_QUALIFIERS = (
    "(borderline)",
    "(tubal)",
    "(buccal)",
    "(small vessel)",
    "(microscopic)",
    "(caseating granulomatous)",
    "(granulomatous)",
    "(nodular)",
    "(extracapsular)",
    "(intestinal)",
    "(solar)",
    "(actinic)",
    "(benign)",
    # "transitional cell (urothelial) carcinoma": the entity by its current name.
    "(urothelial)",
    # "low-grade (mild) dysplasia": the grade in the other system's word, as "mild dysplasia".
    "(mild)",
)
_BRACKETED_QUALIFIER = re.compile(
    r"(?<=[a-z] )\((" + "|".join(q.strip("()") for q in _BRACKETED_QUALIFIERS) + r")\)(?= [a-z])"
)
_BRACKETED_QUALIFIER_PROBE = re.compile(
    r"\((?:" + "|".join(q.strip("()") for q in _BRACKETED_QUALIFIERS) + r")\)"
)
_ANY_ABBREVIATION = re.compile(_ABBREVIATIONS)  # starts with a literal: a fast first look
# A number written out and echoed in digits, as legal-style reports do: "one (1) of seventeen
# (17) lymph nodes" reads as "one of seventeen lymph nodes".
# "one" to "nineteen", longest first (so that "seventeen" is tried before "seven").
_SMALL_NUMBER_WORDS = sorted(
    (w for w, v in NUMBER_WORDS.items() if 1 <= v <= 19 and w != "single"), key=len, reverse=True
)
_ECHOED_NUMBER = re.compile(
    r"(?<![a-z])((?:"
    + "|".join(t for t, v in TENS.items() if v <= 60)  # node and core counts stay below 70
    + r")(?:-[a-z]{3,5})?|"
    + "|".join(_SMALL_NUMBER_WORDS)
    + r") ?\(\d{1,3}\)"
)
_BRACKETED_COUNT = re.compile(r"\((\d{1,3})[ \t]+of[ \t]+(\d{1,3})\)")
# A node count with some of its groups in brackets: "1/21 (paraesophageal 1/5)". The pattern
# starts with the slash (a literal, found fast); the involved number before it is read back.
_COUNT_WITH_GROUPS = re.compile(r"/[ \t]*(\d{1,3})[ \t]*\(([^()\n]{3,160})\)")
_INVOLVED_BEFORE_SLASH = re.compile(r"(?<![0-9/.])(\d{1,3})[ \t]*$")
_GROUP_COUNT = re.compile(r"(?<![0-9/.])(\d{1,3})[ \t]*/[ \t]*(\d{1,3})(?![0-9/])(?!\.\d)")
_ANY_BRACKETED_NUMBER = re.compile(r"\(\d{1,3}\)")  # starts with a literal: a fast first look
# "Lymph node metastasis: 0/18", "Metastatic carcinoma: 0/15 nodes": the finding's status is
# none, and the count stays readable.
_NONE_OF_COUNT = re.compile(
    r"(metastas[ie]s|involvement|metastatic[ \t]+(?:carcinoma|adenocarcinoma|tumou?r|disease"
    r"|melanoma|deposits?))([ \t]*:[ \t]*)(0[ \t]*/[ \t]*\d{1,3})(?![\d/])"
)
# A number of nodes with the status they all share, counted apart from it: "sentinel nodes (2):
# negative", "pelvic nodes: twenty-four, all negative", "left pelvic nodes, seven, all negative",
# "31 nodes examined, none positive". Each is the count "0/N", written beside the status so that
# both readings stay.
_NODES_ALL_NEGATIVE = re.compile(
    r"node(?<![a-z]node)s?(?:[ \t]*\((\d{1,2})\))?"
    r"(?:[ \t]*,[ \t]*(?:(?:right|left|and|bilateral)[ \t]*)+)?[ \t]*(?:[:,][ \t]*(?:(\d{1,2}|"
    + "|".join(_SMALL_NUMBER_WORDS)
    + r"|twenty(?:-[a-z]{3,5})?|thirty(?:-[a-z]{3,5})?)[ \t]*,[ \t]*)?"
    r"|[ \t]+examined[ \t]*,[ \t]*)?"
    r"(?:all[ \t]+|both[ \t]+)?((?:negative|benign|uninvolved)(?![a-z])"
    r"|none[ \t]+(?:positive|involved)(?![a-z])|(?:no|without)[ \t]+metasta[a-z]*)"
)
_NUMBER_BEFORE_NODES = re.compile(r"(\d{1,3})[ \t]+(?:[a-z]+[ \t]+){0,2}$")
# "No lymph nodes were identified", "Lymph nodes isolated: 0", "Lymph nodes not submitted", "no
# lymph nodes in the specimen", "pNX (no lymph nodes)", "no lymph nodes;", "No cystic duct lymph
# node identified": none was examined (pNX), which is not a negative node (pN0).
# Statements that no node was found, each led by its literal (one expression over all three made
# the engine try every "n" and "l" of a report): "no lymph nodes identified", "Lymph nodes
# examined: 0", "Lymph nodes not submitted", "Regional lymph nodes: none submitted".
_NO_NODES_FOUND = (
    re.compile(
        r"no(?<![a-z]no)[ \t]+(?:(?!(?:in|of|or|and)[ \t]|tumou?r|carcin|metasta|malign|evidence"
        r"|involv|positive|negative)[a-z-]+[ \t]+){0,3}?(?:lymph[ \t]+)?nodes?(?:[ \t]+(?:(?:are"
        r"|were|was|is|have[ \t]+been|has[ \t]+been)[ \t]+)?(?:isolated|identified|found|recovered"
        r"|retrieved|submitted|received|sampled|present|included)(?![a-z])|[ \t]+(?:in|within)"
        r"[ \t]+(?:the[ \t]+)?specimen(?![a-z])|(?=[ \t]*(?:\)|[;.](?![0-9]))))"
    ),
    re.compile(
        r"lymph[ \t]+nodes[ \t]+(?:isolated|examined|identified|found|recovered|retrieved)[ \t]*:"
        r"[ \t]*0(?![\d/,]|\.\d)"
        r"|lymph[ \t]+nodes?[ \t]*(?:(?:(?:are|were|was|is)[ \t]+)?not|:[ \t]*none)[ \t]+"
        r"(?:isolated|identified|found|recovered|retrieved|submitted|received|sampled|present)"
        r"(?![a-z])"
    ),
    re.compile(
        r"nodes?(?<![a-z]node)(?<![a-z]nodes)[ \t]*(?:(?:(?:are|were|was|is)[ \t]+)?not"
        r"|:[ \t]*none)[ \t]+(?:isolated|identified|found|recovered|retrieved|submitted|received"
        r"|sampled|present)(?![a-z])"
    ),
)
# A count of nodes or cores in words, "one of eighteen positive", "none of fifteen", "seven of the
# twelve cores", is the count in digits ("1 of 18"), which every count pattern reads.
_NODE_COUNT_WORD = (
    r"(?:zero|none|"
    + "|".join(_SMALL_NUMBER_WORDS)
    + r"|(?:"
    + "|".join(t for t, v in TENS.items() if v <= 60)
    + r")(?:-(?:one|two|three|four|five|six|seven|eight|nine))?)"
)
# Found from the literal " of " (a fast search), the number before it looked up behind.
_OF_COUNT_WORD = re.compile(rf" of[ \t]+(?:the[ \t]+)?({_NODE_COUNT_WORD})(?![a-z-])")
_COUNT_WORD_BEFORE = re.compile(rf"(?<![a-z-])({_NODE_COUNT_WORD})[ \t]*$")
# "none of 2 involved", "none of the 14": none counted out of a number in digits ("0 of 2").
_NONE_OF_DIGITS = re.compile(r"(?<![a-z])none[ \t]+of[ \t]+(?:the[ \t]+)?(\d{1,3})(?![\d.,/])")
# "Eighteen glomeruli, ten of which show crescents": a glomerular count in words, read in
# digits, in each sentence that names glomeruli ("none" and "zero" stay words, negation cues).
_SENTENCE_ENDS = re.compile(r"([.;\n])")
_COUNT_WORD = re.compile(rf"(?<![a-z-])(?!none|zero){_NODE_COUNT_WORD}(?![a-z-])")
# "None of the glomeruli shows a crescent": no crescent, its cue read next to it.
_NO_GLOMERULI_WITH = re.compile(
    r"(?<![a-z])(?:none|no)[ \t]+(?:of[ \t]+the[ \t]+)?(?:\d{1,3}[ \t]+)?glomeruli[ \t]+"
    r"(?:show|shows|showing|with|have|has|having|display|displays|contain|contains)[ \t]+"
    r"(?:(?:a|any)[ \t]+)?"
)
# The CAP synoptic pair "Number examined: 13; Number involved: 1" (either order, with or without
# "of lymph nodes") is the count "1/13", written before the pair so that both readings stay.
_CAP_NODE_NUMBERS = re.compile(
    r"number(?<![a-z]number)[ \t]+(?:of[ \t]+(?:lymph[ \t]+)?nodes[ \t]+)?"
    r"(examined|involved|positive)[ \t]*:[ \t]*(\d{1,3})[ \t]*[;,.]?[ \t\n]*(?:\+[ \t]*)?"
    r"number[ \t]+(?:of[ \t]+(?:lymph[ \t]+)?nodes[ \t]+)?"
    r"(examined|involved|positive)[ \t]*:[ \t]*(\d{1,3})(?![\d/])"
)
# "Lymph node metastasis in 0/24" (Nordic templates state every count this way) is "lymph node
# no metastasis (0/24)": the negation cue before the finding, the count after it.
_METASTASIS_IN_NONE = re.compile(
    r"metasta(?<![a-z]metasta)(sis|ses)[ \t]+in[ \t]+(?:0|none|zero)[ \t]*(?:/|of|out[ \t]+of)"
    r"[ \t]*(?:the[ \t]+)?(\d{1,3})(?![0-9/])(?!\.\d)(?![ \t]*[a-z])"  # not "... 0 of 13 nodes"
)
# "0 of 11 lymph nodes with metastasis", "none of the nineteen lymph nodes examined shows
# metastatic disease" state no metastasis: read as "lymph nodes without metastasis (0/11)", so
# that the finding's word is negated and the count stays.
_NONE_OF_NODES_WITH = re.compile(
    r"0(?<![\d/.,]0)[ \t]*(?:/|of|out[ \t]+of)[ \t]*(\d{1,3})[ \t]+((?:[a-z-]+[ \t]+){0,2}?"
    r"(?:lymph[ \t]+)?nodes?)[ \t]+(?:(?:examined|identified|retrieved|recovered)[ \t]+)?"
    r"(?:with|showing|containing|harbou?ring|positive[ \t]+for|(?:shows?|showed|contains?|contained"
    r"|has|have|harbou?rs?|harbou?red)"
    r"(?:[ \t]+(?:any|evidence[ \t]+of))?)[ \t]+"
    r"((?:micro|macro)?metasta[a-z]*|(?:metastatic[ \t]+)?(?:carcinoma|tumor|disease))(?![a-z])"
)
# "Pleomorphic adenoma, margins negative": the margins' status closes a clause of its own, not a
# list that began with the diagnosis (whose "negative" would then rule the adenoma out).
_MARGIN_QUALIFIERS = ("all", "the", "surgical", "resection", "excision", "excisional", "inked")
_MARGIN_STATUS_AFTER_COMMA = re.compile(
    rf",(?<=[a-z)],)(?=[ \t]+(?:(?:{'|'.join(_MARGIN_QUALIFIERS)})[ \t]+)?"
    r"margins?[ \t]+(?:(?:are|is|were|was)[ \t]+)?(?:negative|free|clear|uninvolved|not involved)"
    r"(?![a-z]))"
)
# Where it can apply, found from the literal "margin" (the rule itself starts at every comma).
_MARGIN_AFTER_COMMA_PROBE = re.compile(
    "margin(?:"
    + "|".join(f"(?<=, {q}margin)" for q in ("", *(f"{q} " for q in _MARGIN_QUALIFIERS)))
    + ")"
)
# "Bronchial margin: invasive carcinoma is observed at the margin": the margin is involved.
_TUMOUR_AT_THE_MARGIN = re.compile(
    r"(margins?)(?<![a-z]margin)(?<![a-z]margins)[ \t]*:[ \t]*"
    r"((?:invasive[ \t]+)?(?:carcinoma|tumou?r|lesion|malignancy))[ \t]+(?:is[ \t]+)?"
    r"(?:observed|present|seen|identified|noted)[ \t]+at[ \t]+the[ \t]+margin(?![a-z])"
)
# "Lateral margin with tumour", "endocervical margin with lesion": the margin is involved (not
# "with tumour 2 mm away", a distance).
_MARGIN_WITH_TUMOUR = re.compile(
    r"(margins?)(?<![a-z]margin)(?<![a-z]margins)[ \t]+with[ \t]+(?:the[ \t]+)?"
    r"(?:tumou?r|lesion|carcinoma|hsil|dysplasia|neoplasia)(?![a-z-])"
    r"(?![ \t]+(?:cells?[ \t]+)?(?:\d|at[ \t]+\d))"
)
# "Dysplasia-free resection margin", "tumour-free margins": the margin free of it.
_FREE_MARGIN = re.compile(
    r"(dysplasia|neoplasia|tumor|carcinoma|lesion|malignancy)-free[ \t]+"
    r"((?:(?:resection|surgical|deep|lateral|radial|circumferential)[ \t]+)?margins?)(?![a-z])"
)
# "Microscopic colitis, collagenous type" is collagenous colitis.
_COLITIS_TYPE = re.compile(
    r"(?:microscopic[ \t]+)?colitis(?<![a-z]colitis)[ \t]*,?[ \t]*"
    r"(collagenous|lymphocytic)[ \t]+type"
)
# "Proximal (esophageal) and distal (duodenal) margins", "oesophageal (proximal) margin": the
# organ that names a resection margin's end, which is no organ of the specimen.
_MARGIN_END_ORGAN = re.compile(
    r"(?<![a-z])(?:(proximal|distal)[ \t]*\([ \t]*(?:esophageal|duodenal)[ \t]*\)"
    r"|(?:esophageal|duodenal)[ \t]*\([ \t]*(proximal|distal)[ \t]*\))"
    r"(?=[^.;:\n]{0,40}?margins?(?![a-z]))"
)
# "Negative for atypia and for in situ or invasive malignancy": one negation of a list whose
# preposition is repeated.
_REPEATED_FOR = re.compile(
    r"(negative[ \t]+for[ \t]+[^.;:\n]{1,60}?[ \t](?:and|or))[ \t]+for(?=[ \t])"
)
# "Extension: into renal sinus fat": a synoptic heading whose item is the structure reached.
_EXTENSION_HEADING_INTO = re.compile(r"(?<![a-z])extension[ \t]*:[ \t]*(?:in)?to(?![a-z])")
# "Infiltrating until the subserosa" (hasta, ate): into it, as far as it.
_INVADING_UNTIL = re.compile(r"(?<![a-z])((?:infiltrat|invad|extend)[a-z]*)[ \t]+until(?![a-z])")
# "Papillary carcinoma-type nuclear features", "papillary-type nuclei": the nuclear features of
# papillary carcinoma, which a thyroid report rules in or out; not a papillary tumour.
_PAPILLARY_TYPE_NUCLEI = re.compile(
    r"papillary(?<![a-z]papillary)(?:[ \t]+(?:thyroid[ \t]+)?carcinoma)?[ \t]*-?[ \t]*type[ \t]+"
    r"(?:nuclear[ \t]+(?:features|changes)|nuclei)(?![a-z])"
)
# "Three mitoses per 5 mm2": the count in digits, as a mitotic rate is read.
_MITOSES = re.compile(r"mito(?:s[ie]s|tic[ \t]+figures?)(?![a-z])")  # a literal start: fast
_NUMBER_WORD_BEFORE = re.compile(
    r"(?<![a-z-])(" + "|".join(_SMALL_NUMBER_WORDS) + r")[ \t]+(?:dermal[ \t]+)?$"
)
# Adjectives of one head noun, listed with "or"/"and": "no visceral pleural or lymphovascular
# invasion" names two invasions, so the first adjective gets its noun ("visceral pleural invasion
# or lymphovascular invasion") and each is read as a finding of its own; so do contrasted ones
# ("microvascular but no macrovascular invasion", "capsular but not vascular invasion").
_SHARED_NOUN = (
    r"(?:or|and|nor|but[ \t]+not?)[ \t]+(?:[a-z]+[ \t]+)?(?:invasion|involvement)(?![a-z])"
)
_INVASION_ADJECTIVES = (
    r"(?:visceral[ \t]+)?pleural|perineural|lymphovascular|lymphatic|vascular|venous"
    r"|angiolymphatic|microvascular|capsular|extraprostatic|extrathyroidal|extranodal"
)
# "No lymphatic, vascular or perineural invasion": a longer list names its noun once too.
_SHARED_INVASION = re.compile(
    rf"(?<![a-z])({_INVASION_ADJECTIVES})"
    rf"(?=(?:[ \t]*,[ \t]*(?:{_INVASION_ADJECTIVES})(?![a-z]))*[ \t]*,?[ \t]+{_SHARED_NOUN})"
)
# "One node holds a metastasis; the remaining two nodes are negative": the remaining nodes are
# part of a count stated elsewhere, so their number is dropped and only their status is read
# (a count of its own would add to the total a second time).
_REMAINING_COUNT = re.compile(
    r"(?<![a-z])((?:remaining|other)[ \t]+)(?:\d{1,2}|"
    + "|".join(w for w, v in NUMBER_WORDS.items() if 2 <= v <= 19)
    + r")[ \t]+(?=(?:[a-z]+[ \t]+)?(?:lymph[ \t]+)?nodes?(?![a-z]))"
)
# The literal parts the two patterns above cannot match without: searched first, they let most
# reports skip the patterns, which begin with a lookbehind and are tried at every position.
_SHARED_HEAD = re.compile(_SHARED_NOUN)
_REMAINING_NUMBER = re.compile(_REMAINING_COUNT.pattern.removeprefix("(?<![a-z])"))
# A result that heads the markers it applies to ("IHC negative: S100, CD34, KIT") reads as
# "negative for S100, CD34, KIT", so that the result reaches every marker of the list.
_RESULT_COLON = re.compile(r"(positive|negative)[ \t]*(?::|-(?=[ \t]))")  # searched first
_RESULT_HEADING = re.compile(
    r"(?:(?<![a-z])(?:ihc|immunohistochemistry|immunostains?|stains?|markers?)[ \t]*:?[ \t]+"
    r"|(?<=\n)|(?<=[.;] )|^)" + _RESULT_COLON.pattern + r"[ \t]*(?=[a-z0-9])",
    re.MULTILINE,
)
# The same without the colon: a result before a marker's name (a short name with a number, or
# one of the few without), right after a separator on a line headed as immunohistochemistry
# ("Immunohistochemistry: positive CD20, BCL6; negative CD3, CD10"), or after "by" or "with" in
# prose ("basal cells absent, confirmed by negative p63 and HMWCK"). Found from the result word
# (one search per report); the words before it are looked at only where it is found.
_RESULT_BEFORE_MARKER = re.compile(
    r"(positive|negative)[ \t]+"
    r"(?=(?:[a-z]{1,6}-?\d{1,3}[a-z]?|ema|myc|desmin|synaptophysin|chromogranin|calretinin|gfap"
    r"|vimentin|er|pr|inhibin|hmwck|napsin[ \t]*a|cyclin[ \t]*d1|melan-?a|dog-?1)(?![a-z0-9]))"
)
_IHC_HEADING = re.compile(r"ihc|immunohistochemistry|immunohistochemical|immunostains?")
# A status that heads the list it applies to ("Not identified: necrosis, vascular invasion,
# perineural invasion") reads as the same list after "no".
_STATUS_HEADING = re.compile(
    r"(?:not identified|not seen|not present|not detected|none identified|absent)[ \t]*:[ \t]*"
)

# An elliptical status that repeats the verb of the clause before it ("LVI is identified, PNI is
# not.", "perineural invasion identified, lymphovascular invasion not."): the finding is not
# identified.
_ELLIPTICAL_NOT = re.compile(r" not(?=[ \t]*(?:[.;,\n]|\Z))")  # starts with a literal: fast
COPULAS = frozenset(["is", "are", "was", "were"])  # the verbs of a stated status
_ELLIPTICAL_HEADS = COPULAS | {"invasion", "involvement", "extension", "necrosis", "spread"}


def _elliptical_not(match: re.Match) -> str:
    """ "PNI is not." becomes "PNI is not identified."; any other bare "not" stays."""
    head = match.string[max(0, match.start() - 11) : match.start()]
    word = head.rsplit(" ", 1)[-1] if " " in head else head
    return " not identified" if word in _ELLIPTICAL_HEADS else match.group(0)


_LYMPH_NODE_ABBREVIATION = re.compile(r"(?:ln|l\.n\.)(s?)(?![a-z0-9])")


def _expand_ln(match: re.Match) -> str:
    """ "ln", "lns" and "L.N.s" as words (not inside "kiln") become "lymph node(s)"."""
    start = match.start()
    if start and match.string[start - 1].isalnum():
        return match.group(0)
    return "lymph nodes" if match.group(1) else "lymph node"


def _as_no(match: re.Match) -> str:
    """ "Not identified:" at the start of a line or sentence becomes "no"; elsewhere it stays."""
    before = match.string[: match.start()].rstrip(" \t-")
    return "no " if not before or before[-1] in "\n.;" else match.group(0)


def _result_for(match: re.Match) -> str:
    """ "IHC negative: S100" -> "IHC negative for S100"."""
    return match.group(0)[: match.start(1) - match.start(0)] + match.group(1) + " for "


def _results_before_markers(text: str) -> str:
    """ "IHC: positive CD20; negative CD3" -> "IHC: positive for CD20;negative for CD3";
    "confirmed by negative p63" -> "confirmed by negative for p63"."""
    out, done = [], 0
    for found in _RESULT_BEFORE_MARKER.finditer(text):
        start = found.start()
        blank = start
        while blank > done and text[blank - 1] in " \t":
            blank -= 1
        if blank and text[blank - 1] in ":;,":  # after a separator, on an IHC line
            line_start = text.rfind("\n", 0, blank) + 1
            if _IHC_HEADING.search(text, line_start, blank) is None:
                continue
            out += [text[done:blank], found.group(1), " for "]
        elif text.endswith(("by", "with"), 0, blank) and blank != start:
            word_start = blank - (2 if text.endswith("by", 0, blank) else 4)
            if word_start == 0 or text[word_start - 1] not in " \t":
                continue
            out += [text[done:blank], " ", found.group(1), " for "]
        else:
            continue
        done = found.end()
    return "".join(out) + text[done:] if out else text


def _record_field(match: re.Match) -> str:
    """ "LAT=R" -> "laterality: R"; "MARG=NEG" -> "margins: NEG", on a line of its own."""
    key = match.group(1).strip()
    if key in _RECORD_SIDE_KEYS:
        return "\nlaterality: "
    name = _RECORD_KEYS.get(key) or " ".join(_RECORD_KEY_WORDS.get(w, w) for w in key.split())
    return f"\n{name}: "


def _record_margins(match: re.Match) -> str:
    """ "marg: ecto=neg, endo=pos" -> "margins: ecto margin neg, endo margin pos"."""
    return "margins" + _RECORD_NAMED_MARGIN.sub(r"\1 margin ", match.group(1))


# "Endocervical (inner) margin": a cone's margin named with its position in brackets (looked for
# where a bracketed layer part is, below).
_INNER_OUTER_MARGIN = re.compile(r"[ \t]*\((?:inner|outer)\)(?=[ \t]+margins?(?![a-z]))")
# "Invading deep (outer half) muscularis propria", "the outer (deep) half of the detrusor",
# "perirectal (mesorectal) fat": a bracketed second name of the layer's part, which would stand
# between the verb and the layer it invades.
_LAYER_PART_IN_BRACKETS = re.compile(
    r"[ \t]*\((?:(?:outer|inner|deep|superficial)(?:[ \t]+(?:half|third))?|mesorectal)\)"
    r"(?=[ \t]+(?:half|third|muscularis|muscle|detrusor|submucosa|dermis|fat)(?![a-z]))"
)


def _mvi_grade(match: re.Match) -> str:
    return "no microvascular invasion" if match.group(1) == "0" else "microvascular invasion"


def _side_before_part(text: str) -> str:
    """ "skin, forearm, left, punch" -> "skin, left forearm, punch": each side after a comma
    that a body part precedes moves before the part."""
    pieces, done = [], 0
    for found in _SIDE_AFTER_COMMA.finditer(text):
        head = text[done : found.start()].rstrip(" \t")
        part = next(
            (
                p
                for p in _PARTS_WITH_A_SIDE
                if head.endswith(p) and not (len(head) > len(p) and head[-len(p) - 1].isalpha())
            ),
            None,
        )  # "forearm" is no "arm"
        if part is None:
            continue
        pieces.append(f"{head[: -len(part)]}{found.group(1)} {part}")
        done = found.end()
    return "".join(pieces) + text[done:] if pieces else text


def _esophagus_parts_first(match: re.Match) -> str:
    """ "esophagus, distal" -> "distal esophagus"; "esophageal biopsies (prox + distal)" ->
    "proximal esophagus and distal esophagus biopsies"."""
    first, second = (_part_name(part) for part in (match.group(2), match.group(3)))
    parts = f"{first} esophagus" + (f" and {second} esophagus" if second else "")
    return parts + (match.group(1) or "")


def _esophagus_parts(m: re.Match[str]) -> str:
    """ "proximal and distal esophageal" -> "proximal esophageal and distal esophageal"."""
    first, second = (_part_name(part) for part in (m.group(1), m.group(2)))
    return f"{first} esophag{m.group(3)} and {second} esophag{m.group(3)}"


def _part_name(part: str | None) -> str | None:
    """An organ's part as the thirds read it ("prox" is "proximal")."""
    return "proximal" if part == "prox" else part


def _lower_case_codes(text: str) -> str:
    """The side letters and perineural codes of a report written in lower case, which the
    benchmark's TCGA and HistAI models write: "l thigh", "(r)", "l0, v0, pn1". A report with
    capitals had them read before it was lower-cased."""
    if (
        " l " in text
        or " r " in text
        or "\nl " in text
        or "\nr " in text
        or "(l " in text
        or "(r " in text
        or text[:2] in ("l ", "r ")
    ):
        text = _LOWER_SIDE_LETTER.sub(lambda m: _SIDES[m.group(1)], text)
    if "(l)" in text or "(r)" in text:
        text = text.replace("(l)", "(left)").replace("(r)", "(right)")
    if "pn" in text and "v" in text:
        text = _PERINEURAL_AFTER_VENOUS.sub(
            lambda m: m.group(1) + _PERINEURAL_WORDS[m.group(2)], text
        )
    return text


def _specimen_sizes(match: re.Match) -> str:
    """The sizes on a specimen's line before any tumour is named there become the specimen's:
    "specimen: gallbladder, 8 x 3 x 3 cm" -> "specimen: gallbladder, specimen 8 x 3 x 3 cm"."""
    line = match.group(0)
    tumour = _TUMOUR_NAMED.search(line)
    cut = tumour.start() if tumour else len(line)
    return _SPECIMEN_SIZE.sub(_SPECIMEN_NAMED, line[:cut]) + line[cut:]


def _gleason_score(match: re.Match) -> str:
    """ "primary gleason grade: 3, secondary gleason grade: 4" -> "gleason score 3+4"."""
    total = f"={match.group(3)}" if match.group(3) else ""
    return f"gleason score {match.group(1)}+{match.group(2)}{total}"


def _as_record(text: str) -> str:
    """A laboratory system's "KEY=value | KEY=value" record as the report lines it stands for."""
    if len(_RECORD_FIELD.findall(text, 0, 4000)) < 2:
        return text
    if "marg" in text:  # "MARG: ectocervical=NEG, endocervical=POS"
        text = _RECORD_MARGINS.sub(_record_margins, text)
    text = _RECORD_FIELD.sub(_record_field, text.replace("|", "\n"))
    text = _RECORD_SIDE_VALUE.sub(lambda m: _RECORD_SIDES[m.group(1)], text)
    text = _RECORD_SITE_SIDE.sub(lambda m: m.group(1) + _RECORD_SIDES[m.group(2)], text)
    text = _RECORD_SIGN.sub(lambda m: "negative" if m.group(1) == "neg" else "positive", text)
    return _RECORD_ANSWER.sub(lambda m: _RECORD_ANSWERS[m.group(1)], text)


def _colon_sign(match: re.Match) -> str:
    """ "LVI: -" -> "LVI: negative"; "Margins: all -" -> "Margins: all negative"."""
    return f": {match.group(1) or ''}{'negative' if match.group(2) else 'positive'}"


def _count_sign(match: re.Match) -> str:
    """ "2/15 +" -> "2/15 positive"."""
    return f"/{match.group(1)} {'negative' if match.group(2) else 'positive'}"


def _margin_list(match: re.Match) -> str:
    """ "margins: ecto -, endo -" -> "margins: negative, ecto -, endo -"; any other list stays."""
    items = _LIST_ITEMS.split(match.group(1))
    if len(items) < 2 or "margin" in match.group(1):
        return match.group(0)  # "Margins: mucosal margins negative" states its status already
    negative = True
    for item in items:
        status = _ITEM_STATUS.search(item.rstrip())
        if status is None:
            return match.group(0)
        negative = negative and bool(status.group(1) or status.group(2))
    at = match.start(1) - match.start(0)
    # A mixed list is positive as a whole; a semicolon keeps the shared status from reading as
    # the first margin's ("margins: positive, deep negative" would name deep as the involved one).
    shared = "negative, " if negative else "positive; "
    return f"{match.group(0)[:at]}{shared}{match.group(1)}"


def _bracketed_node_count(m: re.Match[str]) -> str:
    """ "2(18)" as "2/18" on a line that names lymph nodes; anything else stays as it was."""
    line_start = m.string.rfind("\n", 0, m.start()) + 1
    involved, examined = int(m.group(1)), int(m.group(2))
    if involved <= examined and "node" in m.string[line_start : m.start()]:
        return f"{involved}/{examined}"
    return m.group(0)


def _groups_within_count(m: re.Match[str]) -> str:
    """ "1/21 (paraesophageal 1/5)" -> "1/21 (paraesophageal)": groups that add up to less than
    the count before them are some of its nodes, not others (a full breakdown, "4/26 (perigastric
    1/8, left gastric 3/18)", stays: its parts add up to the count and are read as parts)."""
    involved = _INVOLVED_BEFORE_SLASH.search(m.string, max(0, m.start() - 4), m.start())
    if involved is None or "node" not in m.string[max(0, m.start() - 60) : m.start()]:
        return m.group(0)
    groups = _GROUP_COUNT.findall(m.group(2))
    if not groups:
        return m.group(0)
    k, n = int(involved.group(1)), int(m.group(1))
    inner_k, inner_n = sum(int(a) for a, _ in groups), sum(int(b) for _, b in groups)
    if inner_k > k or inner_n >= n:
        return m.group(0)
    inside = _GROUP_COUNT.sub("", m.group(2)).strip(" ,;")
    return f"/{m.group(1)} ({inside})" if inside else f"/{m.group(1)}"


def _nodes_all_negative(m: re.Match[str]) -> str:
    """ "nodes (2): negative" -> "nodes (2): negative (0/2)"; no count found, no change."""
    count = m.group(1) or m.group(2)
    if count is None and "examined" in m.group(0):  # "31 nodes examined, none positive"
        before = _NUMBER_BEFORE_NODES.search(m.string, max(0, m.start() - 30), m.start())
        count = before.group(1) if before else None
    if count is None:
        return m.group(0)
    number = to_int(count)
    if not number:
        return m.group(0)
    status = "negative" if m.group(3)[0] in "nw" else m.group(3)  # "none positive", "no metastasis"
    return f"{m.string[m.start() : m.start(3)]}{status} (0/{number})"


def _worded_counts(text: str) -> str:
    """ "one of eighteen" -> "1 of 18", "seven of the twelve" -> "7 of 12"; a number word on one
    side only ("one of 12", "one of the nodes") stays as it was."""
    out, last = [], 0
    for m in _OF_COUNT_WORD.finditer(text):
        before = _COUNT_WORD_BEFORE.search(text, max(last, m.start() - 14), m.start())
        if before is not None:
            out += [text[last : before.start()], str(to_int(before.group(1))), " of "]
            out.append(str(to_int(m.group(1))))
            last = m.end()
    return "".join(out) + text[last:] if out else text


def _glomerular_counts(text: str) -> str:
    """ "eighteen glomeruli, ten of which ..." -> "18 glomeruli, 10 of which ...", and "none of
    the glomeruli shows a crescent" -> "glomeruli: no crescent"."""
    parts = _SENTENCE_ENDS.split(text)
    for i, part in enumerate(parts):
        if "glomerul" in part:
            part = _NO_GLOMERULI_WITH.sub("glomeruli: no ", part)
            parts[i] = _COUNT_WORD.sub(lambda w: str(to_int(w.group(0))), part)
    return "".join(parts)


def _cap_node_numbers(m: re.Match[str]) -> str:
    """ "number examined: 13; number involved: 1" -> "1/13 number examined: 13; ..."; two
    involved or two examined numbers, or more involved nodes than examined, stay as they were."""
    first, second = (m.group(1), m.group(2)), (m.group(3), m.group(4))
    if (first[0] == "examined") == (second[0] == "examined"):
        return m.group(0)  # two involved numbers, or two examined ones
    examined, involved = (first, second) if first[0] == "examined" else (second, first)
    if int(involved[1]) > int(examined[1]):
        return m.group(0)
    return f"{involved[1]}/{examined[1]} {m.group(0)}"


def _mitoses_in_digits(text: str) -> str:
    """ "three mitoses" -> "3 mitoses": the number word just before each mention, in digits."""
    out, last = [], 0
    for m in _MITOSES.finditer(text):
        before = _NUMBER_WORD_BEFORE.search(text, max(last, m.start() - 30), m.start())
        if before:
            out += [text[last : before.start(1)], str(NUMBER_WORDS[before.group(1)])]
            last = before.end(1)
    return "".join(out) + text[last:] if out else text


def _nodes_plus(m: re.Match[str]) -> str:
    """ "1 N+ / 23 N" -> "1/23" after a word for the nodes, "1/23 lymph nodes" elsewhere."""
    named = _NODE_WORD_BEFORE.search(m.string, max(0, m.start() - 40), m.start())
    return f"{m.group(1)}/{m.group(2)}" + ("" if named else " lymph nodes")


def _labelled_count(m: re.Match[str]) -> str:
    """ "peribronchial 1 of 6" -> "peribronchial 1/6"; "metastasis in 2 of 46" stays."""
    before = m.string[max(0, m.start() - 40) : m.start()]
    return "/" if _LABELLED_NUMBER_BEFORE.search(before) else m.group(0)


def _unit_for_both(m: re.Match[str]) -> str:
    """ "1.5 and 1.8 cm" -> "1.5 cm and 1.8 cm" (a number's own text before it, not "pT2")."""
    before = m.string[max(0, m.start() - 12) : m.start()]
    return f" {m.group(2)} {m.group(1)} " if _NUMBER_BEFORE.search(before) else m.group(0)


def _rewrite_node_lines(text: str) -> str:
    """ "k of n" as "k/n" after a node group's label, on each line that names lymph nodes."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if ("node" in line or "ln" in line) and " of " in line:
            lines[i] = _OF_COUNT_ON_NODE_LINE.sub(_labelled_count, line)
    return "\n".join(lines)


def _gleason_in_digits(m: re.Match[str]) -> str:
    """ "gleason three plus four equals seven" -> "gleason 3+4=7"."""
    primary, secondary = NUMBER_WORDS[m.group(2)], NUMBER_WORDS[m.group(3)]
    return f"{m.group(1)}{primary}+{secondary}={primary + secondary}"


def _prostate_sextant(text: str) -> str:
    """A prostate biopsy's sextant with its side first ("left apex", "right mid")."""
    if "of left" in text or "of right" in text or "the left" in text or "the right" in text:
        text = _PROSTATE_PART_OF_SIDE.sub(r"\2 \1", text)  # "apex of left side"
    if (
        "apex left" in text
        or "apex right" in text
        or "base left" in text
        or "base right" in text
        or "mid left" in text
        or "mid right" in text
    ):
        text = _PROSTATE_PART_THEN_SIDE.sub(r"\2 \1", text)  # "apex left"
    if "middle third" in text:  # "right middle third"
        text = _PROSTATE_MIDDLE_THIRD.sub(r"\1 mid", text)
    return text


# Every word that a rule of _other_labs_wording looks for among a report's words (see
# abbreviations._GATE_WORDS): the rules test only the report's words in this set.
_OTHER_LABS_GATE = frozenset(
    [
        "ala", "and", "breast", "cervix", "cin", "clock", "cm", "conserved", "contralateral",
        "ductal", "eber", "ebv", "endometrial", "endometrioid", "eye", "eyelid", "fibrosis",
        "figo", "gall", "gleason", "grade", "immature", "invasion", "involvement", "ipsilateral",
        "ish", "l1", "laur", "lauren", "lid", "loss", "mandard", "mature", "metastatic", "mm",
        "non", "none", "nose", "of", "out", "plus", "point", "points", "progesterone", "prostate",
        "quirke", "receptors", "renal", "reticulin", "sided", "sirius", "temporal", "third",
        "thyroid", "trichrome", "type", "uterus", "ve", "without",
    ]
)  # fmt: skip
_OTHER_LABS_GATE |= _OTHER_LABS_WORDS | _SEXTANT_WORDS | _PDL1_CLONES | _TEMPORAL_SURFACES
_OTHER_LABS_GATE |= _CLOCK_FACE_ORGANS | _CUT_END_WORDS | _FAVOUR_WORDS | _NODAL_GROUPS
_OTHER_LABS_GATE |= _PANCREAS_WORDS | _KINDS_IN_BRACKETS | {"diagnostic"}
_OTHER_LABS_GATE |= {"h", "differentiation"}


def _carcinoma_of(lineage: str) -> str:
    """The carcinoma a lung lineage names: "squamous (cell carcinoma)" or "glandular" and
    "adenocarcinoma" (see _NSCC_OF_TYPE and _FAVOURED_DIFFERENTIATION)."""
    return "squamous cell carcinoma" if lineage.startswith("squamous") else "adenocarcinoma"


# "Uterus, cervix, LEEP cone" names the cervix of the uterus; "uterus, cervix, tubes and ovaries"
# lists the organs of a hysterectomy, so the comma stays when more organs follow.
_UTERUS_COMMA_CERVIX = re.compile(
    r"uterus, cervix(?!,?\s*(?:and\s+)?(?:both\s+|bilateral\s+|(?:left|right)\s+)?"
    r"(?:tubes?|fallopian|ovar|adnexa))"
)


def _other_labs_wording(text: str, words: set[str]) -> str:
    """Wordings some labs use for what the schemas read in another form ("CD20 +ve", "low grade
    (FIGO 1)", "Gleason three plus three equals six", "1.5 and 1.8 cm").

    Each rule is tried only when its words are among the report's words (a set lookup), since
    substring tests over the whole report for each of them cost more than the rules themselves;
    most reports contain none of those words and cost one set test.
    """
    words = _OTHER_LABS_GATE.intersection(words)
    # "1.5 and 1.8 cm", "8 of 15 mm"
    if ("and" in words or "of" in words) and ("cm" in words or "mm" in words):
        shared = _UNIT_FOR_BOTH.sub(_unit_for_both, text)
        if shared != text and ", " in text:
            shared = _UNIT_FOR_LISTED.sub(r"\1 \2", shared)
        text = shared
    if "prostate" in words and not words.isdisjoint(_SEXTANT_WORDS):  # "apex of left side"
        text = _prostate_sextant(text)
    if "cervix" in words and "uterus" in words and "uterus, cervix" in text:
        text = _UTERUS_COMMA_CERVIX.sub("uterine cervix", text)  # "Uterus, cervix, LEEP cone"
    if "endometrioid" in words and "endometrial" in words:  # "Endometrioid endometrial carcinoma"
        text = _ENDOMETRIOID_ENDOMETRIAL.sub("endometrioid ", text)
    if "h" in words and not words.isdisjoint(_CLOCK_FACE_ORGANS):  # "cervical biopsy, h 12"
        text = _CLOCK_H.sub(lambda m: f"{m.group(1) or m.group(2)} o'clock", text)
    if ("point" in words or "points" in words) and "cervix" in words:  # "(Cervix 6 point)"
        text = _CLOCK_POINTS.sub(
            lambda m: m.group(1) + ", ".join(f"{h.strip()} o'clock" for h in m.group(2).split(",")),
            text,
        )
    # Rules whose words are common ("ductal", "urothelial", "diagnostic") are gated on their own,
    # before the shared test below lets a report through to the others.
    if "diagnostic" in words and "but not diagnostic" in text:  # "suspicious for, but not ..."
        text = _SUSPICIOUS_NOT_DIAGNOSTIC.sub(r"\2 \1", text)
    if "ductal" in words and not words.isdisjoint(_PANCREAS_WORDS) and "breast" not in words:
        text = _DUCTAL_CARCINOMA.sub("ductal adenocarcinoma", text)  # a pancreatic ductal carcinoma
    # "teratoma (mature)", "CIS, urothelial."
    if not words.isdisjoint(_KINDS_IN_BRACKETS) and ("(" in text or ", urothelial" in text):
        text = _KIND_IN_BRACKETS_AFTER.sub(lambda m: f"{m[2] or m[3]} {m[1]}", text)
    if words.isdisjoint(_OTHER_LABS_WORDS):
        return text
    if "figo" in words and "(figo" in text:  # "low grade (FIGO 1)"
        text = _FIGO_GRADE_BRACKET.sub(r"figo grade \1", text)
    if "type" in words and not words.isdisjoint(_TYPE_ADJECTIVES):  # "endometrioid type adeno..."
        text = _TYPE_BEFORE_CARCINOMA.sub(r"\1 \2", text)
    if "cin" in words and "grade" in words and "cin grade" in text:
        text = _CIN_GRADE.sub(r"cin \1", text)
    if "invasion" in words and not words.isdisjoint(_VESSEL_KINDS) and "invasion:" in text:
        text = _VESSEL_KIND_STATUS.sub(r"\2 \1: ", text)  # "Angio-invasion: extramural, ..."
    if "l1" in words and not words.isdisjoint(_PDL1_CLONES):  # "PD-L1 22C3 TPS 30%"
        text = _PDL1_CLONE.sub(r"\1 (\2)", text)
    if "ve" in words:  # "CD20 +ve, CD3 -ve"
        text = _VE_SIGN.sub(lambda m: " positive" if m.group(1) else " negative", text)
    if "progesterone" in words and "receptors" in words:  # "estrogen and progesterone receptors"
        text = _RECEPTOR_PAIR.sub("estrogen receptor and progesterone receptor", text)
    if "plus" in words and "gleason" in words:  # "Gleason three plus three equals six"
        text = _GLEASON_WORDS.sub(_gleason_in_digits, text)
    if "contralateral" in words or "ipsilateral" in words:  # "contralateral (left) ovary"
        text = _SIDE_IN_BRACKETS.sub(r"\1", text)
    if "loss" in words:  # "MLH1 and PMS2 show loss of nuclear expression"
        text = _LOSS_OF_EXPRESSION.sub("lost", text)
    if "conserved" in words:  # "mismatch repair proteins with conserved expression"
        text = _CONSERVED_EXPRESSION.sub("retained", text)
    if "mandard" in words:  # "Tumour regression grade 3 of Mandard"
        text = _MANDARD_AFTER.sub(r"mandard trg \1", text)
    if "figo" in words and ": figo " in text:  # "Histologic grade: FIGO 1": a grade, not a stage
        text = _FIGO_AFTER_GRADE_LABEL.sub(r"\1figo grade \2", text)
    if "figo" in words and ("of figo" in text or "by figo" in text):  # "grade 2 of FIGO"
        text = _GRADE_OF_FIGO.sub(r"figo grade \1", text)
    if "fibrosis" in words and not words.isdisjoint(("trichrome", "reticulin", "sirius")):
        text = _FIBROSIS_ON_STAIN.sub("fibrosis ", text)  # "fibrosis on trichrome (stage 1a)"
    if not words.isdisjoint(_FIBROSIS_WORDS) and "(stage" in text:  # "bridges (stage 3)"
        text = _FIBROSIS_STAGE_IN_BRACKETS.sub(r"\1(fibrosis stage", text)
    if "differentiation" in words and not words.isdisjoint(_FAVOUR_WORDS):
        text = _FAVOURED_DIFFERENTIATION.sub(lambda m: f"{m[1]} {_carcinoma_of(m[2])}", text)
    if not words.isdisjoint(_NODAL_GROUPS) and "(" in text:  # "hilar (10) none of 3"
        text = _GROUP_STATION.sub(r"\1 (station \2)", text)
    if "small" in words and "type" in words and "non" in words:  # "NSCC, adenocarcinoma type"
        text = _NSCC_OF_TYPE.sub(lambda m: _carcinoma_of(m[1]), text)
    if "papillary" in words and "renal" in words:  # "renal cell carcinoma, papillary type"
        text = _RCC_PAPILLARY_TYPE.sub("papillary renal cell carcinoma", text)
    if "ends" in words and not words.isdisjoint(_CUT_END_WORDS):  # "Resection ends clear"
        text = _RESECTION_ENDS.sub(r"\1 margins", text)
    if "lobectomy" in words and "thyroid" in words:  # "Thyroid, left lobe (lobectomy)"
        text = _THYROID_LOBECTOMY.sub(r"\1thyroid lobectomy", text)
    if not words.isdisjoint(_IMMUNO_SIGN_WORDS):  # "IDH1 R132H immunonegative"
        text = _IMMUNO_SIGN.sub(r"\1", text)
    if "out" in words and "core" in text:  # "in one core out of twelve"
        text = _CORES_OUT_OF.sub(
            lambda m: f"{to_int(m.group(1))} of {to_int(m.group(2))} cores", text
        )
    if "sided" in words:  # "right-sided neck node"
        text = _SIDED.sub(r"\1", text)
    if "ala" in words and "nose" in words:  # "left ala of the nose"
        text = _ALA_OF_NOSE.sub(r"\1 nasal ala", text)
    if "eye" in words and ("lid" in words or "eyelid" in words):  # "lower lid of the right eye"
        text = _LID_OF_EYE.sub(lambda m: f"{m[2] or m[3]} {m[1] or m[4]} eyelid", text)
    # "biopsies at 12 and 3 o'clock" (an "h 12" became "12 o'clock" above)
    if ("clock" in words or ("h" in words and "clock" in text)) and " and " in text:
        text = _CLOCK_HOUR_LIST.sub(_clock_hours, text)
    if "lauren" in words or "laur" in words:  # "intestinal (Lauren) type", "sec. Laurén"
        text = _LAUREN_TYPE.sub(r"\1 type", text)
        text = _LAUREN_LABEL.sub(r"\1 type", text)
    if "third" in words and ") third" in text:  # "distal (lower) third of oesophagus"
        text = _THIRD_NAMED_TWICE.sub(r"\1 ", text)
    if "grade" in words and not words.isdisjoint(_MESORECTUM_WORDS):
        if "quirke" in words:
            text = _QUIRKE_GRADE.sub(lambda m: f"quirke {m.group(1) or m.group(2)}", text)
        text = _MESORECTUM_GRADE.sub(r"\1quirke \2", text)
    if "temporal" in words and not words.isdisjoint(_TEMPORAL_SURFACES):
        text = _TEMPORAL_SKIN.sub("temple", text)
    if "gall" in words:  # "Gall bladder": the gallbladder, not the urinary bladder
        text = text.replace("gall bladder", "gallbladder")
    if "involvement" in words and "without" in words:  # "... without involvement of Y": of Y
        text = _WITHOUT_INVOLVEMENT_OF.sub("without any involvement of", text)
    if ("ebv" in words or "eber" in words) and "ish" in words:  # "EBV (ISH)", "EBER ISH -"
        text = _EBV_ISH.sub("eber", text)
    if "none" in words and "metastatic" in words:  # "Fourteen nodes, none metastatic"
        text = text.replace("none metastatic", "none with metastasis")  # the cue "none with"
    return text


def normalise(text: str, *, report: bool = False) -> str:
    """Lower-case, NFKC-normalised text with unified dashes, quotes and percent signs.

    "30 percent" and "30 per cent" become "30%", so that every schema pattern for a percentage needs
    one spelling of the unit; a decimal comma before a unit becomes a point ("2,8 cm"), a part of a
    measured whole is measured in its unit ("4/15 mm" is "4 mm of 15 mm"), a sign after a heading's
    colon or a node count becomes its word ("LVI: -", "2/15 +"), margins listed by name with their
    signs get the status they share, a stain's sign written apart joins it ("CK7 -"), "in situ
    hybridisation" is "ISH", "70 by 35 mm" is "70 x 35 mm", and the French node count "1 N+ / 23 N"
    and the Nordic "1(23)" are "1/23" (and "metastasis in 0/24" is none); "approx. 40 %" is
    "approximately 40 %" (its point ends no statement) and "a 1.4-cm nodule" a "1.4 cm" one; a
    clinician's question mark ("?TB") is the word "query"; a laboratory system's "KEY=value |
    KEY=value" record becomes the report lines it stands for, and the UICC perineural code "Pn1"
    (not the nodal stage "pN1") its words; the parts of a synoptic Gleason grade become one score,
    the sizes on a line that describes the specimen (named, headed "Macroscopic:", or led by its
    procedure) are marked as the specimen's, and isolated tumour cells count no positive node;
    markers listed in brackets after a shared result take it ("all negative (CK, S-100)"), stains
    "negative for organisms" are negative, and p16 is read by its pattern (block or not); British
    spellings become American ones, an abbreviation or a number echoed in brackets is dropped, and a
    qualifier in brackets inside a name ("atypical proliferative (borderline) serous tumour") joins
    it, so that a vocabulary names each finding once. The Japanese "Ex0" is "no extrathyroidal
    extension", "Lt" between commas in an oesophageal report the lower thoracic oesophagus (not the
    left side), and "CIN3 (severe dysplasia / carcinoma in situ)" names CIN3 once, not a carcinoma
    beside it. A ``report`` written all in lower case (as the benchmark's TCGA and HistAI models
    write) has its side letters and perineural codes read as a capitalised one's are; a
    vocabulary phrase or an extracted value is never such a report, so it skips that reading.
    """
    if "&" in text:
        text = html.unescape(text)
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(_CHAR_MAP)
    elif _ASCII_MAPPED.search(text):
        text = text.translate(_CHAR_MAP)
    if "?" in text:  # "?PCP ?TB": what the clinician asks
        text = _QUESTION_MARK.sub("query ", text)
    if "~" in text or "\u2248" in text:  # "~40% of hepatocytes"
        text = _APPROXIMATELY.sub("approximately ", text)
    if "L " in text or "R " in text:
        text = _SIDE_LETTER.sub(lambda m: _SIDES[m.group(1)], text)
    if "(L)" in text or "(R)" in text:  # "Breast (R), CNB"
        text = text.replace("(L)", "(left)").replace("(R)", "(right)")
    if "Pn" in text:  # "L0 V0 Pn1": perineural invasion, not the nodal stage
        text = _PERINEURAL_CODE.sub(lambda m: _PERINEURAL_WORDS[m.group(1)], text)
    if "pn" in text and ", ly" in text:  # "pn1, ly0, v0": before the lymphatic code
        text = _PERINEURAL_BEFORE_LYMPHATIC.sub(lambda m: _PERINEURAL_WORDS[m.group(1)], text)
    if "RMs" in text:  # "RMs all free": resection margins, not "RMS" (rhabdomyosarcoma)
        text = _MARGINS_INITIALS.sub("resection margins", text)
    if " - " in text and _CAPITAL_BEFORE_DASH.search(text):  # "LVI / PNI - Absent / absent"
        text = _CAPITAL_HEADING_DASH.sub(r"\1: ", text)  # a synoptic heading's dash: its colon
    lowered = text.lower()
    if report and lowered == text:  # a report written in lower case (a phrase never is one)
        lowered = _lower_case_codes(lowered)
    text = lowered
    if "approx." in text or "ca." in text:  # "steatosis approx. 40 %"
        text = _APPROX_POINT.sub("approximately ", text)
    if "," in text and _DIGIT_COMMA_DIGIT.search(text):  # "2,8 cm"
        text = _DECIMAL_COMMA.sub(r"\1.\2", text)
        if "μm" in text or "um" in text or "micro" in text:
            text = _THOUSANDS_MICRONS.sub(r"\1\2", text)
    if "-cm" in text or "-mm" in text:  # "a 1.4-cm nodule", "23-mm PTC"
        text = _HYPHENATED_UNIT.sub(r"\1 \2", text)
    if "pt" in text:  # "pT2 N1": the N category after a pathologic T category is pathologic too
        text = _N_AFTER_PT.sub(lambda m: "pt" + m[1] + ("pn" if m[1][-1] in " \t" else " pn"), text)
        text = _M_AFTER_PN.sub(r"\1 \2", text)  # "pT3N2M0"
    if "/" in text and ("mm" in text or "cm" in text):  # "4/15 mm": each part a measurement
        text = _PART_OF_MEASURED.sub(lambda m: f"{m[1]} {m[3]} of {m[2]} {m[3]}", text)
    if "in (" in text or "inch" in text:  # "1.5 in (3.9 cm)"
        text = _INCHES_THEN_METRIC.sub(r"\1", text)
    if " by " in text:  # "70 by 35 by 20 mm"
        text = _BY_DIMENSION.sub(DIMENSION_TIMES, text)
    if "m)" in text and ("cm)" in text or "mm)" in text):  # "tumour size [18 mm]"
        text = _SIZE_IN_BRACKETS.sub(r"\1 \2", text)
    if "ive (" in text and ("all " in text or "both " in text):  # "all negative (CK, S100)"
        text = _SHARED_RESULT_LIST.sub(r"\1 for \2", text)
    if "ivity for " in text:  # "positivity for CD20 and BCL6, negativity for CD10"
        text = _POSITIVITY_FOR.sub(r"\1ive for ", text)
    if "atypical" in text and "non" in text:  # "non-atypical endometrial hyperplasia"
        text = _NON_ATYPICAL.sub(r"\1 without atypia", text)
    if "not " in text and _opens_with_not(text):  # "Not seen perineural invasion."
        text = _not_seen_first(text)
    if "organisms" in text:  # "AFB and GMS stains negative for organisms"
        text = _NO_ORGANISMS_SHOWN.sub(" negative", text)
    if "p16" in text and ("block" in text or "patchy" in text or "mosaic" in text):
        text = _P16_BLOCK.sub("p16 positive", _P16_NON_BLOCK.sub("p16 negative", text))
    if "criteria" in text and " not " in text:  # "criteria for X (are) not met"
        text = _CRITERIA_NOT_MET.sub(r"no \1", text)
    if "=" in text:  # "SITE=COLON | LVI=N | LN=0/12"
        text = _as_record(text)
    if ":" in text:  # "LVI: -", "Margins: all -"
        text = _COLON_SIGN.sub(_colon_sign, text)
    if "/" in text and ("+" in text or "-" in text):  # "Nodes: 2/15 +"
        text = _COUNT_SIGN.sub(_count_sign, text)
    if "margin" in text and ":" in text:  # "Margins: ecto -, endo -, deep -"
        if "margins (" in text:  # "Margins (neck, bile duct): all negative"
            text = _MARGINS_NAMED_IN_BRACKETS.sub(r"\1 margins", text)
        text = _MARGIN_LIST.sub(_margin_list, text)
    if " -" in text or " +" in text:  # "CK7 -, TTF1 -."
        text = _SPACED_SIGN.sub(_FIRST_GROUP, text)
    signed = "(+" in text or "(-" in text
    if signed and ("(+," in text or "(-," in text):  # "endocervical (+, HSIL)": sign, then note
        text = _SIGN_WITH_NOTE.sub(r"(\1) (", text)
    if signed and ("(+)" in text or "(-)" in text):  # "ALK (D5F3) (-)", "ROS1 (+)"
        text = _TEST_SIGN.sub(
            lambda m: m.group(1) + (" negative" if m.group(2) == "-" else " positive"), text
        )
        # Any other sign in brackets after a word is its word ("capsular and vascular invasion
        # (-)"), so that it reaches every item of a list as "negative" does.
        text = _SIGN_AFTER_WORD.sub(
            lambda m: " negative" if m.group(1) == "-" else " positive", text
        )
    if "her2" in text and "(ihc" in text:  # "HER2 (IHC 1+)"
        text = _HER2_IHC_BRACKET.sub(r"her2 \1", text)
        text = _HER2_IHC_HEADING.sub("her2 ihc ", text)
    if "hybridi" in text:
        text = _IN_SITU_HYBRIDISATION.sub("ish", text)
    if ">" in text and "c." in text:  # "BRAF c.1799T>A (p.V600E) mutation"
        text = _PROTEIN_CHANGE_PREFIX.sub("", _CODING_DNA_CHANGE.sub("", text))
    if "our" in text or "oe" in text or "ae" in text:
        text = _BRITISH.sub(lambda m: _AMERICAN[m.group(0)], text)
    if "secondary" in text and "primary" in text:  # "Primary Gleason grade: 3 ..."
        text = _GLEASON_PARTS.sub(_gleason_score, text)
    if (
        ("cm" in text or "mm" in text)  # most biopsy reports state no size
        and any(word in text for word in _SPECIMEN_LINE_WORDS)
        and _SPECIMEN_SIZE.search(text)
    ):
        text = _SPECIMEN_LINE.sub(_specimen_sizes, text)  # "Specimen: ..., 32 x 18 mm"
    if "isolated" in text or "itc" in text:  # "isolated tumour cells in 1/3", "ITC in one of two"
        text = _ISOLATED_CELLS_COUNT.sub(r"\g<1>0", text)
        text = _COUNT_WITH_ISOLATED_CELLS.sub("0", text)
    if "erb" in text:  # "c-erbB-2", "c-erb B-2", "ERBB2": one name for HER2
        text = _HER2_SPELLING.sub("her2", text)
    if "esophag" in text and ("t," in text or "t;" in text):  # "SCC, Lt, Type 2"
        text = _ESOPHAGEAL_LOCATION.sub(lambda m: _ESOPHAGEAL_LOCATIONS[m.group(1)], text)
    if "ex0" in text:  # the Japanese "Ex0": no extrathyroidal extension
        text = _NO_EXTRATHYROIDAL_EXTENSION.sub(_no_extrathyroidal_extension, text)
    if "situ)" in text and "cin" in text:  # "CIN3 (severe dysplasia / carcinoma in situ)"
        text = _CIN3_SYNONYMS.sub(r"\1", text)
    if "pno" in text:  # "pNO": a letter O for the zero, common in OCR'd and retyped TNM stages
        text = _LETTER_O_STAGE.sub(r"\1pn0", text)
    if "(" in text and _ANY_ABBREVIATION.search(text):
        text = _ECHOED_ABBREVIATION.sub("", text)
    if "(" in text and _BRACKETED_QUALIFIER_PROBE.search(text):  # one search, led by "("
        text = _BRACKETED_QUALIFIER.sub(r"\1", text)
    words = set(WORD_RUN.findall(text))  # one word set for the steps below
    # The rewrites below are looked up in the word set first (a substring test of a whole report
    # costs as much as its other steps together).
    if "subserosal" in words and "(" in text:  # "pericolic (subserosal) fat"
        text = _SUBSEROSAL_NAMED_TWICE.sub("subserosal", text)
    if "invasion" in words and not words.isdisjoint(_SLASHED_INVASION_WORDS):
        text = _SLASHED_INVASIONS.sub(r"\1 or \2", text)  # "capsular/vascular invasion"
    if "ascending" in words or "transverse" in words:  # "(terminal ileum, ascending, ..."
        text = _BARE_COLON_SEGMENT.sub(r"\1 colon", text)
    if not words.isdisjoint(_GASTRIC_WALLS):  # "Gastric cancer, L, Less, Type 3"
        text = _GASTRIC_LOCATION.sub(_gastric_location, text)
    dotted_nodes = "n" in words and "l.n." in text  # "L.N.s 0/14"
    other = _other_labs_wording(text, words)  # "CD3 -ve", "low grade (FIGO 1)", "1.5 and 1.8 cm"
    if other != text:
        text, words = other, set(WORD_RUN.findall(other))
    english = english_anatomy(text, words)  # "Mamma dextra", "Pulmo sinister", "axilla dx."
    if english != text:
        text, words = english, None
    # "BCC, nodular": looked up in the word set (substring tests cost 2 us a report).
    names_subtype = not _SUBTYPE_WORDS.isdisjoint(
        words if words is not None else WORD_RUN.findall(text)
    )
    # A breast's sentinel node, a lobe then its hemisphere, the colon's halves or the colorectum.
    odd_sites = words is None or not words.isdisjoint(_ODD_SITE_WORDS)
    text = spell_out(text, words)  # "RUL", "SLNs", "adenoca, mod. diff.", "w/o LVI", "six mm"
    if "cent" in text and "per" in text:
        text = _PERCENT_WORD.sub(r"\1%", text)
        if "%)" in text:  # "(acinar 50, lepidic 30, papillary 20 percent)": each a percentage
            text = _PERCENT_OF_A_LIST.sub(_percent_each, text)
    if "n+" in text or "n +" in text:  # "Lymph nodes: 1 N+ / 23 N"
        text = _NODES_PLUS.sub(_nodes_plus, text)
    if "node" in text and ")" in text:  # "nodes 2(18)"
        text = _NODES_IN_BRACKETS.sub(_bracketed_node_count, text)
    if "ln" in text or dotted_nodes:  # "Regional LN: 0/8", "LNs", "L.N.s": once echoes are gone
        text = _LYMPH_NODE_ABBREVIATION.sub(_expand_ln, text)
    if "mito" in text:  # "three mitoses per 5 mm2"
        text = _mitoses_in_digits(text)
    if "type" in text and "papillary" in text:  # "papillary-type nuclei"
        text = _PAPILLARY_TYPE_NUCLEI.sub("nuclear features of papillary carcinoma", text)
    if "margin" in text and _MARGIN_AFTER_COMMA_PROBE.search(text):  # "adenoma, margins negative"
        text = _MARGIN_STATUS_AFTER_COMMA.sub(";", text)
    if "at the margin" in text:  # "Bronchial margin: carcinoma is observed at the margin"
        text = _TUMOUR_AT_THE_MARGIN.sub(r"\1: involved by \2", text)
    if names_subtype:  # "BCC, nodular"
        if "sarcoma, conv" in text:  # "Osteosarcoma, conventional type": the entity's name
            text = _CONVENTIONAL_SARCOMA.sub(r"conventional \1", text)
        text = _LONE_SUBTYPE.sub(_SUBTYPE_TYPED, text)
        if "+ " in text:  # "nodular + infiltrative" (not a Gleason sum, "3+4")
            text = _PLUS_SUBTYPE.sub(lambda m: f", {m.group(1)} type", text)
        if "(" in text:  # "PTC (classic)"
            text = _BRACKETED_SUBTYPE.sub(lambda m: f"({m.group(1)} type)", text)
        if " form" in text:  # "papillary carcinoma of classic form"
            text = _SUBTYPE_OF_FORM.sub(r"\1 type", text)
        if "growth pattern" in text:  # "solid growth pattern"
            text = _SUBTYPE_GROWTH_PATTERN.sub(r"\1 type", text)
    if "third" in text:  # "atypia limited to the lower third of the epithelium"
        text = _EPITHELIAL_THIRD.sub(r"\1 epithelial third\2", text)
        text = _THIRD_OF_A_LESION.sub(r"\1epithelial \2", text)
    if "mucosal margin" in text or "tissue margin" in text:  # "posterior mucosal margin"
        text = _POSITION_OF_TISSUE_MARGIN.sub(r"\1 margin", text)
    if "margin with" in text or "margins with" in text:  # "lateral margin with tumour"
        text = _MARGIN_WITH_TUMOUR.sub(r"\1 involved", text)
    if "-free" in text and "margin" in text:  # "dysplasia-free resection margin"
        text = _FREE_MARGIN.sub(r"\2 free of \1", text)
    if "al)" in text and "margin" in text:  # "proximal (esophageal) and distal margins"
        text = _MARGIN_END_ORGAN.sub(lambda m: m[1] or m[2], text)
    if odd_sites:  # one word-set test for the four rewrites of sites below
        if "sentinel" in text and "breast" in text:  # "Breast, right, sentinel lymph node biopsy;"
            text = _BREAST_SENTINEL_HEADING.sub(_breast_sentinel_node, text)
        if "hemisphere" in text:  # "temporal lobe, left hemisphere": the left temporal lobe
            text = _LOBE_THEN_HEMISPHERE.sub(r"\2 \1 lobe", text)
        if "and left colon" in text or "and right colon" in text:  # "right and left colon"
            text = _BOTH_SIDES_OF_COLON.sub(r"\1 colon and \2 colon", text)
        if "colon/rectum" in text or "colon or rectum" in text:  # "origin in the colon/rectum"
            text = _COLON_OR_RECTUM.sub("colorectum", text)
    if "esophag" in text:  # "Oesophagus, distal, 38 cm", "Oesophagus distal, biopsy"
        text = _ESOPHAGUS_PART_AFTER.sub(_esophagus_parts_first, text)
    if "esophag" in text and (" and " in text or "&" in text or "/" in text or "+" in text):
        text = _ESOPHAGUS_PARTS.sub(_esophagus_parts, text)  # "proximal and distal esophageal"
    if "parietal" in text or "visceral" in text:  # "Pleura, left parietal"
        text = _SEROSA_LAYER_AFTER.sub(
            lambda m: f"{m.group(2) + ' ' if m.group(2) else ''}{m.group(3)} {m.group(1)}", text
        )
    if "side" in text and "colon" in text:  # "Colon, left side, biopsies"
        text = _COLON_SIDE_AFTER.sub(r"\1 colon", text)
    if ", left" in text or ", right" in text:  # "Skin, forearm, left"
        text = _side_before_part(text)
    if "colitis" in text and "type" in text:  # "microscopic colitis, collagenous type"
        text = _COLITIS_TYPE.sub(r"\1 colitis", text)
    if "negative for" in text and (" and for " in text or " or for " in text):
        # "negative for A and for B"
        text = _REPEATED_FOR.sub(_FIRST_GROUP, text)
    if "extension:" in text:  # "Extension: into renal sinus fat"
        text = _EXTENSION_HEADING_INTO.sub("extension into", text)
    if "until" in text:  # "infiltrating until subserosa"
        text = _INVADING_UNTIL.sub(r"\1 into", text)
    if "(" in text and ("(outer" in text or "(deep" in text or "(inner" in text or "(meso" in text):
        if "r) margin" in text:  # "endocervical (inner) margin": a cone's margin by its position
            text = _INNER_OUTER_MARGIN.sub("", text)
        text = _LAYER_PART_IN_BRACKETS.sub("", text)
    if "microvascular invasion" in text:  # "MVI: M0", the grade of a hepatocellular carcinoma's
        text = _MVI_GRADE.sub(_mvi_grade, text)
    if "glomerul" in text:  # "eighteen glomeruli, ten with crescents"
        text = _glomerular_counts(text)
    names_nodes = "node" in text  # most REG reports do not: one scan for the rules below
    if " of " in text and (names_nodes or "core" in text):  # "one of eighteen nodes"
        text = _worded_counts(text)
        if "none of" in text:
            text = _NONE_OF_DIGITS.sub(r"0 of \1", text)
    if names_nodes and " of " in text:  # "peribronchial 1 of 6 positive"
        text = _rewrite_node_lines(text)
    if names_nodes:  # "no lymph nodes were identified", "sentinel nodes (2): negative"
        if "0" in text:  # "0 of 11 lymph nodes with metastasis"
            text = _NONE_OF_NODES_WITH.sub(_NODES_WITHOUT, text)
        if " in " in text and "metasta" in text:  # "Lymph node metastasis in 0/24"
            text = _METASTASIS_IN_NONE.sub(_NO_METASTASIS, text)
        if "number" in text:  # "Number examined: 13; Number involved: 1"
            text = _CAP_NODE_NUMBERS.sub(_cap_node_numbers, text)
        for no_nodes_found in _NO_NODES_FOUND:
            text = no_nodes_found.sub("0 lymph nodes examined", text)
        text = _NODES_ALL_NEGATIVE.sub(_nodes_all_negative, text)
    if ": 0/" in text or ":0/" in text:
        text = _NONE_OF_COUNT.sub(r"\1\2none (\3)", text)
    if "(" in text and " of " in text:  # "negative (0 of 3)" is the count "(0/3)"
        text = _BRACKETED_COUNT.sub(_SLASHED_COUNT, text)
    if names_nodes and "(" in text and "/" in text:  # "Lymph nodes: 1/21 (paraesophageal 1/5)"
        text = _COUNT_WITH_GROUPS.sub(_groups_within_count, text)
    if "(" in text and _ANY_BRACKETED_NUMBER.search(text):
        text = _ECHOED_NUMBER.sub(r"\1", text)
    if " not" in text:
        text = _ELLIPTICAL_NOT.sub(_elliptical_not, text)
    # Each rewrite below first looks for the literal part its pattern cannot match without
    # (searched fast); the full pattern, which begins with a lookbehind, runs only where it is.
    if ("remaining" in text or "other" in text) and _REMAINING_NUMBER.search(text):
        text = _REMAINING_COUNT.sub(r"\1", text)
    if ("invasion" in text or "involvement" in text) and _SHARED_HEAD.search(text):
        text = _SHARED_INVASION.sub(r"\1 invasion", text)
    if "positive" in text or "negative" in text:  # the rules below read a stated result
        if _RESULT_COLON.search(text):  # "IHC negative: S100, CD34"
            text = _RESULT_HEADING.sub(_result_for, text)
        text = _results_before_markers(text)  # "IHC: positive CD20; negative CD3"
    if ":" in text and ("not " in text or "absent" in text or "none" in text):
        text = _STATUS_HEADING.sub(_as_no, text)
    return text


def normalise_phrase(phrase: str) -> str:
    """The canonical spelling of a vocabulary phrase: its words joined by single spaces."""
    return " ".join(m.group(0).removesuffix("'s") for m in _WORD.finditer(normalise(phrase)))


@dataclass
class ReportText:
    """A normalised report split into words, with precomputed phrase and scope information.

    Attributes:
        text: the normalised string.
        words: normalised words (possessive removed).
        starts / ends: character offsets of each word in ``text``.
        joinable: ``joinable[k]`` is True when a phrase may continue from word ``k-1`` to ``k``.
        boundary_count: prefix count of clause boundaries; the gap before word ``k`` holds a
            boundary iff ``boundary_count[k+1] - boundary_count[k] == 1``.
        comma_count: the same for commas (post-negation cues may not cross a comma).
    """

    text: str
    words: list[str]
    starts: list[int]
    ends: list[int]
    joinable: list[bool]
    boundary_count: list[int] = field(repr=False)
    comma_count: list[int] = field(repr=False)

    @classmethod
    def from_raw(cls, raw: str) -> ReportText:
        return cls.from_normalised(normalise(raw, report=True))

    @classmethod
    def from_normalised(cls, text: str) -> ReportText:
        """The words and scopes of ``text``, which :func:`normalise` has already rewritten."""
        # One split gives the gaps and the words in turn (gap, word, gap, ..., word, gap), and
        # the running sum of their lengths every offset, without a match object per word.
        parts = (_ASCII_WORD_SPLIT if text.isascii() else _WORD_SPLIT).split(text)
        offsets = list(accumulate(map(len, parts)))
        gaps = parts[0:-1:2]  # the gap before each word
        words = parts[1::2]
        starts = offsets[0:-1:2]
        ends = offsets[1::2]
        if "'s" in text:  # possessives: "gleason's" is the word "gleason"
            for k, word in enumerate(words):
                if word.endswith("'s"):
                    words[k] = word[:-2]
                    ends[k] -= 2
        classes = list(map(_GAP_CACHE.get, gaps))  # most gaps were seen before
        if None in classes:
            classes = [c or _classify_gap(g) for c, g in zip(classes, gaps)]
        if classes:
            joinable, boundary, comma, second_look = map(list, zip(*classes))
            joinable[0] = False
        else:
            joinable, boundary, comma, second_look = [], [], [], []
        if True in second_look:
            # Only the few gaps that asked for a second look ("." or "," between words).
            for k in compress(range(1, len(second_look)), second_look[1:]):
                prev, gap = words[k - 1], gaps[k]
                if len(prev) == 1 and prev.isalpha() and gap.strip() == "." and gaps[k - 1] != "-":
                    # "h. pylori", "e. coli": a full stop after one letter is an abbreviation
                    # (not after the letter of a hyphenated name: "PAS-D. H. pylori ...").
                    joinable[k], boundary[k] = True, False
                elif gap in (".", ",") and prev.isdigit() and words[k][:1].isdigit():
                    boundary[k] = comma[k] = False  # "2.5 cm", "1,5 cm"
        return cls(
            text, words, starts, ends, joinable, [0, *accumulate(boundary)], [0, *accumulate(comma)]
        )

    def __len__(self) -> int:
        return len(self.words)

    def ascii_runs(self) -> list[str] | None:
        """The text's maximal runs of ASCII letters and digits, if the text is ASCII: its words
        and the "s" of a possessive, which the words drop. None for other text, whose words are
        runs of the Unicode word class."""
        if not self.text.isascii():
            return None
        return self.words + ["s"] if "'s" in self.text else self.words

    def boundary_between(self, first: int, last: int) -> bool:
        """True when a clause boundary lies in a gap before any word ``first..last`` (inclusive)."""
        return self.boundary_count[last + 1] - self.boundary_count[first] > 0

    def comma_between(self, first: int, last: int) -> bool:
        """True when a comma lies in a gap before any word ``first..last`` (inclusive)."""
        return self.comma_count[last + 1] - self.comma_count[first] > 0

    def word_at(self, char_pos: int) -> int:
        """Index of the first word that ends after ``char_pos`` (maps regex hits to words)."""
        return bisect_right(self.ends, char_pos)

    def word_of(self, char_pos: int) -> int:
        """``word_at`` kept inside the text: a position past the last word maps to that word."""
        return min(bisect_right(self.ends, char_pos), len(self.words) - 1)

    def place(self, k: int) -> tuple[int, int]:
        """(clause, comma segment) of word ``k``: words in one clause share the first number,
        words between the same commas of it also the second."""
        return int(self.boundary_count[k + 1]), int(self.comma_count[k + 1])  # prefix sums of bools


def _classify_gap(gap: str) -> tuple[bool, bool, bool, bool]:
    """(phrase may continue, clause boundary, comma, worth a second look) for a gap.

    The last flag marks the gaps where the neighbouring words change the answer: a full stop
    after a one-letter abbreviation ("h. pylori") or inside a number ("2.5").
    """
    result = (
        _JOINABLE_GAP.fullmatch(gap) is not None and "\n" not in gap,  # not across a line
        "\n" in gap or any(ch in _BOUNDARY_CHARS for ch in gap) or " - " in gap,
        "," in gap,
        gap.strip() == "." or gap == ",",
    )
    if len(_GAP_CACHE) < 4096 and len(gap) <= 64:
        _GAP_CACHE[gap] = result
    return result
