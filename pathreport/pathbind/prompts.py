"""The VQA prompts of PathBind (App. D, Figs. D.5 and D.6).

The paper's prompts survive only in a Chinese translation; the English wording below is a
back-translation (see ``docs/pathbind.md``). What matters for the protocol is kept exactly: one
system prompt and one user prompt per question type, a fixed ``<answer>...</answer>`` field, and the
SAME strings with and without the image (App. E: only the image input is removed, so the system
prompt still mentions "the provided pathology image" in the text-only condition).

The ``plain`` variant is the paper's prompt for non-thinking models: the instruction to reason
inside
``<think>`` tags is removed and only the answer format is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from pathreport.pathbind.config import PromptConfig
from pathreport.pathbind.data import VQAItem

_ROLE = "You are a pathology expert."
_OBSERVE = (
    "Carefully observe the histological features in the provided pathology image, recall relevant "
    "pathology knowledge, and reason to the answer. During reasoning, explicitly describe what you "
    "see in the image: cells, tissue, structures, staining patterns, spatial arrangement, and any "
    'annotations (arrows, labels, scale bars). Do not use phrases such as "mentioned", "context", '
    '"described", "given" or "provided"; refer to the information as "in the image".'
)
_THINK_FORMAT = (
    "Output your response strictly in the following format:\n<think>\nYour step-by-step "
    "reasoning. First describe the observable visual content in the image, then connect it to "
    "pathology knowledge.\n</think>\n"
)
_PLAIN_OBSERVE = (
    "Carefully observe the histological features in the provided pathology image and use relevant "
    "pathology knowledge to answer."
)
_REASONING_REMINDER = (
    " Your reasoning inside <think>...</think> should reference specific visual features you "
    "observe in the image."
)


@dataclass(frozen=True)
class Prompt:
    """The two strings sent to a model for one question."""

    system: str
    user: str


def render_options(options: dict[str, str], option_format: str) -> str:
    """One line per option, e.g. ``A. Adenocarcinoma`` (rendering NOT STATED in the paper)."""
    return "\n".join(
        option_format.format(letter=letter, text=text) for letter, text in options.items()
    )


def _yes_no_tokens(case: str) -> tuple[str, str]:
    return ("Yes", "No") if case == "title" else ("yes", "no")


def system_prompt(qtype: str, config: PromptConfig) -> str:
    """The system prompt of a question type (``mc`` or ``yesno``) and prompt variant."""
    task = "a multiple-choice question" if qtype == "mc" else "a yes/no question"
    if qtype == "mc":
        answer_line = (
            "<answer>X</answer>\nwhere X is the single letter of the correct option (A, B, "
            "C, D...)."
        )
    else:
        yes, no = _yes_no_tokens(config.yes_no_case)
        answer_line = f"<answer>{yes}</answer> or <answer>{no}</answer>."
    if config.variant == "thinking":
        return (
            f"{_ROLE} Your task is to answer {task} step by "
            f"step. {_OBSERVE} {_THINK_FORMAT}{answer_line}"
        )
    return (
        f"{_ROLE} Your task is to answer {task}. {_PLAIN_OBSERVE} Output your final answer "
        f"strictly in the following format:\n{answer_line}"
    )


def build_prompt(item: VQAItem, config: PromptConfig) -> Prompt:
    """System and user prompt for one item; identical for every input condition."""
    reminder = _REASONING_REMINDER if config.variant == "thinking" else ""
    if item.qtype == "mc":
        assert item.options is not None
        body = f"{item.question}\n{render_options(item.options, config.option_format)}"
        user = (
            f"{body}\nChoose the best answer. Put only the letter inside "
            f"<answer>...</answer>.{reminder}"
        )
    else:
        yes, no = _yes_no_tokens(config.yes_no_case)
        user = (
            f'{item.question} Answer with "{yes}" or "{no}". Put only "{yes}" or "{no}" '
            f"inside <answer>...</answer>.{reminder}"
        )
    return Prompt(system=system_prompt(item.qtype, config), user=user)
