"""``pathreport pathbind vqa | grounding | table`` end to end with registered fake models."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from pathreport.app.cli import main
from pathreport.registry import EVALUATORS, GENERATIVE_VLMS
from tests.helpers.pathbind import (
    blind_vlm,
    blob_vlm,
    colour_vqa_file,
    seeing_vlm,
    write_image,
    write_jsonl,
)


def _blob(cell: int):
    maps = np.full((3, 1, 16), 0.01)
    maps[1, 0, cell] = 1.0
    return maps


@pytest.fixture
def fakes():
    makers = {
        "fake_blind": lambda **_: blind_vlm("fake_blind"),
        "fake_seeing": lambda **_: seeing_vlm("fake_seeing", base_model="fake_blind"),
        "fake_blob_a": lambda **_: blob_vlm(_blob(5), (4, 4), name="fake_blob_a"),
        "fake_blob_b": lambda **_: blob_vlm(_blob(15), (4, 4), name="fake_blob_b"),
    }
    for name, make in makers.items():
        GENERATIVE_VLMS.register(name, family="fake", attention=name.startswith("fake_blob"))(make)
    yield
    for name in makers:
        GENERATIVE_VLMS.remove(name)


def test_pathbind_is_a_vlm_generative_evaluator():
    entry = EVALUATORS.get("pathbind")
    assert entry.metadata["kind"] == "vlm-generative" and entry.metadata["protocols"] == [
        "vqa",
        "grounding",
    ]


def test_cli_vqa_and_table_write_the_paper_layout_in_markdown_and_csv(tmp_path, fakes, capsys):
    questions = colour_vqa_file(
        tmp_path / "data", [("A", "D1", "S"), ("B", "D1", "S"), ("C", "D2", "T"), ("A", "D2", "T")]
    )
    for model in ("fake_blind", "fake_seeing"):
        code = main(
            [
                "pathbind",
                "vqa",
                "--vlm",
                model,
                "--questions",
                str(questions),
                "--out",
                str(tmp_path / "results"),
                "--quiet",
            ]
        )
        assert code == 0
    assert (tmp_path / "results" / "vqa" / "fake_seeing" / "answers.jsonl").exists()
    assert (
        "fake_seeing | 100.0 / 50.0 (+50.0) | 100.0 / 50.0 (+50.0) | 100.0 / 50.0 (+50.0)"
        in capsys.readouterr().out
    )
    again = [
        "pathbind",
        "vqa",
        "--vlm",
        "fake_blind",
        "--questions",
        str(questions),
        "--out",
        str(tmp_path / "results"),
        "--quiet",
    ]
    assert main(again) == 2 and "pass --resume" in capsys.readouterr().err
    assert main([*again, "--resume"]) == 0
    assert (
        main(
            [
                "pathbind",
                "table",
                "--results",
                str(tmp_path / "results"),
                "--out",
                str(tmp_path / "tables"),
            ]
        )
        == 0
    )
    markdown = (tmp_path / "tables" / "vqa.md").read_text()
    assert (
        "| Model | D1 | D2 | Avg (MG) |" in markdown
        and "| Random | 25.0 | 25.0 | 25.0 |" in markdown
    )
    with open(tmp_path / "tables" / "vqa.csv", newline="") as f:
        rows = {row["model"]: row for row in csv.DictReader(f)}
    assert rows["fake_seeing"]["D1 image"] == "100.0" and rows["fake_seeing"]["Avg gain"] == "50.0"
    assert rows["fake_blind"]["D1 gain"] == "0.0" and rows["fake_blind"]["Avg gain"] == "0.0"
    pairs = (tmp_path / "tables" / "pairs.md").read_text()
    assert "fake_seeing <- fake_blind" in pairs


def test_cli_grounding_writes_results_and_kendall_across_models(tmp_path, fakes):
    for i in range(3):
        write_image(tmp_path / f"{i}.png", (40, 40), seed=i)
    samples = write_jsonl(
        tmp_path / "g.jsonl",
        [
            {
                "id": f"s{i}",
                "image": f"{i}.png",
                "expression": expr,
                "box": [10, 10, 20, 20],
                "split": split,
            }
            for i, (expr, split) in enumerate(
                [("gland", "testA"), ("nest", "testA"), ("stroma", "testB")]
            )
        ],
    )
    for model in ("fake_blob_a", "fake_blob_b"):
        assert (
            main(
                [
                    "pathbind",
                    "grounding",
                    "--vlm",
                    model,
                    "--samples",
                    str(samples),
                    "--out",
                    str(tmp_path / "res"),
                    "--sigma",
                    "1",
                    "--quiet",
                ]
            )
            == 0
        )
    run = tmp_path / "res" / "grounding" / "fake_blob_a"
    assert {"summary.json", "per_sample.jsonl", "metrics.csv", "table.md", "run.json"} <= {
        p.name for p in run.iterdir()
    }
    assert len(list((run / "maps").glob("*.npz"))) == 3
    assert main(["pathbind", "table", "--results", str(tmp_path / "res")]) == 0
    tables = tmp_path / "res" / "tables"
    main_table = (tables / "grounding.md").read_text()
    assert (
        "| Model | testA IoU | testA Prec | testA Rec | testB IoU | testB Prec | testB "
        "Rec | all IoU |"
    ) in main_table
    kendall = (tables / "kendall.csv").read_text().splitlines()
    assert kendall[0] == "setting,iou@0.05,iou@0.1,iou@0.2,iou@0.3,iou@0.4,pixel_ap"
    # blob a sits on the box (cell (1,1) = pixels 10..19), blob b in the far corner:
    # every setting ranks a first
    assert all(line.split(",")[1:] == ["1.0"] * 6 for line in kendall[1:])


def test_cli_reports_bad_input_without_traceback(tmp_path, fakes, capsys):
    write_image(tmp_path / "a.png", (10, 10))
    bad = write_jsonl(
        tmp_path / "g.jsonl",
        [{"id": "s", "image": "a.png", "expression": "x", "box": [0, 0, 11, 5], "split": "A"}],
    )
    assert (
        main(
            [
                "pathbind",
                "grounding",
                "--vlm",
                "fake_blob_a",
                "--samples",
                str(bad),
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "reaches outside the 10x10 image" in err and "Traceback" not in err
    assert (
        main(
            [
                "pathbind",
                "grounding",
                "--vlm",
                "fake_blind",
                "--samples",
                str(tmp_path / "none.jsonl"),
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == 2
    )
    assert (
        main(
            [
                "pathbind",
                "vqa",
                "--vlm",
                "fake_blnd",
                "--questions",
                str(colour_vqa_file(tmp_path / "d", [("A", "D1", "S")])),
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == 2
    )
    assert "Did you mean 'fake_blind'" in capsys.readouterr().err


def test_importing_pathbind_stays_cheap():
    import subprocess
    import sys

    code = (
        "import sys, pathreport.pathbind; print(sorted(m for m in ('transformers', 'PIL', "
        "'scipy', 'pandas', 'matplotlib') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "module",
    sorted({GENERATIVE_VLMS.get(n).provider for n in GENERATIVE_VLMS.names()}),
    ids=lambda p: Path(p).name,
)
def test_every_adapter_file_names_paper_upstream_licence_and_deviations(module):
    doc = Path(module).read_text(encoding="utf-8").split('"""')[1].lower()
    for word in ("paper", "upstream", "licen", "deviation"):
        assert word in doc, f"{module}: the module docstring must name the {word}"


