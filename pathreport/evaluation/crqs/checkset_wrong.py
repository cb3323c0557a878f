"""Clinically WRONG single edits of a real report, for the CRQS check set.

Each edit changes ONE clinical fact and leaves the rest of the text untouched, so that a lexical
metric sees a near copy of the reference while a pathologist sees an error: a changed grade,
Gleason score or grade group, a changed component score, percentage, size or count, a flipped
negation, an omitted or an invented finding, a changed diagnosis or subtype, a changed invasion
depth, site, organ, laterality or procedure. The facts are found with this module's own patterns,
written from the wording of pathology reports (not from the CRQS schemas, which they test).

Every function takes the report text and returns all candidate edits; the builder draws one per
category and report with a seeded generator.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pathreport.evaluation.crqs.checkset_text import (
    lines_with_offsets,
    list_items,
    renumber,
    replace_span,
    sentences_with_offsets,
)


@dataclass(frozen=True)
class Edit:
    """One edited report: the text, the edit kind, the clinical field it touches and the wording."""

    text: str
    category: str
    field_hint: str
    span: str
    note: str


Alternatives = Sequence[str] | Callable[[re.Match], Sequence[str]]


@dataclass(frozen=True)
class Swap:
    """Replace the match of ``pattern`` (its group ``v`` if named) by each alternative."""

    category: str
    field_hint: str
    pattern: re.Pattern
    alternatives: Alternatives

    def edits(self, text: str) -> list[Edit]:
        out = []
        for m in self.pattern.finditer(text):
            group = "v" if "v" in self.pattern.groupindex else 0
            start, end = m.span(group)
            old = m.group(group)
            alts = self.alternatives(m) if callable(self.alternatives) else self.alternatives
            for alt in alts:
                if _same(alt, old):
                    continue
                out.append(
                    Edit(
                        replace_span(text, start, end, alt),
                        self.category,
                        self.field_hint,
                        m.group(0),
                        f"{old} -> {alt}",
                    )
                )
        return out


_NEGATION_WORD = re.compile(r"\b(?:no|not|without|never|neither|nor)\b", re.I)
_CLAUSE_END = re.compile(r"[.;\n]")


def _under_negation(m: re.Match) -> bool:
    """The clause before the match already holds a negation ("No tumor was | identified")."""
    before = m.string[: m.start()]
    clause = _CLAUSE_END.split(before)[-1] if before else ""
    return _NEGATION_WORD.search(clause) is not None


def _negated(m: re.Match) -> bool:
    """True when the statement is negated before the value ("has not spread to ..."): flipping
    the value inside a negation would not make a clean single wrong fact."""
    before = m.string[max(0, m.start() - 30) : m.start("v")]
    return _NEGATION_WORD.search(before) is not None


_HISTORY_WORD = re.compile(r"\b(?:previous|prior|earlier|preceding)\b", re.I)


def _historical(m: re.Match) -> bool:
    """The value is about an earlier specimen ("the previous core biopsy report")."""
    return _HISTORY_WORD.search(m.string[max(0, m.start() - 30) : m.start("v")]) is not None


def _restated(m: re.Match) -> bool:
    """The report names the same value again elsewhere ("through biopsy and resection. The
    biopsy showed ..."): replacing one mention leaves the fact stated, so it is no wrong report."""
    rest = m.string[: m.start("v")] + " " + m.string[m.end("v") :]
    return re.search(rf"\b{re.escape(m.group('v'))}\b", rest, re.I) is not None


# A finding a status word ("present", "absent") can be about; normal anatomy ("the vagus nerves
# were present") is not one.
_STATUS_SUBJECT = re.compile(
    r"carcinoma|adenoma|dysplasia|metaplasia|necrosis|invasion|involvement|extension|margin|node|"
    r"calcification|tumou?r|lesion|polyp|hyperplasia|inflammation|pylori|atrophy|erosion|ulcer|"
    r"lymphoma|metasta|malignan|neoplas|cancer|melanoma|sarcoma|infiltrat|spread|deposit|"
    r"organism|granuloma|mitos|mitotic|component|atypi|thrombus|emboli|[a-z]+oma\b",
    re.I,
)
_CLAUSE_START = re.compile(r"[.;\n,]|\b(?:while|whereas|but)\b", re.I)


def _no_finding_subject(m: re.Match) -> bool:
    """The clause before a status word names no finding: flipping it changes no clinical fact."""
    clause = _CLAUSE_START.split(m.string[max(0, m.start() - 120) : m.start()])[-1]
    return _STATUS_SUBJECT.search(clause) is None


def _same(a: str, b: str) -> bool:
    return " ".join(a.lower().replace("-", " ").split()) == " ".join(
        b.lower().replace("-", " ").split()
    )


def _rx(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.I)


ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4}
# A deeper or shallower layer for an invasion-depth statement (first word of the layer -> other).
DEPTH_SWAP = {
    "lamina": "muscularis propria",
    "submucosa": "muscularis propria",
    "muscularis": "lamina propria",
    "subserosa": "submucosa",
    "serosa": "submucosa",
    "perivesical": "lamina propria",
    "pericolonic": "submucosa",
    "perigastric": "submucosa",
    "skeletal": "subcutaneous fat",
}
HP_FLIP = {
    "positive": "negative",
    "negative": "positive",
    "detected": "not detected",
    "not detected": "detected",
    "present": "absent",
    "absent": "present",
    "identified": "not identified",
    "not identified": "identified",
}
BIOMARKER_FLIP = {
    "positive": "negative",
    "negative": "positive",
    "methylated": "unmethylated",
    "unmethylated": "methylated",
    "detected": "not detected",
    "not detected": "detected",
    "amplified": "not amplified",
    "not amplified": "amplified",
}
ROMAN_OF = {v: k for k, v in ROMAN.items()}


