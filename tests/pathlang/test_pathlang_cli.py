"""``pathreport pathlang``: a run from TRIDENT h5 files, results tables, texts, and input errors."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from pathreport.app.cli import main
from pathreport.data.trident import write_features
from pathreport.pathlang import synthetic
from pathreport.pathlang.corpus import load_corpus
from pathreport.pathlang.text_store import save_text_embeddings
from pathreport.registry import VLMS

DATASET = "camelyon16"
N_SLIDES = 24


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, str]:
    """Slides (TRIDENT layout), labels and two models' text embeddings: one aligned, one barely."""
    root = tmp_path_factory.mktemp("pathlang_cli")
    corpus = load_corpus()
    ds = corpus.dataset(DATASET)
    y = np.arange(N_SLIDES) % 2
    directions = synthetic.class_directions(ds.num_classes, 24, seed=0)
    for i, tiles in enumerate(
        synthetic.slide_tiles(y, directions, n_tiles=30, signal_fraction=0.1, seed=1)
    ):
        write_features(
            root / "features_vlm" / f"slide{i}.h5", tiles, coords=np.zeros((len(tiles), 2))
        )
    (root / "labels.csv").write_text(
        "slide_id,label\n"
        + "".join(f"slide{i},{('Normal', 'Tumor')[c]}\n" for i, c in enumerate(y))
    )
    texts = corpus.all_texts()
    for model, strength in (("aligned", 2.0), ("weak", 0.2)):
        encode = synthetic.text_encoder(directions, synthetic.class_of_texts(ds), strength=strength)
        save_text_embeddings(root / f"{model}.npz", dict(zip(texts, encode(texts), strict=True)))
    return {
        "root": str(root),
        "slides": str(root / "features_vlm"),
        "labels": str(root / "labels.csv"),
    }


def _pathlang(
    inputs: dict[str, str],
    vlm: str,
    *extra: str,
    text_embeddings: str | None = None,
    labels: str | None = None,
    out: str = "unused",
) -> int:
    """``pathreport pathlang`` on the module's slides and labels (or ``labels``), plus ``extra``."""
    embeddings = [] if text_embeddings is None else ["--text-embeddings", text_embeddings]
    return main(
        [
            "pathlang",
            "--vlm",
            vlm,
            *embeddings,
            "--dataset",
            DATASET,
            "--slides",
            inputs["slides"],
            "--labels",
            labels or inputs["labels"],
            "--out",
            out,
            *extra,
        ]
    )


def _run(
    inputs: dict[str, str],
    model: str,
    *extra: str,
    labels: str | None = None,
    out: str | None = None,
) -> int:
    """A precomputed run with the fixture's ``model`` text embeddings."""
    return _pathlang(
        inputs,
        "precomputed",
        "--model-name",
        model,
        *extra,
        text_embeddings=f"{inputs['root']}/{model}.npz",
        labels=labels,
        out=out or f"{inputs['root']}/runs/{model}",
    )


def test_cli_run_writes_summary_task_files_and_a_reusable_text_file(inputs, capsys) -> None:
    assert _run(inputs, "aligned", "--fixed-setting", "mean", "--bootstrap-resamples", "200") == 0
    out = f"{inputs['root']}/runs/aligned"
    summary = json.loads(Path(f"{out}/summary.json").read_text())
    assert (
        summary["model"] == "aligned"
        and summary["dataset"] == DATASET
        and summary["n_slides"] == N_SLIDES
    )
    assert "upper-bound" in summary["oracle_note"]
    t1 = summary["results"]["t1"]["classification"]
    assert t1["fixed"]["setting"] == "mean" and t1["oracle"]["accuracy"] >= t1["fixed"]["accuracy"]
    assert t1["oracle"]["accuracy"] > 0.9
    assert summary["config"]["fixed_setting"] == "mean" and summary["config"]["k_min"] == 10
    assert set(summary["per_setting"]["t1.classification"]) == {
        "top1",
        "top5",
        "top10",
        "top50",
        "mean",
    }
    for name in (
        "t1_classification.json",
        "t2_retrieval.json",
        "t3_paraphrase.json",
        "t4_open_vocabulary.json",
    ):
        assert set(json.loads(Path(f"{out}/{name}").read_text())["units"])
    rows = list(csv.DictReader(Path(f"{out}/t4_ranks.csv").read_text().splitlines()))
    assert len(rows) == N_SLIDES * 5 * 4
    assert len(Path(f"{out}/per_case.jsonl").read_text().splitlines()) == N_SLIDES
    assert "t1.classification [oracle:" in capsys.readouterr().out
    # The text embeddings a run used can drive the next run.
    rerun_out = f"{inputs['root']}/rerun"
    embeddings = f"{out}/text_embeddings.npz"
    assert (
        _pathlang(inputs, "precomputed", "--tasks", "t1", text_embeddings=embeddings, out=rerun_out)
        == 0
    )
    rerun = json.loads(Path(f"{inputs['root']}/rerun/summary.json").read_text())
    for setting, values in summary["per_setting"]["t1.classification"].items():
        assert rerun["per_setting"]["t1.classification"][setting] == pytest.approx(values, abs=1e-6)