def test_cli_name_labels_the_results_and_duplicate_labels_are_refused(tmp_path, fakes, capsys):
    """Two configurations of one model, told apart by --name, in the summaries and the tables."""
    questions = colour_vqa_file(tmp_path / "data", [("A", "D1", "S"), ("B", "D1", "S")])
    base = ["pathbind", "vqa", "--vlm", "fake_seeing", "--questions", str(questions), "--quiet"]
    assert main([*base, "--name", "seeing-plain", "--out", str(tmp_path / "r1")]) == 0
    assert (
        main(
            [
                *base,
                "--name",
                "seeing-crop",
                "--option",
                "image_aspect=crop",
                "--out",
                str(tmp_path / "r1"),
            ]
        )
        == 0
    )
    summary = json.loads((tmp_path / "r1" / "vqa" / "seeing-crop" / "summary.json").read_text())
    assert summary["model"] == "seeing-crop" and summary["vlm"] == "fake_seeing"
    assert (
        main(["pathbind", "table", "--results", str(tmp_path / "r1"), "--out", str(tmp_path / "t")])
        == 0
    )
    with open(tmp_path / "t" / "vqa.csv", newline="") as f:
        assert {row["model"] for row in csv.DictReader(f)} == {
            "seeing-plain",
            "seeing-crop",
            "Random",
        }
    # the same label in two result folders: refused, naming both, instead of keeping one silently
    assert main([*base, "--name", "seeing-plain", "--out", str(tmp_path / "r2")]) == 0
    capsys.readouterr()
    code = main(
        [
            "pathbind",
            "table",
            "--results",
            str(tmp_path / "r1"),
            str(tmp_path / "r2"),
            "--out",
            str(tmp_path / "t2"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "labelled 'seeing-plain'" in err and "r2" in err and "--name" in err
    assert not (tmp_path / "t2").exists()
