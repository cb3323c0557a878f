"""The data module over TRIDENT files: masks and padding, bag policy, missing files, streams."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from omegaconf import OmegaConf

from pathreport.app.config import DataConfig
from pathreport.data.datamodule import MissingFeaturesError, ReportDataModule
from pathreport.data.dataset import BagPolicy
from pathreport.data.trident import FeatureFileError, write_features
from pathreport.encoders import EncoderSpec
from pathreport.generation.generator import StreamSpec

ENC = EncoderSpec(name="toy", trident_name="toy", embedding_dim=4, patch_size=256)


def _dataset(tmp_path, n_patches, reports=None, dim=4):
    """A TRIDENT job dir with one feature file per slide, and a paper-format split file."""
    folder = tmp_path / "job" / "20x_256px_0px_overlap" / "features_toy"
    ids = [f"s{i}" for i in range(len(n_patches))]
    for i, (sid, n) in enumerate(zip(ids, n_patches)):
        feats = np.full((n, dim), float(i + 1), dtype=np.float32)
        feats[:, 0] = np.arange(n)
        write_features(folder / f"{sid}.h5", feats, np.zeros((n, 2)))
    reports = reports or [f"Report number {i} ." for i in range(len(ids))]
    split = {
        "train": [{"id": s, "report": r} for s, r in zip(ids[:-2], reports[:-2])],
        "val": [{"id": ids[-2], "report": reports[-2]}],
        "test": [{"id": ids[-1], "report": reports[-1]}],
    }
    path = tmp_path / "split.json"
    path.write_text(json.dumps(split))
    return tmp_path / "job", path


def _module(job, split, streams=None, **data):
    cfg = OmegaConf.structured(DataConfig(name="toyset", splits=str(split), **data))
    return ReportDataModule(cfg, ENC, streams=streams, features_dir=str(job))


def test_datamodule_batches_pad_bags_and_reports_with_masks(tmp_path):
    job, split = _dataset(tmp_path, [3, 5, 1, 2, 2], reports=["a b", "a b c d", "a", "b", "c"])
    dm = _module(job, split, batch_size=3, bucket_by_size=False)
    dm.setup()
    batch = next(iter(dm._loader("train", shuffle=False, batch_size=3)))
    assert batch.features.shape == (3, 5, 4)
    assert batch.mask.tolist() == [[True] * 3 + [False] * 2, [True] * 5, [True] + [False] * 4]
    assert float(batch.features[0, 3:].abs().sum()) == 0.0  # padding is zeros
    assert batch.tokens.shape[1] == 2 + 4  # <bos> + longest report (4 words) + <eos>
    assert batch.tokens[2].tolist()[-1] == 0  # shorter reports are padded with <pad>


def test_datamodule_missing_feature_files_are_listed(tmp_path):
    job, split = _dataset(tmp_path, [2, 2, 2, 2])
    (job / "20x_256px_0px_overlap" / "features_toy" / "s1.h5").unlink()
    with pytest.raises(
        MissingFeaturesError, match=r"(?s)1 missing, e\.g\. s1.*data\.on_missing=skip"
    ):
        _module(job, split).setup()


def test_datamodule_skip_option_records_skipped_slides_in_manifest(tmp_path):
    job, split = _dataset(tmp_path, [2, 2, 2, 2])
    (job / "20x_256px_0px_overlap" / "features_toy" / "s1.h5").unlink()
    dm = _module(job, split, on_missing="skip")
    dm.setup()
    assert "s1" in dm.manifest["splits"]["train"]["skipped"]
    assert dm.manifest["splits"]["train"]["used"] == 1


def test_datamodule_wrong_feature_dimension_in_test_split_stops_at_setup(tmp_path):
    job, split = _dataset(tmp_path, [2, 2, 2])
    write_features(
        job / "20x_256px_0px_overlap" / "features_toy" / "s2.h5", np.ones((2, 6)), np.zeros((2, 2))
    )
    with pytest.raises(FeatureFileError, match=r"s2\.h5: feature dimension is 6, expected 4"):
        _module(job, split).setup()  # found before training, not when the test split is decoded


def test_datamodule_empty_bags_stop_or_are_skipped_and_listed(tmp_path):
    job, split = _dataset(tmp_path, [3, 0, 2, 2])
    with pytest.raises(
        FeatureFileError, match=r"(?s)no tissue patches.*s1.*data\.on_empty_bag=skip"
    ):
        _module(job, split).setup()
    dm = _module(job, split, on_empty_bag="skip")
    dm.setup()
    assert "N = 0" in dm.manifest["splits"]["train"]["skipped"]["s1"]
    assert dm.datasets["train"].ids == ["s0"]


def test_datamodule_truncated_file_names_the_file_at_setup(tmp_path):
    job, split = _dataset(tmp_path, [3, 3, 3])
    path = job / "20x_256px_0px_overlap" / "features_toy" / "s1.h5"
    path.write_bytes(path.read_bytes()[:800])
    with pytest.raises(FeatureFileError, match=r"s1\.h5 could not be read as HDF5.*re-run TRIDENT"):
        _module(job, split).setup()


def test_datamodule_missing_split_file_names_the_option(tmp_path):
    job, _ = _dataset(tmp_path, [2, 2, 2])
    with pytest.raises(FileNotFoundError, match="data.splits"):
        _module(job, tmp_path / "nope.json").setup()


def test_bag_policy_random_varies_in_training_and_is_fixed_in_evaluation():
    bag = BagPolicy(max_patches=4, sampling="random")
    torch.manual_seed(0)
    train_draws = {tuple(bag.select(50, train=True, seed=0, index=3)) for _ in range(5)}
    eval_draws = {tuple(bag.select(50, train=False, seed=0, index=3)) for _ in range(5)}
    assert len(train_draws) > 1 and len(eval_draws) == 1
    assert list(next(iter(eval_draws))) == sorted(next(iter(eval_draws)))  # file order kept
    assert BagPolicy(max_patches=4, sampling="first").select(
        50, train=True, seed=0, index=0
    ).tolist() == [0, 1, 2, 3]
    assert BagPolicy(max_patches=4, sampling="all").select(50, train=True, seed=0, index=0) is None


def test_datamodule_patch_stream_must_have_the_same_patches(tmp_path):
    job, split = _dataset(tmp_path, [3, 3, 3])
    conch = job / "20x_256px_0px_overlap" / "features_conch_v1"
    for i, n in enumerate([3, 2, 3]):
        write_features(conch / f"s{i}.h5", np.ones((n, 512), dtype=np.float32))
    dm = _module(job, split, streams={"knowledge": StreamSpec(kind="patch", encoder="conch1")})
    with pytest.raises(
        FeatureFileError, match=r"s1\.h5: stream 'knowledge' has 2 patches but the main features"
    ):
        dm.setup()  # checked from metadata before any compute
    write_features(conch / "s1.h5", np.ones((3, 512), dtype=np.float32))
    dm = _module(job, split, streams={"knowledge": StreamSpec(kind="patch", encoder="conch1")})
    dm.setup()
    assert dm.datasets["train"][0]["streams"]["knowledge"].shape == (3, 512)


def test_datamodule_missing_stream_folder_names_the_stream(tmp_path):
    job, split = _dataset(tmp_path, [3, 3, 3])
    dm = _module(job, split, streams={"slide": StreamSpec(kind="slide", encoder="titan")})
    with pytest.raises(
        MissingFeaturesError,
        match=r"(?s)stream .slide. \(encoder titan\).*data\.streams\.slide\.dir",
    ):
        dm.setup()


def test_datamodule_synthetic_generates_every_stream(tmp_path):
    from pathreport.data.synthetic import SyntheticConfig
    from pathreport.registry import ENCODERS

    cfg = OmegaConf.structured(
        DataConfig(
            name="synthetic", synthetic=SyntheticConfig(n_slides=12, min_patches=3, max_patches=6)
        )
    )
    streams = {
        "knowledge": StreamSpec(kind="patch", encoder="conch1"),
        "slide": StreamSpec(kind="slide", encoder="titan"),
        "concept": StreamSpec(kind="concept", key="bag_feats"),
        "concept_deep": StreamSpec(kind="concept", key="bag_feats_deep"),
    }
    dm = ReportDataModule(cfg, ENCODERS["conch15"], streams=streams, cache_dir=str(tmp_path))
    dm.setup()
    item = dm.datasets["train"][0]
    assert item["features"].shape[1] == 768
    assert item["streams"]["knowledge"].shape == (item["features"].shape[0], 512)
    assert item["streams"]["slide"].shape == (768,)
    assert item["streams"]["concept_deep"].shape == (512,)
    assert dm.stream_dims["concept"] == item["streams"]["concept"].shape[0] > 0


def test_datamodule_hands_the_generator_training_reports_only_for_its_resources(tmp_path):
    """The resources hook sees the dataset's training reports (never val/test) and, for a real
    dataset, no generated folder; what it returns becomes the module's ``resources``."""
    job, split = _dataset(
        tmp_path, [2, 2, 2, 2], reports=["train one", "train two", "val text", "test text"]
    )
    seen = []

    def factory(info):
        seen.append(info)
        return {"index": str(tmp_path / f"{info.name}.idx")}

    cfg = OmegaConf.structured(DataConfig(name="toyset", splits=str(split)))
    dm = ReportDataModule(
        cfg, ENC, features_dir=str(job), cache_dir=str(tmp_path / "cache"), resource_factory=factory
    )
    dm.setup()
    (info,) = seen
    assert info.train_reports == ("train one", "train two")
    assert info.name == "toyset" and info.split_file == split and info.generated_dir is None
    assert info.cache_dir == tmp_path / "cache"
    assert dm.resources == {"index": str(tmp_path / "toyset.idx")}


