"""Clinically EQUIVALENT rewrites of a real report, for the CRQS check set.

A rewrite says the same clinical facts in other words: synonyms and abbreviations a pathologist
uses interchangeably, other number formats ("7 (3+4)" and "3+4=7", "80%" and "80 percent",
roman and arabic grades), reordered list items or score components, renumbered lists, header and
case changes, punctuation and whitespace, prose instead of lines, past tense. Equivalences follow
standard nomenclature (WHO classification names and their accepted synonyms, ISUP grade groups,
the Nottingham components); none of them comes from the CRQS schemas.

Each rewrite is a function ``(text, rng) -> text``; it returns the text unchanged when it does not
apply. The builder composes a few of them per report.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from pathreport.evaluation.crqs.checkset_text import (
    LIST_MARKER,
    list_items,
    match_case,
    renumber,
    sentences_with_offsets,
)

Rewrite = Callable[[str, random.Random], str]

# (pattern, alternatives): every match is replaced by the SAME drawn alternative (\g<n> allowed).
SYNONYMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "differentiated_adenocarcinoma": (
        r"\bAdenocarcinoma, (well|moderately|poorly) differentiated\b",
        (
            r"\1 differentiated adenocarcinoma",
            r"\1-differentiated adenocarcinoma",
            r"Adenocarcinoma (\1 differentiated)",
        ),
    ),
    "nst": (
        r"\bInvasive carcinoma of no special type\b",
        (
            "Invasive ductal carcinoma, no special type",
            "Invasive breast carcinoma of no special type (NST)",
            "Invasive carcinoma, NST",
            "Invasive ductal carcinoma (NST)",
        ),
    ),
    "nottingham_grade": (
        r"\bgrade (I{1,3})(?= \(Tubule)",
        ("Nottingham grade \\1", "histologic grade \\1"),
    ),
    "tubules": (r"\bTubule formation\b", ("Tubules", "Gland formation", "Tubular differentiation")),
    "pleomorphism": (r"(?<=, )Nuclear grade(?=: \d)", ("Nuclear pleomorphism", "Nuclear atypia")),
    "mitoses": (r"\bMitoses(?=: \d)", ("Mitotic count", "Mitotic score", "Mitotic activity")),
    "dysplasia": (
        r"\bwith (low|high) grade dysplasia\b",
        (r"with \1-grade dysplasia", r"showing \1 grade dysplasia", r", \1-grade dysplasia"),
    ),
    "gleason_word": (r"\bGleason's score\b", ("Gleason score", "Gleason Score", "Gleason sum")),
    "grade_group": (
        r"\bgrade group (\d)\b",
        (r"Grade Group \1", r"ISUP grade group \1", r"WHO/ISUP grade group \1", r"GG\1"),
    ),
    "tumor_volume": (
        r"\btumor volume\b",
        ("tumour volume", "tumor extent", "percentage of tissue involved by tumor"),
    ),
    "pattern4": (
        r"\(Gleason pattern 4: (\d+)%\)",
        (
            r"(pattern 4: \1%)",
            r"(\1% Gleason pattern 4)",
            r"(percentage of Gleason pattern 4: \1%)",
        ),
    ),
    "acinar": (
        r"\bAcinar adenocarcinoma\b",
        (
            "Prostatic acinar adenocarcinoma",
            "Adenocarcinoma, acinar type",
            "Acinar-type adenocarcinoma",
        ),
    ),
    "dcis": (
        r"\bDuctal carcinoma in situ\b",
        ("DCIS", "Ductal carcinoma in situ (DCIS)", "Ductal carcinoma in-situ"),
    ),
    "lcis": (r"\bLobular carcinoma in situ\b", ("LCIS", "Lobular carcinoma in situ (LCIS)")),
    "dcis_type": (r"- Type: ", ("- Architectural pattern: ", "- Pattern: ", "- Architecture: ")),
    "necrosis_absent": (
        r"- Necrosis: Absent",
        ("- Necrosis: not identified", "- No necrosis", "- Necrosis: none"),
    ),
    "comedo": (
        r"- Necrosis: Present \(Comedo-type\)",
        (
            "- Comedo-type necrosis: present",
            "- Necrosis: present, comedo type",
            "- Comedonecrosis: present",
        ),
    ),
    "microcalcification": (
        r"\bMicrocalcification\b",
        ("Microcalcifications", "Micro-calcification", "Microcalcification present"),
    ),
    "bladder": (r"\bUrinary bladder\b", ("Bladder", "Urinary Bladder")),
    "tur": (r"\btransurethral resection\b", ("TUR", "transurethral resection (TUR)", "TURBT")),
    "muscle_included": (
        r"Note\) The specimen includes muscle proper\.",
        (
            "Note) Muscularis propria is present in the specimen.",
            "Note: muscle proper is included in the specimen.",
            "Comment: muscularis propria (detrusor muscle) is present.",
        ),
    ),
    "muscle_not_included": (
        r"Note\) The specimen does not include muscle proper\.",
        (
            "Note) Muscularis propria is not present in the specimen.",
            "Note: no muscle proper is included in the specimen.",
            "Comment: muscularis propria (detrusor muscle) is absent.",
        ),
    ),
    "lamina_propria": (
        r"with involvement of subepithelial connective tissue",
        (
            "invading the subepithelial connective tissue",
            "with invasion into the lamina propria (subepithelial connective tissue)",
            "involving the subepithelial connective tissue",
        ),
    ),
    "muscularis": (
        r"with involvement of muscle proper",
        (
            "invading the muscularis propria",
            "with invasion of the muscularis propria",
            "involving muscle proper (muscularis propria)",
        ),
    ),
    "infiltrating": (
        r"\bInvasive urothelial carcinoma\b",
        ("Infiltrating urothelial carcinoma", "Urothelial carcinoma, invasive"),
    ),
    "papillary_uc": (
        r"\bNon-invasive papillary urothelial carcinoma, (high|low) grade\b",
        (
            r"Papillary urothelial carcinoma, non-invasive, \1-grade",
            r"Non-invasive \1-grade papillary urothelial carcinoma",
            r"Noninvasive papillary urothelial carcinoma, \1 grade",
        ),
    ),
    "lsil": (
        r"\bLow-grade squamous intraepithelial lesion \(LSIL; CIN 1\)",
        (
            "LSIL (CIN 1)",
            "Low grade squamous intraepithelial lesion (CIN I)",
            "Low-grade squamous intraepithelial lesion (CIN-1)",
        ),
    ),
    "hsil": (
        r"\bHigh-grade squamous intraepithelial lesion \(HSIL; CIN (\d)\)",
        (
            r"HSIL (CIN \1)",
            r"High grade squamous intraepithelial lesion (CIN \1)",
            r"High-grade squamous intraepithelial lesion, CIN \1",
        ),
    ),
    "cervix": (r"\bUterine cervix\b", ("Cervix", "Cervix uteri")),
    "colposcopic": (
        r"\bcolposcopic biopsy\b",
        ("colposcopy-directed biopsy", "biopsy under colposcopy", "colposcopic bx"),
    ),
    "stomach": (
        r"^Stomach, endoscopic biopsy",
        (
            "Stomach, biopsy (endoscopic)",
            "Stomach, endoscopic biopsies",
            "Gastric mucosa, endoscopic biopsy",
        ),
    ),
    "colonoscopic": (
        r"\bcolonoscopic biopsy\b",
        ("biopsy via colonoscopy", "colonoscopy biopsy", "colonoscopic biopsies"),
    ),
    "sono": (
        r"\bsono-guided core biopsy\b",
        (
            "ultrasound-guided core biopsy",
            "US-guided core needle biopsy",
            "sonographically guided core biopsy",
        ),
    ),
    "core_needle": (r"\bcore-needle biopsy\b", ("core needle biopsy", "needle core biopsy", "CNB")),
    "mammotome": (
        r"\bmammotome biopsy\b",
        ("vacuum-assisted (Mammotome) biopsy", "Mammotome biopsy"),
    ),
    "lung": (r"^Lung, biopsy", ("Lung biopsy", "Lung, biopsy specimen", "Lung tissue, biopsy")),
    "prostate": (
        r"^Prostate, biopsy",
        ("Prostate gland, biopsy", "Prostatic biopsy", "Prostate, biopsies"),
    ),
    "no_tumor": (
        r"\bNo tumor present\b",
        ("No tumor identified", "Negative for tumor", "No tumour seen", "There is no tumor"),
    ),
    "no_malignancy": (
        r"\bNo evidence of malignancy or granuloma\b",
        (
            "Negative for malignancy and granuloma",
            "No malignancy or granuloma identified",
            "No evidence of malignancy; no granuloma",
        ),
    ),
    "no_evidence_tumor": (
        r"\bNo evidence of tumor\b",
        ("Negative for tumor", "No tumor identified"),
    ),
    "active_gastritis": (
        r"\bChronic active gastritis\b",
        ("Active chronic gastritis", "Chronic gastritis, active"),
    ),
    "chronic_gastritis": (r"\bChronic gastritis\b", ("Gastritis, chronic", "Chronic gastritis")),
    "im": (
        r"\binterstinal metaplasia\b",
        ("intestinal metaplasia", "intestinal-type metaplasia", "intestinal metaplasia (IM)"),
    ),
    "malt": (
        r"\bExtranodal marginal zone B cell lymphoma of MALT type\b",
        (
            "MALT lymphoma (extranodal marginal zone B-cell lymphoma)",
            "Extranodal marginal zone lymphoma of mucosa-associated lymphoid tissue (MALT "
            "lymphoma)",
            "Extranodal marginal zone B-cell lymphoma, MALT type",
        ),
    ),
    "scc": (
        r"(?<!favor )\bSquamous cell carcinoma\b",
        ("Squamous cell carcinoma (SCC)", "Squamous carcinoma", "SqCC"),
    ),
    "nscc": (
        r"\bNon-small cell carcinoma\b",
        ("Non-small-cell carcinoma", "NSCC", "Non-small cell carcinoma (NSCC)"),
    ),
    "favor": (r"\bfavor\b", ("favoring", "favour", "most likely")),
    "nos": (r"\bnot otherwise specified\b", ("NOS", "not otherwise specified (NOS)")),
    "small_cell": (
        r"^(\d\. )?Small cell carcinoma\b",
        (
            r"\1Small-cell carcinoma",
            r"\1Small cell carcinoma (SCLC)",
            r"\1Small cell neuroendocrine carcinoma",
        ),
    ),
    "ilc": (
        r"\bInvasive lobular carcinoma\b",
        ("Infiltrating lobular carcinoma", "Invasive lobular carcinoma (ILC)", "ILC"),
    ),
    "adh": (r"\bAtypical ductal hyperplasia\b", ("Atypical ductal hyperplasia (ADH)", "ADH")),
    "udh": (
        r"\bUsual ductal hyperplasia\b",
        ("Usual-type ductal hyperplasia", "Usual ductal hyperplasia (UDH)"),
    ),
    "fibroepithelial": (
        r"\bFibroepithelial tumor\b",
        ("Fibroepithelial neoplasm", "Fibroepithelial tumour"),
    ),
    "favor_fa": (
        r"\bfavor fibroadenoma\b",
        ("most consistent with fibroadenoma", "favoring fibroadenoma"),
    ),
    "ssl": (
        r"\bSessile serrated lesion\b",
        ("Sessile serrated adenoma/polyp", "Sessile serrated polyp"),
    ),
    "nonspecific": (
        r"\bChronic nonspecific inflammation\b",
        ("Chronic non-specific inflammation", "Nonspecific chronic inflammation"),
    ),
    "metastatic_colon": (
        r"\bMetastatic adenocarcinoma, from colon primary\b",
        (
            "Metastatic adenocarcinoma of colonic origin",
            "Metastatic adenocarcinoma, colonic primary",
        ),
    ),
    "gist": (
        r"\bGastrointestinal stromal tumor\b",
        ("GIST", "Gastrointestinal stromal tumour (GIST)"),
    ),
    "net": (
        r"\bNeuroendocrine tumor, grade (\d)\b",
        (r"Neuroendocrine tumour, G\1", r"NET, grade \1", r"Neuroendocrine tumor (NET), G\1"),
    ),
    "mucinous": (
        r"^(\d\. )?Mucinous carcinoma\b",
        (r"\1Mucinous (colloid) carcinoma", r"\1Colloid carcinoma"),
    ),
    "signet": (
        r"\bSignet-ring cell carcinoma\b",
        ("Signet ring cell carcinoma", "Signet-ring-cell carcinoma"),
    ),
    "erosion": (r"\berosion\b", ("mucosal erosion", "erosions")),
    "ulcer": (r"\bwith ulcer\b", ("with ulceration", "with ulcer formation")),
    "foveolar": (
        r"\bfoveolar epithelial hyperplasia\b",
        ("foveolar hyperplasia", "hyperplasia of foveolar epithelium"),
    ),
    "necrotizing": (
        r"\bChronic granulomatous inflammation with necrosis\b",
        (
            "Chronic necrotizing granulomatous inflammation",
            "Necrotizing granulomatous inflammation, chronic",
        ),
    ),
    "non_necrotizing": (
        r"\bChronic granulomatous inflammation without necrosis\b",
        (
            "Chronic non-necrotizing granulomatous inflammation",
            "Non-necrotizing granulomatous inflammation, chronic",
        ),
    ),
    "lymphoid": (
        r"\blymphoid aggregates\b",
        ("lymphoid aggregation", "aggregates of lymphoid cells"),
    ),
    "cervicitis": (
        r"\bChronic nonspecific cervicitis\b",
        ("Chronic non-specific cervicitis", "Chronic cervicitis, nonspecific"),
    ),
    # TCGA/HistAI wording
    "lvi": (
        r"\blymphovascular invasion\b",
        ("lymphovascular space invasion", "LVI", "angiolymphatic invasion"),
    ),
    "pni": (r"\bperineural invasion\b", ("perineural infiltration", "PNI", "perineural spread")),
    "not_identified": (r"\bnot identified\b", ("not seen", "absent", "not present")),
    "identified": (r"(?<!not )\bis identified\b", ("is present", "is seen")),
    "margins_free": (
        r"\bmargins are (?:free|negative|uninvolved)"
        r"(?: (?:of|for|by) (?:invasive |residual )?(?:tumou?r|carcinoma|malignancy|neoplasm))?"
        r"(?! (?:of|for|by) )",  # "margins are free of the lesion" has its own object
        (
            "margins are negative for carcinoma",
            "margins are free of tumor",
            "margins are uninvolved",
        ),
    ),
    "lymph_nodes": (
        r"(?<!regional )\blymph nodes\b",  # not "regional regional lymph nodes"
        ("lymph nodes (LN)", "regional lymph nodes", "nodes"),
    ),
    "greatest_dimension": (
        r"\bin greatest dimension\b",
        ("in maximum dimension", "in largest dimension", "in greatest extent"),
    ),
    "hp": (r"\bHelicobacter pylori\b", ("H. pylori", "Helicobacter pylori (H. pylori)", "HP")),
    "carcinoma_with": (r"\bconsistent with\b", ("compatible with", "in keeping with")),
    "tumour": (r"\btumor\b", ("tumour",)),
    "differentiated": (
        # Not the second half of a range: "well to moderately differentiated" is one grade.
        r"(?<!to )\b(well|moderately|poorly) differentiated\b",
        (r"\1-differentiated", r"\1 differentiated (\1-differentiated)"),
    ),
    "fuhrman": (r"\bFuhrman(?:'s)? nuclear grade\b", ("Fuhrman grade", "nuclear grade (Fuhrman)")),
    "nottingham": (
        r"\bNottingham grade\b",
        ("Nottingham histologic grade", "Nottingham (modified Bloom-Richardson) grade"),
    ),
    "negative_for_carcinoma": (
        r"\bnegative for (carcinoma|tumor|malignancy)\b",
        (r"free of \1", r"without \1"),
    ),
    "free_of_tumor": (r"\bfree of tumor\b", ("negative for tumor", "uninvolved by tumor")),
    "ldc": (
        r"\binvasive ductal carcinoma\b",
        ("infiltrating ductal carcinoma", "invasive carcinoma of no special type (ductal)"),
    ),
    "angiolymphatic": (
        r"\bangiolymphatic invasion\b",
        ("lymphovascular invasion", "lymph-vascular invasion"),
    ),
    "extracapsular": (
        r"\bextracapsular extension\b",
        ("extranodal extension", "extracapsular spread"),
    ),
    "who_grade": (
        r"\bWHO grade (I{1,3}|IV)\b",
        (r"World Health Organization grade \1", r"grade \1 (WHO)"),
    ),
}
_COMPILED = {name: (re.compile(p, re.M), alts) for name, (p, alts) in SYNONYMS.items()}


def synonym(text: str, rng: random.Random) -> tuple[str, str]:
    """Replace one applicable term by a synonym or abbreviation (every occurrence the same way)."""
    names = [n for n, (p, _) in _COMPILED.items() if p.search(text)]
    if not names:
        return text, ""
    name = rng.choice(names)
    pattern, alts = _COMPILED[name]
    alt = rng.choice(alts)
    return pattern.sub(lambda m: match_case(m.group(0), m.expand(alt)), text), f"synonym:{name}"


# ---------------------------------------------------------------------------- number formats
ARABIC_OF_ROMAN = {"I": "1", "II": "2", "III": "3", "IV": "4"}


def number_format(text: str, rng: random.Random) -> tuple[str, str]:
    """Write one kind of number another way: Gleason, roman grades, percent, counts, sizes."""
    options: list[tuple[str, Callable[[str], str]]] = []
    gleason = re.compile(r"Gleason(?:'s)?(?: score)? (\d{1,2}) \(([345])\+([345])\)", re.I)
    if gleason.search(text):
        forms = (
            r"Gleason score \2+\3=\1",
            r"Gleason score \2 + \3 = \1",
            r"Gleason score of \1 (\2+\3)",
            r"Gleason \2+\3 (score \1)",
        )
        form = rng.choice(forms)
        options.append(("gleason", lambda t, f=form: gleason.sub(f, t)))
    roman = re.compile(r"\b(grade|CIN) (I{1,3}|IV)\b(?! ?group)")
    if roman.search(text):
        options.append(
            (
                "roman_to_arabic",
                lambda t: roman.sub(lambda m: f"{m.group(1)} {ARABIC_OF_ROMAN[m.group(2)]}", t),
            )
        )
    arabic = re.compile(r"\b(CIN) ([1-3])\b")
    if arabic.search(text):
        roman_of = {v: k for k, v in ARABIC_OF_ROMAN.items()}
        options.append(
            (
                "arabic_to_roman",
                lambda t: arabic.sub(lambda m: f"{m.group(1)} {roman_of[m.group(2)]}", t),
            )
        )
    percent = re.compile(r"(\d{1,3})\s?%")
    if percent.search(text):
        pform = rng.choice((r"\1 percent", r"\1 %", r"\1 per cent"))
        options.append(("percent", lambda t, f=pform: percent.sub(f, t)))
    nottingham = re.compile(
        r"\(Tubule formation: ([123]), Nuclear grade: ([123]), Mitoses: ([123])\)"
    )
    if nottingham.search(text):

        def score(m: re.Match) -> str:
            a, b, c = (int(m.group(i)) for i in (1, 2, 3))
            return f"(score {a + b + c}/9: tubules {a}, nuclei {b}, mitoses {c})"

        options.append(("nottingham_total", lambda t: nottingham.sub(score, t)))
    count = re.compile(r"\b(\d{1,2}) (?:of|out of) (\d{1,2})(?= lymph| nodes| examined| regional)")
    if count.search(text):
        options.append(("count_slash", lambda t: count.sub(r"\1/\2", t)))
    # Every number of a dimension list converts ("3.3 x 3.2 x 2.7 cm" -> "33 x 32 x 27 mm").
    size = re.compile(
        r"(?<![\d.])(\d{1,2}(?:\.\d{1,2})?(?:\s*x\s*\d{1,2}(?:\.\d{1,2})?){0,2}) cm\b"
    )
    if size.search(text):

        def to_mm(m: re.Match) -> str:
            numbers = re.split(r"\s*x\s*", m.group(1))
            return " x ".join(f"{float(n) * 10:g}" for n in numbers) + " mm"

        options.append(("cm_to_mm", lambda t: size.sub(to_mm, t)))
    words = re.compile(
        r"\b("
        + "|".join(NUMBER_WORDS)
        + r")\b(?= (?:out of|of|lymph|benign|nodes|positive|negative))",
        re.I,
    )
    if words.search(text):
        options.append(
            (
                "words_to_digits",
                lambda t: words.sub(lambda m: str(NUMBER_WORDS.index(m.group(1).lower()) + 1), t),
            )
        )
    if not options:
        return text, ""
    name, fn = rng.choice(options)
    return fn(text), f"number:{name}"


NUMBER_WORDS = (
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)


# ---------------------------------------------------------------------------- structure
def reorder(text: str, rng: random.Random) -> tuple[str, str]:
    """Reorder list items (and renumber), sub-items, score components or a comma list."""
    options: list[tuple[str, Callable[[], str]]] = []
    items = list_items(text)
    if len(items) >= 2:

        def shuffle_items() -> str:
            start, end = items[0][0], items[-1][1]
            bodies = [text[s:e].rstrip("\n") for s, e in items]
            order = list(range(len(bodies)))
            while order == sorted(order):
                rng.shuffle(order)
            return renumber(text[:start] + "\n".join(bodies[i] for i in order) + text[end:])

        options.append(("list_items", shuffle_items))
    subs = list(re.finditer(r"(?:^[ \t]*- [^\n]+\n?){2,}", text, re.M))
    if subs:

        def shuffle_subs() -> str:
            m = subs[0]
            lines = m.group(0).rstrip("\n").split("\n")
            rotated = lines[1:] + lines[:1]
            tail = "\n" if m.group(0).endswith("\n") else ""
            return text[: m.start()] + "\n".join(rotated) + tail + text[m.end() :]

        options.append(("sub_items", shuffle_subs))
    comps = re.compile(r"\((Tubule formation: \d), (Nuclear grade: \d), (Mitoses: \d)\)")
    if comps.search(text):
        options.append(("components", lambda: comps.sub(r"(\3, \1, \2)", text)))
    gg_vol = re.compile(r"(, grade group \d(?: \([^)]*\))?)(, tumor volume: +\d+%)")
    if gg_vol.search(text):
        options.append(("gleason_clauses", lambda: gg_vol.sub(r"\2\1", text)))
    sub_list = re.compile(r"with 1\) ([a-z][^\n]*?) 2\) ([a-z][^\n]*?)$", re.M)
    if sub_list.search(text):
        options.append(("with_list", lambda: sub_list.sub(r"with 1) \2 2) \1", text)))
    if not options:
        return text, ""
    name, fn = rng.choice(options)
    return fn(), f"reorder:{name}"


def sentence_order(text: str, rng: random.Random) -> tuple[str, str]:
    """Swap two adjacent sentences of a prose paragraph (never the first, which names the case)."""
    paragraphs = text.split("\n")
    split = [[s for _, _, s in sentences_with_offsets(p)] for p in paragraphs]
    # a sentence that refers back ("It ...", "This ...") stays after the one it refers to
    movable = [
        [
            j
            for j in range(1, len(sents) - 1)
            if not _REFERS_BACK.match(sents[j + 1].strip())
            and not _REFERS_BACK.match(sents[j].strip())
        ]
        for sents in split
    ]
    candidates = [i for i, sents in enumerate(split) if len(sents) >= 3 and movable[i]]
    if not candidates:
        return text, ""
    i = rng.choice(candidates)
    sentences = [s.strip() for s in split[i]]
    j = rng.choice(movable[i])
    sentences[j], sentences[j + 1] = sentences[j + 1], sentences[j]
    paragraphs[i] = " ".join(sentences)
    return "\n".join(paragraphs), "reorder:sentences"


_REFERS_BACK = re.compile(
    r"(?:It|Its|This|These|That|Those|They|Their|Both|Such|However|Additionally|Also|In addition|"
    r"Further|Furthermore|Moreover|The latter|The former|Then|Therefore|Thus)\b"
)


def _inside_brackets(text: str, at: int) -> bool:
    """Whether position ``at`` of ``text`` lies inside an open round bracket of its sentence."""
    start = max(text.rfind(". ", 0, at), text.rfind("\n", 0, at)) + 1
    return text.count("(", start, at) > text.count(")", start, at)


def list_style(text: str, rng: random.Random) -> tuple[str, str]:
    """Change the list markers: '1.' -> '1)', '(1)', 'A.' or '-'."""
    if not LIST_MARKER.search(text):
        # An item number stands alone ("with 1) ulcer 2) erosion"); "(0/13) or" is a count.
        # An item number only outside brackets: "(grade group 3) in the left" is not an item.
        sub = re.compile(r"(?<![\w/(.])(\d)\) (?=[a-z])")
        hits = [m for m in sub.finditer(text) if not _inside_brackets(text, m.start())]
        if hits:
            for m in reversed(hits):
                text = f"{text[: m.start()]}({m.group(1)}) {text[m.end() :]}"
            return text, "list:sub_paren"
        return text, ""
    style = rng.choice(("paren", "both", "letter", "dash"))

    def mark(m: re.Match) -> str:
        n = int(re.search(r"\d+", m.group("marker")).group())
        new = {"paren": f"{n})", "both": f"({n})", "letter": f"{chr(64 + n)}.", "dash": "-"}[style]
        return f"{m.group('indent')}{new} "

    if style == "dash" and re.search(r"^[ \t]*- ", text, re.M):
        style = "paren"
    return LIST_MARKER.sub(mark, text), f"list:{style}"


def case_change(text: str, rng: random.Random) -> tuple[str, str]:
    """Upper-case the header line, or the whole report, or lower-case the whole report."""
    choice = rng.choice(("header_upper", "all_upper", "all_lower"))
    if choice == "header_upper" and "\n" in text:
        head, rest = text.split("\n", 1)
        return head.upper() + "\n" + rest, "case:header_upper"
    if choice == "all_lower":
        return text.lower(), "case:all_lower"
    return text.upper(), "case:all_upper"


def punctuation(text: str, rng: random.Random) -> tuple[str, str]:
    """Change punctuation and whitespace only: header ';' -> ':', joined lines, extra spaces."""
    choice = rng.choice(("header_colon", "one_line", "spaces", "periods"))
    if choice == "header_colon" and re.search(r";\s*$", text.split("\n", 1)[0]):
        head, _, rest = text.partition("\n")
        return re.sub(r";\s*$", ":", head) + "\n" + rest, "punct:header_colon"
    if choice == "one_line":
        joined = re.sub(r"\s*\n\s*", " ", text.strip())
        if "; " in text.strip().split("\n", 1)[0]:
            # A REG-style "organ; procedure" header line joins the diagnosis with a colon; a
            # semicolon inside the text ("T2b, N0; M0") is kept as it is.
            joined = joined.replace("; ", ": ", 1)
        return joined, "punct:one_line"
    if choice == "spaces":
        return re.sub(r"\n[ \t]+", "\n", text).replace(", ", " , ").rstrip() + "\n", "punct:spaces"
    lines = [ln.rstrip() for ln in text.split("\n")]
    out = [ln + "." if ln and ln[-1].isalnum() else ln.rstrip(",") for ln in lines]
    return "\n".join(out), "punct:periods"


def header(text: str, rng: random.Random) -> tuple[str, str]:
    """Label the parts: 'Specimen: ...' / 'Diagnosis: ...', or add a 'DIAGNOSIS:' title."""
    first, sep, rest = text.partition("\n")
    if sep and re.search(r";\s*$", first) and rng.random() < 0.6:
        spec = re.sub(r";\s*$", "", first.strip())
        return f"Specimen: {spec}\nDiagnosis:\n{rest}", "header:labels"
    title = rng.choice(("DIAGNOSIS:", "Final diagnosis:", "PATHOLOGIC DIAGNOSIS"))
    return f"{title}\n{text}", "header:title"


def tense(text: str, rng: random.Random) -> tuple[str, str]:
    """Past tense: 'includes' -> 'included', 'is present' -> 'was present'.

    'No tumor present' becomes 'No tumor was present'.
    """
    rules = (
        (r"\bincludes\b", "included"),
        (r"\bdoes not include\b", "did not include"),
        (r"\bis (present|identified|seen|noted|involved|negative|positive|free)\b", r"was \1"),
        (r"\bare (present|identified|seen|noted|involved|negative|positive|free)\b", r"were \1"),
        (r"\bNo tumor present\b", "No tumor was present"),
        (r"\bshows\b", "showed"),
        (r"\breveals\b", "revealed"),
    )
    out = text
    for pattern, repl in rules:
        out = re.sub(pattern, repl, out)
    return out, "tense:past" if out != text else ""


def prose(text: str, rng: random.Random) -> tuple[str, str]:
    """'Organ, procedure;\\n  Finding' as one sentence: 'Organ, procedure: finding.'"""
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    if len(lines) < 2 or not lines[0].endswith(";") or LIST_MARKER.search(text):
        return text, ""
    spec = lines[0].rstrip(";")
    body = " ".join(ln.rstrip(",") + ("" if ln.endswith(".") else ",") for ln in lines[1:])
    return f"{spec}: {body.rstrip(',')}.", "prose:sentence"


REWRITES: tuple[Rewrite, ...] = (
    synonym,
    synonym,
    number_format,
    reorder,
    sentence_order,
    list_style,
    case_change,
    punctuation,
    header,
    tense,
    prose,
)


def equivalent_rewrite(text: str, rng: random.Random, max_steps: int = 3) -> tuple[str, list[str]]:
    """Compose 1..max_steps rewrites that apply; at least one must change the text."""
    ops = list(REWRITES)
    rng.shuffle(ops)
    want = rng.randint(1, max_steps)
    out, names = text, []
    for op in ops:
        if len(names) >= want:
            break
        new, name = op(out, rng)
        if name and new != out and name not in names:
            out, names = new, names + [name]
    return out, names
