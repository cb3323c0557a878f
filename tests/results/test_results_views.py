"""The paper's table views and their rendering, on small hand-made results with known numbers."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import pytest

from pathreport.app.cli import main
from pathreport.results.render import render, to_latex, to_markdown
from pathreport.results.store import write_table
from pathreport.results.views import build_views
from tests.helpers.results import frame, result


def _grid():
    """histgen and bigen on two encoders and two seeds, plus the two baselines."""
    return frame(
        result("histgen", "uni2", 0, CRQS=0.2, HR=0.30, BLEU_4=0.10),
        result("histgen", "uni2", 1, CRQS=0.4, HR=0.20, BLEU_4=0.12),
        result("histgen", "conch15", 0, CRQS=0.4, HR=0.25, BLEU_4=0.11),
        result("histgen", "conch15", 1, CRQS=0.6, HR=0.15, BLEU_4=0.13),
        result("bigen", "uni2", 0, CRQS=0.1, HR=0.10, BLEU_4=0.20),
        result("bigen", "uni2", 1, CRQS=0.1, HR=0.12, BLEU_4=0.22),
        result("bigen", "conch15", 0, CRQS=0.3, HR=0.14, BLEU_4=0.18),
        result("bigen", "conch15", 1, CRQS=0.3, HR=0.16, BLEU_4=0.20),
        result("most_frequent", "uni2", 0, CRQS=-0.5, HR=0.9, BLEU_4=0.01),
        result("nearest_neighbor", "uni2", 0, CRQS=0.05, HR=0.5, BLEU_4=0.05),
        result("nearest_neighbor", "conch15", 0, CRQS=0.15, HR=0.4, BLEU_4=0.07),
    )


METRICS = ["BLEU_4", "CRQS", "HR"]


def test_views_method_wise_cell_is_mean_over_seeds_of_the_encoder_average():
    (view,) = build_views(_grid(), by="model", metrics=METRICS)
    cell = view.cells[(("histgen",), "CRQS")]
    # seed 0: (0.2 + 0.4) / 2 = 0.3; seed 1: (0.4 + 0.6) / 2 = 0.5 -> mean 0.4, std sqrt(0.02)
    assert cell.mean == pytest.approx(0.4) and cell.std == pytest.approx(math.sqrt(0.02))
    assert (cell.n, cell.runs, cell.status) == (4, 4, "ok")
    assert view.rows == [
        ("bigen",),
        ("histgen",),
        ("most_frequent",),
        ("nearest_neighbor",),
    ]  # baselines last
    single = view.cells[(("most_frequent",), "CRQS")]
    assert single.mean == -0.5 and single.std is None and single.runs == 1


def test_views_encoder_wise_averages_methods_and_keeps_baselines_as_reference_rows():
    (view,) = build_views(_grid(), by="encoder", metrics=METRICS)
    uni2 = view.cells[(("uni2",), "CRQS")]
    # seed 0: (histgen 0.2 + bigen 0.1) / 2; seed 1: (0.4 + 0.1) / 2 -> 0.15, 0.25
    assert (
        uni2.mean == pytest.approx(0.2)
        and uni2.std == pytest.approx(math.sqrt(0.005))
        and uni2.runs == 4
    )
    assert view.rows[-2:] == [("most_frequent (baseline)",), ("nearest_neighbor (baseline)",)]
    assert view.cells[(("nearest_neighbor (baseline)",), "CRQS")].mean == pytest.approx(0.1)
    assert any(
        "baselines most_frequent, nearest_neighbor follow as reference rows" in n
        for n in view.notes
    )
    assert view.best("HR", 3) == {("conch15",)}  # (0.195 + 0.155) / 2 < (0.20 + 0.16) / 2
    # a reference row never takes the bold of a column, even with the best value
    (small,) = build_views(
        frame(
            result("histgen", "uni2", 0, HR=0.3),
            result("histgen", "conch15", 0, HR=0.2),
            result("nearest_neighbor", "uni2", 0, HR=0.01),
        ),
        by="encoder",
        metrics=["HR"],
    )
    assert small.best("HR", 3) == {("conch15",)}


def test_views_best_is_the_highest_except_for_hr_and_cds():
    (view,) = build_views(_grid(), by="model", metrics=METRICS)
    assert view.best("CRQS", 3) == {("histgen",)}
    assert view.best("BLEU_4", 3) == {("bigen",)}
    assert view.best("HR", 3) == {("bigen",)}  # 0.13 is the lowest hallucination rate
    text = to_markdown(view)
    assert "| bigen | **0.200** ± 0.014 | 0.200 ± 0.000 | **0.130** ± 0.014 | 4 |" in text


def test_views_missing_run_is_shown_as_missing_never_zero():
    grid = frame(
        result("histgen", "uni2", 0, CRQS=0.2),
        result("histgen", "conch15", 0, CRQS=0.4),
        result("bigen", "uni2", 0, CRQS=0.25),
    )
    (detailed,) = build_views(grid, by="model,encoder", metrics=["CRQS"])
    cell = detailed.cells[(("bigen", "conch15"), "CRQS")]
    assert (cell.status, cell.mean, cell.runs) == ("missing", None, 0)
    assert "| bigen | conch15 | missing | 0 |" in to_markdown(detailed)
    assert "No run for bigen / conch15 (shown as missing)." in detailed.notes
    (by_model,) = build_views(grid, by="model", metrics=["CRQS"])
    assert ("bigen",) in by_model.incomplete_rows
    assert "| bigen † | 0.250 | 1 |" in to_markdown(by_model)
    assert any(
        n.startswith("bigen: no run with encoder conch15; its row averages 1 of 2 encoders")
        for n in by_model.notes
    )


def test_views_unavailable_metric_is_na_and_partial_cells_show_their_count():
    why = {"METEOR": "java was not found on PATH"}
    grid = frame(
        result("histgen", "uni2", 0, METEOR=None, CRQS=0.2, notes=why),
        result("histgen", "uni2", 1, METEOR=0.3, CRQS=0.4),
        result("bigen", "uni2", 0, METEOR=None, CRQS=0.1, notes=why),
    )
    (view,) = build_views(grid, by="model", metrics=["METEOR", "CRQS"])
    text = to_markdown(view)
    assert "| bigen | n/a | 0.100 | 1 |" in text
    assert "| histgen | 0.300 [n=1] | **0.300** ± 0.141 | 2 |" in text
    assert "bigen: METEOR unavailable in all 1 run(s) (java was not found on PATH)." in view.notes
    assert (
        "histgen: METEOR averages 1 of 2 runs; the others could not compute it (java was "
        "not found on PATH)."
    ) in view.notes


def test_views_warn_when_runs_saw_different_slides():
    grid = frame(
        result("histgen", "uni2", 0, CRQS=0.2, evaluated_set="aaaa"),
        result("histgen", "conch15", 0, CRQS=0.3, evaluated_set="bbbb"),
        result("bigen", "uni2", 0, CRQS=0.3, evaluated_set="aaaa"),
    )
    (view,) = build_views(grid, by="model", metrics=["CRQS"])
    warning = next(
        n
        for n in view.notes
        if n.startswith("WARNING: runs were evaluated on 2 different slide sets")
    )
    assert "aaaa: bigen, histgen" in warning and "bbbb: histgen" in warning
    assert (
        "WARNING: histgen: its cells average runs evaluated on different slide sets (aaaa, bbbb)."
        in view.notes
    )
    assert not any(n.startswith("WARNING: bigen") for n in view.notes)
    (same,) = build_views(
        frame(result("histgen", "uni2", 0, CRQS=0.2), result("bigen", "uni2", 0, CRQS=0.1)),
        by="model",
        metrics=["CRQS"],
    )
    assert not any("slide sets" in n for n in same.notes)


def test_views_one_table_per_dataset_and_clear_errors():
    grid = frame(
        result("histgen", "uni2", 0, "reg", CRQS=0.2),
        result("histgen", "uni2", 0, "tcga", CRQS=0.1),
    )
    assert [v.dataset for v in build_views(grid, metrics=["CRQS"])] == ["reg", "tcga"]
    with pytest.raises(ValueError, match=r"No test runs of dataset 'histai'.*\['reg', 'tcga'\]"):
        build_views(grid, dataset="histai")
    with pytest.raises(ValueError, match=r"no runs on split 'val'"):
        build_views(grid, split="val")
    with pytest.raises(
        ValueError,
        match=r"Metric\(s\) \['BLUE_4'\] are not in the results table's test runs; it has CRQS",
    ):
        build_views(grid, metrics=["BLUE_4"])


def test_render_latex_escapes_names_and_bolds_the_best():
    (view,) = build_views(_grid(), by="encoder", metrics=METRICS)
    text = to_latex(view)
    assert r"\begin{tabular}{lcccr}" in text and r"\toprule" in text
    assert r"most\_frequent (baseline)" in text
    assert (
        r"uni2 & \textbf{0.160} $\pm$ 0.014 & 0.200 $\pm$ 0.071 & 0.180 $\pm$ 0.028 & 4 \\" in text
    )
    assert "% Encoder rows average the methods bigen, histgen" in text


def test_render_csv_holds_raw_numbers_counts_and_status():
    (view,) = build_views(_grid(), by="model", metrics=METRICS)
    rows = list(csv.DictReader(io.StringIO(render([view], "csv"))))
    histgen = next(r for r in rows if r["model"] == "histgen")
    assert float(histgen["CRQS"]) == pytest.approx(0.4) and float(
        histgen["CRQS_std"]
    ) == pytest.approx(math.sqrt(0.02))
    assert (histgen["CRQS_n"], histgen["CRQS_status"], histgen["CRQS_best"], histgen["runs"]) == (
        "4",
        "ok",
        "True",
        "4",
    )
    assert histgen["dataset"] == "reg" and histgen["split"] == "test"


def _results_table(table: Path, *options: str) -> int:
    """``pathreport results table`` over the results table file ``table``."""
    return main(["results", "table", "--table", str(table), *options])


def test_cli_table_prints_views_in_each_format(tmp_path, capsys):
    table = write_table(_grid(), tmp_path / "results.csv")
    assert _results_table(table, "--dataset", "reg", "--metrics", "BLEU-4,CRQS,HR") == 0
    out = capsys.readouterr().out
    assert (
        "Method-wise results on reg (test), averaged across encoders" in out
        and "| histgen |" in out
    )
    assert _results_table(table, "--by", "encoder", "--format", "latex") == 0
    captured = capsys.readouterr()
    assert (
        r"\caption{Encoder-wise results on reg (test)" in captured.out
        and "note (reg):" in captured.err
    )
    assert (
        "No run reported BLEU-1, BLEU-2, BLEU-3, ROUGE-L, METEOR; those columns are left out."
        in captured.err
    )
    out_file = tmp_path / "t.csv"
    assert _results_table(table, "--format", "csv", "--output", str(out_file)) == 0
    assert out_file.read_text().startswith("dataset,split,model,runs,BLEU_4,BLEU_4_std,")
    assert _results_table(tmp_path / "none.csv") == 2
    assert "results collect" in capsys.readouterr().err