def _other_grades(m: re.Match) -> list[str]:
    v = m.group("v")
    if v.upper() in ROMAN:
        n = ROMAN[v.upper()]
        return [ROMAN_OF[k] for k in (1, 2, 3) if k != n]
    n = int(v)
    top = 4 if n == 4 else 3
    return [str(k) for k in range(1, top + 1) if k != n]


def _other_scores(m: re.Match) -> list[str]:
    n = int(m.group("v"))
    return [str(k) for k in (1, 2, 3) if k != n]


def _other_digit(lo: int, hi: int) -> Callable[[re.Match], list[str]]:
    def alts(m: re.Match) -> list[str]:
        n = int(m.group("v"))
        return [str(k) for k in range(lo, hi + 1) if k != n]

    return alts


def _far_percent(m: re.Match) -> list[str]:
    """Percentages clearly different from the stated one (at least 15 points and 50% apart)."""
    old = float(m.group("v"))
    step = 5 if old % 5 == 0 else (1 if old == int(old) else 0.1)
    out = []
    for new in (old * 0.4, old * 2.0, old + 30, old - 30, 90 if old < 50 else 10):
        new = round(max(step, min(100, round(new / step) * step)), 1)
        if abs(new - old) >= max(15, 0.5 * old) and new != old:
            out.append(f"{new:g}")
    return sorted(set(out))


def _far_number(m: re.Match) -> list[str]:
    """A size clearly different from the stated one (x0.4 or x2.5), in the same format."""
    raw = m.group("v")
    old = float(raw)
    decimals = len(raw.split(".")[1]) if "." in raw else 0
    out = []
    for factor in (0.4, 2.5):
        new = round(old * factor, max(decimals, 1 if old * factor < 1 else 0))
        if new > 0 and new != old:
            out.append(f"{new:.{decimals}f}" if decimals else f"{new:g}")
    return out


GLEASON_PAIRS = ((3, 3), (3, 4), (4, 3), (4, 4), (3, 5), (5, 3), (4, 5), (5, 4), (5, 5))


def grade_group(primary: int, secondary: int) -> int:
    """ISUP grade group of a Gleason pattern pair (Epstein 2016)."""
    total = primary + secondary
    if total <= 6:
        return 1
    if total == 7:
        return 2 if primary == 3 else 3
    return 4 if total == 8 else 5


GLEASON = re.compile(
    r"Gleason(?:'s)?(?: score)?(?: of)? (?P<sum>\d{1,2}) ?\((?P<p>[345]) ?\+ ?(?P<s>[345])\)"
    r"|Gleason(?:'s)?(?: score)?(?: of)? (?P<p2>[345]) ?\+ ?(?P<s2>[345]) ?(?:=|,)? ?"
    r"(?P<sum2>\d{1,2})",
    re.I,
)
GRADE_GROUP = _rx(r"\b(?:ISUP )?grade group:? (?P<v>[1-5])\b")


def gleason_edits(text: str) -> list[Edit]:
    """Change the Gleason pattern pair (and its sum, and the grade group if stated) consistently."""
    out = []
    has_pattern4_percent = re.search(r"pattern 4:? ?\d", text, re.I) is not None
    for m in GLEASON.finditer(text):
        p = int(m.group("p") or m.group("p2"))
        s = int(m.group("s") or m.group("s2"))
        for np_, ns in GLEASON_PAIRS:
            if (np_, ns) == (p, s) or (has_pattern4_percent and 4 not in (np_, ns)):
                continue
            if m.group("p"):
                new = f"{m.group(0).split(m.group('sum'))[0]}{np_ + ns} ({np_}+{ns})"
            else:
                head = m.group(0)[: m.start("p2") - m.start()]
                new = f"{head}{np_}+{ns}={np_ + ns}"
            edited = text[: m.start()] + new + text[m.end() :]
            gg = GRADE_GROUP.search(edited, m.start())
            if gg:
                edited = replace_span(edited, gg.start("v"), gg.end("v"), str(grade_group(np_, ns)))
            out.append(
                Edit(edited, "gleason", "gleason_score", m.group(0), f"{p}+{s} -> {np_}+{ns}")
            )
    return out


