"""Settings of the PathBind protocols, one dataclass per concern.

The paper fixes only part of the protocol (the attention prompt, head mean, middle-third layer mean,
token max, Gaussian sigma 3, min-max, bilinear upsampling, top-20% quantile mask). Everything it
leaves open is a field here with a documented default, and every field is written into the results,
so a reported number always says which choices produced it. Values marked "[paper]" come from the
paper; "[proposal]" marks our default for something the paper does not state.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from pathreport.registry import did_you_mean

GROUNDING_PROMPT = "Look at the image and locate: {entity}"  # [paper] App. D.2, verbatim
SWEEP_QUANTILES = (0.05, 0.1, 0.2, 0.3, 0.4)  # [paper] App. C.1, Table C.10
LAYER_SETS = ("shallow", "mid", "deep", "all")  # [paper] Table C.9
PERTURBATIONS = ("blank", "same_subset", "cross_subset", "blur")  # [paper] Table A.3, Fig. A.1
BASE_CONDITIONS = ("image", "text")  # VLM and VLM-text [paper]


def _choice(owner: str, name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        hint = did_you_mean(str(value), list(allowed))
        raise ValueError(
            f"{owner}.{name} is {value!r}; expected one of {', '.join(allowed)}. {hint}".rstrip()
        )


@dataclass
class VLMDecodingConfig:
    """How a generative VLM generates answers. The paper says only "fixed decoding configuration".

    Not the report decoder's :class:`pathreport.generation.decoding.DecodingConfig`: that one is
    pathreport's own beam search over the run's tokenizer; this one drives a VLM's own ``generate``
    (greedy or sampled), so the two share no field but ``temperature`` and no meaning.

    Attributes:
        do_sample: False means greedy decoding [proposal: deterministic by construction].
        temperature: used only when sampling (API adapters send 0.0 when greedy).
        top_p: used only when sampling.
        max_new_tokens: room for the reasoning the thinking prompt asks for [proposal].
        seed: seeds torch before each generation, so sampling runs repeat exactly.
    """

    do_sample: bool = False
    temperature: float = 0.0
    top_p: float = 1.0
    max_new_tokens: int = 1024
    seed: int = 0

    def __post_init__(self) -> None:
        if self.max_new_tokens < 1:
            raise ValueError(
                f"VLMDecodingConfig.max_new_tokens must be >= 1, got {self.max_new_tokens}."
            )
        if self.do_sample and self.temperature <= 0:
            raise ValueError(
                "VLMDecodingConfig: sampling needs temperature > 0; set do_sample=False for greedy."
            )


@dataclass
class PromptConfig:
    """How questions are rendered (App. D, back-translated; option rendering is NOT STATED).

    Attributes:
        variant: ``thinking`` asks for ``<think>`` reasoning then ``<answer>``; ``plain`` keeps only
            the answer format (the paper's non-thinking variant). Which models the paper ran with
            which variant is NOT STATED, so one variant applies to a whole run.
        option_format: one line per option.
        yes_no_case: ``lower`` asks for ``yes``/``no`` (the seed shows Chinese tokens; NOT STATED).
    """

    variant: str = "thinking"
    option_format: str = "{letter}. {text}"
    yes_no_case: str = "lower"

    def __post_init__(self) -> None:
        _choice("PromptConfig", "variant", self.variant, ("thinking", "plain"))
        _choice("PromptConfig", "yes_no_case", self.yes_no_case, ("lower", "title"))
        if "{letter}" not in self.option_format or "{text}" not in self.option_format:
            raise ValueError(
                f"PromptConfig.option_format {self.option_format!r} must contain {{letter}} "
                "and {text}."
            )


@dataclass
class VQAConfig:
    """The VQA protocol: conditions, perturbations, grouping and scoring.

    Attributes:
        conditions: ``image`` (VLM) and ``text`` (VLM-text: only the image is removed) [paper], plus
            optional perturbations ``blank``, ``same_subset``, ``cross_subset`` and ``blur`` (one
            condition ``blur_<radius>`` per radius) [paper Table A.3, Fig. A.1].
        blur_radii: Gaussian blur radii in pixels of the original image (NOT STATED) [proposal].
        blank_color: RGB of the blank image (NOT STATED) [proposal: white, the colour of empty
            glass in bright-field slides].
        blank_size: ``original`` keeps each item's image size; ``W,H`` fixes it (NOT STATED).
        seed: seeds the choice of replacement images (fixed per item and condition).
        columns: ``dimension`` groups items as in Table 2 (``<component> <dimension>``),
            ``source`` as in Table 1 (one column per benchmark).
        unparsed: ``wrong`` keeps unparseable answers in the denominator as incorrect (the paper's
            denominators are full set sizes); ``exclude`` drops them. Either way they are counted.
        prompts: question rendering.
        decoding: answer generation.
    """

    conditions: tuple[str, ...] = BASE_CONDITIONS
    blur_radii: tuple[float, ...] = (2.0, 4.0, 8.0, 16.0)
    blank_color: tuple[int, int, int] = (255, 255, 255)
    blank_size: str = "original"
    seed: int = 0
    columns: str = "dimension"
    unparsed: str = "wrong"
    prompts: PromptConfig = field(default_factory=PromptConfig)
    decoding: VLMDecodingConfig = field(default_factory=VLMDecodingConfig)

    def __post_init__(self) -> None:
        for condition in self.conditions:
            _choice("VQAConfig", "conditions", condition, BASE_CONDITIONS + PERTURBATIONS)
        if len(set(self.conditions)) != len(self.conditions):
            raise ValueError(
                f"VQAConfig.conditions lists a condition twice: {list(self.conditions)}."
            )
        _choice("VQAConfig", "columns", self.columns, ("dimension", "source"))
        _choice("VQAConfig", "unparsed", self.unparsed, ("wrong", "exclude"))
        if any(r <= 0 for r in self.blur_radii):
            raise ValueError(f"VQAConfig.blur_radii must be positive, got {list(self.blur_radii)}.")
        if len(self.blank_color) != 3 or any(not 0 <= c <= 255 for c in self.blank_color):
            raise ValueError(
                f"VQAConfig.blank_color must be three values in 0..255, got {self.blank_color}."
            )
        if self.blank_size != "original":
            parse_size(self.blank_size, "VQAConfig.blank_size")

    def condition_names(self) -> list[str]:
        """Expanded condition names, one ``blur_<radius>`` per radius."""
        names: list[str] = []
        for condition in self.conditions:
            if condition == "blur":
                names += [blur_condition(r) for r in self.blur_radii]
            else:
                names.append(condition)
        return names


def blur_condition(radius: float) -> str:
    """The condition name of one blur level, e.g. ``blur_4`` or ``blur_2.5``."""
    return f"blur_{radius:g}"


def parse_size(text: str, what: str) -> tuple[int, int]:
    """Parse ``"W,H"`` into two positive integers."""
    try:
        w, h = (int(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"{what} must be 'original' or 'W,H' in pixels, got {text!r}.") from None
    if w < 1 or h < 1:
        raise ValueError(f"{what} must be positive, got {text!r}.")
    return w, h


@dataclass
class AttentionConfig:
    """From per-layer entity-to-image attention to a heat map (App. C.1, Algorithm 1).

    Attributes:
        layers: which decoder layers are averaged [paper: ``mid`` = ``range(L//3, 2L//3)``; the
            rounding is NOT STATED].
        order: ``layer_mean_first`` averages layers per token, then takes the max over entity
            tokens (Eqs. 3-4) [paper]; ``token_max_first`` takes the max per layer first (how
            Table C.9 was computed from saved maps).
        sigma: Gaussian smoothing in patch units, applied on the patch grid [paper: 3]; 0 disables.
        truncate: kernel radius in sigmas (NOT STATED) [proposal: 4, SciPy's default].
        border: kernel border handling (NOT STATED) [proposal: ``reflect``, SciPy's default].
        upsample: ``bilinear`` [paper, Algorithm 1] or ``nearest`` (mentioned in App. C.5).
        geometry: ``model_view`` maps the grid onto the part of the original image the model saw
            (padding and centre crops accounted for; pixels the model never saw get 0);
            ``stretch`` stretches the grid over the whole image (NOT STATED, see A12).
        prompt: the attention prompt [paper, verbatim].
        system_prompt: system message of the attention pass (NOT STATED) [proposal: none].
        strip_entity_punctuation: trailing punctuation of an expression is not an entity token
            (NOT STATED, see A10).
    """

    layers: str = "mid"
    order: str = "layer_mean_first"
    sigma: float = 3.0
    truncate: float = 4.0
    border: str = "reflect"
    upsample: str = "bilinear"
    geometry: str = "model_view"
    prompt: str = GROUNDING_PROMPT
    system_prompt: str | None = None
    strip_entity_punctuation: bool = True

    def __post_init__(self) -> None:
        _choice("AttentionConfig", "layers", self.layers, LAYER_SETS)
        _choice("AttentionConfig", "order", self.order, ("layer_mean_first", "token_max_first"))
        _choice("AttentionConfig", "border", self.border, ("reflect", "nearest", "constant"))
        _choice("AttentionConfig", "upsample", self.upsample, ("bilinear", "nearest"))
        _choice("AttentionConfig", "geometry", self.geometry, ("model_view", "stretch"))
        if self.sigma < 0 or self.truncate <= 0:
            raise ValueError(
                "AttentionConfig: sigma must be >= 0 and truncate > 0, "
                f"got {self.sigma}, {self.truncate}."
            )
        if self.prompt.count("{entity}") != 1:
            raise ValueError(
                f"AttentionConfig.prompt must contain {{entity}} exactly once, got {self.prompt!r}."
            )


@dataclass
class GroundingConfig:
    """The grounding protocol and its diagnostics (App. C).

    Attributes:
        q: retained-area fraction of the mask [paper: 0.2].
        sweep: thresholds of the sensitivity table [paper: 0.05, 0.1, 0.2, 0.3, 0.4].
        ties: ``ge`` keeps every pixel >= the quantile (Eq. 5; ties can exceed q) [paper];
            ``top_k`` keeps exactly round(q * pixels), ties broken by pixel order (NOT STATED).
        quantile_method: NumPy quantile interpolation (NOT STATED) [proposal: ``linear``].
        layer_ablation: layer sets of Table C.9, scored at ``q``.
        pixel_ap: compute the threshold-free pixel AP per sample (step-wise AP, as scikit-learn's
            ``average_precision_score``), then average (NOT STATED) [proposal].
        neff_map: map whose normalised mass gives N_eff/N: ``raw`` token-max grid before smoothing
            or ``smoothed`` (NOT STATED) [proposal: raw].
        specificity: compute cross-query correlation (one extra forward pass per alternative).
        alternatives: other expressions per sample [paper: 2, i.e. K = 3 queries].
        specificity_map: ``upsampled`` heat map at image resolution or the normalised ``grid``
            (NOT STATED) [proposal: upsampled].
        seed: seeds the choice of alternative expressions [paper: fixed, value NOT STATED].
        box_format: ``xyxy`` or ``xywh`` pixel boxes (NOT STATED, inherited from PathVG).
        save_maps: keep every per-layer, per-token map so other settings can be rescored without
            new forward passes (as the paper did for Table C.9).
        attention: heat-map construction.
    """

    q: float = 0.2
    sweep: tuple[float, ...] = SWEEP_QUANTILES
    ties: str = "ge"
    quantile_method: str = "linear"
    layer_ablation: tuple[str, ...] = LAYER_SETS
    pixel_ap: bool = True
    neff_map: str = "raw"
    specificity: bool = True
    alternatives: int = 2
    specificity_map: str = "upsampled"
    seed: int = 0
    box_format: str = "xyxy"
    save_maps: bool = True
    attention: AttentionConfig = field(default_factory=AttentionConfig)

    def __post_init__(self) -> None:
        for value in (self.q, *self.sweep):
            if not 0 < value < 1:
                raise ValueError(
                    f"GroundingConfig: quantile fractions must lie in (0, 1), got {value}."
                )
        _choice("GroundingConfig", "ties", self.ties, ("ge", "top_k"))
        _choice(
            "GroundingConfig",
            "quantile_method",
            self.quantile_method,
            ("linear", "lower", "higher", "nearest", "midpoint"),
        )
        for layers in self.layer_ablation:
            _choice("GroundingConfig", "layer_ablation", layers, LAYER_SETS)
        _choice("GroundingConfig", "neff_map", self.neff_map, ("raw", "smoothed"))
        _choice("GroundingConfig", "specificity_map", self.specificity_map, ("upsampled", "grid"))
        _choice("GroundingConfig", "box_format", self.box_format, ("xyxy", "xywh"))
        if self.alternatives < 1:
            raise ValueError(f"GroundingConfig.alternatives must be >= 1, got {self.alternatives}.")


def to_dict(config: Any) -> dict[str, Any]:
    """A JSON-ready copy of a config dataclass (tuples become lists)."""
    return asdict(config)
