"""The PathLang prompt corpus: loading, checking and extending the prompt files.

The prompts are benchmark data, never code. The package ships the paper's corpus verbatim
(``resources/pathlang_prompts.json``, from Appendix D of Gong et al., "PathLang: A Language-Centered
Benchmark for Vision-Language Models in Computational Pathology") and a small companion file
(``resources/pathlang_datasets.json``) with what the prompt tables do not say: each dataset's
command-line name, the positive class of binary tasks, and class-name aliases.

A prompts file has one section per resource, each keyed by dataset then class::

    T1_canonical        {dataset: {class: str}}                      one prompt per class (T1)
    T2_positive_bank    {dataset: {class: [str, ...]}}               positive descriptions (T2)
    T3_V1_paraphrases   {dataset: {class: [str, ...]}}               same count for every class
    T3_V2_length_style  {dataset: {class: {style: str}}}             same styles for every class
    T4_set1             {"shared_pool": [str], "gt": {dataset: {class: str}}}
    T4_set2             {dataset: {class: {"gt": str, "pool": [str]}}}
    T4_set3             {dataset: {"shared_pool": [str],
                                   "labels": {class: {"gt": str, "label_specific": str}}}}
    T4_set4             {"shared_pool": [str], "gt": {dataset: {class: str}}}
    _datasets           {dataset: {"name": str, "positive_class": str|null,
                                   "aliases": {alias: class}}}

``T1_canonical`` defines a dataset and the order of its classes; every other section is optional
per dataset (a task whose prompts are missing cannot run on that dataset and says so). A user file
is merged over the shipped corpus one dataset at a time, so a sixth dataset is one file with the
same sections, and a user's entry for a shipped dataset replaces the paper's prompts for it. A
``shared_pool`` in a user file replaces the shipped pool of that set for every dataset (Sets 1 and
4 are shared by design). Strings are used exactly as written: case, punctuation and dashes are
part of the benchmark.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pathreport.errors import PathreportError
from pathreport.registry import did_you_mean

PROMPTS_RESOURCE = "pathlang_prompts.json"
DATASETS_RESOURCE = "pathlang_datasets.json"

PER_DATASET_SECTIONS = (
    "T1_canonical",
    "T2_positive_bank",
    "T3_V1_paraphrases",
    "T3_V2_length_style",
    "T4_set2",
    "T4_set3",
)
SHARED_POOL_SECTIONS = ("T4_set1", "T4_set4")
SECTIONS = (*PER_DATASET_SECTIONS[:4], "T4_set1", "T4_set2", "T4_set3", "T4_set4")
# The paper's tables print an en dash where a label has no label-specific Set 3 candidate.
NO_CANDIDATE = "\u2013"


class CorpusError(PathreportError, ValueError):
    """A prompts file that does not have the documented shape."""


@dataclass(frozen=True)
class SharedPool:
    """A candidate pool every slide shares (T4 Sets 1 and 4): the pool and each class's target."""

    pool: tuple[str, ...]
    targets: tuple[str, ...]


@dataclass(frozen=True)
class DatasetPrompts:
    """Every prompt of one dataset, with classes in the order of its T1 canonical prompts.

    Per-class tuples are indexed like :attr:`classes`. A section the prompt file does not give for
    this dataset is ``None``.
    """

    key: str
    name: str
    classes: tuple[str, ...]
    canonical: tuple[str, ...]
    positive_class: str | None = None
    aliases: Mapping[str, str] = field(default_factory=dict)
    positives: tuple[tuple[str, ...], ...] | None = None
    paraphrases: tuple[tuple[str, ...], ...] | None = None
    style_names: tuple[str, ...] = ()
    styles: tuple[tuple[str, ...], ...] | None = None
    set1: SharedPool | None = None
    set2: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    set3_shared_pool: tuple[str, ...] | None = None
    set3_labels: tuple[tuple[str, str], ...] | None = None
    set4: SharedPool | None = None

    @property
    def num_classes(self) -> int:
        return len(self.classes)

    def class_index(self, label: str) -> int | None:
        """Index of ``label`` among :attr:`classes`: exact name, alias, then case-insensitive."""
        if label in self.classes:
            return self.classes.index(label)
        if label in self.aliases:
            return self.classes.index(self.aliases[label])
        folded = label.strip().casefold()
        for i, name in enumerate(self.classes):
            if name.casefold() == folded:
                return i
        for alias, target in self.aliases.items():
            if alias.casefold() == folded:
                return self.classes.index(target)
        return None

    def accepted_labels(self) -> list[str]:
        """Every spelling :meth:`class_index` accepts (for error messages)."""
        return [*self.classes, *self.aliases]

    def require(self, section: str) -> None:
        """Raise a clear error when the prompts a task needs are missing for this dataset."""
        attribute = _SECTION_ATTRIBUTE[section]
        if getattr(self, attribute) is None:
            raise CorpusError(
                f"Dataset '{self.key}' has no {section} prompts, which this task needs. Add a "
                f"'{section}' section for '{self.key}' to your prompts file (--prompts), or "
                "leave the task out (--tasks)."
            )


