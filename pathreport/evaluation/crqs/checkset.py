"""CRQS check sets built from real report text: (reference, equivalent rewrite, wrong edit).

A check set measures the one property CRQS exists for (PathReportEval, Table 3): a clinically
equivalent rewrite of a report must score above a clinically wrong edit of it, while lexical
metrics often prefer the wrong edit, which shares more words with the reference. A check set
written beside the extractor measures only itself, so this module GENERATES triplets from
report text the user provides (e.g. the REG 2025 training reports), with its own edit patterns
(:mod:`checkset_wrong`, :mod:`checkset_rewrite`), seeded and reproducible:

* every report gets at most one wrong edit per edit kind and a fresh composed rewrite for each;
* the report TEXT (not its id: REG repeats texts under many ids) decides the split, by a seeded
  hash, so ``dev`` and ``heldout`` never share a reference;
* each split is balanced over edit kinds, drawing round-robin over distinct phrasings so that a
  frequent template does not crowd out the rare wordings; the wording diversity is recorded.

Only the public CRQS API (:func:`pathreport.evaluation.crqs.score_pair`) scores a check set.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pathreport.evaluation.crqs.checkset_rewrite import equivalent_rewrite
from pathreport.evaluation.crqs.checkset_text import mask_digits
from pathreport.evaluation.crqs.checkset_wrong import wrong_edits
from pathreport.io import read_jsonl, write_json, write_jsonl

SPLITS = ("dev", "heldout")
TRIPLET_FIELDS = ("id", "dataset", "category", "reference", "rewrite", "wrong")


@dataclass(frozen=True)
class SourceReport:
    """One real report: its id in the source and its text."""

    id: str
    text: str


def read_split_reports(path: Path, split: str = "train") -> list[SourceReport]:
    """Reports of one split of a split file ``{"train": [{"id", "report"}], ...}``."""
    data = _read_json(path)
    if not isinstance(data, dict) or split not in data:
        found = sorted(data) if isinstance(data, dict) else type(data).__name__
        raise ValueError(
            f"{path}: expected a JSON object with a {split!r} list of {{'id', 'report'}}, found "
            f"{found}."
        )
    return _records(data[split], f"{path}[{split!r}]")


def read_report_file(path: Path) -> list[SourceReport]:
    """Reports of a JSON list or a JSON Lines file of ``{"id", "report"}`` objects."""
    if path.suffix == ".jsonl":
        return _records([row for _, row in _json_lines(path)], str(path))
    return _records(_read_json(path), str(path))


def _json_lines(path: Path) -> list[tuple[int, Any]]:
    """(line number, object) of each non-empty line; a bad line names the file and the line."""
    if not path.is_file():
        raise FileNotFoundError(f"File {path} does not exist.")
    return read_jsonl(path, error=ValueError)


def _read_json(path: Path) -> Any:
    if not path.is_file():
        raise FileNotFoundError(f"Report file {path} does not exist.")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not valid JSON ({err.msg} at line {err.lineno}).") from None


# Keys that hold the report text in the files this module reads (PathText uses "caption").
TEXT_KEYS = ("report", "caption", "text")


def _records(rows: Any, where: str) -> list[SourceReport]:
    if not isinstance(rows, list):
        raise ValueError(f"{where}: expected a list of {{'id', 'report'}} objects.")
    out = []
    for i, row in enumerate(rows):
        found = [row[k] for k in TEXT_KEYS if k in row] if isinstance(row, dict) else []
        text = found[0] if found else None
        if not isinstance(text, str):
            raise ValueError(
                f"{where}[{i}]: expected an object with a string 'report' (or 'caption', 'text')."
            )
        out.append(SourceReport(str(row.get("id", i)), text))
    return out


# ---------------------------------------------------------------------------- building
def text_key(text: str) -> str:
    """Identity of a report text up to whitespace and case (what a split is decided on)."""
    return hashlib.sha256(" ".join(text.lower().split()).encode()).hexdigest()


def split_of(text: str, seed: int) -> str:
    """``dev`` or ``heldout`` for a report text, 50/50 by a seeded hash of the text."""
    digest = hashlib.sha256(f"{seed}:{text_key(text)}".encode()).digest()
    return SPLITS[digest[0] % 2]


def triplets_of_report(report: SourceReport, dataset: str, seed: int) -> list[dict]:
    """One triplet per wrong-edit kind that applies to ``report``, each with its own rewrite."""
    key = text_key(report.text)
    rng = random.Random(f"{seed}:{key}")
    by_category: dict[str, list] = defaultdict(list)
    for edit in wrong_edits(report.text):
        by_category[edit.category].append(edit)
    out = []
    for category in sorted(by_category):
        edit = rng.choice(by_category[category])
        rewrite, ops = equivalent_rewrite(report.text, rng)
        if not ops:
            continue
        out.append(
            {
                "id": f"{dataset}-{key[:10]}-{category}",
                "dataset": dataset,
                "category": category,
                "field_hint": edit.field_hint,
                "reference": report.text,
                "rewrite": rewrite,
                "wrong": edit.text,
                "wrong_edit": edit.note,
                "wrong_span": edit.span,
                "rewrite_ops": ops,
                "source_id": report.id,
            }
        )
    return out


@dataclass
class CheckSet:
    """The generated pool and its balanced splits."""

    pool: dict[str, list[dict]]
    splits: dict[str, list[dict]]
    n_reports: int
    n_unique_reports: int
    seed: int
    settings: dict[str, Any] = field(default_factory=dict)


def build_checkset(
    reports: Iterable[SourceReport],
    dataset: str,
    *,
    seed: int = 0,
    max_per_category: int = 60,
) -> CheckSet:
    """Triplets of every unique report, split by text hash, balanced over edit kinds."""
    reports = list(reports)
    unique: dict[str, SourceReport] = {}
    for r in reports:
        if r.text.strip():
            key = text_key(r.text)
            # a text repeated under several ids is one source; keep its smallest id (order-free)
            if key not in unique or r.id < unique[key].id:
                unique[key] = r
    pool: dict[str, list[dict]] = {s: [] for s in SPLITS}
    for key in sorted(unique):
        report = unique[key]
        pool[split_of(report.text, seed)].extend(triplets_of_report(report, dataset, seed))
    splits = {s: balance(pool[s], max_per_category, seed) for s in SPLITS}
    return CheckSet(
        pool,
        splits,
        len(reports),
        len(unique),
        seed,
        {"max_per_category": max_per_category, "dataset": dataset},
    )


def balance(triplets: Sequence[dict], max_per_category: int, seed: int) -> list[dict]:
    """At most ``max_per_category`` per edit kind, round-robin over distinct edited wordings."""
    rng = random.Random(seed)
    out = []
    by_category: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for t in triplets:
        by_category[t["category"]][_phrasing(t)].append(t)
    for category in sorted(by_category):
        groups = [by_category[category][k] for k in sorted(by_category[category])]
        for g in groups:
            rng.shuffle(g)
        rng.shuffle(groups)
        picked: list[dict] = []
        while len(picked) < max_per_category and any(groups):
            for g in groups:
                if g and len(picked) < max_per_category:
                    picked.append(g.pop())
        out.extend(picked)
    return sorted(out, key=lambda t: t["id"])


def _phrasing(t: dict) -> str:
    return mask_digits(t["wrong_span"]) + " | " + mask_digits(t["reference"])[:80]


def diversity(triplets: Sequence[dict]) -> dict[str, Any]:
    """Distinct wordings per edit kind and field: edited phrasings, references, rewrite kinds."""
    per: dict[str, dict[str, set]] = defaultdict(lambda: defaultdict(set))
    for t in triplets:
        for key in (f"category:{t['category']}", f"field:{t['field_hint']}"):
            per[key]["phrasings"].add(mask_digits(t["wrong_span"]))
            per[key]["references"].add(mask_digits(t["reference"]))
            per[key]["rewrite_ops"].update(t["rewrite_ops"])
            per[key]["n"].add(t["id"])
    table = {
        k: {
            "n": len(v["n"]),
            "distinct_phrasings": len(v["phrasings"]),
            "distinct_references": len(v["references"]),
            "distinct_rewrite_ops": len(v["rewrite_ops"]),
        }
        for k, v in sorted(per.items())
    }
    ops = Counter(op.split(":")[0] for t in triplets for op in t["rewrite_ops"])
    return {
        "n_triplets": len(triplets),
        "distinct_references": len({mask_digits(t["reference"]) for t in triplets}),
        "distinct_rewrite_ops": len({op for t in triplets for op in t["rewrite_ops"]}),
        "rewrite_kinds": dict(sorted(ops.items())),
        "per": table,
    }


def write_checkset(checkset: CheckSet, out_dir: Path, dataset: str, source: str) -> list[Path]:
    """``<dataset>_{dev,heldout,pool}.jsonl`` and ``<dataset>_diversity.json`` in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, rows in (
        ("dev", checkset.splits["dev"]),
        ("heldout", checkset.splits["heldout"]),
        ("pool", checkset.pool["dev"] + checkset.pool["heldout"]),
    ):
        written.append(write_jsonl(out_dir / f"{dataset}_{name}.jsonl", rows))
    meta = {
        "dataset": dataset,
        "source": source,
        "seed": checkset.seed,
        "n_source_reports": checkset.n_reports,
        "n_unique_reports": checkset.n_unique_reports,
        "settings": checkset.settings,
        "splits": {s: diversity(checkset.splits[s]) for s in SPLITS},
        "pool": {s: len(checkset.pool[s]) for s in SPLITS},
    }
    return written + [write_json(out_dir / f"{dataset}_diversity.json", meta)]


