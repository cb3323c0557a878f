"""Figures: rendered to files, checked on the data they plot (never on pixels)."""

from __future__ import annotations

import math

import pytest

from pathreport.app.cli import main
from pathreport.results.collect import collect_local
from pathreport.results.figures import bars_data, plot_bars, plot_field_heatmaps, plot_scatter
from pathreport.results.stats import student_t_quantile
from pathreport.results.store import runs_to_frame, write_table
from tests.helpers.results import frame, real_runs, result, write_run


def test_figures_scatter_plots_seed_means_with_spearman_per_dataset(tmp_path):
    grid = frame(
        result("histgen", "uni2", 0, "reg", METEOR=0.2, CRQS=0.1),
        result("histgen", "uni2", 1, "reg", METEOR=0.4, CRQS=0.3),
        result("bigen", "uni2", 0, "reg", METEOR=0.1, CRQS=0.5),
        result("scout", "uni2", 0, "reg", METEOR=0.5, CRQS=0.4),
        result("histgen", "uni2", 0, "tcga", METEOR=0.1, CRQS=0.1),
        result("bigen", "uni2", 0, "tcga", METEOR=0.2, CRQS=0.2),
        result("scout", "uni2", 0, "tcga", METEOR=0.3, CRQS=None),
    )
    output = plot_scatter(grid, tmp_path)
    assert sorted(p.name for p in output.paths) == ["meteor_vs_crqs.pdf", "meteor_vs_crqs.png"]
    assert all(p.stat().st_size > 1000 for p in output.paths)
    reg = output.data[output.data["dataset"] == "reg"].set_index("model")
    assert reg.loc["histgen", "METEOR"] == pytest.approx(0.3) and reg.loc[
        "histgen", "CRQS"
    ] == pytest.approx(0.2)
    assert reg.loc["histgen", "n_seeds"] == 2
    # reg points (METEOR, CRQS): bigen (0.1, 0.5), histgen (0.3, 0.2), scout (0.5, 0.4):
    # ranks (1,3), (2,1), (3,2)
    assert output.stats["reg"] == {"spearman": pytest.approx(-0.5), "n": 3}
    # tcga: the point without CRQS is left out, and two points give no correlation
    assert output.stats["tcga"]["n"] == 2 and math.isnan(output.stats["tcga"]["spearman"])


def test_figures_bars_interval_from_seeds_or_slides_and_missing_cells(tmp_path):
    grid = frame(
        result("histgen", "uni2", 0, CRQS=0.2),
        result("histgen", "uni2", 1, CRQS=0.4),
        result("histgen", "uni2", 2, CRQS=0.3),
        result("bigen", "uni2", 0, CRQS=0.5, CRQS_CI95_low=0.3, CRQS_CI95_high=0.6),
        result("histgen", "conch15", 0, CRQS=0.1),
    )
    data = bars_data(grid).set_index(["model", "encoder"])
    seeds = data.loc[("histgen", "uni2")]
    half = student_t_quantile(0.975, 2) * 0.1 / math.sqrt(3)  # s = 0.1 over seeds 0.2, 0.4, 0.3
    assert (seeds["mean"], seeds["ci_low"], seeds["ci_high"]) == pytest.approx(
        (0.3, 0.3 - half, 0.3 + half)
    )
    assert seeds["ci_source"] == "seeds (t, n=3)" and seeds["n_runs"] == 3
    single = data.loc[("bigen", "uni2")]
    assert (single["ci_low"], single["ci_high"], single["ci_source"]) == (
        0.3,
        0.6,
        "cases (summary)",
    )
    missing = data.loc[("bigen", "conch15")]
    assert missing["status"] == "missing" and math.isnan(missing["mean"]) and missing["n_runs"] == 0
    assert (
        data.loc[("histgen", "conch15"), "ci_source"] == "none"
    )  # one run, no stored interval, no per-case file
    output = plot_bars(grid, tmp_path, formats=("png",))
    assert [p.name for p in output.paths] == ["crqs_by_encoder.png"] and output.paths[
        0
    ].stat().st_size > 1000
    assert output.notes == [
        "reg / histgen / conch15: no interval (one run without stored or per-case scores)"
    ]


def test_figures_bars_bootstrap_over_slides_of_the_runs_per_case_scores(tmp_path):
    cases = {f"s{i}": {"CRQS": float(i % 3) / 2} for i in range(12)}
    run = write_run(
        tmp_path / "r", model="histgen", encoder="uni2", seed=0, per_case=cases, CRQS=0.5
    )
    grid = runs_to_frame(collect_local([run]).runs)
    row = bars_data(grid).iloc[0]
    assert row["ci_source"] == "cases (bootstrap)" and row["ci_low"] < 0.5 < row["ci_high"]


def _histgen_with_fields(folder, encoder: str, crqs: float, counts: list[tuple]) -> None:
    """A histgen run with a field table of (reference, prediction, matched) counts.

    ``counts`` lists them for diagnosis, grade and organ (organ is not a key field).
    """
    header = ("field", "group", "key", "reference_support", "prediction_support", "matched")
    names = (("diagnosis", "dx", True), ("grade", "g", True), ("organ", "o", False))
    fields = [dict(zip(header, (*name, *c))) for name, c in zip(names, counts, strict=True)]
    write_run(folder, model="histgen", encoder=encoder, seed=0, CRQS=crqs, fields=fields)


def test_figures_field_heatmap_pools_matches_over_runs(tmp_path):
    _histgen_with_fields(tmp_path / "a", "uni2", 0.1, [(4, 4, 3), (2, 1, 0), (0, 1, 0)])
    _histgen_with_fields(tmp_path / "b", "conch15", 0.2, [(6, 6, 3), (2, 2, 2), (0, 0, 0)])
    write_run(tmp_path / "c", model="bigen", encoder="uni2", seed=0, CRQS=0.3)  # no field table
    grid = runs_to_frame(collect_local([tmp_path]).runs)
    output = plot_field_heatmaps(grid, tmp_path / "figs")
    assert sorted(p.name for p in output.paths) == ["field_recall_reg.pdf", "field_recall_reg.png"]
    recall = output.data.set_index(["model", "field"])["recall"]
    assert recall[("histgen", "diagnosis")] == pytest.approx(
        6 / 10
    )  # (3 + 3) / (4 + 6), not the mean of 0.75 and 0.5
    assert recall[("histgen", "grade")] == pytest.approx(2 / 4)
    assert math.isnan(recall[("histgen", "organ")])
    assert (
        len(output.notes) == 1
        and "no CRQS field table" in output.notes[0]
        and output.notes[0].startswith(str(tmp_path / "c"))
    )


def test_cli_figures_from_real_runs(tmp_path_factory, tmp_path, capsys):
    root = real_runs(tmp_path_factory)
    table = write_table(
        runs_to_frame(collect_local([root / "logs"]).runs), tmp_path / "results.csv"
    )
    out = tmp_path / "figures"
    assert main(["results", "figures", "--table", str(table), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert (
        "synthetic: Spearman rho(METEOR, CRQS) =" in printed
        and "over 3 model x encoder points" in printed
    )
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(
        f"{stem}.{ext}"
        for stem in ("meteor_vs_crqs", "crqs_by_encoder", "field_recall_synthetic")
        for ext in ("png", "pdf")
    )
    assert main(["results", "figures", "--table", str(table), "--kinds", "pie"]) == 2
    assert "Unknown figure kind" in capsys.readouterr().err
