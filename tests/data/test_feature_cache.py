"""data.feature_cache: float16 copies of a split's features serve the same batches as the HDF5
files, follow changes of the sources, and survive interrupted or damaged builds; loader workers keep
the
batch order."""

from __future__ import annotations

import json
import logging
import os
import pickle

import numpy as np
import pytest
import torch
from omegaconf import OmegaConf

from pathreport.app.config import DataConfig
from pathreport.data.datamodule import ReportDataModule
from pathreport.data.streams import StreamSpec
from pathreport.data.trident import FeatureFileError, write_features
from pathreport.encoders import EncoderSpec
from pathreport.errors import ConfigError

ENC = EncoderSpec(name="toy", trident_name="toy", embedding_dim=6, patch_size=256)
SIZES = [5, 3, 8, 2, 4, 6]


def _write_slide(folder, i, n, scale=1.0):
    rng = np.random.default_rng(i)
    feats = (rng.standard_normal((n, ENC.embedding_dim)) * scale).astype(np.float32)
    coords = np.stack([np.arange(n) * 256 + i, np.arange(n) * 512], axis=1)
    return write_features(folder / f"s{i}.h5", feats, coords)


def _job(tmp_path):
    folder = tmp_path / "job" / "20x_256px_0px_overlap" / "features_toy"
    for i, n in enumerate(SIZES):
        _write_slide(folder, i, n)
    ids = [f"s{i}" for i in range(len(SIZES))]
    split = {
        "train": [{"id": s, "report": f"report {s} ."} for s in ids[:4]],
        "val": [{"id": ids[4], "report": "val ."}],
        "test": [{"id": ids[5], "report": "test ."}],
    }
    (tmp_path / "split.json").write_text(json.dumps(split))
    return folder


def _module(tmp_path, **data):
    cfg = OmegaConf.structured(
        DataConfig(name="toyset", splits=str(tmp_path / "split.json"), **data)
    )
    dm = ReportDataModule(cfg, ENC, features_dir=str(tmp_path / "job"))
    dm.setup()
    return dm


def _items(dm, split="train"):
    ds = dm.datasets[split]
    return [ds[i] for i in range(len(ds))]


def _cache(dm, split="train"):
    return dm.datasets[split].caches["patch"]


def test_cache_serves_the_h5_features_rounded_to_float16_and_the_same_coords(tmp_path):
    _job(tmp_path)
    plain = _module(tmp_path)
    cached = _module(tmp_path, feature_cache=str(tmp_path / "cache"))
    assert cached.manifest["feature_cache"]["patch"].startswith(str(tmp_path / "cache"))
    for split in ("train", "val", "test"):
        assert _cache(cached, split).features_path.is_file()
        for a, b in zip(_items(plain, split), _items(cached, split), strict=True):
            assert a["id"] == b["id"] and a["tokens"] == b["tokens"]
            assert b["features"].dtype == np.float32
            np.testing.assert_array_equal(
                b["features"], a["features"].astype(np.float16).astype(np.float32)
            )
            np.testing.assert_array_equal(b["coords"], a["coords"])


def test_cache_is_built_once_and_reused(tmp_path, monkeypatch):
    from pathreport.data.feature_cache import SplitFeatureCache

    _job(tmp_path)
    _module(tmp_path, feature_cache=str(tmp_path / "cache"))
    builds = []
    monkeypatch.setattr(SplitFeatureCache, "_build", lambda self, fp: builds.append(self.split))
    dm = _module(tmp_path, feature_cache=str(tmp_path / "cache"))
    assert builds == []
    assert len(_items(dm)) == 4


def test_cache_true_lives_in_the_cache_dir(tmp_path):
    _job(tmp_path)
    cfg = OmegaConf.structured(
        DataConfig(name="toyset", splits=str(tmp_path / "split.json"), feature_cache="true")
    )
    dm = ReportDataModule(
        cfg, ENC, features_dir=str(tmp_path / "job"), cache_dir=str(tmp_path / "mine")
    )
    dm.setup()
    assert (tmp_path / "mine" / "features" / "toyset") in _cache(dm).folder.parents


def test_changed_source_file_rebuilds_the_cache(tmp_path):
    folder = _job(tmp_path)
    _module(tmp_path, feature_cache=str(tmp_path / "cache"))
    new = _write_slide(folder, 1, SIZES[1], scale=3.0)  # re-extracted: same shape, new values
    os.utime(new, ns=(0, 10**9))  # even with an old modification time, the content differs
    dm = _module(tmp_path, feature_cache=str(tmp_path / "cache"))
    fresh = _module(tmp_path)
    np.testing.assert_array_equal(
        _items(dm)[1]["features"],
        _items(fresh)[1]["features"].astype(np.float16).astype(np.float32),
    )


