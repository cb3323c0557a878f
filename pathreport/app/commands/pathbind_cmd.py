"""``pathreport pathbind``: the PathBind protocols for generative VLMs, and their tables.

    pathreport pathbind vqa --vlm patho_r1_7b --questions vqa.jsonl --images data/ --out results/
    pathreport pathbind grounding --vlm qwen2_5_vl_7b --samples grounding.jsonl --out results/
    pathreport pathbind table --results results/ --out results/tables

Every option and its default is documented in ``docs/pathbind.md``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pathreport.app.commands.arguments import add_choice
from pathreport.errors import UserError
from pathreport.pathbind.config import LAYER_SETS, PERTURBATIONS, SWEEP_QUANTILES

RUN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "pathbind",
        help=(
            "PathBind: does a generative VLM use the image (VQA) and attend to the entity "
            "(grounding)?"
        ),
        description="PathBind protocols for generative pathology VLMs (docs/pathbind.md).",
    )
    protocols = parser.add_subparsers(dest="pathbind_command", metavar="<protocol>", required=True)
    _add_vqa(protocols)
    _add_grounding(protocols)
    _add_table(protocols)


def _model_arguments(parser: argparse.ArgumentParser, *, required: bool = True) -> None:
    group = parser.add_argument_group("model")
    group.add_argument(
        "--vlm", required=required, help="registered model name (`pathreport list generative_vlms`)"
    )
    group.add_argument(
        "--checkpoint", help="hub id or local folder overriding the model's default checkpoint"
    )
    group.add_argument("--revision", help="hub revision to pin (branch, tag or commit)")
    group.add_argument("--device", help="auto (default), cpu, cuda, cuda:1, ...")
    group.add_argument(
        "--dtype",
        help="auto (default: bfloat16 on GPU, float32 on CPU), float32, bfloat16, float16",
    )
    group.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="adapter option (repeatable), e.g. image_aspect=crop",
    )
    group.add_argument(
        "--name",
        help="run name: labels the results (summary.json, tables) and names the results "
        "folder (default: --vlm)",
    )


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        required=True,
        type=Path,
        help="results root; this run writes <out>/<protocol>/<name>/",
    )
    parser.add_argument(
        "--images",
        type=Path,
        help="folder that relative image paths start from (default: the data file's folder)",
    )
    parser.add_argument("--limit", type=int, help="use only the first N items (quick checks)")
    parser.add_argument(
        "--resume", action="store_true", help="continue an interrupted run in the same folder"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of every random choice (default 0)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress messages")


def _add_vqa(protocols: argparse._SubParsersAction) -> None:
    parser = protocols.add_parser(
        "vqa", help="answer every question with and without the image; Multimodal Gain"
    )
    _model_arguments(parser)
    parser.add_argument("--questions", required=True, type=Path, help="VQA JSON Lines file")
    _common(parser)
    group = parser.add_argument_group("protocol")
    group.add_argument(
        "--conditions",
        default="image,text",
        help=(
            f"comma list from image, text, {', '.join(PERTURBATIONS)}, or 'all' (default "
            "image,text)"
        ),
    )
    group.add_argument(
        "--blur-radii", default="2,4,8,16", help="blur levels in pixels (default 2,4,8,16)"
    )
    group.add_argument(
        "--blank-color", default="255,255,255", help="RGB of the blank image (default white)"
    )
    group.add_argument(
        "--blank-size", default="original", help="'original' or W,H (default original)"
    )
    add_choice(
        group, "--columns", ("dimension", "source"), help="table columns (default dimension)"
    )
    add_choice(
        group,
        "--unparsed",
        ("wrong", "exclude"),
        help=(
            "unparseable answers count as wrong (default) or leave the denominator; always reported"
        ),
    )
    add_choice(group, "--prompt-variant", ("thinking", "plain"), help="default thinking")
    group.add_argument(
        "--option-format", default="{letter}. {text}", help="rendering of one option line"
    )
    group.add_argument("--max-new-tokens", type=int, default=1024, help="default 1024")
    group.add_argument(
        "--sample", action="store_true", help="sample instead of greedy decoding (default greedy)"
    )
    group.add_argument("--temperature", type=float, default=0.0, help="with --sample")
    group.add_argument("--top-p", type=float, default=1.0, help="with --sample")
    parser.set_defaults(func=run_vqa)


def _add_grounding(protocols: argparse._SubParsersAction) -> None:
    parser = protocols.add_parser(
        "grounding", help="attention maps of entity tokens scored against boxes"
    )
    _model_arguments(parser, required=False)
    parser.add_argument("--samples", required=True, type=Path, help="grounding JSON Lines file")
    _common(parser)
    group = parser.add_argument_group("protocol")
    group.add_argument(
        "--q", type=float, default=0.2, help="retained area of the mask (default 0.2)"
    )
    group.add_argument(
        "--sweep",
        default=",".join(f"{q:g}" for q in SWEEP_QUANTILES),
        help="thresholds of the sweep",
    )
    add_choice(group, "--ties", ("ge", "top_k"), help="quantile tie rule (default ge, Eq. 5)")
    group.add_argument(
        "--layers", choices=LAYER_SETS, default="mid", help="decoder layers averaged (default mid)"
    )
    group.add_argument(
        "--layer-ablation", default=",".join(LAYER_SETS), help="layer sets scored for Table C.9"
    )
    group.add_argument(
        "--order", choices=("layer_mean_first", "token_max_first"), default="layer_mean_first"
    )
    group.add_argument(
        "--sigma", type=float, default=3.0, help="Gaussian sigma in patches (default 3; 0 disables)"
    )
    group.add_argument("--upsample", choices=("bilinear", "nearest"), default="bilinear")
    group.add_argument("--geometry", choices=("model_view", "stretch"), default="model_view")
    group.add_argument("--box-format", choices=("xyxy", "xywh"), default="xyxy")
    group.add_argument(
        "--alternatives", type=int, default=2, help="other expressions per sample (default 2)"
    )
    group.add_argument(
        "--no-specificity", action="store_true", help="skip the cross-query correlation passes"
    )
    group.add_argument("--neff-map", choices=("raw", "smoothed"), default="raw")
    group.add_argument("--specificity-map", choices=("upsampled", "grid"), default="upsampled")
    group.add_argument("--no-pixel-ap", action="store_true")
    group.add_argument("--no-save-maps", action="store_true", help="do not keep attention maps")
    group.add_argument(
        "--system-prompt", help="system message of the attention pass (default none)"
    )
    group.add_argument(
        "--from-maps",
        type=Path,
        help="rescore saved maps (<earlier run>/maps) instead of running a model",
    )
    parser.set_defaults(func=run_grounding)


def _add_table(protocols: argparse._SubParsersAction) -> None:
    parser = protocols.add_parser(
        "table", help="paper-layout tables (Markdown and CSV) from result folders"
    )
    parser.add_argument(
        "--results",
        required=True,
        nargs="+",
        type=Path,
        help="result folders (searched for summary.json)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="where to write the tables (default: <first results folder>/tables)",
    )
    parser.set_defaults(func=run_table)


# -- helpers ---------------------------------------------------------------------------------------
def _value(text: str) -> Any:
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UserError(
                f"--option {item!r} is not KEY=VALUE (e.g. --option image_aspect=crop)."
            )
        options[key.strip()] = _value(value) if value.strip() else ""
    for key in ("checkpoint", "revision", "device", "dtype"):
        if getattr(args, key, None) is not None:
            options[key] = getattr(args, key)
    return options


def _same_named(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """The arguments ``names`` as keyword arguments of a config whose fields share their names."""
    return {name: getattr(args, name) for name in names}


def _floats(text: str, what: str) -> tuple[float, ...]:
    try:
        return tuple(float(v) for v in text.split(",") if v.strip())
    except ValueError:
        raise UserError(f"{what} must be comma-separated numbers, got {text!r}.") from None


def _run_dir(args: argparse.Namespace, protocol: str, name: str) -> Path:
    if not RUN_NAME.match(name):
        raise UserError(
            f"Run name {name!r} must be letters, digits, '_', '.', '-' (it names a folder); "
            "pass --name."
        )
    return args.out / protocol / name


def _progress(args: argparse.Namespace, what: str):
    if args.quiet:
        return None

    def report(done: int, total: int) -> None:
        step = max(1, total // 20)
        if done == total or done % step == 0:
            print(f"[pathbind {what}] {done}/{total}", file=sys.stderr, flush=True)

    return report


def _build(args: argparse.Namespace):
    from pathreport.pathbind.vlm import build_vlm

    try:
        return build_vlm(args.vlm, **_options(args))
    except ImportError as err:  # a missing optional package: the message holds the install command
        raise UserError(str(err)) from err


def _guard(run: Any) -> Any:
    """Show a package missing when the model loads as a one-line error with its install hint."""
    try:
        return run()
    except ImportError as err:
        raise UserError(str(err)) from err


def _run_model(
    args: argparse.Namespace, protocol: str, run: Callable[..., Any]
) -> tuple[Path, Any]:
    """Load ``--vlm`` and run ``protocol`` on it, into a folder named by ``--name`` or the model.

    ``run(vlm, name, out, resume=..., progress=...)`` starts the protocol; the resume flag and the
    progress lines are the same for every protocol, so they are passed here once.
    """
    vlm = _build(args)
    name = args.name or vlm.name
    out = _run_dir(args, protocol, name)
    progress = _progress(args, protocol)
    return out, _guard(lambda: run(vlm, name, out, resume=args.resume, progress=progress))


# -- handlers --------------------------------------------------------------------------------------
def run_vqa(args: argparse.Namespace) -> int:
    from pathreport.pathbind import PathBind
    from pathreport.pathbind.config import (
        BASE_CONDITIONS,
        PromptConfig,
        VLMDecodingConfig,
        VQAConfig,
    )
    from pathreport.pathbind.data import read_vqa

    conditions = tuple(c.strip() for c in args.conditions.split(",") if c.strip())
    if conditions == ("all",):
        conditions = BASE_CONDITIONS + PERTURBATIONS
    colour = tuple(int(v) for v in _floats(args.blank_color, "--blank-color"))
    config = VQAConfig(
        conditions=conditions,
        blur_radii=_floats(args.blur_radii, "--blur-radii"),
        blank_color=colour,  # type: ignore[arg-type]
        prompts=PromptConfig(variant=args.prompt_variant, option_format=args.option_format),
        decoding=VLMDecodingConfig(
            do_sample=args.sample,
            **_same_named(args, "temperature", "top_p", "max_new_tokens", "seed"),
        ),
        **_same_named(args, "blank_size", "seed", "columns", "unparsed"),
    )
    items = read_vqa(args.questions, args.images)
    if args.limit is not None:
        if args.limit < 1:
            raise UserError(f"--limit must be >= 1, got {args.limit}.")
        items = items[: args.limit]
    out, doc = _run_model(
        args,
        "vqa",
        lambda vlm, name, out, **live: PathBind().vqa(
            vlm, items, out, config, questions_file=args.questions, name=name, **live
        ),
    )
    print((out / "table.md").read_text(encoding="utf-8"))
    unparsed = {c: v["count"] for c, v in doc["unparsed"].items() if v["count"]}
    if unparsed:
        print(f"Unparsed answers per condition: {unparsed} (see parse_reason in answers.jsonl).")
    print(f"Results: {out}")
    return 0


def run_grounding(args: argparse.Namespace) -> int:
    from pathreport.pathbind import PathBind
    from pathreport.pathbind.config import AttentionConfig, GroundingConfig
    from pathreport.pathbind.data import read_grounding

    if args.vlm is None and args.from_maps is None:
        raise UserError(
            "Pass --vlm <model>, or --from-maps <earlier run>/maps to rescore saved attention."
        )
    attention = ("layers", "order", "sigma", "upsample", "geometry", "system_prompt")
    config = GroundingConfig(
        sweep=_floats(args.sweep, "--sweep"),
        layer_ablation=tuple(v.strip() for v in args.layer_ablation.split(",") if v.strip()),
        pixel_ap=not args.no_pixel_ap,
        specificity=not args.no_specificity,
        save_maps=not args.no_save_maps,
        attention=AttentionConfig(**_same_named(args, *attention)),
        **_same_named(
            args, "q", "ties", "neff_map", "alternatives", "specificity_map", "seed", "box_format"
        ),
    )
    items = read_grounding(args.samples, args.images, box_format=args.box_format)
    if args.limit is not None:
        items = items[: args.limit]
    if args.from_maps is not None:
        name = args.name or args.vlm
        if name is None:
            previous = args.from_maps.parent / "run.json"
            name = (
                json.loads(previous.read_text())["model"]["name"]
                if previous.exists()
                else "rescored"
            )
        out = _run_dir(args, "grounding", name)
        if out.resolve() == args.from_maps.resolve().parent:
            raise UserError(
                f"Rescoring into {out} would overwrite the run the maps come from; pass "
                "another --name or --out."
            )
        PathBind().grounding(
            None,
            items,
            out,
            config,
            samples_file=args.samples,
            from_maps=args.from_maps,
            model_name=name,
        )
    else:
        out, _ = _run_model(
            args,
            "grounding",
            lambda vlm, name, out, **live: PathBind().grounding(
                vlm, items, out, config, samples_file=args.samples, model_name=name, **live
            ),
        )
    print((out / "table.md").read_text(encoding="utf-8"))
    print(f"Results: {out}")
    return 0


def run_table(args: argparse.Namespace) -> int:
    from pathreport.pathbind.evaluator import load_summaries
    from pathreport.pathbind.tables import build_tables, write_tables

    vqa_docs, grounding_docs = load_summaries(args.results)
    out = args.out or (args.results[0] / "tables")
    tables = build_tables(vqa_docs, grounding_docs)
    write_tables(tables, out)
    print("\n".join(t.to_markdown() for t in tables))
    print(f"Tables (Markdown and CSV): {out}")
    return 0