_SECTION_ATTRIBUTE = {
    "T1_canonical": "canonical",
    "T2_positive_bank": "positives",
    "T3_V1_paraphrases": "paraphrases",
    "T3_V2_length_style": "styles",
    "T4_set1": "set1",
    "T4_set2": "set2",
    "T4_set3": "set3_labels",
    "T4_set4": "set4",
}


@dataclass(frozen=True)
class Corpus:
    """The datasets of a merged prompt corpus, and where its text came from."""

    datasets: Mapping[str, DatasetPrompts]
    sources: tuple[str, ...]
    sha256: Mapping[str, str]

    def names(self) -> list[str]:
        return sorted(self.datasets)

    def dataset(self, name: str) -> DatasetPrompts:
        """The dataset called ``name`` (command-line name or corpus key, any case)."""
        wanted = dataset_name(name)
        for ds in self.datasets.values():
            if wanted in (ds.name, dataset_name(ds.key)):
                return ds
        hint = did_you_mean(wanted, self.names())
        raise CorpusError(
            f"Unknown PathLang dataset '{name}'. {hint + ' ' if hint else ''}Datasets with "
            f"prompts: {', '.join(self.names())}. A new dataset needs its prompts in a file "
            "given with --prompts."
        )

    def all_positives(self) -> list[tuple[str, str, str]]:
        """(dataset key, class, text) of every T2 positive description, in corpus order."""
        rows = []
        for ds in self.datasets.values():
            for cls, texts in zip(ds.classes, ds.positives or (), strict=False):
                rows.extend((ds.key, cls, t) for t in texts)
        return rows

    def set4_one_per_label(self) -> tuple[str, ...]:
        """The Set 4 pool built as one entry per label of every dataset (duplicates kept)."""
        return tuple(t for ds in self.datasets.values() if ds.set4 for t in ds.set4.targets)

    def all_texts(self) -> list[str]:
        """Every distinct string of the corpus, in a stable order (for embedding files)."""
        seen: dict[str, None] = {}
        for ds in self.datasets.values():
            groups: list[tuple[str, ...]] = [ds.canonical]
            groups += list(ds.positives or ()) + list(ds.paraphrases or ()) + list(ds.styles or ())
            for pool in (ds.set1, ds.set4):
                if pool:
                    groups += [pool.pool, pool.targets]
            for gt, pool in ds.set2 or ():
                groups.append((gt, *pool))
            if ds.set3_labels:
                groups.append(ds.set3_shared_pool or ())
                groups += [tuple(t for t in pair if t != NO_CANDIDATE) for pair in ds.set3_labels]
            for group in groups:
                seen.update(dict.fromkeys(group))
        return list(seen)


def dataset_name(key: str) -> str:
    """The command-line name of a dataset key: ``TCGA-GBMLGG`` becomes ``tcga_gbmlgg``."""
    name = re.sub(r"[^a-z0-9]+", "_", str(key).casefold()).strip("_")
    return name if name[:1].isalpha() else f"d_{name}"


def builtin_prompts_path() -> Path:
    """The shipped corpus file (the paper's Appendix D, verbatim)."""
    return Path(str(resources.files("pathreport") / "resources" / PROMPTS_RESOURCE))


