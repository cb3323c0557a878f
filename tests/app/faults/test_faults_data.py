"""Broken feature files and split files: each stops at setup (before any training) with the file,
the slide or the field named and the fix, except NaN values, which need the data itself and are
named when the slide is first read."""

from __future__ import annotations

import json

import h5py
import numpy as np
import pytest

from pathreport.data.splits import SplitError
from pathreport.data.trident import FeatureFileError, write_features
from tests.data.test_datamodule import _dataset, _module
from tests.helpers.faults import assert_user_error, run_script

FOLDER = ("20x_256px_0px_overlap", "features_toy")


def _truncate(path):
    path.write_bytes(path.read_bytes()[:700])


def _not_hdf5(path):
    path.write_text("this is not an HDF5 file")


def _empty(path):
    path.write_bytes(b"")


def _no_features(path):
    with h5py.File(path, "w") as f:
        f["coords"] = np.zeros((3, 2))


def _wrong_dim(path):
    write_features(path, np.ones((3, 6)), np.zeros((3, 2)))


def _coords_mismatch(path):
    write_features(path, np.ones((3, 4)), np.zeros((2, 2)))


def _no_patches(path):
    write_features(path, np.zeros((0, 4)), np.zeros((0, 2)))


@pytest.mark.parametrize(
    "break_file, needles",
    [
        (_truncate, ["s3.h5 could not be read as HDF5", "re-run TRIDENT"]),
        (_not_hdf5, ["s3.h5 could not be read as HDF5", "corrupt"]),
        (_empty, ["s3.h5 could not be read as HDF5"]),
        (_no_features, ["s3.h5: no dataset 'features'", "features_<encoder>"]),
        (_wrong_dim, ["s3.h5: feature dimension is 6, expected 4", "encoder=<name>"]),
        (_coords_mismatch, ["s3.h5: 'coords' has shape (2, 2)", "one (x, y) per patch"]),
        (_no_patches, ["no tissue patches", "s3", "data.on_empty_bag=skip"]),
    ],
)
def test_a_broken_test_split_file_stops_setup_naming_it(tmp_path, break_file, needles):
    job, split = _dataset(tmp_path, [3, 3, 3, 3])  # s3 is the test split's slide
    break_file(job.joinpath(*FOLDER, "s3.h5"))
    with pytest.raises(FeatureFileError) as err:
        _module(job, split).setup()
    for needle in needles:
        assert needle in str(err.value)


def test_nan_features_are_named_when_the_slide_is_read(tmp_path):
    job, split = _dataset(tmp_path, [3, 3, 3, 3])
    feats = np.ones((3, 4))
    feats[1, 2] = np.nan
    write_features(job.joinpath(*FOLDER, "s0.h5"), feats, np.zeros((3, 2)))
    dm = _module(job, split)
    dm.setup()
    with pytest.raises(
        FeatureFileError,
        match=r"s0\.h5: 'features' contains NaN or Inf values \(1 row\(s\)\)\. Re-extract",
    ):
        dm.datasets["train"][0]


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda s: s["test"].append(dict(s["train"][0])), r"s0"),
        (lambda s: s["train"][1].update(report="  "), r"s1"),
        (lambda s: s.update(holdout=s.pop("val")), r"holdout"),
    ],
)
def test_split_integrity_errors_name_the_slide_or_key(tmp_path, edit, message):
    job, split = _dataset(tmp_path, [3, 3, 3, 3])
    data = json.loads(split.read_text())
    edit(data)
    split.write_text(json.dumps(data))
    with pytest.raises(SplitError, match=message):
        _module(job, split).setup()


def test_train_py_reports_a_data_error_on_stderr_without_traceback(tmp_path):
    """The path a user sees: exit 1, the message on stderr (not stdout), the run marked failed."""
    feats = tmp_path / "job" / "feats"
    ids = [f"slide{i}" for i in range(6)]
    for slide in ids:
        write_features(
            feats / f"{slide}.h5",
            np.ones((3, 1024 if slide == "slide5" else 768)),
            np.zeros((3, 2)),
        )
    split = tmp_path / "split.json"
    split.write_text(
        json.dumps(
            {
                "train": [{"id": s, "report": f"Report {s}."} for s in ids[:4]],
                "val": [{"id": ids[4], "report": "Report."}],
                "test": [{"id": ids[5], "report": "Report."}],
            }
        )
    )
    out = tmp_path / "run"
    result = run_script(
        "train.py",
        "data=reg2025",
        f"data.splits={split}",
        f"paths.features_dir={tmp_path / 'job'}",
        "data.feature_subdir=feats",
        "encoder=ctranspath",
        "model=most_frequent",
        "logger=none",
        f"hydra.run.dir={out}",
        cwd=tmp_path,
    )
    assert result.returncode == 1
    assert_user_error(
        result.returncode,
        result.stderr,
        "slide5.h5: feature dimension is 1024, expected 768",
        "encoder=<name>",
        stdout=result.stdout,
    )
    assert "feature dimension" not in result.stdout
    run = json.loads((out / "run.json").read_text())
    assert run["status"] == "failed" and "slide5.h5" in run["error"]


@pytest.mark.parametrize(
    "command", [("train.py", "model=histgen"), ("eval.py", "ckpt_path=missing.ckpt")]
)
def test_a_plugin_file_that_registers_nothing_stops_every_entry_point_with_its_name(
    tmp_path, monkeypatch, command
):
    """A broken plug-in folder is a user error: named, no traceback, at the Hydra entry points."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "half_written.py").write_text("WIDTH = 4\n")
    monkeypatch.setenv("PATHREPORT_PLUGIN_PATH", str(folder))
    result = run_script(*command, cwd=tmp_path)
    assert_user_error(
        result.returncode,
        result.stderr,
        "half_written.py registered nothing",
        "start with '_'",
        stdout=result.stdout,
    )