SWAPS: tuple[Swap, ...] = (
    # grade of a tumour: roman or arabic, "grade 2", "G2", "Nottingham grade II", "FIGO grade 1"
    Swap(
        "grade", "tumor_grade", _rx(r"\bgrade (?P<v>I{1,3}|IV|[1-4])\b(?! ?group)"), _other_grades
    ),
    Swap("grade", "tumor_grade", re.compile(r"\bG(?P<v>[1-4])\b"), _other_grades),
    Swap(
        "grade",
        "dysplasia_grade",
        _rx(r"\b(?P<v>low|high)[- ]grade(?= (?:dysplasia|urothelial|papillary|intraepithelial))"),
        lambda m: ["high-grade" if m.group("v").lower() == "low" else "low-grade"],
    ),
    Swap(
        "grade",
        "tumor_grade",
        _rx(r"urothelial carcinoma, (?P<v>low|high) grade"),
        lambda m: ["high" if m.group("v").lower() == "low" else "low"],
    ),
    Swap(
        "grade",
        "dysplasia_grade",
        _rx(r"\bCIN ?(?P<v>[123]|I{1,3})\b"),
        lambda m: (
            [x for x in ("1", "2", "3") if x != str(ROMAN.get(m.group("v").upper(), m.group("v")))]
            if not re.search(r"LSIL|HSIL|squamous intraepithelial", m.string, re.I)
            else ([x for x in ("2", "3") if x != m.group("v")] if "HSIL" in m.string else [])
        ),
    ),
    Swap(
        "grade",
        "dysplasia_grade",
        _rx(r"(?P<v>(?:Low|High)-grade squamous intraepithelial lesion \((?:L|H)SIL; CIN \d\))"),
        lambda m: [
            "High-grade squamous intraepithelial lesion (HSIL; CIN 3)"
            if m.group("v").lower().startswith("low")
            else "Low-grade squamous intraepithelial lesion (LSIL; CIN 1)"
        ],
    ),
    Swap(
        "differentiation",
        "differentiation",
        _rx(
            r"\b(?P<v>well|moderately|poorly)(?:[- ]to[- ](?:well|moderately|poorly))?"
            r"[- ]differentiated"
        ),
        lambda m: [x for x in ("well", "moderately", "poorly") if x != m.group("v").lower()],
    ),
    Swap("grade_group", "grade_group", GRADE_GROUP, _other_digit(1, 5)),
    Swap(
        "component_score",
        "nottingham_components",
        _rx(
            r"\b(?:tubule formation|nuclear grade|nuclear pleomorphism|mitoses|mitotic (?:count"
            r"|score))(?: score)?:? (?P<v>[123])\b"
        ),
        _other_scores,
    ),
    Swap(
        "nuclear_grade",
        "nuclear_grade",
        _rx(r"nuclear grade:? ?(?P<v>low|intermediate|high)\b"),
        lambda m: [x for x in ("Low", "Intermediate", "High") if x.lower() != m.group("v").lower()],
    ),
    Swap("percent", "tumor_volume", _rx(r"tumou?r volume:? +(?P<v>\d{1,3})\s?%"), _far_percent),
    Swap("percent", "pattern4_percent", _rx(r"pattern 4:? (?P<v>\d{1,3})\s?%"), _far_percent),
    Swap(
        "percent",
        "percent",
        _rx(
            r"(?<!volume: )(?<!volume:  )(?<!pattern 4: )(?<![\d.])\b(?P<v>\d{1,3}(?:\.\d)?)\s?(?:%"
            r"|percent)"
        ),
        _far_percent,
    ),
    Swap("size", "tumor_size", _rx(r"\b(?P<v>\d{1,3}(?:\.\d{1,2})?) ?(?:cm|mm)\b"), _far_number),
    Swap(
        "count",
        "lymph_nodes",
        _rx(
            r"(?<!grade )(?<!grade: )\b(?P<v>\d{1,2}) ?(?:/|of|out of) ?(?P<n>\d{1,2})\b(?! ?(?:cm"
            r"|mm|%))"
        ),
        lambda m: [
            str(k)
            for k in {
                int(m.group("v")) + 2,
                max(0, int(m.group("v")) - 2),
                0 if m.group("v") != "0" else 3,
            }
            if k <= int(m.group("n")) and k != int(m.group("v"))
        ],
    ),
    Swap(
        "count",
        "lymph_nodes",
        _rx(
            r"\b(?P<v>one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?= (?:out of "
            r"\w+(?:-\w+)? |of \w+(?:-\w+)? )?(?:\w+ )?(?:lymph )?nodes?\b)"
        ),
        lambda m: [w for w in ("two", "five") if w != m.group("v").lower()][:1],
    ),
    Swap(
        "invasion",
        "invasion_depth",
        _rx(
            r"(?:involvement|invasion) (?:of|into) (?:the )?(?P<v>subepithelial connective tissue"
            r"|lamina propria|muscle proper|muscularis propria|submucosa|subserosa|serosa)"
        ),
        lambda m: (
            ["muscle proper"]
            if m.group("v").lower() in ("subepithelial connective tissue", "lamina propria")
            else ["subepithelial connective tissue"]
            if m.group("v").lower() in ("muscle proper", "muscularis propria")
            else ["muscularis propria"]
        ),
    ),
    Swap("invasion", "invasion", _rx(r"\b(?P<v>Non-invasive)(?= papillary)"), ["Invasive"]),
    Swap(
        "invasion",
        "invasion_depth",
        _rx(
            r"(?:invad|infiltrat|extend|penetrat|spread)\w*[^.\n]{0,40}?\b(?P<v>muscularis propria|"
            r"lamina propria|submucosa|subserosa|serosa|perivesical (?:fat|tissue|adipose tissue)|"
            r"pericolonic (?:fat|adipose tissue)|perigastric adipose tissue|skeletal muscle)"
        ),
        lambda m: [] if _negated(m) else [DEPTH_SWAP[m.group("v").lower().split()[0]]],
    ),
    Swap("stage", "pT", re.compile(r"\bp?T(?P<v>[0-4])(?=[a-c]?\b)"), _other_digit(1, 4)),
    Swap("stage", "pN", re.compile(r"\bp?N(?P<v>[0-3])(?=[a-c]?\b)"), _other_digit(0, 3)),
    Swap(
        "biomarker",
        "biomarkers",
        _rx(
            r"\b(?:ER|PR|HER2|HER-2/neu|HER2/neu|IDH1?|MGMT(?: promoter)?|p53|estrogen receptors?|"
            r"progesterone receptors?|KRAS|MSI|microsatellite instability)\b[^.\n;]{0,25}?\b"
            r"(?P<v>positive|negative|methylated|unmethylated|not detected|detected|amplified|not "
            r"amplified)\b"
        ),
        lambda m: [] if _negated(m) else [BIOMARKER_FLIP[m.group("v").lower()]],
    ),
    Swap(
        "site",
        "tumor_site",
        _rx(r"\b(?P<v>upper outer|upper inner|lower outer|lower inner)(?= quadrant)"),
        lambda m: ["lower inner" if m.group("v").lower() != "lower inner" else "upper outer"],
    ),
    Swap(
        "site",
        "tumor_site",
        _rx(r"\b(?P<v>frontal|temporal|parietal|occipital)(?= (?:lobe|region|brain|tumou?r|mass))"),
        lambda m: ["temporal" if m.group("v").lower() != "temporal" else "frontal"],
    ),
    Swap(
        "stage",
        "olga_olgim",
        _rx(r"\bOLG(?:A|IM) stage:? (?P<v>0|I{1,3}|IV|[1-4])\b"),
        lambda m: ["III" if m.group("v") in ("0", "I", "1", "II", "2") else "I"],
    ),
    Swap(
        "negation",
        "hpylori_status",
        _rx(
            r"\b(?:H(?:elicobacter)?\.? pylori|HP)(?: organisms)?(?:[:\-]| is| are)? ?"
            r"(?P<v>positive|negative|not detected|detected|present|absent|not identified"
            r"|identified)\b"
        ),
        lambda m: [] if _negated(m) else [HP_FLIP[m.group("v").lower()]],
    ),
    Swap(
        "severity",
        "severity",
        _rx(
            r"\b(?P<v>mild|moderate|marked|severe)(?:ly)?(?= (?:active|activity|atrophy|atrophic"
            r"|chronic|"
            r"inflammation|intestinal metaplasia|dysplasia|atypia|gastritis|colitis))"
        ),
        lambda m: ["severe" if m.group("v").lower() in ("mild", "moderate") else "mild"],
    ),
    Swap(
        "site",
        "tumor_site",
        _rx(r"\b(?P<v>upper|lower)(?= pole)"),
        lambda m: ["lower" if m.group("v").lower() == "upper" else "upper"],
    ),
    Swap(
        "invasion",
        "invasion",
        _rx(
            r"^\s*(?:\d\. )?(?P<v>Invasive (?:urothelial|squamous cell|lobular|ductal) carcinoma"
            r"|Invasive carcinoma of no special type(?:, grade \w+ \([^)\n]*\))?)"
        ),
        lambda m: [
            "Ductal carcinoma in situ"
            if "special" in m.group("v").lower()
            else m.group("v")[len("Invasive ") :].capitalize() + " in situ"
        ],
    ),
    Swap(
        "negation",
        "necrosis",
        _rx(
            r"necrosis:? (?P<v>absent|present(?: \((?:comedo-type|focal)\))?|not identified"
            r"|identified)"
        ),
        lambda m: (
            ["Present"] if m.group("v").lower() in ("absent", "not identified") else ["Absent"]
        ),
    ),
    Swap(
        "negation",
        "muscle_proper_status",
        _rx(r"specimen (?P<v>includes|does not include|contains|does not contain) muscle"),
        lambda m: ["does not include"] if "not" not in m.group("v") else ["includes"],
    ),
    Swap(
        "negation",
        "finding",
        _rx(r"^\s*(?P<v>with) (?!\d\))(?=[a-z])"),
        ["without"],
    ),
    Swap("negation", "finding", _rx(r"\b(?P<v>without) (?=[a-z])"), ["with"]),
    Swap(
        "negation",
        "finding",
        _rx(r"\b(?P<v>negative|positive) for\b"),
        lambda m: ["positive"] if m.group("v").lower() == "negative" else ["negative"],
    ),
    Swap(
        "negation",
        "finding",
        _rx(
            r"(?::|\bis|\bare|\bwas|\bwere) (?P<v>not identified|not present|not seen|absent"
            r"|identified|present|negative|positive)\b(?! \()(?! as\b)"
        ),
        lambda m: (
            []  # "no tumor was identified" -> "was absent" would be a double negative, not an error
            if _under_negation(m) or (m.group(0)[0] != ":" and _no_finding_subject(m))
            else ["present"]
            if m.group("v").lower() in ("not identified", "not present", "not seen", "absent")
            else ["negative"]
            if m.group("v").lower() == "positive"
            else ["positive"]
            if m.group("v").lower() == "negative"
            else ["absent"]
        ),
    ),
    Swap(
        "negation",
        "finding",
        _rx(
            r"(?:^|[.;:]\s*)(?P<v>No) (?=[a-z]+ (?:invasion|necrosis|dysplasia|metaplasia|atrophy"
            r"|malignancy|tumou?r))"
        ),
        [""],
    ),
    Swap(
        "negation",
        "margin_status",
        _rx(r"(?P<v>free of|uninvolved by|clear of|negative for) (?:tumou?r|carcinoma|malignancy)"),
        ["involved by"],
    ),
    Swap(
        "negation",
        "margin_status",
        _rx(
            r"margins? (?:are |is |were )?(?P<v>free|negative|uninvolved|clear|involved|positive)\b"
        ),
        lambda m: (
            ["involved"]
            if m.group("v").lower() in ("free", "negative", "uninvolved", "clear")
            else ["free"]
        ),
    ),
    Swap(
        "laterality",
        "laterality",
        _rx(r"\b(?P<v>left|right)\b"),
        lambda m: ["right" if m.group("v").lower() == "left" else "left"],
    ),
    Swap(
        "laterality",
        "laterality",
        _rx(r"\b(?P<v>upper|lower) lobe"),
        lambda m: ["lower" if m.group("v").lower() == "upper" else "upper"],
    ),
    Swap(
        "site",
        "organ_site",
        _rx(
            r"^\s*(?:\d\. |[A-Z]\. )?(?P<v>Colon|Rectum|Stomach|Lung|Urinary bladder|Uterine cervix"
            r"|Cervix|Breast|Prostate|Esophagus|Duodenum)\b"
        ),
        lambda m: {
            "colon": ["Rectum"],
            "rectum": ["Colon"],
            "stomach": ["Esophagus", "Duodenum"],
            "lung": ["Pleura"],
            "urinary bladder": ["Ureter"],
            "uterine cervix": ["Vagina"],
            "cervix": ["Vagina"],
            "breast": ["Axillary lymph node"],
            "prostate": ["Urinary bladder"],
            "esophagus": ["Stomach"],
            "duodenum": ["Stomach"],
        }[m.group("v").lower()],
    ),
    Swap(
        "site",
        "organ_site",
        _rx(
            r"\b(?P<v>sigmoid colon|ascending colon|descending colon|transverse colon|cecum|caecum"
            r"|rectum|antrum|body|fundus|cardia)\b(?=[ ,;:])"
        ),
        lambda m: (
            ["rectum"]
            if "colon" in m.group("v").lower() or m.group("v").lower() in ("cecum", "caecum")
            else (
                ["sigmoid colon"]
                if m.group("v").lower() == "rectum"
                else ["cardia" if m.group("v").lower() != "cardia" else "antrum"]
            )
        ),
    ),
    Swap(
        "site",
        "primary_site",
        _rx(
            r"(?:from|of) (?P<v>colon|colorectal|breast|lung|stomach|gastric|pancreatic|pancreas"
            r"|prostate|ovarian|ovary)(?= primary| origin)"
        ),
        lambda m: ["lung"] if m.group("v").lower() not in ("lung",) else ["colon"],
    ),
    Swap(
        "specimen",
        "specimen_type",
        _rx(
            r"(?P<v>core-needle biopsy|core needle biopsy|sono-guided core biopsy|endoscopic biopsy"
            r"|colonoscopic biopsy|colposcopic biopsy|punch biopsy|transurethral resection"
            r"|mammotome biopsy|endoscopic submucosal dissection|colonoscopic mucosal resection"
            r"|polypectomy|lobectomy|radical prostatectomy|mastectomy|lumpectomy|nephrectomy"
            r"|excision|\bbiopsy)(?=[;:,.\n ]|$)"
        ),
        lambda m: (
            []
            if _historical(m) or _restated(m)
            else {
                "endoscopic biopsy": ["endoscopic submucosal dissection", "gastrectomy"],
                "colonoscopic biopsy": ["polypectomy", "segmental resection"],
                "colposcopic biopsy": ["cone excision", "hysterectomy"],
                "punch biopsy": ["cone excision"],
                "transurethral resection": ["radical cystectomy"],
                "endoscopic submucosal dissection": ["endoscopic biopsy"],
                "colonoscopic mucosal resection": ["colonoscopic biopsy"],
                "polypectomy": ["segmental resection"],
                "lobectomy": ["wedge biopsy"],
                "radical prostatectomy": ["needle biopsy"],
                "mastectomy": ["core needle biopsy"],
                "lumpectomy": ["core needle biopsy"],
                "nephrectomy": ["needle biopsy"],
                "excision": ["needle biopsy"],
                "biopsy": ["resection"],
            }.get(m.group("v").lower(), ["excision"])
        ),
    ),
)

