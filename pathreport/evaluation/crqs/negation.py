"""Negation cues and their scope, in the spirit of NegEx (Chapman et al., 2001).

A finding is negated when a *pre-negation* cue ("no", "without", "negative for", ...) precedes it
in the same clause, at most ``max_gap`` words before it, with no *terminator* ("but", "with",
"positive for", ...) in between; or when a *post-negation* cue ("absent", "not identified",
"negative", "(-)") follows it in the same comma-delimited segment, separated only by filler words
("is", "are", "was", ...). A post cue wins over a pre cue, so "No necrosis, lymphovascular invasion
present" negates necrosis and affirms the invasion. A *pseudo-negation* ("no special type", "not
otherwise specified") is not a cue at all, and an *unknown* cue ("not specified", "no mention of")
leaves the finding's status open, so the finding is dropped.

Scopes end at sentence and clause punctuation and at newlines (see
:mod:`pathreport.evaluation.crqs.text`). A schema may add cues of its own under its ``negation``
key; the defaults below always apply.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_PRE = (
    "no", "not", "without", "negative for", "free of", "absence of", "no evidence of",
    "no evidence", "no sign of", "no signs of", "no features of", "lack of", "lacks", "lacking",
    "nor", "neither", "never", "rules out", "rule out", "non", "lack",
    # "Negative to malignancy": the preposition of some writers of English as a second language.
    "negative to",
    # "Immunoreactive for TTF-1 and nonreactive for p40".
    "nonreactive for", "non-reactive for", "non reactive for",
    # "No curved bacilli consistent with Helicobacter pylori are identified": the organisms
    # denied, though "consistent with" alone ends a negation.
    "no organisms consistent with", "no bacilli consistent with",
    "no curved bacilli consistent with", "no rods consistent with",
    "no curved rods consistent with", "no organisms morphologically consistent with",
    # "Bridging fibrosis, not yet cirrhosis": "yet" here is no contrast that ends the scope.
    "not yet", "but not yet",
    # "Suspicious but not diagnostic of carcinoma": "diagnostic of" alone ends a negation.
    "not diagnostic of", "not diagnostic for", "nondiagnostic of", "nondiagnostic for",
    # "Worrisome for but insufficient for a diagnosis of carcinoma", as "not diagnostic of".
    "insufficient for a diagnosis of", "insufficient for the diagnosis of",
    "insufficient for diagnosis of", "not sufficient for a diagnosis of",
    "not sufficient for the diagnosis of", "insufficient for a definitive diagnosis of",
    # "IM at the junction is not on its own diagnostic of Barrett's".
    "not on its own diagnostic of", "not by itself diagnostic of", "not in itself diagnostic of",
    "not of itself diagnostic of",
    # British "Nil malignancy", "nil evidence of dysplasia".
    "nil", "nil evidence of",
    # A differential diagnosis set aside: "which excludes melanoma", "excluding leiomyoma and
    # schwannoma", "co-expression argues against a metastasis".
    "exclude", "excludes", "excluding", "argues against", "argue against", "arguing against",
    # The clinician's question: "enlarged node; exclusion of lymphoma".
    "exclusion of", "for exclusion of",
    # "does not fulfil the criteria for atypical meningioma".
    "does not fulfil criteria for", "does not fulfill criteria for", "does not meet criteria for",
    "does not fulfil the criteria for", "does not fulfill the criteria for",
    "does not meet the criteria for", "do not meet criteria for", "do not meet the criteria for",
    "falls short of criteria for",
    # "No identified lymphovascular invasion": the affirming word belongs to the cue.
    "no identified", "no definite", "no definitive", "no obvious", "no apparent", "no convincing",
    "no residual", "no detectable",
    # "nothing to suggest refractory coeliac disease or lymphoma".
    "nothing to suggest", "nothing suggestive of", "no evidence to suggest",
    # "No HGD, nothing malignant".
    "nothing",
    "uninvolved by", "not involved by",
    # "Four lymph nodes, none with metastasis"; "12 nodes, none of which contains tumour".
    "none with", "none showing", "none show", "none shows", "none containing", "none contain",
    "none contains", "none of which show", "none of which shows", "none of which contain",
    "none of which contains", "none involved by",
    # "with negative extrathyroidal extension": the adjective before the finding.
    "with negative",
    # "does not show venous involvement": "show" alone ends a cue's scope.
    "does not show", "did not show", "do not show", "does not demonstrate", "did not demonstrate",
    "does not reveal", "did not reveal", "does not contain", "did not contain",
    # "Neither tumour shows extrathyroidal extension or LVI": the subject of "neither" is not
    # what is ruled out, the findings after the verb are.
    "neither tumour shows", "neither tumor shows", "neither tumour has", "neither tumor has",
    "neither lesion shows", "neither nodule shows", "neither focus shows", "neither shows",
    "neither tumour demonstrates", "neither tumor demonstrates", "neither tumours show",
    "neither tumors show", "neither part shows", "neither part has", "neither specimen shows",
    "neither polyp shows", "neither sample shows", "neither biopsy shows", "neither fragment shows",
    "neither core shows", "neither node shows", "neither side shows", "neither lobe shows",
    "neither ovary shows", "neither of them shows", "neither of them show",
)  # fmt: skip
DEFAULT_POST = (
    "absent", "negative", "not identified", "not seen", "not present", "not detected",
    "not found", "not evident", "not noted", "not observed", "none", "no", "excluded",
    "ruled out", "none identified", "none seen", "unremarkable", "uninvolved", "free",
    "are not identified", "not appreciated", "not involved", "not invaded", "not infiltrated",
    "not breached", "not penetrated",
    "not demonstrated", "not expressed", "not demonstrable",
    # "BCL-2 immunostain does not stain germinal centre cells": the stain's own result.
    "does not stain", "do not stain", "did not stain", "fails to stain", "failed to stain",
    # "p16 shows negative staining": the stain's result after its verb.
    "shows negative staining", "show negative staining", "showed negative staining",
    "shows no staining", "show no staining", "showed no staining",
    # "MDM2 FISH: not amplified", "MDM2 FISH shows no amplification": a gene tested for its
    # amplification.
    "not amplified", "non-amplified", "nonamplified", "shows no amplification",
    "show no amplification", "showed no amplification", "demonstrates no amplification",
    # "Perforation not grossly seen": an adverb between the negation and its verb.
    "not grossly seen", "not grossly identified", "not grossly evident",
    # "Lymphovascular invasion: no evidence": the pre cue "no evidence (of)" with its object first.
    "no evidence",
    # "Testing for BRAF and KRAS mutations did not identify any": a test's negative result.
    "did not identify", "does not identify", "did not detect", "does not detect",
    "failed to detect", "failed to identify",
    # "Follicular lymphoma is not supported", "a metastasis is not favoured".
    "not supported", "not favored", "thereby excluded",
    # "The seminal vesicles are without carcinoma": a structure's status stated with "without".
    "without tumor", "without carcinoma", "without malignancy", "without neoplasm",
    "without cancer", "without metastasis", "without metastases", "without involvement",
    # "E-cadherin lost", "MLH1 and PMS2: lost": a marker's expression is absent.
    "lost",
    # British "Granulomas: nil", "Extranodal extension: nil".
    "nil",
    # "Steatosis negligible", as "no significant steatosis" is its absence.
    "negligible",
    # "Stains for mycobacteria and fungi show no organisms": the stains' result.
    "show no organisms", "shows no organisms", "showed no organisms", "show no microorganisms",
    "shows no microorganisms", "showed no microorganisms", "reveal no organisms",
    "revealed no organisms", "demonstrate no organisms", "demonstrated no organisms",
)  # fmt: skip
DEFAULT_AFFIRM = (
    "present", "identified", "seen", "detected", "positive", "noted", "found", "observed",
    "evident", "yes", "involved", "focally present", "positivity",
)  # fmt: skip
DEFAULT_PSEUDO = (
    "no special type", "not otherwise specified", "no change", "no significant change",
    "not only", "no longer", "without further", "not possible to", "no further",
    "no more than",
    "gram negative", "non small cell", "non hodgkin", "non invasive", "non specific",
    "not provided", "not available", "not applicable",
    # "does not invade the capsule or show LVI": the second verb of a negated pair keeps the
    # cue's scope open (its verb alone would end it).
    "or show", "or shows", "nor show", "nor shows", "or demonstrate", "nor demonstrate",
    "or reveal", "nor reveal", "or contain", "nor contain",
)  # fmt: skip
# A finding whose status the report leaves open: "Lymphovascular invasion: not specified", "no
# mention of perineural invasion". It is neither present nor absent, so the finding is dropped
# (as a missing item, never as an absent one).
DEFAULT_UNKNOWN_PRE = (
    "no specification of", "no mention of", "no information on", "no information about",
    "no comment on", "does not mention", "did not mention", "does not specify",
    "did not specify", "does not comment on", "did not comment on", "not mention",
    "no information is given about", "no information is given on", "no information was given about",
    "no information is provided about", "no information is provided on",
    "no information was provided about", "no information regarding", "no details about",
    "no details on", "no details regarding",
    "pending", "awaiting", "requested", "will be requested", "has been requested",
    # "This sampling cannot exclude coexisting carcinoma".
    "cannot exclude", "can not exclude", "cannot rule out", "can not rule out",
    "could not exclude", "does not exclude", "do not exclude",
    # "microbiological work-up to exclude TB".
    "to exclude", "to rule out",
    # The clinician's question, not the pathologist's answer: "query Kaposi sarcoma", "?TB"
    # (normalised to "query TB").
    "query", "queried",
    # The pathologist's request to weigh a cause: "kindly correlate for tuberculosis", "consider
    # sarcoidosis in the clinical context" (as "?sarcoidosis" and "... to be considered").
    "correlate for", "correlation for", "consider", "to consider", "please consider",
    # The clinician's suspicion in the request: "endoscopic biopsies (suspected coeliac disease)".
    "suspected", "clinically suspected",
    # What the sample allows or lacks: "no stroma for assessment of invasion".
    "for assessment of", "for the assessment of", "for evaluation of", "for the evaluation of",
    # The clinical history, not this specimen's finding: "in follow-up of a previously resected
    # high-grade urothelial carcinoma". ("History of ulcerative colitis" stays a finding: a
    # chronic disease is often the very diagnosis of the biopsy.)
    "previously resected", "previously treated", "previously diagnosed", "follow-up of",
    "follow up of", "treated for", "after treatment for",
    "chemoradiotherapy for", "chemoradiation for", "radiotherapy for", "chemotherapy for",
)  # fmt: skip
DEFAULT_UNKNOWN_POST = (
    "not specified", "not stated", "not reported", "not mentioned", "not assessed",
    "not evaluated", "not assessable", "not evaluable", "not commented on", "not addressed",
    "unknown", "indeterminate", "cannot be assessed", "could not be assessed",
    "cannot be evaluated", "could not be evaluated", "cannot be determined",
    "could not be determined", "not determined", "not known",
    # A finding held possible: "Concurrent carcinoma cannot be excluded" states neither.
    "not excluded", "cannot be excluded", "can not be excluded", "cannot be ruled out",
    "can not be ruled out", "could not be excluded", "not ruled out",
    # A work-up advised: "tuberculosis to be excluded by microbiology", "an ectopic pregnancy
    # must be excluded".
    "to be excluded", "to be ruled out", "must be excluded", "should be excluded",
    "must be ruled out", "should be ruled out",
    "needs exclusion", "needs to be excluded", "need to be excluded", "requires exclusion",
    "needs to be ruled out", "need to be ruled out",
    "needs clinical exclusion", "need clinical exclusion", "requires clinical exclusion",
    # A diagnosis left to the clinician: "sarcoidosis to be considered clinically".
    "to be considered", "should be considered", "must be considered",
    # A test sent for and not yet reported: "BCL6 rearrangement studies have been requested".
    "requested", "pending", "to follow", "will follow", "awaited",
    # A test advised, not a finding: "correlation with PCR for Mycobacterium tuberculosis is
    # recommended".
    "recommended", "advised",
)  # fmt: skip
DEFAULT_TERMINATORS = (
    "but", "however", "although", "though", "except", "apart from", "whereas", "while", "yet",
    "with", "which", "showing", "shows", "show", "reveals", "revealing", "demonstrates",
    "demonstrating", "positive for", "positive to", "presence of", "consistent with",
    "suspicious for",
    "present", "identified", "seen", "favor", "favour", "compatible with", "diagnostic of",
    "there is", "there are", "includes", "including",
    # "PR: no staining in invasive tumour cells" says nothing about invasion.
    "staining in", "expression in", "immunoreactivity in",
    # "with negative margins and positive lymph nodes": a status of its own ends the negation.
    "and positive", "or positive", "and involved",
    # "a metastasis is not favoured given TTF-1 co-expression": the reason is affirmed.
    "given", "because of", "in view of",
)  # fmt: skip
# Head nouns of a pattern after its finding that may carry an object before the status
# ("micropapillary growth of 5 mm or more is absent"); fillers too ("cribriform pattern absent").
HEAD_NOUNS_BEFORE_AN_OBJECT = frozenset(
    {"growth", "pattern", "architecture", "component", "features", "areas"}
)
DEFAULT_FILLERS = HEAD_NOUNS_BEFORE_AN_OBJECT | frozenset(
    {
        "is", "are", "was", "were", "be", "been", "being", "has", "have", "also", "all", "both",
        "entirely", "definitely", "definite", "clearly", "focally", "completely", "status",
        # A reason's connective: "no stroma present, invasion therefore not assessable".
        "therefore",
        "organisms", "bacteria", "changes", "findings", "finding", "noted",
        # An organism's forms: "Giardia trophozoites are not observed", "no fungal hyphae".
        "trophozoites", "bacilli", "hyphae", "ova", "yeasts", "spores",
        "feature",
        # "Micropapillary architecture is not found", "squamous differentiation is absent".
        "differentiation", "morphology",
        # The kind of feature: "papillary carcinoma nuclear features are not seen".
        "nuclear",
        # Head nouns after a finding: "microsatellite lesions were not seen", "invasive disease
        # is not seen".
        "lesion", "lesions", "foci", "spaces", "channels", "disease",
        # A marker's result: "E-cadherin expression lost", "p53 expression: wild type".
        "expression",
        # An entity's spread: "Lymphoma infiltration: absent", "carcinoma involvement: none".
        "infiltration", "involvement",
        # A test named by its method: "CK7 immunostain negative", "CMV IHC: negative".
        "stain", "stains", "staining", "immunostain", "immunostains", "immunostaining",
        "immunohistochemistry", "ihc", "immunoreactivity", "studies", "study", "testing",
        "analysis", "ish", "fish", "cish", "sish",
        # Adjectives of a shared head noun: "no lymphatic, venous, or perineural invasion".
        "lymphatic", "venous", "vascular", "perineural", "angiolymphatic",
    }
)  # fmt: skip
DEFAULT_MAX_GAP = 6
DEFAULT_MAX_POST_FILLERS = 3


@dataclass(frozen=True)
class NegationCues:
    """The cue phrases of one schema (defaults plus the schema's additions)."""

    pre: tuple[str, ...] = DEFAULT_PRE
    post: tuple[str, ...] = DEFAULT_POST
    affirm: tuple[str, ...] = DEFAULT_AFFIRM
    pseudo: tuple[str, ...] = DEFAULT_PSEUDO
    unknown_pre: tuple[str, ...] = DEFAULT_UNKNOWN_PRE
    unknown_post: tuple[str, ...] = DEFAULT_UNKNOWN_POST
    terminators: tuple[str, ...] = DEFAULT_TERMINATORS
    fillers: frozenset[str] = field(default=DEFAULT_FILLERS)
    max_gap: int = DEFAULT_MAX_GAP
    max_post_fillers: int = DEFAULT_MAX_POST_FILLERS

    def extended(self, extra: dict) -> NegationCues:
        """A copy with the schema's extra cues appended (a schema never removes a default)."""

        def more(name: str) -> tuple[str, ...]:
            return tuple(dict.fromkeys((*getattr(self, name), *extra.get(name, ()))))

        return NegationCues(
            pre=more("pre"),
            post=more("post"),
            affirm=more("affirm"),
            pseudo=more("pseudo"),
            unknown_pre=more("unknown_pre"),
            unknown_post=more("unknown_post"),
            terminators=more("terminators"),
            fillers=self.fillers | frozenset(extra.get("fillers", ())),
            max_gap=int(extra.get("max_gap", self.max_gap)),
            max_post_fillers=int(extra.get("max_post_fillers", self.max_post_fillers)),
        )
