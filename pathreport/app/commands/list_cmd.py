"""``pathreport list <kind>``: what is registered, with provider and metadata."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from pathreport import paths
from pathreport.registry import REGISTRIES, RegistryError, did_you_mean

KINDS = tuple(REGISTRIES)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("list", help="list registered plug-ins of one kind")
    parser.add_argument("kind", choices=KINDS, help="which registry to print")
    parser.add_argument("--json", action="store_true", help="print JSON rows instead of a table")
    parser.add_argument("-v", "--verbose", action="store_true", help="show every metadata field")
    parser.set_defaults(func=run)


# Columns shown per kind in the compact table (all fields with --verbose or --json).
COLUMNS = {
    "models": ("name", "paper", "kind", "provider"),
    "encoders": (
        "name",
        "model",
        "trident_name",
        "kind",
        "embedding_dim",
        "patch_size",
        "magnification",
        "gated",
    ),
    "datasets": ("name", "cleaning", "max_report_tokens", "description"),
    "evaluators": ("name", "kind", "metrics", "needs", "description"),
    "judge_backends": ("name", "needs", "description"),
    "commands": ("name", "help", "provider"),
}


def run(args: argparse.Namespace) -> int:
    rows = describe(args.kind)
    if args.json:
        print(json.dumps(rows, indent=2, default=str))
        return 0
    if not rows:
        print(f"No {args.kind} registered.")
        return 0
    columns = COLUMNS.get(args.kind, ("name", "description", "provider"))
    if args.verbose:
        columns = tuple(dict.fromkeys(k for row in rows for k in row))
    table = [[_cell(row.get(c, "")) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in table)) for i, c in enumerate(columns)]
    print("  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in table:
        print("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())
    return 0


def _cell(value: object, limit: int = 60) -> str:
    if isinstance(value, (list, tuple)):
        value = ", ".join(str(v) for v in value)
    text = str(value).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(kind: str) -> list[dict[str, Any]]:
    """Rows for ``pathreport list <kind>``: name, provider and metadata of every entry."""
    from pathreport.evaluation.options import describe_options

    try:
        registry = REGISTRIES[kind]
    except KeyError:
        hint = did_you_mean(kind, list(REGISTRIES))
        raise RegistryError(
            f"Unknown registry '{kind}'. {hint + ' ' if hint else ''}Choose "
            f"from: {', '.join(REGISTRIES)}."
        ) from None
    rows = []
    for entry in registry.entries():
        row: dict[str, Any] = {"name": entry.name, "provider": _short_provider(entry.provider)}
        row.update({k: v for k, v in entry.metadata.items() if v not in (None, "", [], {})})
        if kind in ("evaluators", "judge_backends") and callable(entry.obj):
            row["options"] = describe_options(entry.obj)
        rows.append(row)
    return rows


def _short_provider(provider: str) -> str:
    try:
        return str(Path(provider).resolve().relative_to(paths.PROJECT_ROOT))
    except (ValueError, OSError):
        return provider