def test_datamodule_checks_a_concept_stream_against_its_declared_width(tmp_path):
    from pathreport.data.synthetic import SyntheticConfig
    from pathreport.registry import ENCODERS

    cfg = OmegaConf.structured(
        DataConfig(
            name="synthetic", synthetic=SyntheticConfig(n_slides=12, min_patches=3, max_patches=6)
        )
    )
    found = ReportDataModule(
        cfg,
        ENCODERS["conch15"],
        streams={"concept": StreamSpec(kind="concept", key="bag_feats")},
        cache_dir=str(tmp_path),
    )
    found.setup()
    width = found.stream_dims["concept"]
    right = StreamSpec(kind="concept", key="bag_feats", dim=width)
    ReportDataModule(
        cfg, ENCODERS["conch15"], streams={"concept": right}, cache_dir=str(tmp_path)
    ).setup()
    wrong = StreamSpec(kind="concept", key="bag_feats", dim=width + 1)
    dm = ReportDataModule(
        cfg, ENCODERS["conch15"], streams={"concept": wrong}, cache_dir=str(tmp_path)
    )
    with pytest.raises(FeatureFileError, match=str(width + 1)):
        dm.setup()


def test_size_buckets_group_similar_bags_and_cover_every_slide_once():
    from pathreport.data.dataset import SizeBucketBatchSampler

    sizes = [50, 3, 48, 5, 49, 4, 51, 6]
    evaluation = list(SizeBucketBatchSampler(sizes, 2, shuffle=False))
    assert evaluation == [[1, 5], [3, 7], [2, 4], [0, 6]]
    torch.manual_seed(0)
    epoch1 = list(SizeBucketBatchSampler(sizes, 2, shuffle=True))
    epoch2 = list(SizeBucketBatchSampler(sizes, 2, shuffle=True))
    for batches in (epoch1, epoch2):
        assert sorted(i for b in batches for i in b) == list(range(8))
        assert all(
            abs(sizes[b[0]] - sizes[b[1]]) <= 3 for b in batches
        )  # small with small, large with large
    assert epoch1 != epoch2


def test_datamodule_bag_sizes_respect_the_bag_policy(tmp_path):
    job, split = _dataset(tmp_path, [3, 9, 1, 2, 2])
    dm = _module(job, split, max_patches=4)
    dm.setup()
    assert dm.bag_sizes("train") == [3, 4, 1]
