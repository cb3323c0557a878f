"""Shorthand and worded measurements, written the one way the schemas read them.

Terse reports say "Adenoca, mod. diff., 15 mm; neg for LVI; Rt breast bx" where a full report
says "adenocarcinoma, moderately differentiated ... right breast biopsy", and some reports write
measurements out ("eleven millimetres", "two point nine centimetres", "sixty percent").
Rewriting both once, on the normalised (lower-case) text, lets every schema's vocabulary name
each finding once and every size pattern read "11 mm", instead of listing every variant per field
and per schema.

A word is replaced only where it cannot mean something else:

* "ca" is carcinoma, except as a tumour marker ("CA 19-9", "CA-125") or as "ca." (circa);
* "rt" and "lt" are sides only before a word that is no treatment ("Rt breast", not "post-RT
  changes" or "RT effect");
* "pd" and "wd" are differentiation grades, except in "PD-L1" or "PD-1";
* "ptc" is papillary thyroid carcinoma, except in the "RET/PTC" rearrangement;
* "hg" is high grade, except in "mm Hg" and before a grade's number ("HG 2", the histological
  grade); "ta" is a tubular adenoma, except in "IF/TA" (tubular atrophy);
* "gr" is grade only before a grade number ("Gr 2", "gr. III");
* "int" is intermediate only before a grade, and "lg" low grade except before "fragment";
* "UC" is a urothelial carcinoma in a bladder or ureter report and ulcerative colitis in a colon
  one; "BM" is the bone marrow only in a report of its aspirate or trephine;
* "MM" is a melanoma only in a report that gives a Breslow thickness or Clark level, and never
  after a number or "per" (the unit); "ACC" is adrenocortical in an adrenal report and adenoid
  cystic in a salivary one; "SM" is the submucosa after a verb of invasion; "S6" a liver
  segment in a liver report.

A stain whose loss is the finding is written as its result: "loss of E-cadherin expression" and
"ATRX loss" become "E-cadherin negative" and "ATRX negative", "BAP1 staining is retained" "BAP1
positive" (mismatch-repair proteins keep their own wording, which their fields read).

A few verb phrases of pathologists writing English as a second language say the same in other
words: a tumour "growing into" a layer invades it, a lesion "radically removed", "entirely
removed", "excised in sound tissue" or "excised in toto" is completely excised, and "nil of 15"
nodes is none of them. French and Italian reports call a margin a limit ("limits of exeresis
healthy", "the deep limit at 4 mm"), which is written as a free margin; "without particularity"
is within normal limits, and "no histological argument for" no evidence of. "Amplification of
EGFR" is written "EGFR amplified", unless a negation in its clause comes before it.

Report-writing models and some pathologists spell out the names behind the symbols ("Anaplastic
lymphoma kinase (ALK): negative", "International Society of Urological Pathology grade 2"). Each
name becomes its symbol, so that the symbol's rules read it and its words ("lymphoma",
"thyroid") name no entity or organ. A grade's number written as a word ("grade two") becomes
digits, and the word order of writers whose first language puts the verb or the type first is
turned round where it cannot mean anything else: "Is not identified lymphovascular invasion",
"carcinoma of endometrioid type", "dysplasia of high grade", "without neoplastic compromise".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pathreport.evaluation.crqs.templates import expander
from pathreport.evaluation.crqs.values import NUMBER_WORDS, TENS

_WORD_RUN = re.compile(r"[a-z0-9]+")  # every word that can trigger a rule below is ASCII
WORD_RUN = _WORD_RUN  # the runs ``spell_out`` and ``english_anatomy`` test their triggers on

# Word for word; a longer key wins where two could match.
_WORDS = {
    # lung lobes with their side, nodes, margins and procedures
    "rul": "right upper lobe", "rml": "right middle lobe", "rll": "right lower lobe",
    "lul": "left upper lobe", "lll": "left lower lobe",
    "slnb": "sentinel lymph node biopsy", "sln": "sentinel lymph node", "sn": "sentinel nodes",
    "slns": "sentinel lymph nodes", "crm": "circumferential resection margin",
    "prm": "proximal resection margin", "drm": "distal resection margin",
    "rm": "resection margin",
    "wle": "wide local excision", "bx": "biopsy", "bxs": "biopsies",
    "turp": "transurethral resection of prostate",
    "turbt": "transurethral resection of bladder tumor", "mrm": "modified radical mastectomy",
    "tah": "total abdominal hysterectomy", "bso": "bilateral salpingo-oophorectomy",
    "th": "total hysterectomy",
    "apr": "abdominoperineal resection", "lar": "low anterior resection",
    "mnd": "modified neck dissection", "plnd": "pelvic lymph node dissection",
    "pppd": "pylorus-preserving pancreaticoduodenectomy", "nbx": "needle biopsy",
    "gb": "gallbladder", "fts": "fallopian tubes", "tm": "total mastectomy",
    "exc": "excision", "perc": "percutaneous", "appy": "appendectomy", "cx": "cervix",
    # entities
    "ca": "carcinoma", "adenoca": "adenocarcinoma", "sqcc": "squamous cell carcinoma",
    "ptc": "papillary thyroid carcinoma", "gbm": "glioblastoma",
    "ssm": "superficial spreading melanoma", "lmm": "lentigo maligna melanoma",
    "alm": "acral lentiginous melanoma", "ftc": "follicular thyroid carcinoma",
    "nhl": "non-hodgkin lymphoma",
    "wdlps": "well differentiated liposarcoma", "ddlps": "dedifferentiated liposarcoma",
    "dlbcl": "diffuse large b-cell lymphoma", "ups": "undifferentiated pleomorphic sarcoma",
    "lms": "leiomyosarcoma", "rms": "rhabdomyosarcoma",
    "hgsc": "high grade serous carcinoma", "lgsc": "low grade serous carcinoma",
    "hgd": "high grade dysplasia", "lgd": "low grade dysplasia",
    "eoe": "eosinophilic esophagitis",
    "hg": "high grade", "lg": "low grade",
    "mets": "metastases", "fvptc": "follicular variant of papillary thyroid carcinoma",
    "mtc": "medullary thyroid carcinoma", "ssl": "sessile serrated lesion",
    "tva": "tubulovillous adenoma", "ta": "tubular adenoma",
    "chrcc": "chromophobe renal cell carcinoma", "ccrcc": "clear cell renal cell carcinoma",
    "prcc": "papillary renal cell carcinoma", "pannet": "pancreatic neuroendocrine tumor",
    "pdac": "pancreatic ductal adenocarcinoma", "sma": "superior mesenteric artery",
    "agc": "advanced gastric carcinoma", "egc": "early gastric carcinoma",
    "icca": "intrahepatic cholangiocarcinoma", "nad": "no abnormality detected",
    "escc": "esophageal squamous cell carcinoma", "ub": "urinary bladder",
    "npc": "nasopharyngeal carcinoma", "cscc": "cutaneous squamous cell carcinoma",
    "nkscc": "non-keratinizing squamous cell carcinoma",
    "kscc": "keratinizing squamous cell carcinoma",
    "lls": "left lateral sectionectomy", "turb": "transurethral resection of bladder",
    "fom": "floor of mouth", "lat": "lateral",
    # findings
    "epe": "extraprostatic extension", "svi": "seminal vesicle invasion",
    "sv": "seminal vesicle", "svs": "seminal vesicles",
    "ene": "extranodal extension", "ete": "extrathyroidal extension",
    "lvsi": "lymphovascular space invasion", "vpi": "visceral pleural invasion",
    "lve": "lymphovascular invasion", "mp": "muscularis propria",
    "mvp": "microvascular proliferation", "mvi": "microvascular invasion",
    "emvi": "extramural venous invasion", "gcnis": "germ cell neoplasia in situ",
    "syn": "synaptophysin", "cga": "chromogranin", "nhg": "nottingham grade",
    "mash": "steatohepatitis", "gn": "glomerulonephritis",
    # hepatitis viruses: "cirrhosis, HBV-related" is chronic hepatitis B
    "hbv": "hepatitis b", "hcv": "hepatitis c", "chb": "chronic hepatitis b",
    "chc": "chronic hepatitis c",
    "ien": "intraepithelial neoplasia",
    # status, grade and side
    "neg": "negative", "pos": "positive",
    # "nodular subtype" is the "nodular type" every vocabulary names
    "subtype": "type", "subtypes": "types",
    # the Japanese Classification of Gastric/Colorectal Carcinoma's histological codes
    "tub1": "well differentiated tubular adenocarcinoma",
    "tub2": "moderately differentiated tubular adenocarcinoma",
    "por1": "poorly differentiated adenocarcinoma",
    "por2": "poorly differentiated adenocarcinoma",
    "wd": "well differentiated", "pd": "poorly differentiated", "int": "intermediate",
    "md": "moderately differentiated",
    "rt": "right", "lt": "left", "bilat": "bilateral",
    # "NSCLC, favour adeno": the carcinoma's shorthand (not "adeno-squamous", "adeno ca").
    "adeno": "adenocarcinoma",
    # French reports' "ADK" (adénocarcinome).
    "adk": "adenocarcinoma",
}  # fmt: skip
_WORD = re.compile(
    r"(?<![a-z0-9])({})(?![a-z0-9])".format("|".join(sorted(_WORDS, key=len, reverse=True)))
)
_NOT_ADENO_ALONE = re.compile(r"[ \t]*(?:-|/|ca(?![a-z])|carcinoma|cancer|squamous|matous)")
_NODE_COUNT_AFTER = re.compile(r"[ \t]*:?[ \t]*\(?[ \t]*\d{1,3}[ \t]*(?:/|of[ \t])[ \t]*\d")
# What may follow "rt" or "lt" when it means radiotherapy or something else, not a side.
_NOT_A_SIDE_AFTER = frozenset(
    ["changes", "change", "effect", "effects", "induced", "related", "therapy", "treatment"]
    + ["dose", "field"]
)
_READ_BY_NEXT_WORD = frozenset(["int", "lg", "rt", "lt", "md"])  # see ``_word``
# "MD SCC", "MD adenoCa": "md" is a differentiation only before a carcinoma's name (not M.D.).
_DIFFERENTIATED_NOUNS = frozenset(
    ["scc", "adenoca", "adenocarcinoma", "carcinoma", "ca", "tubular", "squamous", "hcc"]
)
_INTERMEDIATE_OF = frozenset(["grade", "nuclear", "differentiation", "risk"])
_LARGE_THINGS = frozenset(["fragment", "fragments", "piece", "pieces", "portion", "amount", "cyst"])
_NOT_A_SIDE_BEFORE = ("post", "prior", "after", "previous", "following", "-", "/")
# After "ca": a tumour marker's number ("CA 19-9", "CA-125") or the full stop of "ca." (circa)
# before a number ("ca. 2 cm"); "urothelial Ca., high grade" is a carcinoma.
# "Whipple operation (PD)": the pancreaticoduodenectomy's initials, not "poorly differentiated".
_PD_PROCEDURE_BEFORE = re.compile(
    r"(?:whipple|pancreat[a-z]*|duodenectom[a-z]*)"
    r"(?:[ \t]+(?:operation|procedure|resection|specimen))?[ \t]*[(,]?[ \t]*$"
)
_NOT_CARCINOMA_AFTER = re.compile(
    r"\.(?=[ \t]*\d)|[ \t-]?(?:19-9|125|15-3|72-4|27[.-]29|242|549)(?![0-9])"
)
# "Meningioma, atypical (WHO grade 2)": the grade's adjective after the name, as a list writes it.
_MENINGIOMA_GRADE_AFTER = re.compile(
    r"(?<![a-z])meningioma[ \t]*,[ \t]*(atypical|anaplastic)(?![a-z])"
)
# "Invasive ca. not identified": a status after it continues the sentence (its negation with it).
_CARCINOMA_STOP = re.compile(
    r"(?<![a-z])((?:adeno)?ca)\.(?=[ \t]*(?:[,;(]|(?:not|is|was|were|are|present|absent|identified"
    r"|seen|detected|involving|invading|infiltrating|arising)(?![a-z])))"
)
_WORD_AFTER = re.compile(r"\.?[ \t]+([a-z]+)")
# "Testis, Lt., radical orchiectomy", "Breast, Rt.; CNB": the side of the organ named before it.
_SIDE_BETWEEN_COMMAS = re.compile(r"\.?[ \t]*[,;:](?![ \t]*\d)")
# "HG 2", "HG: III": the histological grade's number after the letters, not a high grade.
_GRADE_NUMBER_AFTER = re.compile(r"[ \t]*[:=]?[ \t]*(?:[1-4]|i{1,3}|iv)(?![0-9a-z+/])")
# "SMA margin", "SMA (retroperitoneal) margin", "SMA/uncinate margin": the artery's margin.
_MARGIN_AFTER = re.compile(
    r"\)?[ \t]*(?:[(/]?[ \t]*(?:resection|retroperitoneal|uncinate)\)?[ \t]*)?margin"
)

# "mod. diff.", "poorly-diff", "mod differentiated", "m/d": the grade of differentiation.
_ADVERBS = {"well": "well", "w": "well", "mod": "moderately", "moderately": "moderately",
            "m": "moderately", "poorly": "poorly", "poor": "poorly", "p": "poorly"}  # fmt: skip
_DIFFERENTIATION = re.compile(
    r"(?<![a-z0-9])(?:(well|mod|moderately|poorly|poor)(?:\.[ \t]*|[ \t]+|-)diff(?![a-z])"
    r"(?:\.(?=[ \t]*[,;:)]))?"  # the abbreviation's full stop before other punctuation
    r"|(mod)\.?[ \t]+(?=differentiated)"
    r"|([wmp])/d(?![a-z0-9/]))"
)
# "w/o LVI", "w/ focal necrosis", "c/w adenoma"; "neg. for" and "Rt. breast" keep no full stop
# that would end the clause before its object.
_SHORTHAND = re.compile(
    r"(?<![a-z0-9/])(?:(w/o)|(w/)(?=[ \t])|(c/w)"
    r"|(neg|pos)\.(?=[ \t]+for\b)|(rt|lt)\.(?=[ \t]+[a-z]))"
)
_SHORTHAND_TEXT = {"w/o": "without", "w/": "with", "c/w": "consistent with",
                   # the slashed phrases below
                   "e/o": "evidence of", "f/s/o": "features suggestive of",
                   "s/o": "suggestive of", "r/o": "rule out"}  # fmt: skip
_GRADE = re.compile(r"(?<![a-z0-9])gr\.?[ \t]*(?=(?:[1-4]|i{1,3}|iv)(?![a-z0-9]))")

_GROWING = re.compile(
    r"(?<![a-z])(?:(?:is|are|was|were)[ \t]+)?growing[ \t]+(?:(through)|in(?:to)?)(?![a-z])"
)
_COMPLETE_EXCISION = re.compile(
    r"(?<![a-z])(?:radically[ \t]+(?:removed|excised|resected)"
    r"|(?:entirely|totally)[ \t]+(?:removed|resected|excised)|completely[ \t]+(?:removed|resected)"
    r"|(?:removed|excised|resected)[ \t]+"
    r"(?:radically|in[ \t]+toto|(?:in|within)[ \t]+(?:sound|healthy)[ \t]+tissue))"
    r"(?![a-z])"
)
# "Excision appears complete" (the RCPath datasets' phrase), "excision is incomplete".
_EXCISION_COMPLETE = re.compile(
    r"(?:excision|removal|resection)(?<![a-z]excision)(?<![a-z]removal)(?<![a-z]resection)"
    r"[ \t]+(?:(?:appears|is|was|seems)[ \t]+(?:to[ \t]+be[ \t]+)?)?"
    r"(in)?complete"
    r"(?![a-z])"
)
# "Surgical margins: intact", "spermatic cord margin intact": the margin is free of tumour.
_MARGIN_INTACT = re.compile(
    r"(margins?)((?:[ \t]*\([^()\n]{0,40}\))?[ \t]*:?[ \t]*(?:(?:are|is)[ \t]+)?)intact(?![a-z])"
)
# "Deep resection margin with tumour growth", "lateral margins without tumour growth", "tumour
# growth is present in the deep resection margin": a margin's status in the words of Russian
# and other Eastern European reports.
_MARGIN_GROWTH = re.compile(
    r"(margins?)[ \t]+with(out)?[ \t]+(?:(?:signs?|evidence)[ \t]+of[ \t]+)?tumou?r[ \t]+growth"
    r"(?![a-z])"
)
# ("Tumour growth in resection lines not found", "tumour growth not found in the margin": free.)
_GROWTH_IN_MARGIN = re.compile(
    r"growth(?<=tumor growth|umour growth)[ \t]+(?:is[ \t]+)?"
    r"(?:(not[ \t]+)?(?:present|seen|found|identified|detected)[ \t]+)?"
    r"(?:in|at)[ \t]+(?:the[ \t]+)?((?:[a-z]+[ \t]+){0,2}?margins?)(?![a-z])"
    r"(?:[ \t]+(?:(?:is|are|was|were)[ \t]+)?"
    r"(not[ \t]+(?:found|seen|identified|detected|present)|absent)(?![a-z]))?"
)
# "No e/o malignancy", "f/s/o leprosy", "s/o metastasis": the shorthand of Indian reports. Their
# words ("e", "o") would wake the whole shorthand pass on every "o'clock", so they have their
# own rule and test ("/o"), and share the shorthand's table.
_SLASHED_PHRASE = re.compile(r"(?<![a-z/])(e/o|f/s/o|s/o|r/o)(?![a-z/])")

# A margin called a limit, as French and Italian reports translate "limite"/"limite di
# resezione": "limits of exeresis healthy", "the deep limit at 4 mm", "resection limits free".
# A margin that is "healthy" (or "in healthy tissue") is free of tumour.
_MARGIN_SIDES = (
    "deep|lateral|peripheral|circumferential|radial|bronchial|vaginal|distal|proximal|ureteral"
    "|urethral|surgical|resection|excision|exeresis|mucosal|parenchymal|superior|inferior"
    "|anterior|posterior|medial|vascular|soft[ \t]+tissue"
    "|cord|duct"  # "spermatic cord limit", "cystic duct limit"
    "|endocervical|ectocervical|exocervical"
)
# The adverbs and verbs of these phrases: a report is searched only when it names one of each
# ("entirely submitted" alone needs nothing).
_EXCISION_ADVERBS = frozenset(
    ["radically", "sound", "healthy", "toto", "entirely", "totally", "completely"]
)
_EXCISION_VERBS = frozenset(["removed", "excised", "resected"])
_REMOVAL_NOUNS = frozenset(["excision", "removal", "resection"])  # "removal complete"
_LIMIT = re.compile(
    r"(?<![a-z])(?:limit(s?)[ \t]+of[ \t]+(?:the[ \t]+)?(?:exeresis|excision|resection)"
    # "Limits healthy, the nearest ...": the bare noun with its status after it.
    r"|(?<![a-z])limits(?=[ \t]+(?:(?:are|were)[ \t]+)?(?:healthy|free|clear)(?![a-z]))"
    rf"|(?<![a-z])((?:{_MARGIN_SIDES})[ \t]+)limit(s?)"
    r"(?:[ \t]+of[ \t]+(?:the[ \t]+)?(?:exeresis|excision|resection))?)(?![a-z])"
)
# "Limit endocervical reached; limit exocervical healthy": the margin's name after the noun.
_LIMIT_SIDE_AFTER = re.compile(rf"(?<![a-z])limit(s?)[ \t]+({_MARGIN_SIDES})(?![a-z])")
# "Healthy surgical limits", "healthy proximal and distal margins": the status before the margin.
_HEALTHY_BEFORE = re.compile(
    r"(?<![a-z])healthy"
    r"(?=[ \t]+(?:[a-z]+,?[ \t]+(?:and[ \t]+|&[ \t]+)?){0,4}(?:margin|limit)s?(?![a-z]))"
)
_HEALTHY_LIMIT = re.compile(r"(?<![a-z])healthy[ \t]+limit(s?)(?![a-z])")
# "Limits of bronchial and vascular section healthy", "limits proximal, distal and radial
# healthy": the French "limites saines" are the margins, free of tumour (read before a margin's
# name after "limits" moves before it).
_LIMITS_THEN_HEALTHY = re.compile(
    r"(?<![a-z])limit(s?)(?:[ \t]+of[ \t]+(?:the[ \t]+)?(?:exeresis|excision|resection))?(?![a-z])"
    r"([^.;\n]{0,80}?)(?<![a-z])healthy(?![a-z])"
)
_HEALTHY_MARGIN = re.compile(
    r"(?<![a-z])(margins?(?:[ \t]+\([^)\n]{0,40}\))?[ \t]*:?[ \t]+(?:(?:is|are|was|were)[ \t]+)?)"
    r"(?:(?:in|at)[ \t]+(?:a[ \t]+)?)?healthy(?:[ \t]+(?:zone|tissue))?(?![a-z])"
)
# "Amplification of EGFR", "amplification of the HER2 gene": the result after its gene, as every
# marker's rule reads it ("EGFR amplified").
_AMPLIFICATION_OF = re.compile(
    r"(?<![a-z])amplification[ \t]+of[ \t]+(?:the[ \t]+)?"
    r"(her2|egfr|mdm2|cdk4|mycn|myc|met|ccnd1|fgfr1)(?:[ \t]+gene)?(?![a-z0-9])"
)
# A negation in the same clause before it ("ISH did not detect amplification of HER2") leaves
# the phrase as it is, for the negation to read.
_NEGATION_BEFORE = re.compile(r"(?<![a-z])(?:no|not|without|absence|absent|negative)(?![a-z])")
_CLAUSE_END = re.compile(r"[.;:\n]")
# "Mucosa without particularity" (French "sans particularité"): within normal limits; "no
# histological argument for" (French "pas d'argument pour"): no evidence of.
_PARTICULARITY = re.compile(r"(?<![a-z])without[ \t]+(?:any[ \t]+)?particularit(?:y|ies)(?![a-z])")
_ARGUMENT_FOR = re.compile(
    r"(?<![a-z])(?:histological[ \t]+)?arguments?[ \t]+(?:for|in[ \t]+favou?r[ \t]+of)(?![a-z])"
)
# "mutated isocitrate dehydrogenase 1 (IDH1)": the gene by its symbol.
_IDH_NAME = re.compile(r"(?<![a-z])isocitrate[ \t]+dehydrogenase(?:[ \t]*([12]))?")
# "Is not identified lymphovascular invasion": a clause that opens with its verb, as writers whose
# first language puts it there ("No se identifica ...") word it, says "no lymphovascular invasion".
_NOT_FOUND = re.compile(
    r"not[ \t]+(?:identified|seen|observed|found|detected)(?=[ \t]+[a-z])"
    r"(?![ \t]+(?:in|on|at)(?![a-z]))"
)  # searched from its literal; the verb before it and the clause opening are checked after
_VERB_BEFORE = re.compile(r"(?:(?<![a-z])it[ \t]+)?(?<![a-z])(?:is|are|was|were)[ \t]+$")
# "Margins without neoplastic compromise", "2 of 12 with metastatic compromise": involvement, in the
# words of writers for whom "compromiso" is the word ("sin compromiso neoplásico").
_COMPROMISE = re.compile(
    r"(?<![a-z])(?:(without)|(with)|(?:by|of|for))?([ \t]+|^)"
    r"(?:(?:neoplastic|tumou?r(?:al)?|metastatic|malignant)[ \t]+)?compromise(?![a-z])"
)
# The terms of reports translated from French: "ganglions" are lymph nodes ("0/18 invaded
# ganglia"), "emboles" vascular invasion ("no vascular or lymphatic emboli") and "engainement
# perinerveux" perineural invasion ("perineural sheathing"); "RE"/"RP" are the oestrogen and
# progesterone receptors and a "Lieberkuhnian" adenocarcinoma is the usual colorectal one.
_GANGLIA = re.compile(r"(?<![a-z])(?:ganglia|ganglions|(?<=sentinel )ganglion)(?![a-z])")
_INVADED_COUNT = re.compile(
    r"(\d{1,3}[ \t]*/[ \t]*\d{1,3}[ \t]+)invaded(?![a-z])|invaded(?=[ \t]+lymph)"
)
_EMBOLI = re.compile(
    r"(?<![a-z])(?:((?:lympho)?vascular|lymphatic|venous|angiolymphatic)[ \t]+)?"
    r"(?<!fat )(?<!septic )(?<!cholesterol )(?<!pulmonary )(?<!air )(?<!tumor )(?<!cancer )"
    r"embol(?:i|us)(?![a-z])"
)
_SHEATHING = re.compile(r"(?<![a-z])(?:perineural|perinervous|nerve)[ \t]+sheathing(?![a-z])")
_RECEPTOR_FRENCH = re.compile(
    r"(?<![a-z])(re|rp)(?=[ \t]*:?[ \t]*(?:\d{1,3}[ \t]*%|positive|negative|\+|-))"
)
# "Epidermoid (squamous cell) carcinoma", "mucinous (colloid) adenocarcinoma", "multinodular
# (colloid) goitre": the type's other name in brackets inside the entity's name, which splits
# it; one name is enough.
_TYPE_SYNONYM_IN_BRACKETS = re.compile(
    r"\((?:squamous(?:[ \t]+cell)?|epidermoid|colloid|mucinous)\)[ \t]+"
    r"(?=(?:adeno)?carcinoma|goit(?:re|er))"
)
# "IC-NST": the breast's invasive carcinoma of no special type by its initials.
_IC_NST = re.compile(r"(?<![a-z0-9])ic[ \t]*[- ][ \t]*nst(?![a-z0-9])")
_LIEBERKUHN = re.compile(
    r"(?<![a-z])lieberk(?:u|ue|\u00fc)hn(?:ian|ien|ienne)[ \t]+(?=adenocarcinoma)"
)
# The terms of reports translated from Chinese: a "cancer thrombus in vessels" (ai shuan) is
# lymphovascular invasion, "nerve invasion" is perineural invasion and a "cutting edge" (qie yuan)
# is a margin, as is its other rendering, a "cut end" ("ureter cut end: negative"). A cancer
# thrombus in a named vein ("cancer thrombus in the portal vein") is left as it is: the rewrite
# names the small vessels of lymphovascular invasion, not a vein.
_CANCER_THROMBUS = re.compile(
    r"(?<![a-z])(?:(?:intra)?vascular[ \t]+)?(?:cancer[ \t]+(?:thromb(?:us|i)|embol(?:us|i))"
    r"(?![ \t]+(?:in|within|of|into|extending[ \t]+into)[ \t]+(?:the[ \t]+)?(?:[a-z]+[ \t]+)?"
    r"(?:vein|vena|ivc))|tumou?r[ \t]+(?:thromb(?:us|i)|embol(?:us|i))"
    r"(?=[ \t]+(?:in|within)[ \t]+(?:the[ \t]+)?(?:lymphatic[ \t]+|blood[ \t]+|small[ \t]+)?"
    r"vessels?(?![a-z])))(?:[ \t]+(?:in|within)[ \t]+(?:the[ \t]+)?(?:lymphatic[ \t]+|blood[ \t]+"
    r"|small[ \t]+)?vessels?)?(?![a-z])"
)
_NERVE_INVASION = re.compile(
    r"(?<![a-z])(?<!optic )(?<!cranial )(?:nerve|neural)[ \t]+(?:invasion|involvement|infiltration)"
    r"(?![a-z])"
)
_CUTTING_EDGE = re.compile(
    r"(?<![a-z])(?:cutting|cut|bowel)[ \t]+(?:edge|end)(s?)(?![a-z])"
)  # "bowel ends tumour-free at 6 cm": the resection margins of a bowel segment
# The "resection line" of reports translated from Russian and other Slavic languages (liniya
# rezektsii) is a resection margin: "Resection lines free of tumor", "proximal resection line".
_RESECTION_LINE = re.compile(r"resection(?<![a-z]resection)[ \t]+line(s?)(?![a-z])")
# The "border" of reports translated from Spanish and Portuguese (borde, bordo quirurgico) is a
# margin where it is surgical or has a margin's status ("Deep surgical border affected", "lateral
# borders free", "closest border at 2 mm", "Endocervical border: free", "Resection border (stalk):
# free"); "tongue, left lateral border" and "pushing borders"
# stay anatomy and growth pattern.
_SURGICAL_BORDER = re.compile(
    r"(?:(?<=surgical )|(?<=resection )|(?<=excision ))borders?(?![a-z])|border(?<![a-z]border)"
    r"(?=s?(?:[ \t]*\([a-z ]{1,20}\))?(?:[ \t]*:[ \t]*|[ \t]+)(?:(?:is|are|was|were)[ \t]+)?"
    r"(?:free|clear|affected|involved|uninvolved"
    r"|negative|positive|compromised|infiltrated|reached|not[ \t]+(?:involved|affected"
    r"|infiltrated|reached)|at[ \t]+\d)(?![a-z]))"
)
# "Margins: lateral lesion-free (4 mm)", "lesion-free margins" (indemne de lesion): free.
_LESION_FREE = re.compile(r"(?<![a-z])lesion[ \t-]free(?![a-z])")
# The "surgical bed" of the same writers (lecho quirurgico) is a margin too: "Deep surgical bed
# compromised by neoplasia", "surgical beds (proximal, distal) free of neoplasia".
_SURGICAL_BED = re.compile(r"surgical(?<![a-z]surgical)[ \t]+bed(s?)(?![a-z])")
# "Deep margin affected by neoplasia", "Resection border (stalk): compromised by neoplasia"
# (afectado, comprometido): an involved margin.
_MARGIN_AFFECTED = re.compile(
    r"(margins?(?:[ \t]*\([a-z ]{1,20}\))?(?:[ \t]*:[ \t]*|[ \t]+)(?:(?:is|are|was|were)[ \t]+)?"
    r"(?:not[ \t]+)?)(?:affected|compromised)(?![a-z])"
)
# "No cancer involvement at the proximal and distal margins": the margins are free ("lateral
# margin (-)" is "lateral margin negative" by the bracketed-sign rule of ``normalise``).
_INVOLVING = r"cancer|tumor|carcinoma|lesion|neoplastic|malignant"  # what involves a margin
_NO_INVOLVEMENT_AT = re.compile(
    rf"no(?<![a-z]no)[ \t]+(?:(?:{_INVOLVING})[ \t]+)?"
    r"involvement[ \t]+(?:at|of|in)[ \t]+(?:the[ \t]+|all[ \t]+)?"
    r"((?:[a-z]+[ \t]*,?[ \t]+(?:and[ \t]+|or[ \t]+)?){0,6}?margins?)(?![a-z])"
)
# "Bronchial margin: no cancer involvement", "endocervical margin: HSIL involvement": the status
# after the margin's colon, in the words such reports use.
_MARGIN_INVOLVEMENT = re.compile(
    rf"(margins?[ \t]*:[ \t]*)(no[ \t]+)?(?:(?:{_INVOLVING}|hsil|dcis|dysplasia)[ \t]+)?"
    r"involvement(?![a-z])(?![ \t]+(?:by|of|at|in)(?![a-z]))"
)
# "Carcinoma of endometrioid type", "dysplasia of high grade": the type or grade after its noun,
# in the order of Romance languages; written before it, as the vocabularies name them.
_TYPE_AFTER = re.compile(
    r"carcinoma(?:[ \t]+of[ \t]+(?:the[ \t]+)?|[ \t]?,[ \t]*|[ \t]*(\()[ \t]*)"
    r"(endometrioid|serous|mucinous|ductal|lobular|papillary|urothelial|medullary|micropapillary"
    r"|tubular|clear[ \t]+cell|squamous|adenosquamous|signet[ -]ring[ \t]+cell"
    r"|poorly[ \t]+cohesive|small[ \t]+cell|large[ \t]+cell)"
    r"[ \t]+type(?![a-z])"
)  # reordered only where the noun heads its phrase (see ``_type_first``)
# "Liposarcoma, dedifferentiated type": a sarcoma's subtype after it, as a carcinoma's.
_SARCOMA_TYPE_AFTER = re.compile(
    r"([a-z]*sarcoma)[ \t]?,[ \t]*(dedifferentiated|well[ -]differentiated|myxoid|pleomorphic"
    r"|round[ \t]+cell|spindle[ \t]+cell|epithelioid)[ \t]+type(?![a-z])"
)
# "GMS and AFB special stains negative": the stains named, then the word for their kind.
_NAMED_SPECIAL_STAINS = re.compile(r"(?<=[a-z]) special stain(?=s?(?![a-z]))")
# "Margins: none involved": no margin is involved (the cue "none" stands before its verb).
# Margins only: "Nineteen nodes, none involved" is a count, which the count rules read.
_NONE_INVOLVED = re.compile(
    r"(margins)[ \t]*:?[ \t]*none[ \t]+(?:(?:is|are|was|were)[ \t]+)?involved(?![a-z])"
)
# "No hydropic change or trophoblastic hyperplasia to suggest molar pregnancy": what the absent
# findings would suggest is denied with them, as "nothing to suggest" denies it.
_NO_LIST_TO_SUGGEST = re.compile(
    r"(?<![a-z])(no|without)([ \t][^.;:\n]{1,80}?)[ \t]+to[ \t]+suggest(?![a-z])"
)
# "Adenoma, follicular type": an adenoma's type after it, as a carcinoma's.
_ADENOMA_TYPE_AFTER = re.compile(
    r"(?<![a-z])(adenoma)[ \t]?,[ \t]*(follicular|oncocytic|h[uü]rthle[ \t]+cell|tubular"
    r"|tubulovillous|villous|pleomorphic|sessile[ \t]+serrated|serrated)[ \t]+type(?![a-z])"
)
# "Endometrial adenocarcinoma, endometrioid, grade 2": the type alone between commas.
_TYPE_AFTER_COMMA = re.compile(
    r"carcinoma[ \t]?,[ \t]*()(endometrioid|serous|mucinous|clear[ \t]+cell|ductal|lobular"
    r"|medullary|micropapillary|signet[ -]ring[ \t]+cell)(?=[ \t]*(?:[,;.\n]|$))"
)
_TYPE_WORDS_AFTER_COMMA = frozenset(
    ["endometrioid", "serous", "mucinous", "clear", "ductal", "lobular", "medullary"]
    + ["micropapillary", "signet"]
)
_HEADS_AFTER = (
    "invasive ", "infiltrating ", "an ", "a ", "differentiated ", "primary ", "endometrial ",
    "uterine ", "ovarian ", "gastric ", "mammary ",
)  # fmt: skip
# "Dysplasia of low grade", "with dysplasia low grade": the grade written after its dysplasia.
_GRADE_AFTER = re.compile(
    r"dysplasia(?<![a-z]dysplasia)[ \t]+(?:of[ \t]+)?(high|low)[ \t-]+grade(?![a-z])"
)
# "MLH1 (loss), MSH2 (retained)": a stain's result in brackets after it, read as written plainly.
_BRACKETED_RESULT = re.compile(r"[ \t]\((loss|lost|retained|intact|preserved)\)")
_BRACKETED_RESULT_WORDS = frozenset(["loss", "lost", "retained", "intact", "preserved"])
# "Kidney right, partial nephrectomy", "Breast left, core biopsy", "Mastectomy left", "Skin of
# forearm left": a paired organ's, a limb's or a one-sided operation's side after it.
_PAIRED_ORGANS = frozenset(
    ["kidney", "breast", "lung", "ovary", "testis", "testicle", "adrenal", "ureter", "axilla"]
    + ["lobe", "neck", "groin", "arm", "forearm", "hand", "shoulder", "thigh", "leg", "foot"]
    + ["back", "mastectomy", "nephrectomy", "orchiectomy", "orchidectomy", "lobectomy"]
    + ["oophorectomy", "salpingectomy", "adrenalectomy", "hemithyroidectomy"]
)
_ORGAN_SIDE_AFTER = re.compile(
    rf"(?<![a-z])({'|'.join(sorted(_PAIRED_ORGANS))})[ \t]+(right|left)(?![a-z])"
    r"(?![ \t]*(?:and|&|or|side)(?![a-z]))"
)
# "Radical nephrectomy specimen (left)", "Axillary clearance specimen (right)", "dorsum of hand
# (right)": the side in brackets after the organ, the operation or its specimen. A lobe takes
# its adjective with it ("temporal lobe (right)" is the right temporal lobe).
_BRACKETED_SIDE_ORGANS = sorted(_PAIRED_ORGANS - {"lobe"} | {"axillary"})
_ORGAN_SIDE_BRACKETED = re.compile(
    r"(?<![a-z])((?:(?!(?:of|the|and)[ \t])[a-z]+[ \t]+)?lobe"
    rf"|{'|'.join(_BRACKETED_SIDE_ORGANS)})"
    r"((?:[ \t]+(?:specimen|lump|mass|excision|clearance|dissection|resection|biopsy)){0,2})"
    r"[ \t]*\([ \t]*(right|left)[ \t]*\)"
)
# "grade 2 WHO/ISUP", "grade 3 (Fuhrman)": a renal grade's system named after it.
_RENAL_GRADE_SYSTEM_AFTER = re.compile(
    r"grade(?<![a-z]grade)[ \t]+([1-4])[ \t]+"
    r"\(?(who[ \t]*/[ \t]*isup|isup[ \t]*/[ \t]*who|isup|fuhrman)(?![a-z])\)?"
)
# "Loss of E-cadherin expression", "ATRX loss", "BAP1 nuclear staining is retained": the result of a
# stain whose loss is the finding, written as the result every marker's rule reads ("E-cadherin
# negative"). Mismatch-repair proteins are left alone: their own fields read "loss of MLH1".
_LOSABLE = (
    r"(e-?[ \t]?cadherin|atrx|bap-?1|ini-?1|smarcb1|smarca4|brg-?1|pten|mtap|h3[ \t]?k27me3|sdhb"
    r"|fumarate[ \t]+hydratase)"
)
_STAIN = (
    r"(?:[ \t]+(?:nuclear|membranous|cytoplasmic))?"
    r"(?:[ \t]+(?:expression|staining|immunoreactivity|immunostaining|protein))?"
)
_LOSS_OF = re.compile(
    r"(?<![a-z])(loss|retained|retention|intact|preserved)[ \t]+(?:of[ \t]+)?"
    r"(?:(?:nuclear|membranous|cytoplasmic)[ \t]+)?"
    r"(?:(?:expression|staining|immunoreactivity)[ \t]+(?:of|for)[ \t]+)?"
    + _LOSABLE
    + _STAIN
    + r"(?![a-z0-9-])"
)
_MARKER_LOST = re.compile(
    r"(?<![a-z0-9-])" + _LOSABLE + _STAIN + r"(?:[ \t]*:)?(?:[ \t]+(?:is|was|are|were))?[ \t]+"
    r"(?:(loss|lost|retained|intact|preserved)(?![a-z])"
    r"|\((loss|lost|retained|intact|preserved)\))"  # "ATRX (loss)"
)
# "EGFR and ALK negative", "KRAS and BRAF wild type": genes listed before the result they share,
# written each with its result, as the genes' patterns read a result after their own name.
_GENE_NAMES = ("egfr", "alk", "ros1", "kras", "nras", "braf", "met", "ret", "ntrk", "idh1", "idh2")
_GENES = "(?:{}|idh)".format("|".join(_GENE_NAMES).replace("ros1", "ros-?1"))
# The words that open such a list ("met" and "ret" are English words too: never alone).
_GENE_WORDS = frozenset(_GENE_NAMES).union(["idh"]).difference(["met", "ret"])
_GENE_LIST_RESULT = re.compile(
    rf"(?<![a-z0-9])({_GENES}(?:[ \t]*(?:,|/|and|&)[ \t]*(?:and[ \t]+)?{_GENES}){{1,5}})"
    r"[ \t]*:?[ \t]+(?:(?:are|were|all|both)[ \t]+)*"
    r"(negative|positive|wild[ -]?type|not[ \t]+mutated|not[ \t]+detected)(?![a-z0-9])"
)
_GENE_IN_LIST = re.compile(rf"(?<![a-z0-9]){_GENES}(?![a-z0-9])")
# "p63 and HMWCK show absence of basal cells": the basal-cell stains' result in words, written
# as the result it is ("p63 and HMWCK negative; basal cells absent"); "... show retained basal
# cells" is positive.
_BASAL_CELLS_SHOWN = re.compile(
    r"[ \t]+(?:(?:immuno)?stains?[ \t]+)?(?:show|shows|showed|confirm|confirms|confirmed"
    r"|demonstrate|demonstrates|demonstrated|reveal|reveals|revealed)[ \t]+"
    r"(?:the[ \t]+|an?[ \t]+|complete[ \t]+|total[ \t]+)?"
    r"(absence|loss|lack|retained|intact|preserved|presence)[ \t]+"
    r"(?:of[ \t]+)?(?:an?[ \t]+|the[ \t]+)?"
    r"basal[ \t]+cells?(?:[ \t]+layer)?(?![a-z])"
)
_BASAL_MARKER_BEFORE = re.compile(
    r"(?:p63|hmwck|34[ \t-]?(?:beta|b)[ \t-]?e[ \t-]?12|ck[ \t]?5/6|cytokeratin|basal[ \t]+cell"
    r"[ \t]+markers?)[^.;:\n]{0,40}$"
)
_LOSS_WORDS = frozenset(["loss", "lost", "retained", "retention", "intact", "preserved"])
_LOSABLE_WORDS = frozenset(
    ["cadherin", "ecadherin", "atrx", "bap1", "bap", "ini1", "ini", "smarcb1", "smarca4", "brg1"]
    + ["brg", "pten", "mtap", "h3k27me3", "k27me3", "sdhb", "hydratase"]
)
# Shorthand whose meaning depends on the report: "MM" is a melanoma in a report that gives its
# Breslow thickness or Clark level (not the unit: no number or "per" before it), "ACC" an
# adrenocortical carcinoma in an adrenal report and an adenoid cystic one in a salivary report,
# "invades SM" the submucosa, and "S6" a liver segment in a liver report.
_MELANOMA_MM = re.compile(r"(?<![a-z0-9/.])(?<![0-9] )(?<!per )(?<!square )(?<!sq )mm(?![a-z0-9])")
_MELANOMA_WORDS = frozenset(["breslow", "clark", "melanocytic", "melanocytes", "nevus", "naevus"])
_ACC = re.compile(r"(?<![a-z0-9])acc(?![a-z0-9])")
# A testicular germ cell tumour's components by their initials ("mixed GCT - EC 60%, YST 30%"):
# read only in a report about the testis, where "EC" is no endometrial carcinoma.
_GERM_CELL_INITIALS = re.compile(r"(?<![a-z0-9])(gct|ec|yst)(?![a-z0-9])")
_GERM_CELL_NAMES = {"gct": "germ cell tumor", "ec": "embryonal carcinoma", "yst": "yolk sac tumor"}
_TESTIS_WORDS = frozenset(["testis", "testes", "testicular", "orchiectomy", "orchidectomy"])
_ADRENAL_WORDS = frozenset(["adrenal", "adrenalectomy"])
_SALIVARY_WORDS = frozenset(["salivary", "parotid", "submandibular", "parotidectomy", "palate"])
_UC = re.compile(r"(?<![a-z0-9])uc(?![a-z0-9])")  # urothelial carcinoma, or ulcerative colitis
_UROTHELIAL_WORDS = frozenset(
    ["bladder", "urothelial", "turbt", "turb", "ureter", "ureteric", "urethra", "cystectomy"]
    + ["ub", "tur"]
    # "Metastatic UC involving two of nine nodes": a colitis does not metastasise.
    + ["metastatic", "metastasis", "metastases"]
)
_COLITIS_WORDS = frozenset(
    [
        "colitis", "colon", "colonic", "rectum", "rectal", "sigmoid", "cryptitis", "proctitis",
        "ileum",
    ]
)  # fmt: skip
_BM = re.compile(r"(?<![a-z0-9])bm(?![a-z0-9])")  # bone marrow, in a marrow report only
_MARROW_WORDS = frozenset(
    ["aspirate", "trephine", "iliac", "normocellular", "hypercellular", "hypocellular"]
    + ["hematopoiesis", "haematopoiesis", "cellularity", "myeloid", "erythroid"]
)
# Adjectives after their noun, as writers of French, Spanish, Italian or Latin place them
# ("carcinoma epidermoid", "adenocarcinoma ductal pancreatic", "colitis collagenous", "adenoma
# tubulare", "lobe upper right"): written before it, in English order (the last one first), so
# that every vocabulary's term reads them. Only the adjectives listed move, and not before a noun
# they qualify in English too ("carcinoma, papillary type").
_POSTPOSED_NOUNS = (
    "adenocarcinoma", "carcinoma", "adenoma", "tumor", "tumour", "neoplasm", "sarcoma", "colitis",
    "gastritis", "esophagitis", "oesophagitis", "cholecystitis", "appendicitis", "endometritis",
    "cervicitis", "hepatitis", "metaplasia", "hyperplasia", "mastosis", "mastopathy", "pleura",
    "emboli", "hysterectomy", "nephrectomy", "thyroidectomy", "mastectomy", "cystectomy",
    "colectomy", "glossectomy", "gastrectomy", "polyp",
)  # fmt: skip
_POSTPOSED_ADJECTIVES = {
    **{w: w for w in (
        "renal", "epidermoid", "papillary", "serous", "urothelial", "endometrioid", "squamous",
        "mucinous", "lobular", "ductal", "medullary", "hepatocellular", "neuroendocrine",
        "invasive", "pancreatic", "tubular", "tubulovillous", "villous",
        "collagenous", "lymphocytic", "chronic", "active", "acute", "suppurative", "calculous",
        "apocrine", "fibrocystic", "visceral", "parietal", "total", "partial", "radical",
        "intestinal", "follicular", "nodular", "hyperplastic", "adenomatous", "hamartomatous",
        "reactive", "eosinophilic", "infiltrating", "infiltrative",
    )},
    "basocellular": "basal cell", "basocellulare": "basal cell", "planocellulare": "squamous cell",
    "tubulare": "tubular", "chronica": "chronic", "activa": "active", "acuta": "acute",
    "calculosa": "calculous", "collagenosa": "collagenous", "lymphocytica": "lymphocytic",
    "suppurated": "suppurative", "vasculaires": "vascular", "follicularis": "follicular",
    "reactiva": "reactive",
}  # fmt: skip
# Nouns outside tumour names whose own adjectives follow them in the same writing ("invasion
# perineural", "margins lateral and deep", "lobe left", "colon sigmoid", "grade histologic 2").
# Each moves only its own adjectives: a side word after "carcinoma" ("carcinoma right breast")
# belongs to the organ after it, and "deep" after "margin" is a margin's name only there.
_POSTPOSED_OWN_ADJECTIVES = {
    "invasion": (
        "lymphovascular", "perineural", "vascular", "lymphatic", "venous", "angiolymphatic",
    ),
    "necrosis": ("tumoral", "coagulative"),
    "extension": (
        "extrathyroidal", "extranodal", "extracapsular", "extraprostatic", "extrascleral",
        "extramural",
    ),
    "lobe": ("right", "left"),
    "colon": ("ascending", "descending", "sigmoid", "transverse"),
    **dict.fromkeys(("margin", "margins"), (
        "deep", "lateral", "peripheral", "radial", "circumferential", "distal", "proximal",
        "mucosal",
    )),
    "grade": ("histologic", "histological", "nuclear"),
    "teratoma": ("cystic", "mature", "immature"),
    "cyst": ("dermoid",),
    "lymphadenitis": (
        "granulomatous", "necrotizing", "necrotising", "reactive", "chronic", "tubercular",
        "tuberculous",
    ),
    "lesion": ("serrated", "sessile"),
    "nodule": ("single", "solitary", "satellite"),
    "fat": ("perirenal", "perinephric", "mesorectal", "peripancreatic", "pericolic"),
    "sinus": ("renal",),
    "gland": ("adrenal", "thyroid", "parotid", "submandibular"),
    "variant": ("classic", "classical", "follicular"),
    "mucosa": ("squamous", "gastric", "colonic", "antral", "oxyntic", "duodenal"),
    "pattern": ("aberrant", "abnormal", "mutant", "mutated", "null"),
}  # fmt: skip
# Margins are named in a list of their own ("margins lateral and deep free of tumour").
_LISTED_POSTPOSED = frozenset(["margin", "margins"])
_ADJECTIVES_OF = {
    **dict.fromkeys(_POSTPOSED_NOUNS, tuple(_POSTPOSED_ADJECTIVES)),
    **_POSTPOSED_OWN_ADJECTIVES,
}
# The adjectives stop before a word that makes them a noun's modifier ("carcinoma, papillary
# type").
_AFTER_ADJECTIVES = (
    r"(?![a-z-])(?![ \t]+(?:type|variant|pattern|features?|component|areas?|differentiation))"
)
# "Infiltrating" after a carcinoma is its verb in English ("carcinoma infiltrating the fat",
# "infiltrating deep muscle"); it is an adjective there only at the end of the name.
_NAME_END = r"(?=[ \t]*(?:[,.;:(\n]|$))"
_ADJECTIVES_ONLY_AT_NAME_END = frozenset(["infiltrating", "infiltrative"])
# Nouns whose kind may also follow a comma at the end of the diagnosis ("Conclusion:
# lymphadenitis, tubercular."); elsewhere a comma after a noun starts the next item of a list.
_KIND_AFTER_COMMA_NOUNS = ("lymphadenitis",)

# Replacement functions of rewrites, which ``sub`` calls only per match (see ``templates``).
_CARCINOMA_BEFORE_BRACKET = expander(r"\1 \3 (\2)")
_SIDE_PART_LOBE = expander(r"\3 \2 lobe\1")
_SIDE_THEN_PART = expander(r"\2 \1 ")
_MARGIN_FREE = expander(r"\1\2free")
_SYSTEM_GRADE = expander(r"\2 grade \1")
_ISUP_GRADE = expander(r"\1 grade ")
# A dimension and its "x" ("1.5 cm x 2 cm", "70 by 35 mm"): the first group, then " x ".
DIMENSION_TIMES = expander(r"\1 x ")


def _postposed(noun: str) -> re.Pattern:
    """One expression per noun, starting with its letters, run only for the nouns a report names
    (one expression over every noun tried each position of most reports)."""
    adjectives = "|".join(
        f"{a}{_NAME_END}" if a in _ADJECTIVES_ONLY_AT_NAME_END else a for a in _ADJECTIVES_OF[noun]
    )
    joiner = r"(?:and[ \t]+)?" if noun in _LISTED_POSTPOSED else ""
    return re.compile(
        rf"{noun}(?<![a-z]{noun})((?:[ \t]+{joiner}(?:{adjectives})){{1,3}}){_AFTER_ADJECTIVES}"
    )


_POSTPOSED = {noun: _postposed(noun) for noun in _ADJECTIVES_OF}
_POSTPOSED_AFTER_COMMA = {
    noun: re.compile(
        rf"{noun}(?<![a-z]{noun})[ \t]*,[ \t]*({'|'.join(_ADJECTIVES_OF[noun])})"
        r"(?=[ \t]*(?:[.;\n]|$))"
    )
    for noun in _KIND_AFTER_COMMA_NOUNS
}
# The word after each of a noun's occurrences, looked at before the adjectives' expression runs: a
# long report names "carcinoma" a dozen times, almost never with an adjective after it.
_WORD_AFTER_NOUN = {
    noun: re.compile(rf"{noun}(?<![a-z]{noun})[ \t]+([a-z]+)") for noun in _ADJECTIVES_OF
}
_OWN_ADJECTIVES = {noun: frozenset(adjectives) for noun, adjectives in _ADJECTIVES_OF.items()}
_LOBE_SIDE_AFTER = re.compile(
    r"lobe(ctomy)?(?<![a-z]lobe)(?<![a-z]lobectomy)[ \t]+(upper|middle|lower|inferior|superior)"
    r"[ \t]+(right|left)(?![a-z])"
)
# "Upper right lobectomy", "lower left lobe": the side between the part and the lobe moves first.
_LOBE_SIDE_BETWEEN = re.compile(
    r"(?<![a-z])(upper|middle|lower|inferior|superior)[ \t]+(right|left)[ \t]+(?=lobe)"
)
_POSTPOSED_WORDS = frozenset(a for adjectives in _ADJECTIVES_OF.values() for a in adjectives)
_POSTPOSED_NOUN_WORDS = frozenset(_POSTPOSED)
# "One of twenty four lymph nodes": a compound number word written without its hyphen.
_TENS = frozenset(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"])
_SPACED_COMPOUND = re.compile(
    r"(?<![a-z])(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[ \t]+"
    r"(one|two|three|four|five|six|seven|eight|nine)(?![a-z])"
)
# "Involving one tenth of the core", "two thirds of the tissue": a share in words is the
# percentage the other report writes ("10% of the core"). A third named by its place ("the lower
# one third of the epithelium") is that place, which the dysplasia and depth rules read.
_FRACTIONS = {"tenth": 10, "fifth": 20, "quarter": 25, "third": 100 / 3}
_NUMERATORS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4}
_FRACTION_WORDS = frozenset(_FRACTIONS) | frozenset(f"{name}s" for name in _FRACTIONS)
_FRACTION_OF = re.compile(
    r"(?<![a-z-])(?<!lower[ \t])(?<!upper[ \t])(?<!middle[ \t])(?<!outer[ \t])(?<!inner[ \t])"
    r"(a|one|two|three|four)[ \t-]+(tenth|fifth|quarter|third)s?(?=[ \t]+of(?![a-z]))"
)


def _as_percentage(match: re.Match) -> str:
    """ "two thirds" -> "67%"; a share of one or more wholes is left as written."""
    share = _NUMERATORS[match.group(1)] * _FRACTIONS[match.group(2)]
    return f"{round(share)}%" if share < 100 else match.group(0)


_MEC = re.compile(r"(?<![a-z0-9])mec(?![a-z0-9])")
# "RP: acinar adenoCa, GS 7": a radical prostatectomy by its initials, in a prostate report (the
# French progesterone receptor "RP 80%" has its result after it).
_RP = re.compile(
    r"(?<![a-z0-9])rp(?=[ \t]*[:;,(]|[ \t]+specimen"
    r"|[ \t]*\+[ \t]*(?:bilateral[ \t]+)?(?:plnd|pelvic|lymph))"  # "RP + bilateral PLND"
)
_PROSTATE_WORDS = frozenset(
    ["gleason", "acinar", "prostate", "prostatic", "gg", "epe", "isup", "turp", "prostatectomy"]
)
# "Thyroid, left lobe: nodular hyperplasia": in a thyroid report, its follicular nodular disease.
_THYROID_WORDS = frozenset(["thyroid", "thyroidectomy", "hemithyroidectomy", "goiter", "goitre"])
# In a prostate report "extracapsular extension" (ECE) is the tumour's extension beyond the
# prostate, not a nodal metastasis's beyond the node: unless a node is named before it in its
# sentence ("pelvic node metastasis with extracapsular extension").
_PROSTATE_ECE = re.compile(
    r"(?<![a-z])(?:ece|extra-?capsular[ \t]+(?:extension|spread|invasion))(?![a-z])"
)
_NODE_BEFORE_IN_SENTENCE = re.compile(r"(?<![a-z])nod(?:e|es|al)(?![a-z])[^.;\n]*$")
# "TURP chips: nodular hyperplasia": in a prostate report, its benign prostatic hyperplasia.
# "Nodular (adenomatous) hyperplasia" of a thyroid lobe is the same entity.
_NODULAR_HYPERPLASIA = re.compile(
    r"(?<![a-z])nodular[ \t]+(?:\(?adenomatous\)?[ \t]+)?hyperplasia"
    r"(?![ \t]+of[ \t]+(?:the[ \t]+)?prostat)"
)
# The Japanese Classification's other histological codes ("muc, 50 mm, pT3 (SS), ly0, v0"),
# read only beside another of its codes: alone, "sig" is a sigmoid and "pap" a smear.
_JAPANESE_TYPE = re.compile(r"(?<![a-z0-9])(muc|sig|pap|por)(?![a-z0-9])(?![ \t]*\.[ \t]*[a-z])")
_JAPANESE_TYPES = {
    "muc": "mucinous adenocarcinoma",
    "sig": "signet ring cell carcinoma",
    "pap": "papillary adenocarcinoma",
    "por": "poorly differentiated adenocarcinoma",
}
_JAPANESE_CODES = frozenset(
    ["tub1", "tub2", "por1", "por2", "ly0", "ly1", "v0", "v1", "hm0", "hm1", "vm0", "vm1"]
)
# "Rectum (Ra)": the Japanese rectal parts, above (Ra) and below (Rb) the peritoneal reflection.
_RECTAL_PART = re.compile(r"(?<![a-z])rectum[ \t]*(\(?)[ \t]*r([ab])(?![a-z0-9])")
# "Suspicious, but not diagnostic, of adenocarcinoma": the commas of the aside split no cue.
_NOT_DIAGNOSTIC_COMMA = re.compile(
    r"(?<![a-z])(not|non)([ \t-]?)diagnostic[ \t]*,[ \t]*(of|for)(?![a-z])"
)
# The words that name the prostate itself (an "acinar" salivary gland or pancreas is none).
_PROSTATE_ORGAN_WORDS = frozenset(["prostate", "prostatic", "prostatectomy", "turp", "gleason"])
# "Benign prostatic tissue with chronic inflammation" (or "a chronic inflammatory infiltrate") is
# the "chronic prostatitis" of another writer: in a prostate report the inflammation is the
# prostate's.
_PROSTATE_INFLAMMATION = re.compile(
    r"(?<![a-z])(chronic[ \t]+(?:active[ \t]+|and[ \t]+active[ \t]+)?)(?:inflammation"
    r"|inflammatory[ \t]+(?:cell[ \t]+)?infiltrat(?:e|ion))(?![a-z])"
    r"(?![ \t]+(?:of|in|around|involving)[ \t])"
)
# "FA - no malignancy": a fibroadenoma by its initials, in a breast report only.
_FA = re.compile(r"(?<![a-z0-9])fa(?![a-z0-9])")
_BREAST_WORDS = frozenset(["breast", "breasts", "mammary", "lumpectomy", "mastectomy", "mrm"])
# "IBC-NST", "IBC of no special type": an invasive breast carcinoma by its initials.
_IBC = re.compile(r"(?<![a-z0-9])ibc(?![a-z0-9])")
# "Left breast, segmentectomy", "segmental resection, left breast": a breast's segmental excision,
# not a lung's segment or a colon's segmental resection.
_SEGMENTECTOMY = re.compile(
    r"(?<![a-z])(?:segmentectomy|segmental[ \t]+(?:resection|excision))(?![a-z])"
)
# "SM invasion 300 um (SM1)", "LP invasion": the layer's initials before the invasion.
_LAYER_INITIALS_INVADED = re.compile(
    r"(?<![a-z])(sm|lp)[1-3]?(?=[ \t]+(?:invasion|infiltration|involvement)(?![a-z]))"
)
_LAYER_NAMES = {"sm": "submucosal", "lp": "lamina propria"}
# "infiltrating m. propria": the muscularis propria by its initial.
_M_PROPRIA = re.compile(r"(?<![a-z0-9])m\.?[ \t]+propria(?![a-z])")
# "Confined to the muscle coat": the bowel wall's muscular coat is its muscularis propria. Crossed
# ("through the muscle coat into the adventitial fat"), it is not the deepest layer reached, which
# the words after it name.
_MUSCLE_COAT = re.compile(
    r"(?<![a-z])(?<!through the )(?<!beyond the )(?:muscle|muscular)[ \t]+coat(?![a-z])"
)
_SUBMUCOSA = re.compile(
    r"(?<![a-z])((?:invad(?:es|ed|ing)|into|to|of|in)[ \t]+(?:the[ \t]+)?)sm(?![a-z0-9])"
)
# A liver segment written "S7", "seg. 7", "segm. VI" or "seg. VII".
_LIVER_SEGMENT = re.compile(
    r"(?<![a-z0-9/])(?<!g[0-4])(?<!g[0-4] )(?<!g[0-4],)(?<!g[0-4], )(?<!stage )s"
    r"(?:egm?\.?[ \t]*(?=(?:[1-8]|i{1,3}|iv|vi{0,3})(?![a-z0-9]))|(?=[1-8](?![a-z0-9/])"
    r"(?![ \t]*,?[ \t]*l[0-3](?![a-z0-9]))))"
)  # "S2, L1, B2" is a steatohepatitis score (steatosis, lobular inflammation, ballooning), and
# "G2, S4" or "fibrosis stage S1" a chronic hepatitis's grade and stage (Scheuer, Batts-Ludwig)
_LIVER_WORDS = frozenset(["liver", "hepatic", "hepatectomy", "hepatocellular", "hcc"])
_LATERAL_STOP = re.compile(r"(?<![a-z])lat\.[ \t]*(?=[a-z])")
# "Esophageal bx (prox. & distal)": the abbreviation's full stop ends no sentence.
_PROXIMAL_STOP = re.compile(r"(?<![a-z])prox\.[ \t]*(?=[a-z&+])")
# "Segmentectomy VI of the liver": the segment removed, named after the procedure.
_SEGMENT_NUMBER = r"(?:[1-8]|i{1,3}|iv|vi{0,3})(?![a-z0-9])"
_SEGMENT_JOINER = r"(?:/|,|&|\+|and)"
_SEGMENT_LIST_JOINER = re.compile(_SEGMENT_JOINER)
_SEGMENTECTOMY_OF = re.compile(
    rf"(?<![a-z])segmentectomy[ \t]+(?:of[ \t]+)?({_SEGMENT_NUMBER}"
    rf"(?:[ \t]*{_SEGMENT_JOINER}[ \t]*{_SEGMENT_NUMBER})*)"
)
# "Stomach, angle LC": the lesser (and greater) curvature by initials, in a gastric report.
_CURVATURE = re.compile(r"(?<![a-z0-9])(l|g)c(?![a-z0-9])")
_GASTRIC_WORDS = frozenset(["stomach", "gastric", "antrum", "angle", "angulus", "corpus", "fundus"])
# "No IM", "IM (-)": intestinal metaplasia, in a report of the stomach or oesophagus.
_INTESTINAL_METAPLASIA = re.compile(r"(?<![a-z0-9/-])im(?![a-z0-9/-])")
_METAPLASIA_SITES = _GASTRIC_WORDS | {"gastritis", "cardia", "barrett", "oesophagus", "esophagus"}
_SEGMENT_NAMES = frozenset([f"s{k}" for k in range(1, 9)] + ["seg", "segm"])
_VOCAL_FOLD = re.compile(r"(?<![a-z])vocal[ \t]+fold(?=s?(?![a-z]))")  # one name: "vocal cord"
_NIL_OF = re.compile(r"(?<![a-z])nil(?=[ \t]+of[ \t]+[0-9])")

# Spelled-out names of grading systems, genes and immunostains, by their symbols. "_" stands for
# the gap between two words, spaces or a hyphen ("programmed death-ligand 1").
_NAMES = {
    "who/isup": r"world_health_organi[sz]ation[ \t]*/[ \t]*international_society_of_urological"
    r"_pathology",
    "isup": r"international_society_of_urological_pathology",
    "figo": r"international_federation_of_gyna?ecology_and_obstetrics",
    "who": r"world_health_organi[sz]ation",
    "ttf-1": r"thyroid_transcription_factor(?:_?1)?",
    "alk": r"anaplastic_lymphoma_kinase",
    "her2": r"human_epidermal_growth_factor_receptor_?2",
    "egfr": r"epidermal_growth_factor_receptor",
    "pd-l1": r"programmed(?:_cell)?_death_?ligand(?:_?1)?",
    "pax8": r"paired_box(?:_gene|_protein)?_?8",
    "insm1": r"insulinoma_?associated_protein_?1",
    "gata3": r"gata_binding_protein_?3",
}
_NAME = re.compile(
    r"(?<![a-z0-9])(?:{})(?![a-z0-9])".format(
        "|".join(
            "(?P<n{}>{})".format(k, v.replace("_", r"[ \t-]+"))
            for k, v in enumerate(_NAMES.values())
        )
    )
)
_NAME_SYMBOLS = tuple(_NAMES)

# "Nottingham grade two", "grade group one", "a score of six", "CIN three", "Clark level four",
# "stage three": a grade's or stage's number written out, in digits as their rules read it.
_RANKS = ("grade", "group", "stage", "level", "score", "pattern", "cin", "ain", "vin", "pin")
_SMALL_NUMBERS = {w: v for w, v in NUMBER_WORDS.items() if 1 <= v <= 12 and w != "single"}
_RANKED_NUMBER = re.compile(
    r"(?<![a-z])((?:{})(?:[ \t]+of)?[ \t]+)({})(?![a-z-])".format(
        "|".join(_RANKS), "|".join(sorted(_SMALL_NUMBERS, key=len, reverse=True))
    )
)
_RANK_WORDS = frozenset(_RANKS)
_NEGATED_VERBS = frozenset(["identified", "seen", "observed", "found", "detected"])
_SMALL_NUMBER_WORDS = frozenset(_SMALL_NUMBERS)
_NAME_TRIGGERS = frozenset(
    ["organization", "organisation", "international", "transcription", "anaplastic"]
    + ["epidermal", "programmed", "paired", "insulinoma", "binding"]
)

# Units written out become their symbols ("centimetres" -> "cm"); a number written out before a
# unit becomes digits ("two point nine cm" -> "2.9 cm", "sixty percent" -> "60 percent").
_UNIT_WORD = re.compile(r"(?<![a-z])(centi|milli)met(?:er|re)s?(?![a-z])")
_UNIT_WORDS = frozenset(
    f"{scale}met{ending}" for scale in ("centi", "milli") for ending in ("er", "re", "ers", "res")
)
# "Poorly cohesive (signet-ring cell) carcinoma", "diffuse-type (poorly cohesive) carcinoma",
# "squamous (epidermoid) carcinoma": the bracketed synonym moves after the noun, so that the
# entity's name stays in one piece.
_BRACKET_BEFORE_CARCINOMA = re.compile(
    r"(?<![a-z])(poorly[ -]cohesive|diffuse[ -]type|signet[ -]ring[ -]cell|intestinal[ -]type"
    r"|squamous(?:[ -]cell)?)"
    r"[ \t]*\(([a-z -]{3,30})\)[ \t]*(carcinoma|adenocarcinoma)(?![a-z])"
)
_BRACKET_TRIGGERS = frozenset(["cohesive", "diffuse", "signet", "intestinal", "squamous"])
# "Consistent with TB" (and "PTB", pulmonary TB) beside granulomas or acid-fast bacilli;
# elsewhere "TB" may be a tumour budding score ("TB1", "TB: low"), which keeps its letters.
_TB = re.compile(
    r"(?<![a-z])(p)?tb(?![a-z0-9])(?![ \t]*[:(=-]?[ \t]*(?:\d|low|high|score|grade|bd))"
    r"(?=([ \t]+(?:lymphadenitis|pleuritis)(?![a-z]))?)"
)
_TB_CONTEXT = frozenset(
    [
        "granuloma",
        "granulomas",
        "granulomatous",
        "afb",
        "mycobacteria",
        "mycobacterial",
        "caseating",
    ]
    + ["caseous", "ziehl", "zn", "acid", "necrotising", "necrotizing", "mtb"]
)
# "18 cm x 14 cm x 10 cm": one unit for all dimensions, as the size patterns read them.
_UNIT_PER_DIMENSION = re.compile(  # led by its digit, the guard before it checked after it
    r"(\d(?<![\d.,]\d)\d{0,2}(?:[.,]\d{1,2})?)[ \t]*(cm|mm)[ \t]*x[ \t]*"
    r"(?=\d{1,3}(?:[.,]\d{1,2})?[ \t]*\2(?![a-z]))"
)
# "Extends to the deep edge", "peripheral edges clear", "the deep edge of the specimen": a skin
# excision's margins by another name ("the lateral edge of the tongue" is a site).
_EDGE = re.compile(
    r"(?<![a-z])(deep|peripheral|lateral|radial|surgical|excision|resection|circumferential"
    r"|mucosal|inked|closest|nearest|all|biopsy|specimen|shave)[ \t]+edge(s?)(?![a-z])"
    r"(?![ \t]+of(?![ \t]+(?:the[ \t]+)?(?:specimen|excision|resection|biopsy|shave)))"
)
# "D2 biopsies", "TI bx", "TI, colonoscopic Bx", "TI and caecal bx": the duodenum's second part
# and the terminal ileum, named by the endoscopist's shorthand before the specimen ("D2-40" is a
# lymphatic stain and keeps its name).
_BOWEL_PART = re.compile(
    r"(?<![a-z0-9/-])(d2|ti)(?=[ \t]*(?:,[ \t]*(?:colonoscopic|endoscopic)[ \t]+)?(?:bx|biops)"
    r"|[ \t]+and[ \t]+(?:caecal|cecal|colonic|rectal|duodenal|gastric)[ \t]+(?:bx|biops)"
    # "Biopsies from TI and caecum": the ileum beside a part of the large bowel.
    r"|[ \t]+and[ \t]+(?:the[ \t]+)?(?:caecum|cecum|colon|rectum)(?![a-z]))"
)
_BOWEL_PARTS = {"d2": "duodenum, second part,", "ti": "terminal ileum"}
_BOWEL_PART_NEXT = frozenset(["bx", "biopsy", "biopsies", "caecum", "cecum", "colon", "rectum"])
# "Radical orchiectomy, R.", "Breast, L; core biopsy": the letter closes the specimen's name.
# (The letter before a word, "L breast", is read by text.py before the text is lower-cased; this
# one is read here, where the word set finds the rare report that has it.)
_SIDE_LETTER_LAST = re.compile(r"(?<=, )([lr])(?=\.?[ \t]*(?:[,;:\n]|$)|\.[ \t]+[a-z])")
# The test's method between a marker and its sign ("EBER-ISH: (-)", "CD20 IHC (+)") is dropped,
# so that the sign follows the marker it is the result of.
_TEST_METHODS = frozenset(["ish", "ihc", "cish", "sish", "fish"])
# "grade 2 (T3 P2 M1)": the Nottingham scores of tubules, pleomorphism and mitoses by their
# initials, not a TNM stage's M1.
_NOTTINGHAM_INITIALS = re.compile(
    r"(?<![a-z0-9])t([1-3])[ \t]*[,;]?[ \t]*p([1-3])[ \t]*[,;]?[ \t]*m([1-3])(?![a-z0-9])"
)
_NOTTINGHAM_MITOSES = frozenset(["m1", "m2", "m3"])
# "Descending, transverse and ascending colon": each part of a list shares the noun at its end.
_COLON_PART_LIST = re.compile(
    r"(?<![a-z])((?:ascending|transverse|descending|sigmoid)"
    r"(?:[ \t]*,[ \t]*(?:ascending|transverse|descending|sigmoid))*"
    r"[ \t]*,?[ \t]*(?:and|&|or)[ \t]+(?:the[ \t]+)?(?:ascending|transverse|descending|sigmoid))"
    r"[ \t]+colon(?![a-z])"
)
_COLON_PART_WORD = re.compile(r"ascending|transverse|descending|sigmoid")
_COLON_LIST_WORDS = frozenset(["ascending", "transverse", "descending"])
# "No acid-fast bacilli identified (Ziehl-Neelsen)": the stain in brackets is how the result was
# found, no organism of its own.
_BRACKETED_STAIN = re.compile(
    r"[ \t]*\((?:on[ \t]+|by[ \t]+)?(?:zn|ziehl[- ]neelsen|fite(?:[- ]faraco)?|auramine"
    r"(?:[- ]rhodamine)?|grocott|gms)(?:[ \t]+stains?)?\)"
)
_STAIN_NAME_WORDS = frozenset(["zn", "ziehl", "fite", "auramine", "grocott", "gms"])
_RARE_SHORTHAND = (
    _TEST_METHODS
    | _NOTTINGHAM_MITOSES
    | _COLON_LIST_WORDS
    | _STAIN_NAME_WORDS
    | {"viral", "d", "rectum", "esophagus", "idc", "idcp"}
)
# "IDC-P": intraductal carcinoma of the prostate, not the breast's invasive ductal carcinoma (IDC).
_IDC_P = re.compile(r"(?<![a-z0-9])idc-?p(?![a-z0-9])")
_METHOD_BEFORE_SIGN = re.compile(
    r"[ \t]*-?[ \t]*(?<![a-z])(?:ish|ihc|cish|sish|fish)"
    r"(?=[ \t]*:?[ \t]*(?:\([ \t]*[+-]{1,3}[ \t]*\)|[+-]{1,3}[ \t]*(?:[,.;/\n]|$)))"
)
# "L't", "R't": the sides as some East Asian reports abbreviate them.
_SIDE_APOSTROPHE = re.compile(r"(?<![a-z0-9'])([lr])'t(?![a-z0-9])")
_SIDE_OF_LETTER = {"l": "left", "r": "right"}
# "Neck nodes: 0/18 R, 0/15 L": the side a count belongs to, after it.
_SIDE_LETTER_AFTER_COUNT = re.compile(
    r"(\d/\d{1,3})[ \t]+([lr])(?=[ \t]*(?:[,;)\n]|\.(?![a-z0-9])|$))"
)
# "Rectum, upper part", "esophagus (lower third)": the organ's third after its name, which the
# vocabularies read before it ("upper rectum", "lower esophagus").
_ORGAN_THEN_THIRD = re.compile(
    r"(rectum|esophagus)[ \t]*(?:,[ \t]*|\([ \t]*)(upper|middle|mid|lower|proximal|distal)"
    r"[ \t]+(?:part|third|portion)(?![a-z])(?:[ \t]*\))?"
)
_THIRDS = frozenset(["part", "third", "portion"])
# "Biopsies of the middle and lower third": each part of the list is a third of its own.
_THIRD_LIST = re.compile(
    r"(?<![a-z])(upper|middle|lower)([ \t]*(?:,[ \t]*|and[ \t]+|&[ \t]*|to[ \t]+)(?:the[ \t]+)?)"
    r"(upper|middle|lower)[ \t]+thirds?(?![a-z])"
)
_THIRD_WORDS = frozenset(["third", "thirds"])
# "A-colon", "S-colon": the colon's parts by their initials.
_COLON_PART = re.compile(r"(?<![a-z0-9-])([atds])-colon(?![a-z])")
_COLON_PARTS = {"a": "ascending", "t": "transverse", "d": "descending", "s": "sigmoid"}
# "ISUP 3", "ISUP/WHO G3" in a kidney report: the renal tumour's nuclear grade in short (in a
# prostate report "ISUP 3" is a grade group and keeps its words).
_RENAL_ISUP = re.compile(  # each system's name leads, its guard checked after it
    r"((?:who(?<![a-z]who)[ \t]*[/-]?[ \t]*isup|isup(?<![a-z]isup))(?:[ \t]*[/-][ \t]*who)?)"
    r"[ \t]+g?(?=[1-4](?![0-9a-z]))"
)
_RENAL_WORDS = frozenset(["renal", "rcc", "kidney", "nephrectomy", "nephrectomies"])
# "A right neck (cervical) lymph node": the node's region, not the uterine cervix.
_CERVICAL_NODE = re.compile(r"\((cervical)\)(?=[ \t]+(?:lymph[ \t]+)?nodes?(?![a-z]))")
# "Bowel cancer screening colonoscopy": the reason for the procedure, not a diagnosis.
_CANCER_SCREENING = re.compile(r"(?<![a-z])cancer[ \t]+screening(?![a-z])")
# "Four per sq. mm": the mitotic rate's unit as the rate patterns read it.
_SQUARE_MM = re.compile(r"(?<![a-z])sq\.?[ \t]*mm(?![a-z0-9])")
_DIGIT_NAMES = {w: v for w, v in NUMBER_WORDS.items() if 0 <= v <= 9 and w not in ("no", "none")}
_NUMBER_NAMES = {w: v for w, v in NUMBER_WORDS.items() if w not in ("no", "none", "single")}
_NAMED_NUMBER = "(?:(?:{tens})(?:[ -](?:{digits}))?|{names})".format(
    tens="|".join(TENS),
    digits="|".join(w for w, v in _DIGIT_NAMES.items() if v),
    names="|".join(sorted(_NUMBER_NAMES, key=len, reverse=True)),
)
_DIGIT = "(?:{})".format("|".join(_DIGIT_NAMES))
# "One hundred and ten millimetres": the hundreds, then the rest as any other number in words.
_HUNDREDS = "(?:(?:a|{digits})[ \t]+hundred(?:[ \t]+(?:and[ \t]+)?{rest})?)".format(
    digits="|".join(w for w, v in _DIGIT_NAMES.items() if v), rest=_NAMED_NUMBER
)
_MEASURED_AFTER = (
    rf"(?:[ \t]+point[ \t]+({_DIGIT})(?:[ \t]+({_DIGIT}))?)?"
    r"(?=[ \t]*(?:(?:cm|mm|%|percent|per[ \t]+cent)(?![a-z])"
    r"|per[ \t]+(?:(?:5|10|50|five|ten|fifty)[ \t]+)?(?:square[ \t]+mm|mm2|hpf|high[ -]power)"
    rf"|(?:x|times|by)[ \t]+(?:\d|{_NAMED_NUMBER})(?![a-z])))"
)  # a measure, a percentage or a rate ("six per square millimetre", "two per 10 HPF"), or a
# dimension before the next ("fourteen point five times three point eight times two cm")
_WORDED_MEASURE = re.compile(rf"(?<![a-z-])({_NAMED_NUMBER}){_MEASURED_AFTER}")
# The same with hundreds, searched only in a text that has the word.
_WORDED_MEASURE_HUNDREDS = re.compile(rf"(?<![a-z-])({_HUNDREDS}|{_NAMED_NUMBER}){_MEASURED_AFTER}")
# The area or fields of a rate in words ("three per five square millimetres", "two per ten HPF").
_WORDED_RATE_BASE = re.compile(
    r"(?<=per )(five|ten|fifty)(?=[ \t]+(?:square[ \t]+mm|mm2|hpf|high[ -]power))"
)
_RATE_BASES = {"five": "5", "ten": "10", "fifty": "50"}
# "14.5 times 3.8 times 2 cm": the dictated dimensions' separator.
_DIMENSION_TIMES = re.compile(r"(?<=\d)[ \t]+(?:times|by)[ \t]+(?=\d)")
_MEASURE_UNITS = frozenset(["cm", "mm", "percent", "cent", "mm2", "hpf", "power"]) | _UNIT_WORDS
_NUMBER_VALUES = {**_NUMBER_NAMES, **TENS}  # "twenty" is in both, with one value
_NUMBER_WORD_SET = frozenset(_NUMBER_VALUES)

# The words without which no rule above applies: one set test skips reports without shorthand.
_TRIGGERS = frozenset(_WORDS) | {"mod", "diff", "d", "w", "c", "gr"} | _UNIT_WORDS
_TRIGGERS |= {"growing", "radically", "sound", "healthy", "nil", "fold", "folds", "isocitrate"}
_TRIGGERS |= {"meningioma"}  # "meningioma, atypical"
_TRIGGERS |= _NAME_TRIGGERS | {"compromise", "limit", "limits", "exeresis", "amplification"}
_TRIGGERS |= {"particularity", "particularities", "argument", "arguments"}
_TRIGGERS |= {"thrombus", "thrombi", "embolus", "emboli", "nerve", "neural"}
_TRIGGERS |= {"ganglia", "ganglions", "ganglion", "sheathing", "re", "rp", "l", "r"}

# The words that open ``_house_terms`` (each of its rules needs one of them).
_HOUSE_TERM_WORDS = frozenset(
    ["lat", "prox", "segmentectomy", "lc", "gc", "rp", "fa", "bed", "beds", "epidermoid", "colloid"]
    + ["nst", "nodular", "ece", "extracapsular", "muc", "sig", "pap", "por", "ra", "rb"]
    + ["diagnostic", "nondiagnostic", "inflammation", "inflammatory", "im", "ibc", "segmental"]
)
# "Atypical lipomatous tumour" and "well-differentiated liposarcoma" are one entity (WHO), named
# by where it lies; the one name keeps a report that gives either from reading another entity.
_ATYPICAL_LIPOMATOUS = re.compile(r"atypical[ \t]+lipomatous[ \t]+tumou?rs?(?![a-z])")
# "cHL, NS type": a classical Hodgkin lymphoma's subtype by its initials.
_HODGKIN_SUBTYPE = re.compile(r"(?<![a-z])(ns|mc|lr|ld)(?=[ \t]+(?:type|subtype|variant)(?![a-z]))")
_HODGKIN_SUBTYPES = {
    "ns": "nodular sclerosis", "mc": "mixed cellularity", "lr": "lymphocyte-rich",
    "ld": "lymphocyte-depleted",
}  # fmt: skip
_HODGKIN_INITIALS = frozenset(_HODGKIN_SUBTYPES)
# "Impression: FL, low grade (grade 1-2)": follicular lymphoma by its initials, in a report that
# names its cells or its markers.
_FL = re.compile(r"(?<![a-z0-9])fl(?![a-z0-9])")
_FOLLICULAR_LYMPHOMA_WORDS = frozenset(
    ["lymphoma", "centroblasts", "centrocytes", "cd10", "bcl2", "bcl6", "cd20", "follicles"]
)
_HODGKIN_WORDS = frozenset(["chl", "hodgkin", "hl"])
# Every word that a rule of spell_out looks for among a report's words. spell_out keeps only the
# report's words in this set (one intersection), so each of its few dozen tests then looks at a
# handful of words instead of the whole report's (a test checks that no rule looks for a word
# outside it).
_GATE_WORDS = frozenset(
    [
        "acc", "adenocarcinoma", "affected", "amplification", "anaplastic", "argument",
        "arguments", "atypical", "bm", "border", "borders", "by", "cancer", "cervical",
        "complete", "compromise", "compromised", "cut", "cutting", "d", "d2", "diff", "dysplasia",
        "edge", "edges", "emboli", "embolus", "exeresis", "fl", "fold", "folds", "ganglia",
        "ganglion", "ganglions", "gr", "growing", "growth", "healthy", "incomplete", "intact",
        "involvement", "isocitrate", "isup", "limit", "limits", "line", "lines", "lobe",
        "lobectomy", "mec", "meningioma", "mm", "mod", "nerve", "neural", "nil", "not", "o",
        "of", "particularities", "particularity", "re", "resection", "rp", "screening",
        "segmentectomy", "sheathing", "sm", "sq", "tb", "ptb", "ti", "times", "type", "uc", "x",
        "grade", "fuhrman", "suggest", "none", "special",
        "right", "left", "ic", "lp", "sm1", "sm2", "m", "propria", "hundred", "coat", "bowel",
        "lesion", "free", "basal",
    ]
)  # fmt: skip
_GATE_WORDS |= (
    _HODGKIN_INITIALS
    | _HODGKIN_WORDS
    | _FOLLICULAR_LYMPHOMA_WORDS
    | _ADRENAL_WORDS
    | _BOWEL_PART_NEXT
    | _BRACKET_TRIGGERS
    | _BRACKETED_RESULT_WORDS
    | _PAIRED_ORGANS
    | _COLITIS_WORDS
    | _EXCISION_ADVERBS
    | _EXCISION_VERBS
    | _LIVER_WORDS
    | _LOSABLE_WORDS
    | _LOSS_WORDS
    | frozenset(_GERM_CELL_NAMES)
    | _TESTIS_WORDS
    | _TYPE_WORDS_AFTER_COMMA
    | _GENE_WORDS
    | _MARROW_WORDS
    | _MEASURE_UNITS
    | _MELANOMA_WORDS
    | _NEGATED_VERBS
    | _NUMBER_WORD_SET
    | _POSTPOSED_WORDS
    | _POSTPOSED_NOUN_WORDS
    | _RANK_WORDS
    | _REMOVAL_NOUNS
    | _RENAL_WORDS
    | _SALIVARY_WORDS
    | _BREAST_WORDS
    | _PROSTATE_WORDS
    | _THYROID_WORDS
    | _HOUSE_TERM_WORDS
    | _JAPANESE_CODES
    | _METAPLASIA_SITES
    | _THIRDS
    | _THIRD_WORDS
    | _RARE_SHORTHAND
    | _SEGMENT_NAMES
    | _SMALL_NUMBER_WORDS
    | _TB_CONTEXT
    | _TENS
    | _FRACTION_WORDS
    | _TRIGGERS  # holds the shorthand words, the unit words and the spelled-out names
    | _UROTHELIAL_WORDS
)


def _house_terms(text: str, words: set[str]) -> str:
    """Initials and names that one lab's reports use and another's spell differently ("RP",
    "IC-NST", "angle LC", "surgical bed", "epidermoid (squamous cell) carcinoma")."""
    if "lat" in words and "lat." in text:  # "R lat. tongue": the full stop ends no sentence
        text = _LATERAL_STOP.sub("lateral ", text)
    if "prox" in words and "prox." in text:
        text = _PROXIMAL_STOP.sub("proximal ", text)
    if "segmentectomy" in words:
        text = _SEGMENTECTOMY_OF.sub(_segments_resected, text)
    if ("lc" in words or "gc" in words) and not words.isdisjoint(_GASTRIC_WORDS):
        text = _CURVATURE.sub(
            lambda m: "lesser curvature" if m.group(1) == "l" else "greater curvature", text
        )
    if "im" in words and not words.isdisjoint(_METAPLASIA_SITES):
        text = _INTESTINAL_METAPLASIA.sub("intestinal metaplasia", text)
    if "rp" in words and not words.isdisjoint(_PROSTATE_WORDS):
        text = _RP.sub("radical prostatectomy", text)
    if ("segmentectomy" in words or "segmental" in words) and not words.isdisjoint(_BREAST_WORDS):
        text = _SEGMENTECTOMY.sub("segmental mastectomy", text)
    if "fa" in words and not words.isdisjoint(_BREAST_WORDS):
        text = _FA.sub("fibroadenoma", text)
    if "ibc" in words:
        text = _IBC.sub("invasive breast carcinoma", text)
    if "bed" in words or "beds" in words:
        text = _SURGICAL_BED.sub(r"margin\1", text)
    if "epidermoid" in words or "colloid" in words:
        text = _TYPE_SYNONYM_IN_BRACKETS.sub("", text)
    if "nst" in words and "ic" in words:
        text = _IC_NST.sub("invasive carcinoma of no special type", text)
    if "nodular" in words and "hyperplasia" in words:
        if not words.isdisjoint(_PROSTATE_WORDS):
            text = _NODULAR_HYPERPLASIA.sub("nodular prostatic hyperplasia", text)
        elif not words.isdisjoint(_THYROID_WORDS):
            text = _NODULAR_HYPERPLASIA.sub("nodular thyroid hyperplasia", text)
    if not words.isdisjoint(_JAPANESE_TYPES) and not words.isdisjoint(_JAPANESE_CODES):
        text = _JAPANESE_TYPE.sub(lambda m: _JAPANESE_TYPES[m.group(1)], text)
    if ("ra" in words or "rb" in words) and "rectum" in words:
        text = _RECTAL_PART.sub(
            lambda m: f"rectum {m.group(1)}{'upper' if m.group(2) == 'a' else 'lower'} rectum",
            text,
        )
    if (
        ("inflammation" in words or "inflammatory" in words)
        and "chronic" in text
        and not words.isdisjoint(_PROSTATE_ORGAN_WORDS)
    ):
        text = _PROSTATE_INFLAMMATION.sub(r"\1prostatitis", text)
    if ("diagnostic" in words or "nondiagnostic" in words) and "diagnostic," in text:
        text = _NOT_DIAGNOSTIC_COMMA.sub(r"\1\2diagnostic \3", text)
    if ("ece" in words or "extracapsular" in words) and not words.isdisjoint(_PROSTATE_ORGAN_WORDS):
        text = _PROSTATE_ECE.sub(
            lambda m: (
                m.group(0)
                if _NODE_BEFORE_IN_SENTENCE.search(text, 0, m.start())
                else "extraprostatic extension"
            ),
            text,
        )
    return text


def _each_colon_part(m: re.Match[str]) -> str:
    return _COLON_PART_WORD.sub(lambda part: part.group(0) + " colon", m.group(1))


def _border_as_margin(m: re.Match[str]) -> str:
    return "margins" if m.group(0).endswith("s") else "margin"


def _tuberculosis(match: re.Match) -> str:
    """ "PTB" is pulmonary tuberculosis; "TB lymphadenitis" the tuberculous one (one entity)."""
    if match.group(2):
        return "tuberculous"
    return "pulmonary tuberculosis" if match.group(1) else "tuberculosis"


def _segments_resected(match: re.Match[str]) -> str:
    """ "segmentectomy 6" is "segment 6 segmentectomy", "segmentectomy V/VI" "segments v/vi ..."."""
    numbers = match.group(1)
    plural = "s" if _SEGMENT_LIST_JOINER.search(numbers) else ""
    return f"segment{plural} {numbers} segmentectomy"


def spell_out(text: str, words: set[str] | None = None) -> str:
    """``text`` (normalised, lower case) with its shorthand written in full.

    ``words`` are the text's runs of letters and digits, when the caller has them already.
    """
    words = _GATE_WORDS.intersection(_WORD_RUN.findall(text) if words is None else words)
    if not words.isdisjoint(_UNIT_WORDS):
        text = _UNIT_WORD.sub(lambda m: "cm" if m.group(1) == "centi" else "mm", text)
    if "(" in text and not words.isdisjoint(_BRACKET_TRIGGERS):
        text = _BRACKET_BEFORE_CARCINOMA.sub(_CARCINOMA_BEFORE_BRACKET, text)
    if not words.isdisjoint(_HODGKIN_INITIALS) and not words.isdisjoint(_HODGKIN_WORDS):
        text = _HODGKIN_SUBTYPE.sub(lambda m: _HODGKIN_SUBTYPES[m.group(1)], text)
    if "atypical" in words and "lipomatous" in text:
        text = _ATYPICAL_LIPOMATOUS.sub("well-differentiated liposarcoma", text)
    if ("tb" in words or "ptb" in words) and not words.isdisjoint(_TB_CONTEXT):
        text = _TB.sub(_tuberculosis, text)
    if "x" in words and ("cm" in text or "mm" in text):
        text = _UNIT_PER_DIMENSION.sub(DIMENSION_TIMES, text)
    if "edge" in words or "edges" in words:
        text = _EDGE.sub(r"\1 margin\2", text)
    if "sq" in words:
        text = _SQUARE_MM.sub("square mm", text)
    if ("d2" in words or "ti" in words) and not words.isdisjoint(_BOWEL_PART_NEXT):
        text = _BOWEL_PART.sub(lambda m: _BOWEL_PARTS[m.group(1)], text)
    if "l" in words or "r" in words:
        if ", " in text:  # "Radical nephrectomy, L. Type: ..."
            text = _SIDE_LETTER_LAST.sub(_side_of_letter, text)
        if "'t" in text:  # "L't breast": left
            text = _SIDE_APOSTROPHE.sub(_side_of_letter, text)
        if "/" in text:  # "0/18 R, 0/15 L"
            text = _SIDE_LETTER_AFTER_COUNT.sub(_count_then_side, text)
    if not words.isdisjoint(_RARE_SHORTHAND):  # one set test for the rare rewrites below
        if not words.isdisjoint(_TEST_METHODS):  # "EBER-ISH: (-)": the sign is the test's result
            text = _METHOD_BEFORE_SIGN.sub("", text)
        if "(" in text and not words.isdisjoint(_STAIN_NAME_WORDS):
            text = _BRACKETED_STAIN.sub("", text)  # "no AFB identified (Ziehl-Neelsen)"
        if "viral" in words and "chronic viral hepatitis" in text:  # the chronic hepatitis C
            text = text.replace("chronic viral hepatitis", "chronic hepatitis")
        if "d" in words and "d&c" in text:  # "Endometrium, D&C"
            text = text.replace("d&c", "dilatation and curettage")
        if "idcp" in words or ("idc" in words and "idc-p" in text):  # "IDC-P: present"
            text = _IDC_P.sub("intraductal carcinoma of the prostate", text)
        if ("rectum" in words or "esophagus" in words) and not words.isdisjoint(_THIRDS):
            text = _ORGAN_THEN_THIRD.sub(r"\2 \1", text)  # "rectum, upper part": "upper rectum"
        if not words.isdisjoint(_COLON_LIST_WORDS):
            text = _COLON_PART_LIST.sub(_each_colon_part, text)
        if not words.isdisjoint(_NOTTINGHAM_MITOSES):
            text = _NOTTINGHAM_INITIALS.sub(r"tubules \1, pleomorphism \2, mitoses \3", text)
    if not words.isdisjoint(_THIRD_WORDS):
        text = _THIRD_LIST.sub(r"\1 third\2\3 third", text)
    if "-colon" in text:  # one substring test: "colon" as a gate word costs every word-set test
        text = _COLON_PART.sub(lambda m: _COLON_PARTS[m.group(1)] + " colon", text)
    if ("isup" in words or "fuhrman" in words) and not words.isdisjoint(_RENAL_WORDS):
        if "grade" in words:
            text = _RENAL_GRADE_SYSTEM_AFTER.sub(_SYSTEM_GRADE, text)
        text = _RENAL_ISUP.sub(_ISUP_GRADE, text)
    if "cervical" in words and "(cervical)" in text:
        text = _CERVICAL_NODE.sub(r"\1", text)
    if "screening" in words and "cancer" in words:
        text = _CANCER_SCREENING.sub("screening", text)
    if not words.isdisjoint(_TENS):
        text = _SPACED_COMPOUND.sub(r"\1-\2", text)
    if not words.isdisjoint(_FRACTION_WORDS):  # "one tenth of the core"
        text = _FRACTION_OF.sub(_as_percentage, text)
    if not words.isdisjoint(_MEASURE_UNITS) and not words.isdisjoint(_NUMBER_WORD_SET):
        measure = _WORDED_MEASURE_HUNDREDS if "hundred" in words else _WORDED_MEASURE
        text = measure.sub(_digits, text)
        if "per " in text:
            text = _WORDED_RATE_BASE.sub(lambda m: _RATE_BASES[m.group(1)], text)
        if "times" in words or "by" in words:
            text = _DIMENSION_TIMES.sub(" x ", text)
    if not words.isdisjoint(_SMALL_NUMBER_WORDS) and not words.isdisjoint(_RANK_WORDS):
        text = _RANKED_NUMBER.sub(lambda m: m.group(1) + str(_SMALL_NUMBERS[m.group(2)]), text)
    if "not" in words and not words.isdisjoint(_NEGATED_VERBS):
        text = _rewrite(text, _NOT_FOUND, _verb_first_negation)
    if "type" in words and "carcinoma" in text:
        text = _rewrite(text, _TYPE_AFTER, _type_first)
    if "type" in words and "sarcoma," in text:  # "liposarcoma, dedifferentiated type"
        text = _SARCOMA_TYPE_AFTER.sub(r"\2 \1", text)
    if "special" in words and " special stain" in text:  # "GMS and AFB special stains negative"
        text = _NAMED_SPECIAL_STAINS.sub(" stain", text)
    if "none" in words:  # "Margins: none involved" (a search led by "margins")
        text = _NONE_INVOLVED.sub(r"\1: not involved", text)
    if "suggest" in words:  # "no hydropic change or trophoblastic hyperplasia to suggest a mole"
        text = _NO_LIST_TO_SUGGEST.sub(r"\1\2, nothing to suggest", text)
    if "type" in words and "adenoma," in text:  # "adenoma, follicular type"
        text = _ADENOMA_TYPE_AFTER.sub(r"\2 \1", text)
    if "carcinoma," in text and not words.isdisjoint(_TYPE_WORDS_AFTER_COMMA):
        text = _rewrite(text, _TYPE_AFTER_COMMA, _type_first)
    if "dysplasia" in words and "grade" in words:
        text = _GRADE_AFTER.sub(lambda m: f"{m.group(1)} grade dysplasia", text)
    if "(" in text and any(
        "(" + word in text for word in _BRACKETED_RESULT_WORDS.intersection(words)
    ):
        text = _BRACKETED_RESULT.sub(r" \1", text)
    if "right" in words or "left" in words:  # one substring test per paired organ named
        for organ in _PAIRED_ORGANS.intersection(words):
            if organ + " right" in text or organ + " left" in text:
                text = _ORGAN_SIDE_AFTER.sub(r"\2 \1", text)
                break
        if "t)" in text:  # "Mastectomy specimen (right)", "(left)": one substring test
            text = _ORGAN_SIDE_BRACKETED.sub(r"\3 \1\2", text)
    if "mm" in words and not words.isdisjoint(_MELANOMA_WORDS):
        text = _MELANOMA_MM.sub("malignant melanoma", text)
    if not words.isdisjoint(_GERM_CELL_NAMES) and not words.isdisjoint(_TESTIS_WORDS):
        text = _GERM_CELL_INITIALS.sub(lambda m: _GERM_CELL_NAMES[m.group(1)], text)
    if "acc" in words:
        if not words.isdisjoint(_ADRENAL_WORDS):
            text = _ACC.sub("adrenocortical carcinoma", text)
        elif not words.isdisjoint(_SALIVARY_WORDS):
            text = _ACC.sub("adenoid cystic carcinoma", text)
    if "uc" in words and not words.isdisjoint(_UROTHELIAL_WORDS):  # "TURBT: LG papillary UC"
        text = _UC.sub("urothelial carcinoma", text)
    elif "uc" in words and not words.isdisjoint(_COLITIS_WORDS):  # "sigmoid bx, hx UC"
        text = _UC.sub("ulcerative colitis", text)
    if not words.isdisjoint(_POSTPOSED_WORDS):  # "carcinoma epidermoid", "adenoma tubulare"
        adjectives = _POSTPOSED_WORDS.intersection(words)
        for noun in _POSTPOSED_NOUN_WORDS.intersection(words):
            own = _OWN_ADJECTIVES[noun]
            if own.isdisjoint(adjectives):
                continue  # most reports name none of the noun's own adjectives
            # most reports follow the noun with "of", "," or nothing
            if not own.isdisjoint(_WORD_AFTER_NOUN[noun].findall(text)):
                text = _POSTPOSED[noun].sub(lambda m, n=noun: _adjectives_first(n, m), text)
            after_comma = _POSTPOSED_AFTER_COMMA.get(noun)
            if after_comma is not None and noun + "," in text:  # "lymphadenitis, tubercular."
                text = after_comma.sub(lambda m, n=noun: _adjectives_first(n, m), text)
    if "lobe" in words or "lobectomy" in words:  # "lobe upper right"
        text = _LOBE_SIDE_AFTER.sub(_SIDE_PART_LOBE, text)
        text = _LOBE_SIDE_BETWEEN.sub(_SIDE_THEN_PART, text)
    if "fl" in words and not words.isdisjoint(_FOLLICULAR_LYMPHOMA_WORDS):  # "FL, grade 1-2"
        text = _FL.sub("follicular lymphoma", text)
    if "bm" in words and not words.isdisjoint(_MARROW_WORDS):  # "BM, R iliac crest, aspirate"
        text = _BM.sub("bone marrow", text)
    if not words.isdisjoint(_HOUSE_TERM_WORDS):  # rare: one set test for the rules below
        text = _house_terms(text, words)
    if "mec" in words and not words.isdisjoint(_SALIVARY_WORDS):
        text = _MEC.sub("mucoepidermoid carcinoma", text)
    if "sm" in words:
        text = _SUBMUCOSA.sub(r"\1submucosa", text)
    if "m" in words and "propria" in words:
        text = _M_PROPRIA.sub("muscularis propria", text)
    if "coat" in words:
        text = _MUSCLE_COAT.sub("muscularis propria", text)
    if not words.isdisjoint(_LAYER_NAMES) or ("sm1" in words or "sm2" in words):
        text = _LAYER_INITIALS_INVADED.sub(lambda m: _LAYER_NAMES[m.group(1)], text)
    if not words.isdisjoint(_LIVER_WORDS) and not words.isdisjoint(_SEGMENT_NAMES):
        text = _LIVER_SEGMENT.sub("segment ", text)  # "partial hepatectomy, seg. 7"
    if "basal" in words:
        text = _rewrite(text, _BASAL_CELLS_SHOWN, _basal_cells_result)
    if not words.isdisjoint(_GENE_WORDS):  # "EGFR and ALK negative"
        text = _GENE_LIST_RESULT.sub(_each_gene_its_result, text)
    if not words.isdisjoint(_LOSS_WORDS) and not words.isdisjoint(_LOSABLE_WORDS):
        text = _LOSS_OF.sub(lambda m: _stain_result(m.group(2), m.group(1)), text)
        text = _MARKER_LOST.sub(lambda m: _stain_result(m.group(1), m.group(2) or m.group(3)), text)
    if "cutting" in words or "cut" in words or "bowel" in words:
        text = _CUTTING_EDGE.sub(r"margin\1", text)
    if ("line" in words or "lines" in words) and "resection" in words:
        text = _RESECTION_LINE.sub(r"resection margin\1", text)
    if "lesion" in words and "free" in words:
        text = _LESION_FREE.sub("free", text)
    if "border" in words or "borders" in words:
        text = _SURGICAL_BORDER.sub(_border_as_margin, text)
    if ("affected" in words or "compromised" in words) and "margin" in text:
        text = _MARGIN_AFFECTED.sub(r"\1involved", text)
    if "involvement" in words and "margin" in text:
        text = _NO_INVOLVEMENT_AT.sub(r"\1 free", text)
        text = _MARGIN_INVOLVEMENT.sub(
            lambda m: m.group(1) + ("uninvolved" if m.group(2) else "involved"), text
        )
    if not words.isdisjoint(_EXCISION_ADVERBS) and not words.isdisjoint(_EXCISION_VERBS):
        text = _COMPLETE_EXCISION.sub("completely excised", text)
    if ("complete" in words or "incomplete" in words) and not words.isdisjoint(_REMOVAL_NOUNS):
        text = _EXCISION_COMPLETE.sub(
            lambda m: "incompletely excised" if m.group(1) else "completely excised", text
        )
    if "intact" in words and "margin" in text:
        text = _MARGIN_INTACT.sub(_MARGIN_FREE, text)
    if "growth" in words and "margin" in text:
        text = _MARGIN_GROWTH.sub(
            lambda m: m.group(1) + (" free" if m.group(2) else " involved"), text
        )
        text = _GROWTH_IN_MARGIN.sub(
            lambda m: m.group(2) + (" free" if m.group(1) or m.group(3) else " involved"), text
        )
    if "o" in words and "/o" in text:
        text = _SLASHED_PHRASE.sub(lambda m: _SHORTHAND_TEXT[m.group(1)], text)
    if words.isdisjoint(_TRIGGERS):
        return text
    if "/" in text or "." in text:
        text = _SHORTHAND.sub(_shorthand, text)
    if "diff" in words or "d" in words or "mod" in words:
        text = _DIFFERENTIATION.sub(_differentiation, text)
    if "gr" in words:
        text = _GRADE.sub("grade ", text)
    if "growing" in words:
        text = _GROWING.sub(lambda m: "invading through" if m.group(1) else "invading", text)
    if "healthy" in words:
        if "limit" in text:  # "Healthy limits, the deep one at 4 mm"
            text = _HEALTHY_LIMIT.sub(r"free margin\1", text)
        # "healthy proximal and distal limits", "healthy surgical margins"
        text = _HEALTHY_BEFORE.sub("free", text)
        if "limit" in text:  # "limits proximal, distal and radial healthy"
            text = _LIMITS_THEN_HEALTHY.sub(r"margin\1\2free", text)
    if "limit" in words or "limits" in words:
        text = _LIMIT_SIDE_AFTER.sub(r"\2 margin\1", text)
        text = _LIMIT.sub(_as_margin, text)
    if "amplification" in words and "of" in words:
        text = _AMPLIFICATION_OF.sub(_amplified, text)
    if "exeresis" in words:  # the French and Italian word for an excision
        text = text.replace("exeresis", "excision")
    if "healthy" in words and "margin" in text:
        text = _HEALTHY_MARGIN.sub(r"\1free", text)
    if "particularity" in words or "particularities" in words:
        text = _PARTICULARITY.sub("within normal limits", text)
    if "argument" in words or "arguments" in words:
        text = _ARGUMENT_FOR.sub("evidence of", text)
    if "nil" in words:
        text = _NIL_OF.sub("0", text)
    if not words.isdisjoint(_NAME_TRIGGERS):
        text = _NAME.sub(_symbol, text)
    if "compromise" in words:
        text = _COMPROMISE.sub(_involvement, text)
    if "isocitrate" in words:
        text = _IDH_NAME.sub(lambda m: "idh" + (m.group(1) or ""), text)
    if "fold" in words or "folds" in words:
        text = _VOCAL_FOLD.sub("vocal cord", text)
    if "thromb" in text or "embol" in text:  # "cancer thrombus in vessels (-)"
        text = _CANCER_THROMBUS.sub("lymphovascular invasion", text)
    if "nerve" in words or "neural" in words:
        text = _NERVE_INVASION.sub("perineural invasion", text)
    if "ganglia" in words or "ganglions" in words or "ganglion" in words:
        text = _GANGLIA.sub("lymph nodes", text)
        text = _INVADED_COUNT.sub(_invaded_nodes, text)
    if "emboli" in words or "embolus" in words:
        text = _EMBOLI.sub(lambda m: (m.group(1) or "lymphovascular") + " invasion", text)
    if "sheathing" in words:
        text = _SHEATHING.sub("perineural invasion", text)
    if "re" in words or "rp" in words:
        text = _RECEPTOR_FRENCH.sub(lambda m: "er" if m.group(1) == "re" else "pr", text)
    if "meningioma" in words and ("atypical" in words or "anaplastic" in words):
        text = _MENINGIOMA_GRADE_AFTER.sub(r"\1 meningioma", text)
    if "adenocarcinoma" in words and "lieberk" in text:
        text = _LIEBERKUHN.sub("", text)
    if not words.isdisjoint(_WORDS):
        if "ca." in text:  # "urothelial Ca., high grade": the full stop ends no sentence
            text = _CARCINOMA_STOP.sub(r"\1", text)
        if ("neg" in words or "pos" in words) and ("neg. (" in text or "pos. (" in text):
            # "LN: NEG. (0/24)": the count in brackets is the status's
            text = text.replace("neg. (", "neg (").replace("pos. (", "pos (")
        text = _WORD.sub(_word, text)
    return text


def _amplified(match: re.Match) -> str:
    """ "amplification of EGFR" -> "egfr amplified", unless a negation comes just before."""
    clause = _CLAUSE_END.split(match.string[max(0, match.start() - 30) : match.start()])[-1]
    if _NEGATION_BEFORE.search(clause):
        return match.group(0)
    return match.group(1) + " amplified"


def _invaded_nodes(match: re.Match) -> str:
    """ "3/16 invaded" -> "3/16 positive"; "invaded lymph nodes" -> "involved lymph nodes"."""
    return match.group(1) + "positive" if match.group(1) else "involved"


def _as_margin(match: re.Match) -> str:
    """ "limits of exeresis" -> "margins"; "deep limit" -> "deep margin"."""
    plural = match.group(1) or match.group(3) or ""
    return (match.group(2) or "") + "margin" + plural


def _adjectives_first(noun: str, match: re.Match) -> str:
    """ "carcinoma basocellular nodular" -> "nodular basal cell carcinoma"."""
    adjectives = match.group(1).split()
    return " ".join(_POSTPOSED_ADJECTIVES.get(a, a) for a in reversed(adjectives)) + " " + noun


def _stain_result(marker: str, word: str) -> str:
    """ "E-cadherin" and "loss" -> "e-cadherin negative"; "retained" -> "positive"."""
    return marker + (" negative" if word.startswith("los") else " positive")


def _digits(match: re.Match) -> str:
    """ "twenty-three" -> "23", "two point nine" -> "2.9"."""
    named, first, second = match.groups()
    hundreds = 0
    if "hundred" in named:  # "one hundred and ten"
        head, _, named = named.partition("hundred")
        hundreds = 100 * _DIGIT_NAMES.get(head.strip(), 1)  # "a hundred"
        named = named.strip().removeprefix("and").strip()
        if not named:
            return str(hundreds)
    tens, _, unit = named.replace("-", " ").partition(" ")
    number = str(hundreds + (TENS[tens] + _DIGIT_NAMES[unit] if unit else _NUMBER_VALUES[tens]))
    if first is not None:
        number += "." + str(_DIGIT_NAMES[first]) + (str(_DIGIT_NAMES[second]) if second else "")
    return number


def _rewrite(
    text: str, pattern: re.Pattern, rewrite: Callable[[re.Match, int], tuple[int, str] | None]
) -> str:
    """``text`` with each match of ``pattern`` that ``rewrite(match, done)`` accepts replaced:
    it returns (start, replacement) for the span start..match end, or None to keep the match
    (``done``: where the previous replacement ended). Unlike ``re.sub`` the span may begin
    before the match, so a pattern can be searched from its literal."""
    pieces, done = [], 0
    for found in pattern.finditer(text):
        accepted = rewrite(found, done)
        if accepted is not None:
            start, replacement = accepted
            pieces += [text[done:start], replacement]
            done = found.end()
    return "".join(pieces) + text[done:] if pieces else text


def _verb_first_negation(found: re.Match, done: int) -> tuple[int, str] | None:
    """ "Is not identified lymphovascular invasion" -> "no lymphovascular invasion": the verb and
    "not identified" where they open a clause (see ``_opens_clause``)."""
    text = found.string
    verb = _VERB_BEFORE.search(text, max(done, found.start() - 16), found.start())
    if verb is not None and _opens_clause(text, verb.start()):
        return verb.start(), "no"
    return None


def _each_gene_its_result(found: re.Match) -> str:
    genes = _GENE_IN_LIST.findall(found.group(1))
    return ", ".join(f"{gene} {found.group(2)}" for gene in genes)


def _basal_cells_result(found: re.Match, done: int) -> tuple[int, str] | None:
    """ " show absence of basal cells" -> " negative" after the basal-cell stains it follows."""
    start = found.start()
    if _BASAL_MARKER_BEFORE.search(found.string, max(done, start - 80), start) is None:
        return None
    absent = found.group(1) in ("absence", "loss", "lack")  # the finding stays a finding too
    return start, " negative; basal cells absent" if absent else " positive; basal cells present"


def _type_first(found: re.Match, done: int) -> tuple[int, str] | None:
    """ "carcinoma of endometrioid type", "adenocarcinoma, endometrioid type" and "adenocarcinoma
    (endometrioid type" -> "endometrioid carcinoma", where the noun heads its phrase (after a
    differentiation or an organ's adjective at most): "renal cell carcinoma of clear cell type"
    keeps its order."""
    text, start, noun = found.string, found.start(), "carcinoma"
    if text.endswith("adeno", 0, start):
        start, noun = start - 5, "adenocarcinoma"
    if start < done or (start and text[start - 1].isalpha()):
        return None
    if not (_opens_clause(text, start) or text.endswith(_HEADS_AFTER, 0, start)):
        return None
    bracket = " (" if found.group(1) else ""  # "adenocarcinoma (endometrioid type, G1)"
    return start, f"{found.group(2)} {noun}{bracket}"


def _opens_clause(text: str, start: int) -> bool:
    """Whether ``text[start:]`` opens a clause: nothing but spaces since the text's start, a
    line end, a full stop, a colon, a semicolon, a closing bracket ("Note) Is not ...") or a
    dash between spaces ("CNB --- Carcinoma, small cell type"), or a bullet at a line's start ("-
    ADENOCARCINOMA, ENDOMETRIOID TYPE")."""
    before = text[:start].rstrip(" \t")
    if before[-1:] in ("-", "*", "\u2022") and before[-2:-1] in ("", "\n"):
        before = before[:-1]
    # "CNB --- Carcinoma", "Endometrial sampling - adenocarcinoma of endometrioid type"
    return not before or before[-1] in ".;:\n)" or before.endswith(("--", " -"))


def _involvement(match: re.Match) -> str:
    """ "without neoplastic compromise" -> "without involvement", "margin with neoplastic
    compromise" -> "margin involved by tumour", "with compromise of the deep margin" -> "with
    involvement of the deep margin"; "metastatic compromise" keeps its adjective."""
    without, with_, gap = match.group(1), match.group(2), match.group(3)
    if without:
        return f"without{gap}involvement"
    if with_ and "metastatic" not in match.group(0):
        if match.string.startswith(" of ", match.end()):
            return f"with{gap}involvement"
        return f"involved{gap}by tumour"
    return match.group(0).replace("compromise", "involvement")


def _symbol(match: re.Match) -> str:
    """ "anaplastic lymphoma kinase" -> "alk"."""
    return _NAME_SYMBOLS[int(match.lastgroup[1:])]


def _shorthand(match: re.Match) -> str:
    if match.lastindex >= 4:
        return match.group(match.lastindex)  # "neg. for" -> "neg for", spelled out below
    return _SHORTHAND_TEXT[match.group(match.lastindex)]


def _differentiation(match: re.Match) -> str:
    adverb = match.group(1) or match.group(3)
    if adverb is None:  # "mod. differentiated"
        return "moderately "
    return f"{_ADVERBS[adverb]} differentiated"


def _side_of_letter(match: re.Match) -> str:
    """The side a letter names ("L." or "L't" is left)."""
    return _SIDE_OF_LETTER[match.group(1)]


def _count_then_side(match: re.Match) -> str:
    """A count with the side letter after it: "0/15 L" is "0/15 left"."""
    return f"{match.group(1)} {_SIDE_OF_LETTER[match.group(2)]}"


def _word(match: re.Match) -> str:
    word = match.group(1)
    text, end = match.string, match.end()
    if word in ("sn", "slnb"):  # "SN 0/2", "SLNB 0/3": the sentinel nodes' count
        if _NODE_COUNT_AFTER.match(text, end):
            return "sentinel lymph nodes"
        if word == "sn":
            return word  # no count after it: not read as a node
    if word == "ca" and _NOT_CARCINOMA_AFTER.match(text, end):
        return word  # "CA 19-9", "ca. 2 cm"
    if word == "adeno" and _NOT_ADENO_ALONE.match(text, end):
        return word  # "adeno-squamous", "adeno ca", "adeno carcinoma"
    if word in ("pd", "wd") and text.startswith("-", end) and not text.startswith("-net", end):
        return word  # "PD-L1"; "WD-NET" is a well-differentiated neuroendocrine tumour
    start = match.start()
    if word == "pd" and _PD_PROCEDURE_BEFORE.search(text, max(0, start - 50), start):
        return "pancreaticoduodenectomy"
    if word == "ptc" and match.start() and text[match.start() - 1] in "/-":
        return word  # the "RET/PTC" rearrangement
    if word == "hg" and text[max(0, match.start() - 3) : match.start()].strip() == "mm":
        return word  # "mm Hg"
    if word == "hg" and _GRADE_NUMBER_AFTER.match(text, end):
        return "histological grade"  # "HG 2": the histological grade's number
    if word == "ta" and match.start() and text[match.start() - 1] == "/":
        return word  # "IF/TA": interstitial fibrosis and tubular atrophy
    if (
        word == "sma"
        and not _MARGIN_AFTER.match(text, end)
        and not text[: match.start()].rstrip(" (/").endswith("uncinate")
        and "mesenteric" not in text
    ):
        return word  # smooth muscle actin, except as the superior mesenteric artery (margin)
    if word in _READ_BY_NEXT_WORD:
        following = _WORD_AFTER.match(text, end)
        after = following.group(1) if following is not None else None
        if word == "int" and after not in _INTERMEDIATE_OF:
            return word  # "int" is intermediate only before a grade: "DCIS, int grade"
        if word == "md" and after not in _DIFFERENTIATED_NOUNS:
            return word
        if word == "lg" and after in _LARGE_THINGS:
            return word  # "lg fragment": large
        if (
            word in ("rt", "lt")
            and after is None
            and text[: match.start()].rstrip().endswith(",")
            and _SIDE_BETWEEN_COMMAS.match(text, end)
        ):
            return _WORDS[word]  # "Testis, Lt., radical orchiectomy": a side between commas
        if word in ("rt", "lt") and (
            after is None
            or after in _NOT_A_SIDE_AFTER
            or text[: match.start()].rstrip().endswith(_NOT_A_SIDE_BEFORE)
        ):
            return word  # "post-RT changes", "RT effect": radiotherapy
    return _WORDS[word]