def read_triplets(path: Path) -> list[dict]:
    """Triplets of a JSON Lines check-set file, each checked for the fields a run needs."""
    out = []
    for lineno, row in _json_lines(path):
        missing = [
            k
            for k in TRIPLET_FIELDS
            if not isinstance(row.get(k) if isinstance(row, dict) else None, str)
        ]
        if missing:
            raise ValueError(
                f"{path}:{lineno}: triplet lacks string field(s) {', '.join(missing)}; "
                f"expected {{{', '.join(TRIPLET_FIELDS)}}}."
            )
        out.append(row)
    if not out:
        raise ValueError(f"{path}: no triplets.")
    return out


# ---------------------------------------------------------------------------- running
def run_checkset(
    triplets: Sequence[dict], *, schema_profile: str | None = None, meteor: bool = False
) -> dict[str, Any]:
    """Share of triplets where each metric ranks the rewrite above the wrong edit.

    Returns per category and overall: n, CRQS / BLEU-4 / METEOR win shares (METEOR None when
    not asked for or unavailable), the share of references scoring >= 0.99 against themselves,
    of rewrites scoring >= 0.99 and of wrong edits scoring < 0.99 (which side a failure is
    on); plus the failed triplets (CRQS not preferring the rewrite) for inspection.
    """
    from pathreport.evaluation.crqs import score_pair
    from pathreport.evaluation.nlg import compute_nlg, java_available

    kwargs = {"profile": schema_profile}
    rows = []
    for t in triplets:
        ds = t["dataset"]
        rewrite = score_pair(t["reference"], t["rewrite"], ds, **kwargs)
        wrong = score_pair(t["reference"], t["wrong"], ds, **kwargs)
        own = score_pair(t["reference"], t["reference"], ds, **kwargs)
        rows.append({"crqs_rewrite": rewrite.CRQS, "crqs_wrong": wrong.CRQS, "crqs_self": own.CRQS})
    refs = [t["reference"] for t in triplets]
    normalization = "ptb" if java_available() else "simple"
    unavailable: dict[str, str] = {}
    lexical: dict[str, list[tuple[float | None, float | None]]] = {}
    _, per_rw, un1 = compute_nlg(
        refs, [t["rewrite"] for t in triplets], normalization=normalization, meteor=meteor
    )
    _, per_wr, un2 = compute_nlg(
        refs, [t["wrong"] for t in triplets], normalization=normalization, meteor=meteor
    )
    unavailable.update(un1)
    unavailable.update(un2)
    for metric in ("BLEU_4", "METEOR"):
        lexical[metric] = [
            (a.get(metric), b.get(metric)) for a, b in zip(per_rw, per_wr, strict=True)
        ]
    groups: dict[str, list[int]] = defaultdict(list)
    for i, t in enumerate(triplets):
        groups[f"{t['dataset']}/{t['category']}"].append(i)
        groups[f"{t['dataset']}/ALL"].append(i)
    table = {}
    for name in sorted(groups):
        idx = groups[name]
        table[name] = {
            "n": len(idx),
            "crqs": _share(rows[i]["crqs_rewrite"] > rows[i]["crqs_wrong"] for i in idx),
            "bleu4": _share_pairs([lexical["BLEU_4"][i] for i in idx]),
            "meteor": _share_pairs([lexical["METEOR"][i] for i in idx]) if meteor else None,
            "self_ge_099": _share(rows[i]["crqs_self"] >= 0.99 for i in idx),
            # why a triplet fails: the rewrite lost credit, or the wrong edit went unnoticed
            "rewrite_ge_099": _share(rows[i]["crqs_rewrite"] >= 0.99 for i in idx),
            "wrong_lt_099": _share(rows[i]["crqs_wrong"] < 0.99 for i in idx),
        }
    failures = [
        {**t, **rows[i]}
        for i, t in enumerate(triplets)
        if not rows[i]["crqs_rewrite"] > rows[i]["crqs_wrong"]
    ]
    return {
        "table": table,
        "failures": failures,
        "text_normalization": normalization,
        "unavailable": unavailable,
        "schema_profile": schema_profile or "complete",
    }


def _share(flags: Iterable[bool]) -> float:
    flags = list(flags)
    return sum(flags) / len(flags) if flags else float("nan")


def _share_pairs(pairs: Sequence[tuple[float | None, float | None]]) -> float | None:
    if any(a is None or b is None for a, b in pairs):
        return None
    return _share(a > b for a, b in pairs)


def format_table(result: dict[str, Any]) -> str:
    """The run's per-category table as fixed-width text."""
    head = (
        f"{'dataset/category':<34} {'n':>5} {'CRQS':>7} {'BLEU-4':>7} {'METEOR':>7} "
        f"{'self>=.99':>9} {'rewrite>=.99':>12} {'wrong<.99':>9}"
    )
    lines = [head, "-" * len(head)]
    for name, row in result["table"].items():
        lines.append(
            f"{name:<34} {row['n']:>5} {_pct(row['crqs']):>7} {_pct(row['bleu4']):>7} "
            f"{_pct(row['meteor']):>7} {_pct(row['self_ge_099']):>9} "
            f"{_pct(row['rewrite_ge_099']):>12} {_pct(row['wrong_lt_099']):>9}"
        )
    return "\n".join(lines)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"
