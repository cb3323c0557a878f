"""Reading TRIDENT feature files, including old CLAM-style files and bad files."""

from __future__ import annotations

import h5py
import numpy as np
import pytest

from pathreport.data.trident import FeatureFileError, read_features, write_features


def test_trident_round_trip_keeps_trident_layout(tmp_path):
    feats = np.random.default_rng(0).standard_normal((5, 8)).astype(np.float32)
    coords = np.arange(10).reshape(5, 2) * 512
    path = write_features(tmp_path / "slide_a.h5", feats, coords, encoder="uni_v2", patch_size=256)
    with h5py.File(path) as f:
        assert f["features"].chunks == (1, 8) and f["features"].maxshape == (None, 8)
        assert f["features"].attrs["encoder"] == "uni_v2"
        assert int(f["coords"].attrs["patch_size_level0"]) == 512  # 256 px at 20x on a 40x scan
    data = read_features(path, expected_dim=8)
    np.testing.assert_array_equal(data.features, feats)
    np.testing.assert_array_equal(data.coords, coords)


def test_trident_reads_clam_file_without_attributes_and_int32_coords(tmp_path):
    path = tmp_path / "old.h5"
    with h5py.File(path, "w") as f:
        f["features"] = np.ones((3, 4), dtype=np.float32)
        f["coords"] = np.zeros((3, 2), dtype=np.int32)
    data = read_features(path, expected_dim=4)
    assert data.coords.dtype == np.int64 and data.num_patches == 3


def test_trident_reads_slide_without_tissue(tmp_path):
    path = write_features(
        tmp_path / "empty.h5", np.zeros((0, 6), dtype=np.float32), np.zeros((0, 2))
    )
    assert read_features(path, expected_dim=6).features.shape == (0, 6)


def test_trident_dimension_mismatch_names_file_expected_and_found(tmp_path):
    path = write_features(tmp_path / "s.h5", np.zeros((2, 768), dtype=np.float32))
    with pytest.raises(FeatureFileError) as err:
        read_features(path, expected_dim=1536)
    message = str(err.value)
    assert str(path) in message and "768" in message and "1536" in message and "encoder=" in message


def test_trident_nan_features_are_rejected_with_the_file_named(tmp_path):
    feats = np.ones((4, 3), dtype=np.float32)
    feats[2, 1] = np.nan
    path = write_features(tmp_path / "nan.h5", feats)
    with pytest.raises(FeatureFileError, match=r"nan\.h5.*NaN or Inf values \(1 row"):
        read_features(path, expected_dim=3)


def test_trident_corrupt_and_missing_files_give_clear_errors(tmp_path):
    bad = tmp_path / "corrupt.h5"
    bad.write_bytes(b"not an hdf5 file at all")
    with pytest.raises(FeatureFileError, match="corrupt or incomplete"):
        read_features(bad)
    with pytest.raises(FeatureFileError, match="does not exist"):
        read_features(tmp_path / "absent.h5")


def test_trident_slide_level_file_accepts_one_row(tmp_path):
    path = write_features(tmp_path / "titan.h5", np.ones((1, 768), dtype=np.float32))
    assert read_features(path, expected_dim=768, slide_level=True).features.shape == (768,)
