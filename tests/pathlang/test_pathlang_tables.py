"""Results tables from run summaries: paper layout, marks, sensitivity, mean-pooling baseline."""

from __future__ import annotations

import json

import pytest

from pathreport.pathlang.tables import (
    load_runs,
    model_by_dataset,
    query_independent_baseline,
    sensitivity,
)


def _summary(model: str, dataset: str, acc: dict[str, float], pss: dict[str, float]) -> dict:
    per_setting = {s: {"accuracy": a, "macro_f1": a} for s, a in acc.items()}
    return {
        "benchmark": "pathlang",
        "model": model,
        "dataset": dataset,
        "dataset_key": dataset.upper(),
        "settings": [{"name": s} for s in acc],
        "results": {
            "t1": {
                "classification": {
                    "oracle": {"setting": max(acc, key=acc.get), "accuracy": max(acc.values())},
                    "fixed": {"setting": "top1", "accuracy": acc["top1"]},
                }
            }
        },
        "per_setting": {
            "t1.classification": per_setting,
            "t3.paraphrase": {
                s: {"v1.prediction_consistency": 0.5, "v1.pss": p} for s, p in pss.items()
            },
        },
    }


RUNS = [
    _summary("m1", "camelyon16", {"top1": 0.9, "mean": 0.7}, {"top1": 0.2, "mean": -0.1}),
    _summary("m1", "panda", {"top1": 0.5, "mean": 0.3}, {"top1": -0.2, "mean": -0.3}),
    _summary("m2", "camelyon16", {"top1": 0.8, "mean": 0.8}, {"top1": 0.4, "mean": 0.1}),
    _summary("m2", "panda", {"top1": 0.6, "mean": 0.2}, {"top1": 0.1, "mean": 0.3}),
    _summary("m3", "camelyon16", {"top1": 0.9, "mean": 0.1}, {"top1": 0.0, "mean": 0.0}),
]


def test_model_by_dataset_orders_datasets_like_the_paper_and_marks_best_and_second() -> None:
    table, csv_rows = model_by_dataset(RUNS, "t1", view="oracle")
    assert table.header[:2] == ["Model", "PANDA Acc"]  # PANDA comes first in the paper's tables
    markdown = table.markdown()
    assert "| m1 | <u>0.500</u> |" in markdown and "| m2 | **0.600** |" in markdown
    assert markdown.count("**0.900**") == 2  # m1 and m3 tie for best on CAMELYON16
    assert "| m3 | – |" in markdown  # no PANDA run for m3
    assert csv_rows[0]["panda/setting"] == "top1"
    fixed, _ = model_by_dataset(RUNS, "t1", view="fixed")
    assert "fixed setting" in fixed.title


def test_sensitivity_averages_over_datasets_and_correlates_model_rankings() -> None:
    table, rho, rows = sensitivity(RUNS, "t1_macro_f1")
    by_model = {r["model"]: r for r in rows}
    assert by_model["m1"]["top1"] == pytest.approx(0.7) and by_model["m1"]["n_datasets"] == 2
    assert by_model["m3"]["mean"] == pytest.approx(0.1) and by_model["m3"]["n_datasets"] == 1
    # Rankings: top1 (0.7, 0.7, 0.9) vs mean (0.5, 0.5, 0.1) -> Spearman -1 with the tie averaged.
    assert rho.rows[0][2] == pytest.approx(-1.0)


def test_query_independent_baseline_counts_negative_pss_pairs() -> None:
    table, rows = query_independent_baseline(RUNS, "v1")
    assert "1/5 under top1, 2/5 under mean" in table.title
    assert rows[0] == {
        "model": "m1",
        "top1 P.C.": 0.5,
        "top1 PSS": pytest.approx(0.0),
        "mean P.C.": 0.5,
        "mean PSS": pytest.approx(-0.2),
    }


def test_load_runs_refuses_two_runs_of_one_model_on_one_dataset(tmp_path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "summary.json").write_text(json.dumps(RUNS[0]))
    with pytest.raises(
        ValueError, match="Two PathLang runs for model 'm1' on dataset 'camelyon16'.*--model-name"
    ):
        load_runs([tmp_path])
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_runs([tmp_path / "missing"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="No PathLang summary.json"):
        load_runs([tmp_path / "empty"])


def test_write_tables_writes_the_spearman_matrix_as_csv_too(tmp_path) -> None:
    import csv

    from pathreport.pathlang.tables import write_tables

    _, written = write_tables(RUNS, tmp_path, names=[])
    path = tmp_path / "pathlang_sensitivity_t1_macro_f1_spearman.csv"
    assert path in written
    with open(path, newline="") as f:
        rows = {row["setting"]: row for row in csv.DictReader(f)}
    assert set(rows) == {"top1", "mean"} and float(rows["top1"]["mean"]) == pytest.approx(-1.0)
    assert float(rows["mean"]["mean"]) == pytest.approx(1.0)