def test_cli_tables_have_the_papers_model_by_dataset_layout(inputs, tmp_path) -> None:
    for model in ("aligned", "weak"):
        assert _run(inputs, model, "--tasks", "t1", "t4", out=str(tmp_path / "runs" / model)) == 0
    assert (
        main(["pathlang", "--table", str(tmp_path / "runs"), "--out", str(tmp_path / "tables")])
        == 0
    )
    markdown = (tmp_path / "tables" / "pathlang_t1.md").read_text()
    assert "| Model | CAMELYON16 Acc | CAMELYON16 AUC | CAMELYON16 mF1 |" in markdown
    aligned_row = next(line for line in markdown.splitlines() if line.startswith("| aligned"))
    assert aligned_row.count("**") == 6  # best in every column, in bold
    rows = {
        r["model"]: r
        for r in csv.DictReader(
            (tmp_path / "tables" / "pathlang_t4_set1.csv").read_text().splitlines()
        )
    }
    assert set(rows) == {"aligned", "weak", "Chance"} and rows["aligned"]["camelyon16/setting"] in {
        "top1",
        "top5",
        "top10",
        "top50",
        "mean",
    }
    assert (
        float(rows["Chance"]["camelyon16/R@1"]) == 0.05
        and float(rows["Chance"]["camelyon16/R@5"]) == 0.25
    )
    assert "| Chance | 0." in (tmp_path / "tables" / "pathlang_t4_set1.md").read_text()
    assert not (tmp_path / "tables" / "pathlang_baseline_t3_v1.md").exists()  # no T3 in these runs
    sensitivity = (tmp_path / "tables" / "pathlang_sensitivity_t1_macro_f1.md").read_text()
    assert "Spearman" in sensitivity and "| top1 |" in sensitivity


def test_cli_list_texts_prints_every_string_a_run_encodes(inputs, capsys) -> None:
    assert main(["pathlang", "--list-texts", "--dataset", DATASET, "--tasks", "t1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == list(load_corpus().dataset(DATASET).canonical)


def test_cli_bad_label_names_the_line_the_value_and_the_choices(inputs, tmp_path, capsys) -> None:
    bad = tmp_path / "labels.csv"
    bad.write_text("slide_id,label\nslide0,Normal\nslide1,Lymphoma\n")
    assert _run(inputs, "aligned", labels=str(bad)) == 2
    err = capsys.readouterr().err
    assert (
        "line 3" in err and "'Lymphoma'" in err and "Metastasis" in err and "Traceback" not in err
    )


def test_cli_missing_slides_stop_the_run_unless_skipped(inputs, tmp_path, capsys) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text(Path(inputs["labels"]).read_text() + "ghost,Normal\n")
    assert _run(inputs, "aligned", "--tasks", "t1", labels=str(labels)) == 2
    assert "ghost (no file ghost.h5)" in capsys.readouterr().err
    out = tmp_path / "run"
    embeddings = f"{inputs['root']}/aligned.npz"
    assert (
        _pathlang(
            inputs,
            "precomputed",
            "--tasks",
            "t1",
            "--skip-missing",
            text_embeddings=embeddings,
            labels=str(labels),
            out=str(out),
        )
        == 0
    )
    skipped = json.loads((out / "summary.json").read_text())["manifest"]["slides"]["skipped"]
    assert skipped == [{"slide_id": "ghost", "reason": "no file ghost.h5"}]


def test_cli_unknown_vlm_and_missing_packages_are_user_errors(inputs, monkeypatch, capsys) -> None:
    assert _pathlang(inputs, "plipp") == 2
    assert "Did you mean 'plip'" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "open_clip", None)
    assert _pathlang(inputs, "quiltnet") == 2
    assert "pip install open_clip_torch" in capsys.readouterr().err
    assert main(["pathlang", "--vlm", "precomputed", "--dataset", DATASET]) == 2
    assert "needs --slides, --labels, --out" in capsys.readouterr().err


def test_cli_list_vlms_shows_the_adapters(capsys) -> None:
    assert main(["list", "vlms"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in VLMS.names())