@pytest.mark.parametrize("damage", ["interrupted", "truncated", "garbled index", "wrong shape"])
def test_partial_or_corrupt_cache_is_detected_and_rebuilt(tmp_path, caplog, damage):
    _job(tmp_path)
    cache = _cache(_module(tmp_path, feature_cache=str(tmp_path / "cache")))
    if damage == "interrupted":
        cache.index_path.unlink()
    elif damage == "truncated":
        data = cache.features_path.read_bytes()
        cache.features_path.write_bytes(data[: len(data) // 2])
    elif damage == "garbled index":
        cache.index_path.write_text("{not json")
    else:
        np.save(cache.features_path, np.zeros((3, ENC.embedding_dim), dtype=np.float16))
    with caplog.at_level(logging.WARNING, logger="pathreport.data.feature_cache"):
        dm = _module(tmp_path, feature_cache=str(tmp_path / "cache"))
    assert "rebuilding it" in caplog.text and str(cache.index_path) in caplog.text
    plain = _module(tmp_path)
    for a, b in zip(_items(plain), _items(dm), strict=True):
        np.testing.assert_array_equal(
            b["features"], a["features"].astype(np.float16).astype(np.float32)
        )


def test_features_beyond_float16_range_stop_with_the_file_and_the_fix(tmp_path):
    folder = _job(tmp_path)
    _write_slide(folder, 2, SIZES[2], scale=1e6)
    with pytest.raises(
        FeatureFileError,
        match=r"s2\.h5: a feature value .* does not fit float16.*data\.feature_cache=null",
    ):
        _module(tmp_path, feature_cache=str(tmp_path / "cache"))


def test_cache_of_every_stream_kind_matches_the_files(tmp_path):
    from pathreport.data.synthetic import SyntheticConfig
    from pathreport.registry import ENCODERS

    streams = {
        "knowledge": StreamSpec(kind="patch", encoder="conch1"),
        "slide": StreamSpec(kind="slide", encoder="titan"),
        "concept": StreamSpec(kind="concept", key="bag_feats"),
    }
    modules = []
    for cache in (None, str(tmp_path / "cache")):
        cfg = OmegaConf.structured(
            DataConfig(
                name="synthetic",
                feature_cache=cache,
                synthetic=SyntheticConfig(n_slides=12, min_patches=3, max_patches=6),
            )
        )
        dm = ReportDataModule(cfg, ENCODERS["conch15"], streams=streams, cache_dir=str(tmp_path))
        dm.setup()
        modules.append(dm)
    plain, cached = modules
    assert set(cached.datasets["train"].caches) == {"patch", "knowledge", "slide", "concept"}
    for a, b in zip(_items(plain), _items(cached), strict=True):
        for name in streams:
            np.testing.assert_allclose(b["streams"][name], a["streams"][name], rtol=1e-3, atol=1e-4)
        assert b["streams"]["slide"].shape == a["streams"]["slide"].shape


def test_cached_dataset_pickles_without_its_mapping(tmp_path):
    """Spawned loader workers (Windows, macOS) receive the dataset pickled: the memory map must not
    travel (it would copy the whole split), the worker maps the file itself."""
    _job(tmp_path)
    ds = _module(tmp_path, feature_cache=str(tmp_path / "cache")).datasets["train"]
    expected = ds[2]["features"]  # maps the file in this process
    payload = pickle.dumps(ds)
    assert len(payload) < 20_000
    np.testing.assert_array_equal(pickle.loads(payload)[2]["features"], expected)


@pytest.mark.parametrize("cache", [False, True])
def test_loader_workers_keep_the_seeded_batch_order_and_content(tmp_path, cache):
    _job(tmp_path)
    option = {"feature_cache": str(tmp_path / "cache")} if cache else {}
    epochs = {}
    for workers in (0, 2):
        dm = _module(tmp_path, num_workers=str(workers), batch_size=2, **option)
        assert dm.num_workers() == workers
        torch.manual_seed(5)
        loader = dm.train_dataloader()
        epochs[workers] = [
            [(b.ids, b.features.clone(), b.coords.clone()) for b in loader] for _ in range(2)
        ]
    for epoch0, epoch2 in zip(epochs[0], epochs[2], strict=True):
        assert [ids for ids, _, _ in epoch0] == [ids for ids, _, _ in epoch2]
        for (_, f0, c0), (_, f2, c2) in zip(epoch0, epoch2, strict=True):
            assert torch.equal(f0, f2) and torch.equal(c0, c2)


def test_num_workers_auto_is_none_on_a_cpu_and_bad_values_are_refused(tmp_path):
    _job(tmp_path)
    if not torch.cuda.is_available():
        assert _module(tmp_path).num_workers() == 0
    with pytest.raises(ConfigError, match=r"data\.num_workers must be .* or auto, found 'many'"):
        _module(tmp_path, num_workers="many").num_workers()


def test_loader_pinning_pins_every_tensor_of_a_batch(tmp_path, monkeypatch):
    """DataLoader(pin_memory=True) pins only objects that have a pin_memory method; a GPU run's
    batches must arrive pinned (faked here: this machine may have no GPU to pin for)."""
    from torch.utils.data._utils.pin_memory import pin_memory

    _job(tmp_path)
    dm = _module(tmp_path, batch_size=2, num_workers="0")
    batch = next(iter(dm.train_dataloader()))
    pinned = []
    monkeypatch.setattr(
        torch.Tensor, "pin_memory", lambda t, *a, **kw: pinned.append(t.shape) or t.clone()
    )
    out = pin_memory(batch)
    assert sorted(pinned) == sorted(
        [batch.features.shape, batch.mask.shape, batch.coords.shape, batch.tokens.shape]
    )
    assert out.ids == batch.ids and torch.equal(out.features, batch.features)