def load_corpus(
    prompts_file: str | os.PathLike | None = None, *, include_builtin: bool = True
) -> Corpus:
    """Load the shipped corpus, merged with a user's prompts file when one is given.

    Args:
        prompts_file: a file in the documented format (new datasets, or replacements).
        include_builtin: start from the shipped corpus (``False`` uses the user's file alone).
    """
    raw: dict[str, Any] = {section: {} for section in SECTIONS}
    meta: dict[str, dict[str, Any]] = {}
    origin: dict[tuple[str, str], str] = {}
    sources: list[str] = []
    digests: dict[str, str] = {}
    files: list[tuple[Path, str]] = []
    if include_builtin:
        files.append((builtin_prompts_path(), "pathreport:resources/" + PROMPTS_RESOURCE))
        meta.update(
            _read_json(Path(str(resources.files("pathreport") / "resources" / DATASETS_RESOURCE)))
        )
        meta.pop("_meta", None)
    if prompts_file is not None:
        files.append((Path(prompts_file), str(prompts_file)))
    if not files:
        raise CorpusError("No prompts: give a prompts file or include the shipped corpus.")
    for path, label in files:
        data = _read_json(path)
        sources.append(label)
        digests[label] = hashlib.sha256(path.read_bytes()).hexdigest()
        _merge(raw, meta, origin, data, label)
    built = [_build_dataset(key, raw, meta.get(key, {}), origin) for key in raw["T1_canonical"]]
    _check_unique_names(built)
    return Corpus(datasets={ds.name: ds for ds in built}, sources=tuple(sources), sha256=digests)


# -- reading and merging -----------------------------------------------------------------------