# Diagnosis and subtype swaps: a term and what a wrong report could say instead.
DIAGNOSIS_SWAPS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    (
        "diagnosis",
        "diagnosis",
        r"(?<![Nn]on-)(?<![Nn]on )\bsmall cell carcinoma",
        ("large cell neuroendocrine carcinoma", "squamous cell carcinoma"),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\bsquamous cell carcinoma",
        ("adenocarcinoma", "small cell carcinoma"),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"^\s*(?:\d\. )?adenocarcinoma\b",
        ("Squamous cell carcinoma", "Neuroendocrine carcinoma"),
    ),
    ("diagnosis", "diagnosis", r"favou?r adenocarcinoma", ("favor squamous cell carcinoma",)),
    ("diagnosis", "diagnosis", r"favou?r squamous cell carcinoma", ("favor adenocarcinoma",)),
    ("diagnosis", "diagnosis", r"\bnon-small cell carcinoma\b", ("Small cell carcinoma",)),
    ("diagnosis", "diagnosis", r"\btubular adenoma\b", ("Adenocarcinoma", "Hyperplastic polyp")),
    (
        "subtype",
        "histologic_type",
        r"\btubular adenoma\b",
        ("Tubulovillous adenoma", "Villous adenoma"),
    ),
    ("subtype", "histologic_type", r"\btubulovillous adenoma\b", ("Tubular adenoma",)),
    (
        "diagnosis",
        "diagnosis",
        r"\bhyperplastic polyp\b",
        ("Sessile serrated lesion", "Tubular adenoma"),
    ),
    ("diagnosis", "diagnosis", r"\bsessile serrated (?:lesion|adenoma)\b", ("Hyperplastic polyp",)),
    ("subtype", "histologic_type", r"\bductal carcinoma in situ\b", ("Lobular carcinoma in situ",)),
    (
        "diagnosis",
        "diagnosis",
        r"\bductal carcinoma in situ\b",
        ("Invasive carcinoma of no special type", "Atypical ductal hyperplasia"),
    ),
    ("subtype", "histologic_type", r"\blobular carcinoma in situ\b", ("Ductal carcinoma in situ",)),
    (
        "subtype",
        "histologic_type",
        r"\binvasive carcinoma of no special type\b",
        ("Invasive lobular carcinoma", "Invasive mucinous carcinoma"),
    ),
    (
        "subtype",
        "histologic_type",
        r"\binvasive (?:ductal|lobular) carcinoma\b",
        ("Invasive micropapillary carcinoma",),
    ),
    (
        "subtype",
        "histologic_type",
        r"\binvasive lobular carcinoma\b",
        ("Invasive carcinoma of no special type",),
    ),
    (
        "subtype",
        "histologic_type",
        r"^\s*(?:\d\. )?mucinous carcinoma\b",
        ("Invasive lobular carcinoma",),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\batypical ductal hyperplasia\b",
        ("Usual ductal hyperplasia", "Ductal carcinoma in situ"),
    ),
    ("diagnosis", "diagnosis", r"\busual ductal hyperplasia\b", ("Atypical ductal hyperplasia",)),
    ("diagnosis", "diagnosis", r"\bfibroadenoma\b", ("phyllodes tumor",)),
    ("diagnosis", "diagnosis", r"\bphyllodes tumou?r\b", ("fibroadenoma",)),
    ("diagnosis", "diagnosis", r"\bintraductal papilloma\b", ("Papillary carcinoma",)),
    ("diagnosis", "diagnosis", r"\bpapillary neoplasm\b", ("Invasive papillary carcinoma",)),
    (
        "diagnosis",
        "diagnosis",
        r"\bchronic (?:active )?gastritis\b",
        ("Adenocarcinoma", "Extranodal marginal zone B cell lymphoma of MALT type"),
    ),
    ("activity", "inflammation_activity", r"\bchronic gastritis\b", ("Chronic active gastritis",)),
    (
        "activity",
        "inflammation_activity",
        r"\bchronic active (?=gastritis|colitis|cervicitis)",
        ("Chronic ",),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\bextranodal marginal zone B cell lymphoma of MALT type\b",
        ("Diffuse large B cell lymphoma", "Chronic active gastritis with lymphoid aggregates"),
    ),
    ("diagnosis", "diagnosis", r"\bmalignant lymphoma\b", ("Poorly differentiated carcinoma",)),
    (
        "diagnosis",
        "diagnosis",
        r"\bgastrointestinal stromal tumou?r\b",
        ("Leiomyoma", "Schwannoma"),
    ),
    ("diagnosis", "diagnosis", r"\bneuroendocrine tumou?r\b", ("Neuroendocrine carcinoma",)),
    ("diagnosis", "diagnosis", r"\bsignet[- ]ring cell carcinoma\b", ("Mucinous adenocarcinoma",)),
    ("subtype", "histologic_type", r"\bpoorly cohesive carcinoma\b", ("Tubular adenocarcinoma",)),
    (
        "diagnosis",
        "diagnosis",
        r"^\s*(?:\d\. )?acinar adenocarcinoma\b",
        ("Ductal adenocarcinoma", "Urothelial carcinoma"),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\burothelial carcinoma in situ\b",
        ("Squamous cell carcinoma in situ", "Reactive urothelial atypia"),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\bpapillary urothelial carcinoma\b",
        ("papillary urothelial neoplasm of low malignant potential", "urothelial papilloma"),
    ),
    (
        "subtype",
        "histologic_type",
        r"\bendocervical adenocarcinoma\b",
        ("Endometrioid adenocarcinoma",),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\bno (?:tumou?r|malignancy|evidence of (?:malignancy|tumou?r))(?: (?:present|identified"
        r"|seen))?",
        ("Adenocarcinoma",),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\bchronic (?:non-?specific |nonspecific )?(?:inflammation|cervicitis|colitis)\b",
        ("Adenocarcinoma", "Squamous cell carcinoma"),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\bchronic granulomatous inflammation\b",
        ("Metastatic carcinoma",),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\bclear cell (?:renal cell )?carcinoma\b",
        ("Papillary renal cell carcinoma", "Chromophobe renal cell carcinoma"),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\bpapillary renal cell carcinoma\b",
        ("Clear cell renal cell carcinoma",),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\bglioblastoma\b",
        ("Oligodendroglioma", "Anaplastic astrocytoma"),
    ),
    (
        "diagnosis",
        "diagnosis",
        r"\b(?:infiltrating|invasive) ductal carcinoma\b",
        ("Invasive lobular carcinoma",),
    ),
    ("diagnosis", "diagnosis", r"\bpapillary (?:thyroid )?carcinoma\b", ("Follicular carcinoma",)),
    (
        "subtype",
        "histologic_type",
        r"\b(?:serous|endometrioid|mucinous) (?:cyst)?adenocarcinoma\b",
        ("Clear cell adenocarcinoma",),
    ),
    ("diagnosis", "diagnosis", r"\bmelanoma\b", ("Basal cell carcinoma",)),
    ("diagnosis", "diagnosis", r"\bbasal cell carcinoma\b", ("Squamous cell carcinoma",)),
    ("diagnosis", "diagnosis", r"\bhepatocellular carcinoma\b", ("Cholangiocarcinoma",)),
    ("subtype", "histologic_type", r"\bacinar (?=adenocarcinoma)", ("mucinous ",)),
)

LINE_START = r"^\s*(?:\d\. )?"


def _diagnosis_swap(category: str, hint: str, pattern: str, alternatives: tuple[str, ...]) -> Swap:
    """A swap of the term ``pattern``; a pattern anchored at a line start keeps indent, marker."""
    if pattern.startswith(LINE_START):
        regex = rf"^[ \t]*(?:\d{{1,2}}\. )?(?P<v>{pattern[len(LINE_START) :]})"
    else:
        regex = rf"(?P<v>{pattern})"
    return Swap(category, hint, re.compile(regex, re.I | re.M), alternatives)


SWAPS = SWAPS + tuple(_diagnosis_swap(*row) for row in DIAGNOSIS_SWAPS)


def _multiline(swaps: tuple[Swap, ...]) -> tuple[Swap, ...]:
    return tuple(
        Swap(
            s.category,
            s.field_hint,
            re.compile(s.pattern.pattern, s.pattern.flags | re.M),
            s.alternatives,
        )
        for s in swaps
    )


SWAPS = _multiline(SWAPS)


# ---------------------------------------------------------------------------- omission
# Stated facts that can be dropped from a line. Only facts that the rest of the line does not
# imply: a grade group is not dropped (the Gleason score implies it), and a Nottingham grade is
# dropped together with its component scores (which would imply it).
CLAUSES = tuple(
    re.compile(p, re.I)
    for p in (
        r" ?\((?:Tubule formation|Gleason pattern \d)[^)]*\)",
        r", grade (?:I{1,3}|[1-3])(?: \(Tubule formation[^)]*\))?",
        r", (?:well|moderately|poorly) differentiated",
        r", tumou?r volume:? +\d+\s?%",
        r", with (?:squamous differentiation|mucinous component|poorly cohesive carcinoma "
        r"component)",
        r",? with (?:necrosis|erosion|ulcer|intestinal metaplasia|interstinal metaplasia|lymphoid "
        r"aggregates)\b",
    )
)
FINDING_WORD = re.compile(
    r"carcinoma|adenoma|dysplasia|metaplasia|necrosis|invasion|involvement|muscle|margin|node|"
    r"calcification|grade|gleason|tumou?r|lesion|polyp|hyperplasia|inflammation|gastritis|colitis|"
    r"pylori|atrophy|erosion|ulcer|lymphoma|positive|negative|present|absent|identified|metasta",
    re.I,
)


def omission_edits(text: str, header_lines: int) -> list[Edit]:
    """Drop one finding: a list item, a finding line or sentence, or a stated clause (grade...)."""
    out = []
    items = list_items(text)
    for start, end in items:
        removed = text[start:end]
        edited = renumber(text[:start] + text[end:].lstrip("\n"))
        edited = edited.rstrip() + ("\n" if text.endswith("\n") else "")
        out.append(Edit(edited, "omission", "finding", removed.strip(), "list item dropped"))
    if not items:
        for start, end, unit in _finding_units(text, header_lines):
            head, tail = text[:start].rstrip(" \t"), text[end:].lstrip(" \t")
            joint = " " if head and tail and not head.endswith("\n") and tail[0] != "\n" else ""
            edited = (head + joint + tail).strip("\n")
            edited = re.sub(r"\n{3,}", "\n\n", edited)
            out.append(Edit(edited, "omission", "finding", unit.strip(), "statement dropped"))
    for m in (m for clause in CLAUSES for m in clause.finditer(text)):
        edited = re.sub(r"[ \t]+$", "", text[: m.start()] + text[m.end() :], flags=re.M)
        out.append(Edit(edited, "omission", "finding", m.group(0).strip(" ,"), "clause dropped"))
    return out


# ---------------------------------------------------------------------------- invention
# Findings a wrong report could invent, by organ (checked absent from the reference first).
INVENTED: dict[str, tuple[tuple[str, str, str], ...]] = {
    # organ word -> (keyword that must be absent, field hint, finding text)
    "breast": (
        ("calcification", "calcification", "Microcalcification"),
        ("lymphovascular", "lymphovascular_invasion", "Lymphovascular invasion: Present"),
        ("in situ", "in_situ_component", "Ductal carcinoma in situ"),
        ("necrosis", "necrosis", "Necrosis: Present (Comedo-type)"),
    ),
    "stomach": (
        ("metaplasia", "intestinal_metaplasia", "with intestinal metaplasia"),
        ("pylori", "hpylori_status", "Helicobacter pylori: Positive"),
        ("ulcer", "ulceration", "with ulcer"),
        ("dysplasia", "dysplasia_grade", "with high grade dysplasia"),
    ),
    "colon": (
        ("dysplasia", "dysplasia_grade", "with high grade dysplasia"),
        ("lymphovascular", "lymphovascular_invasion", "Lymphovascular invasion: Present"),
        ("invasi", "invasion", "with submucosal invasion"),
    ),
    "prostate": (
        ("perineural", "perineural_invasion", "Perineural invasion: Present"),
        ("cribriform", "cribriform_pattern", "Cribriform pattern: Present"),
        ("extraprostatic", "extraprostatic_extension", "Extraprostatic extension: Present"),
    ),
    "bladder": (
        ("in situ", "in_situ_component", "Urothelial carcinoma in situ"),
        ("lymphovascular", "lymphovascular_invasion", "Lymphovascular invasion: Present"),
        ("squamous", "divergent_differentiation", "with squamous differentiation"),
    ),
    "lung": (
        ("necrosis", "necrosis", "Necrosis: Present"),
        ("pleura", "pleural_invasion", "Visceral pleural invasion: Present"),
        ("lymphovascular", "lymphovascular_invasion", "Lymphovascular invasion: Present"),
    ),
    "cervix": (
        ("invasi", "invasion", "with stromal invasion"),
        ("glandular involvement", "glandular_involvement", "with glandular involvement"),
        ("lymphovascular", "lymphovascular_invasion", "Lymphovascular invasion: Present"),
    ),
    "": (
        ("lymphovascular", "lymphovascular_invasion", "Lymphovascular invasion is present."),
        ("perineural", "perineural_invasion", "Perineural invasion is identified."),
        ("necrosis", "necrosis", "Tumor necrosis is present."),
        (
            "metasta",
            "metastatic_involvement",
            "Metastatic carcinoma is identified in one lymph node.",
        ),
    ),
}
ORGAN_WORDS = {
    "breast": "breast",
    "stomach": "stomach",
    "gastric": "stomach",
    "colon": "colon",
    "rectum": "colon",
    "prostate": "prostate",
    "bladder": "bladder",
    "lung": "lung",
    "cervix": "cervix",
}


# Other words for the same finding: a report that says "necrotic" or "angiolymphatic invasion"
# already states it, so adding "necrosis" or "lymphovascular invasion" invents nothing.
ALREADY_STATED = {
    "calcification": r"calcif",
    "necrosis": r"necro",
    "lymphovascular": r"lymphovascular|angiolymphatic|lymph-vascular|(?:vascular|lymphatic|venous|"
    r"vascular space) invasion|emboli",
    "invasi": r"invasi|infiltrat",
    "glandular involvement": r"gland",
}


def invention_edits(text: str) -> list[Edit]:
    """Add one finding that the report does not state, in the report's own layout."""
    lower = text.lower()
    organ = next((o for w, o in ORGAN_WORDS.items() if w in lower[:300]), "")
    out = []
    for keyword, hint, finding in INVENTED[organ] + (INVENTED[""] if organ else ()):
        if re.search(ALREADY_STATED.get(keyword, re.escape(keyword)), lower):
            continue
        out.append(
            Edit(_append_finding(text, finding), "invention", hint, finding, "finding added")
        )
    return out


def _append_finding(text: str, finding: str) -> str:
    body = text.rstrip()
    markers = re.findall(r"^([ \t]*)(\d{1,2})([.)]) ", body, re.M)
    if markers:
        indent, number, sep = markers[-1]
        # append after the last item and its sub-lines, before a trailing "Note)" line
        note = re.search(r"\n\s*\n?\s*Note\)[^\n]*$", body)
        head, tail = (body[: note.start()], body[note.start() :]) if note else (body, "")
        finding = finding.rstrip(".")
        return f"{head}\n{indent}{int(number) + 1}{sep} {finding}{tail}"
    lines = body.split("\n")
    if len(lines) >= 2:
        note = next((i for i, ln in enumerate(lines) if ln.strip().startswith("Note)")), None)
        indent = re.match(r"[ \t]*", lines[1]).group()
        if note is not None:
            at = note - 1 if note > 0 and not lines[note - 1].strip() else note
            lines.insert(at, indent + finding.rstrip("."))
        else:
            lines.append(indent + finding.rstrip("."))
        return "\n".join(lines)
    sep = " " if body.endswith(".") else ". "
    finding = finding if finding.endswith(".") else finding + "."
    return body + sep + finding[0].upper() + finding[1:]


def _finding_units(text: str, header_lines: int) -> list[tuple[int, int, str]]:
    """Lines (or sentences of long lines) that state a finding; never the first statement."""
    units: list[tuple[int, int, str]] = []
    previous = ""
    for start, end, line in list(lines_with_offsets(text))[header_lines:]:
        if not line.strip():
            continue
        continues = previous.rstrip().endswith(",") and not line.strip().startswith("with")
        previous = line
        if continues:
            continue
        if len(line) > 120:
            units.extend(
                (start + s, start + e, sent) for s, e, sent in sentences_with_offsets(line)
            )
        else:
            units.append((start, end + 1 if end < len(text) else end, line))
    units = units[1:] if len(units) > 1 else []
    return [u for u in units if _states_a_finding(u[2])]


def _states_a_finding(unit: str) -> bool:
    """A finding word other than a bare "tumor" ("The cut surface of the tumor was yellow" states
    no finding), or a size or count; not a sentence that only names topics or pending work ("The
    report provides information on tumor type, grade and lymph nodes"; "The grade is unknown")."""
    if _NO_FACT.search(unit):
        return False
    stated = FINDING_WORD.search(_BARE_TUMOUR.sub("", unit)) is not None
    return stated or _MEASURE.search(unit) is not None


_BARE_TUMOUR = re.compile(r"\b(?:tumou?rs?|lesions?)\b", re.I)
_MEASURE = re.compile(r"\d\s*(?:cm|mm|%)|\d\s*(?:/|of|out of)\s*\d", re.I)
_NO_FACT = re.compile(
    r"\b(?:information|details)\s+(?:on|about|of|regarding)\b|\bprovided in the report\b|"
    r"\bis unknown\b|\bwill be (?:done|performed)\b|\bcannot be (?:determined|assessed)\b",
    re.I,
)


def header_line_count(text: str) -> int:
    """1 when the first line is a specimen header ("Stomach, endoscopic biopsy;"), else 0."""
    first = text.split("\n", 1)[0]
    return 1 if "\n" in text and re.search(r"[;:]\s*$", first) else 0


def wrong_edits(text: str) -> list[Edit]:
    """Every candidate single wrong edit of ``text``."""
    out: list[Edit] = []
    for swap in SWAPS:
        out.extend(swap.edits(text))
    out.extend(gleason_edits(text))
    out.extend(omission_edits(text, header_line_count(text)))
    out.extend(invention_edits(text))
    return [e for e in out if e.text.strip() != text.strip()]
