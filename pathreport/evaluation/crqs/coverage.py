"""How much of real report text CRQS extracts: per-field coverage and the silent sentences.

Gaps in a schema are found, not guessed: for every field, the share of reports in which the
extractor finds it; and the most frequent report lines or sentences (numbers masked, case and
whitespace normalised) from which NO field is extracted. A frequent silent sentence is either
clinically empty ("Note) see comment") or a gap in the schema.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pathreport.evaluation.crqs.checkset_text import mask_digits, sentences_with_offsets


@dataclass
class Coverage:
    """Per-field extraction shares and the most frequent units with no extracted field."""

    n_reports: int
    field_share: dict[str, float]
    silent_units: list[tuple[str, int]]
    n_units: int
    n_silent_units: int


def report_units(text: str) -> list[str]:
    """Lines of ``text``; a line longer than 200 characters is split into its sentences."""
    units = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        if len(line) > 200:
            units.extend(s.strip() for _, _, s in sentences_with_offsets(line))
        else:
            units.append(line)
    return units


def measure_coverage(texts: Sequence[str], dataset: str, *, top: int = 30) -> Coverage:
    """Coverage of ``texts`` under ``dataset``'s schema and the rule extractor."""
    from pathreport.evaluation.crqs import get_extractor, load_schema

    schema = load_schema(dataset)
    extractor = get_extractor("rule", schema)
    present: Counter[str] = Counter()
    silent: Counter[str] = Counter()
    unit_cache: dict[str, bool] = {}
    n_units = 0
    for text in texts:
        present.update(extractor.extract(text).keys())
        for unit in report_units(text):
            n_units += 1
            key = mask_digits(unit)
            if key not in unit_cache:
                unit_cache[key] = not extractor.extract(unit)
            if unit_cache[key]:
                silent[key] += 1
    n = len(texts)
    share = {f.name: present[f.name] / n if n else 0.0 for f in schema.fields}
    return Coverage(n, share, silent.most_common(top), n_units, sum(silent.values()))


def format_coverage(cov: Coverage) -> str:
    """Coverage as text: one line per field (share, bar), then the silent units."""
    lines = [f"{cov.n_reports} reports; share of reports where each field is extracted:"]
    for name, share in sorted(cov.field_share.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {name:<28} {100 * share:6.1f}%  {'#' * round(20 * share)}")
    lines.append(
        f"{cov.n_silent_units} of {cov.n_units} lines/sentences yield no field; most frequent:"
    )
    for unit, count in cov.silent_units:
        lines.append(f"  {count:>6}  {unit}")
    return "\n".join(lines)