def _read_json(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise FileNotFoundError(f"Prompts file {path} does not exist.")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise CorpusError(
            f"{path} is not valid UTF-8 JSON ({err}); fix the file and retry."
        ) from None
    if not isinstance(data, dict):
        raise CorpusError(
            f"{path}: expected a JSON object with sections {list(SECTIONS)}, "
            f"found {type(data).__name__}."
        )
    return data


def _merge(
    raw: dict[str, Any],
    meta: dict[str, Any],
    origin: dict[tuple[str, str], str],
    data: dict[str, Any],
    label: str,
) -> None:
    unknown = sorted(k for k in data if k not in SECTIONS and k not in ("_meta", "_datasets"))
    if unknown:
        hint = did_you_mean(unknown[0], list(SECTIONS))
        raise CorpusError(
            f"{label}: unknown section(s) {unknown}. {hint + ' ' if hint else ''}Sections are "
            f"{', '.join(SECTIONS)} (and optional _datasets, _meta)."
        )
    extra_meta = data.get("_datasets", {})
    if not isinstance(extra_meta, dict):
        raise CorpusError(
            f"{label}: _datasets must map dataset keys to objects, "
            f"found {type(extra_meta).__name__}."
        )
    for key, value in extra_meta.items():
        meta[key] = {**meta.get(key, {}), **_expect(value, dict, label, f"_datasets.{key}")}
    for section in PER_DATASET_SECTIONS:
        for key, value in _expect(data.get(section, {}), dict, label, section).items():
            raw[section][key] = value
            origin[(section, key)] = label
    for section in SHARED_POOL_SECTIONS:
        block = _expect(data.get(section, {}), dict, label, section)
        stray = sorted(set(block) - {"shared_pool", "gt"})
        if stray:
            raise CorpusError(
                f"{label}: {section} holds 'shared_pool' and 'gt' only, found also {stray}."
            )
        if "shared_pool" in block:
            raw[section]["shared_pool"] = block["shared_pool"]
            origin[(section, "shared_pool")] = label
        gts = raw[section].setdefault("gt", {})
        for key, value in _expect(block.get("gt", {}), dict, label, f"{section}.gt").items():
            gts[key] = value
            origin[(section, key)] = label


def _expect(value: Any, kind: type, label: str, where: str) -> Any:
    if not isinstance(value, kind):
        expected = {dict: "an object", list: "a list", str: "a string"}[kind]
        raise CorpusError(
            f"{label}: {where} should be {expected}, found {type(value).__name__} "
            f"({_short(value)})."
        )
    return value


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _strings(value: Any, label: str, where: str, *, allow_empty: bool = False) -> tuple[str, ...]:
    items = _expect(value, list, label, where)
    if not items and not allow_empty:
        raise CorpusError(f"{label}: {where} is an empty list; give at least one string.")
    for i, item in enumerate(items):
        _text(item, label, f"{where}[{i}]")
    return tuple(items)


def _text(value: Any, label: str, where: str) -> str:
    text = _expect(value, str, label, where)
    if not text.strip():
        raise CorpusError(f"{label}: {where} is an empty string; every prompt needs text.")
    return text


# -- building one dataset --------------------------------------------------------------------


def _build_dataset(
    key: str, raw: dict[str, Any], meta: dict[str, Any], origin: dict[tuple[str, str], str]
) -> DatasetPrompts:
    t1_label = origin[("T1_canonical", key)]
    canonical_map = _expect(raw["T1_canonical"][key], dict, t1_label, f"T1_canonical.{key}")
    if len(canonical_map) < 2:
        raise CorpusError(
            f"{t1_label}: T1_canonical.{key} defines {len(canonical_map)} class(es); a "
            "classification task needs at least 2."
        )
    classes = tuple(canonical_map)
    canonical = tuple(
        _text(v, t1_label, f"T1_canonical.{key}.{c}") for c, v in canonical_map.items()
    )
    aliases = {
        str(a): str(t)
        for a, t in _expect(meta.get("aliases", {}), dict, "_datasets", f"{key}.aliases").items()
    }
    for alias, target in aliases.items():
        if target not in classes:
            raise CorpusError(
                f"_datasets.{key}.aliases maps '{alias}' to '{target}', which is not a class "
                f"of {key} (classes: {list(classes)})."
            )
    folded = [c.casefold() for c in classes]
    if len(set(folded)) != len(folded):
        raise CorpusError(
            f"{t1_label}: T1_canonical.{key} has classes that differ only in case: {list(classes)}."
        )
    positive = meta.get("positive_class")
    if positive is not None and positive not in classes:
        raise CorpusError(
            f"_datasets.{key}.positive_class is '{positive}', not one of {list(classes)}."
        )
    builder = _ClassKeyed(key, classes, aliases, origin)

    positives = builder.section(raw, "T2_positive_bank", lambda v, lab, w: _strings(v, lab, w))
    paraphrases = builder.section(raw, "T3_V1_paraphrases", lambda v, lab, w: _strings(v, lab, w))
    if paraphrases is not None:
        _same_length(
            paraphrases,
            classes,
            origin[("T3_V1_paraphrases", key)],
            f"T3_V1_paraphrases.{key}",
            "paraphrases",
        )
    style_maps = builder.section(
        raw, "T3_V2_length_style", lambda v, lab, w: _expect(v, dict, lab, w)
    )
    style_names: tuple[str, ...] = ()
    styles = None
    if style_maps is not None:
        style_label = origin[("T3_V2_length_style", key)]
        style_names = tuple(style_maps[0])
        for cls, styles_of in zip(classes, style_maps, strict=True):
            if tuple(styles_of) != style_names:
                raise CorpusError(
                    f"{style_label}: T3_V2_length_style.{key}.{cls} has "
                    f"styles {list(styles_of)}, expected {list(style_names)} like the first "
                    "class; every class needs the same styles in the same order."
                )
        styles = tuple(
            tuple(
                _text(s, style_label, f"T3_V2_length_style.{key}.{cls}.{name}")
                for name, s in m.items()
            )
            for cls, m in zip(classes, style_maps, strict=True)
        )
    set2 = builder.section(raw, "T4_set2", _set2_entry)
    set3_pool, set3_labels = _set3(key, raw, builder, origin)
    return DatasetPrompts(
        key=key,
        name=str(meta.get("name") or dataset_name(key)),
        classes=classes,
        canonical=canonical,
        positive_class=positive,
        aliases=aliases,
        positives=positives,
        paraphrases=paraphrases,
        style_names=style_names,
        styles=styles,
        set1=_shared_pool(key, raw, "T4_set1", builder, origin),
        set2=set2,
        set3_shared_pool=set3_pool,
        set3_labels=set3_labels,
        set4=_shared_pool(key, raw, "T4_set4", builder, origin),
    )


@dataclass
class _ClassKeyed:
    """Reads ``{class: value}`` blocks whose class names may be aliases of the T1 names."""

    key: str
    classes: tuple[str, ...]
    aliases: dict[str, str]
    origin: dict[tuple[str, str], str]

    def section(self, raw: dict[str, Any], section: str, parse: Any) -> tuple[Any, ...] | None:
        if self.key not in raw[section]:
            return None
        label = self.origin[(section, self.key)]
        block = _expect(raw[section][self.key], dict, label, f"{section}.{self.key}")
        return self.per_class(block, label, f"{section}.{self.key}", parse)

    def per_class(
        self, block: dict[str, Any], label: str, where: str, parse: Any
    ) -> tuple[Any, ...]:
        by_class: dict[str, Any] = {}
        for name, value in block.items():
            target = self.aliases.get(name, name)
            if target not in self.classes:
                hint = did_you_mean(name, list(self.classes))
                raise CorpusError(
                    f"{label}: {where} has class '{name}', which T1_canonical.{self.key} does not "
                    f"define (classes: {list(self.classes)}). {hint + ' ' if hint else ''}Rename "
                    "it, or map it with "
                    f'"_datasets": {{"{self.key}": {{"aliases": {{"{name}": "<class>"}}}}}}.'
                )
            if target in by_class:
                raise CorpusError(
                    f"{label}: {where} gives class '{target}' twice (once as '{name}')."
                )
            by_class[target] = parse(value, label, f"{where}.{name}")
        missing = [c for c in self.classes if c not in by_class]
        if missing:
            raise CorpusError(
                f"{label}: {where} lacks class(es) {missing}; every class of "
                f"T1_canonical.{self.key} needs an entry."
            )
        return tuple(by_class[c] for c in self.classes)


def _same_length(
    groups: tuple[tuple[str, ...], ...], classes: tuple[str, ...], label: str, where: str, what: str
) -> None:
    counts = {c: len(g) for c, g in zip(classes, groups, strict=True)}
    if len(set(counts.values())) != 1:
        raise CorpusError(
            f"{label}: {where} has different numbers of {what} per class {counts}; variant k is "
            "one classifier over all classes, so every class needs the same number."
        )


def _set2_entry(value: Any, label: str, where: str) -> tuple[str, tuple[str, ...]]:
    entry = _expect(value, dict, label, where)
    gt = _text(entry.get("gt"), label, f"{where}.gt")
    pool = _strings(entry.get("pool"), label, f"{where}.pool")
    if gt not in pool:
        raise CorpusError(
            f"{label}: {where}.gt '{gt}' is not in its pool; the ground truth must be a candidate."
        )
    return gt, pool


def _shared_pool(
    key: str,
    raw: dict[str, Any],
    section: str,
    builder: _ClassKeyed,
    origin: dict[tuple[str, str], str],
) -> SharedPool | None:
    gts = raw[section].get("gt", {})
    if key not in gts:
        return None
    if "shared_pool" not in raw[section]:
        raise CorpusError(
            f"{origin[(section, key)]}: {section} gives targets for {key} but no shared_pool."
        )
    pool_label = origin[(section, "shared_pool")]
    pool = _strings(raw[section]["shared_pool"], pool_label, f"{section}.shared_pool")
    label = origin[(section, key)]
    targets = builder.per_class(
        _expect(gts[key], dict, label, f"{section}.gt.{key}"),
        label,
        f"{section}.gt.{key}",
        lambda v, lab, w: _text(v, lab, w),
    )
    for cls, target in zip(builder.classes, targets, strict=True):
        if target not in pool:
            raise CorpusError(
                f"{label}: {section}.gt.{key}.{cls} is '{target}', which is not "
                f"in {section}.shared_pool (from {pool_label}). Add it to the shared pool of "
                "your prompts file."
            )
    return SharedPool(pool=pool, targets=targets)


def _set3(
    key: str, raw: dict[str, Any], builder: _ClassKeyed, origin: dict[tuple[str, str], str]
) -> tuple[tuple[str, ...] | None, tuple[tuple[str, str], ...] | None]:
    if key not in raw["T4_set3"]:
        return None, None
    label = origin[("T4_set3", key)]
    block = _expect(raw["T4_set3"][key], dict, label, f"T4_set3.{key}")
    pool = _strings(block.get("shared_pool"), label, f"T4_set3.{key}.shared_pool")

    def entry(value: Any, lab: str, where: str) -> tuple[str, str]:
        item = _expect(value, dict, lab, where)
        gt = _text(item.get("gt"), lab, f"{where}.gt")
        specific = item.get("label_specific", NO_CANDIDATE)
        return gt, _text(specific, lab, f"{where}.label_specific")

    labels = builder.per_class(
        _expect(block.get("labels"), dict, label, f"T4_set3.{key}.labels"),
        label,
        f"T4_set3.{key}.labels",
        entry,
    )
    return pool, labels


def _check_unique_names(datasets: list[DatasetPrompts]) -> None:
    keys_by_name: dict[str, list[str]] = {}
    for ds in datasets:
        keys_by_name.setdefault(ds.name, []).append(ds.key)
    clash = {n: k for n, k in keys_by_name.items() if len(k) > 1}
    if clash:
        raise CorpusError(
            f"Datasets {clash} share a command-line name; set a distinct _datasets.<key>.name."
        )
