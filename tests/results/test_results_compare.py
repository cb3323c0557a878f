"""Paired comparison of two systems: per-case files, seeds, same-slides rule, selectors, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pathreport.app.cli import main
from pathreport.results.collect import collect_local
from pathreport.results.compare import compare_systems, parse_selector, resolve_system
from pathreport.results.per_case import read_per_case
from pathreport.results.store import ResultsError, runs_to_frame, write_table
from tests.helpers.results import real_runs, write_run


def _system_run(folder: Path, model: str, encoder: str, seed: int, crqs: dict[str, float]) -> Path:
    """A run whose per-slide CRQS is `crqs` (BLEU_4 half of it) and whose summary CRQS its mean."""
    per_case = {case: {"CRQS": value, "BLEU_4": value / 2} for case, value in crqs.items()}
    mean = round(sum(crqs.values()) / len(crqs), 10)
    return write_run(folder, model=model, encoder=encoder, seed=seed, per_case=per_case, CRQS=mean)


def test_compare_uses_per_case_scores_and_averages_a_systems_seeds(tmp_path):
    _system_run(tmp_path / "a0", "histgen", "uni2", 0, {"s1": 0.5, "s2": 0.7, "s3": 0.9})
    _system_run(tmp_path / "a1", "histgen", "uni2", 1, {"s1": 0.7, "s2": 0.9, "s3": 0.5})
    _system_run(tmp_path / "b0", "bigen", "uni2", 0, {"s1": 0.1, "s2": 0.2, "s3": 0.3})
    table = runs_to_frame(collect_local([tmp_path]).runs)
    a = resolve_system("histgen:uni2", table)
    b = resolve_system("model=bigen,encoder=uni2", table)
    result = compare_systems(a, b, metrics=["CRQS", "BLEU_4", "METEOR"], n_resamples=2000)
    assert a.scores["s1"]["CRQS"] == pytest.approx(0.6)  # mean of the two seeds on that slide
    crqs = result.results["CRQS"]
    assert (crqs.mean_a, crqs.mean_b, crqs.difference, crqs.n) == (
        pytest.approx(0.7),
        pytest.approx(0.2),
        pytest.approx(0.5),
        3,
    )
    assert result.results["BLEU_4"].difference == pytest.approx(0.25)
    assert result.results["METEOR"] is None and "no per-slide scores" in result.reasons["METEOR"]
    assert any("mean over 2 runs (seeds 0,1)" in n for n in result.notes)


def test_compare_refuses_different_slide_sets_unless_allowed(tmp_path):
    a = _system_run(tmp_path / "a", "histgen", "uni2", 0, {"s1": 0.5, "s2": 0.7, "s3": 0.9})
    b = _system_run(tmp_path / "b", "bigen", "uni2", 0, {"s1": 0.1, "s2": 0.2, "s4": 0.3})
    with pytest.raises(
        ResultsError,
        match=r"scored different slides: 1 only in A \['s3'\], 1 only in B \['s4'\], 2 in both.*"
        r"--allow-different-sets",
    ):
        compare_systems(resolve_system(str(a), None), resolve_system(str(b), None))
    result = compare_systems(
        resolve_system(str(a), None),
        resolve_system(str(b), None),
        metrics=["CRQS"],
        allow_different_sets=True,
        n_resamples=500,
    )
    assert result.results["CRQS"].n == 2 and result.results["CRQS"].difference == pytest.approx(
        0.45
    )
    assert any("Compared on the slides in both" in n for n in result.notes)


def test_compare_selectors_say_what_is_ambiguous_or_unknown(tmp_path):
    _system_run(tmp_path / "a", "histgen", "uni2", 0, {"s1": 0.5})
    _system_run(tmp_path / "b", "histgen", "conch15", 0, {"s1": 0.5})
    table = runs_to_frame(collect_local([tmp_path]).runs)
    with pytest.raises(
        ResultsError, match=r"matches several systems .*encoder=conch15.*encoder=uni2"
    ):
        resolve_system("histgen", table)
    with pytest.raises(
        ResultsError, match=r"No run .* matches 'scout:uni2'.*histgen:conch15, histgen:uni2"
    ):
        resolve_system("scout:uni2", table)
    assert parse_selector("histgen:uni2:3") == {"model": "histgen", "encoder": "uni2", "seed": "3"}
    assert len(resolve_system("model=histgen,encoder=uni2,seed=0", table).runs) == 1
    with pytest.raises(ResultsError, match="key=value"):
        parse_selector("colour=red")


def test_read_per_case_reads_wandb_tables_and_rejects_duplicates(tmp_path):
    table = tmp_path / "per_case_1_abc.table.json"
    table.write_text(
        json.dumps(
            {"columns": ["id", "BLEU_4", "CRQS"], "data": [["s1", 0.5, None], ["s2", 0.25, 0.5]]}
        )
    )
    assert read_per_case(table) == {
        "s1": {"BLEU_4": 0.5, "CRQS": None},
        "s2": {"BLEU_4": 0.25, "CRQS": 0.5},
    }
    dup = tmp_path / "dup.jsonl"
    dup.write_text('{"id": "s1", "CRQS": 1}\n{"id": "s1", "CRQS": 0}\n')
    with pytest.raises(ResultsError, match=r"dup.jsonl:2: slide id 's1' appears twice"):
        read_per_case(dup)


def test_cli_compare_two_real_run_folders(tmp_path_factory, tmp_path, capsys):
    root = real_runs(tmp_path_factory)
    a, b = (
        root / "logs" / "beta",
        root / "logs" / "alpha",
    )  # nearest_neighbor vs most_frequent, both uni2
    assert (
        main(["results", "compare", str(a), str(b), "--n-bootstrap", "500", "--format", "json"])
        == 0
    )
    records = {r["metric"]: r for r in json.loads(capsys.readouterr().out)["records"]}
    assert set(records) == {"BLEU_4", "METEOR", "ROUGE_L", "CRQS"}
    per_case_a = read_per_case(a / "metrics" / "test_per_case.jsonl")
    per_case_b = read_per_case(b / "metrics" / "test_per_case.jsonl")
    expected = sum(c["CRQS"] for c in per_case_a.values()) / len(per_case_a) - sum(
        c["CRQS"] for c in per_case_b.values()
    ) / len(per_case_b)
    assert records["CRQS"]["difference"] == pytest.approx(expected)
    assert records["CRQS"]["ci_low"] <= records["CRQS"]["difference"] <= records["CRQS"]["ci_high"]
    assert records["CRQS"]["n"] == len(per_case_a)
    # the same comparison through selectors into a collected table, printed as Markdown
    table = write_table(
        runs_to_frame(collect_local([root / "logs"]).runs), tmp_path / "results.csv"
    )
    assert (
        main(
            [
                "results",
                "compare",
                "nearest_neighbor:uni2:0",
                "most_frequent:uni2",
                "--table",
                str(table),
                "--n-bootstrap",
                "500",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "| CRQS |" in printed and "sentence-level BLEU" in printed
    assert main(["results", "compare", "nothing:here", str(b), "--table", str(table)]) == 2
    assert "No run in the results table matches 'nothing:here'" in capsys.readouterr().err
