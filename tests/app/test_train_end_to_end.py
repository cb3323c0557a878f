"""End-to-end train.py / eval.py runs on the tiny synthetic dataset (real Lightning, real files)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from pathreport import paths
from pathreport.data.predictions import read_predictions
from tests.conftest import FAST_RUN, TINY_DATA, smoke_overrides

NLG_KEYS = {"BLEU_1", "BLEU_2", "BLEU_3", "BLEU_4", "METEOR", "ROUGE_L", "CIDEr"}


def test_train_histgen_writes_predictions_metrics_checkpoint_and_config(tiny_train):
    summary, out = tiny_train("model=histgen", "encoder=uni2", *smoke_overrides("histgen"))
    records = read_predictions(out / "predictions" / "test.jsonl")
    manifest = json.loads((out / "manifest.json").read_text())
    assert len(records) == manifest["splits"]["test"]["used"] > 0
    # the raw reference (with its newline) is kept, not the tokenizer-cleaned text
    assert any("\n" in r.reference for r in records)
    metrics = json.loads((out / "metrics" / "test.json").read_text())
    assert set(metrics) >= NLG_KEYS
    assert metrics["text_normalization"] in ("ptb", "simple")
    assert metrics["n_cases"] == len(records)
    best = Path(summary["best_checkpoint"])
    assert best.is_file() and best.parent == out / "checkpoints"
    assert (out / "checkpoints" / "last.ckpt").is_file()
    assert (out / "config.yaml").is_file()
    ckpt = torch.load(best, map_location="cpu", weights_only=False)
    hp = ckpt["hyper_parameters"]
    assert hp["vocab"][:4] == ["<pad>", "<bos>", "<eos>", "<unk>"]
    assert hp["config"]["model"]["name"] == "histgen"
    assert hp["context"]["feature_dim"] == 1536  # from the uni2 encoder spec, never typed twice


def test_train_tokenizer_is_built_from_training_split_only(tiny_train):
    from pathreport.data.splits import load_splits
    from pathreport.data.text import Tokenizer

    _, out = tiny_train("model=most_frequent", "eval.metrics=[nlg]")
    manifest = json.loads((out / "manifest.json").read_text())
    splits = load_splits(manifest["split_file"])
    ckpt = torch.load(out / "checkpoints" / "baseline.ckpt", map_location="cpu", weights_only=False)
    expected = Tokenizer.build([e.report for e in splits.train], style="reg", min_count=2)
    assert ckpt["hyper_parameters"]["vocab"] == expected.vocab


@pytest.mark.parametrize("baseline", ["most_frequent", "nearest_neighbor"])
def test_train_baselines_predict_training_reports(tiny_train, baseline):
    from pathreport.data.splits import load_splits

    _, out = tiny_train(f"model={baseline}", "eval.metrics=[nlg]")
    manifest = json.loads((out / "manifest.json").read_text())
    train_reports = [e.report for e in load_splits(manifest["split_file"]).train]
    records = read_predictions(out / "predictions" / "test.jsonl")
    assert all(r.prediction in train_reports for r in records)
    if baseline == "most_frequent":
        assert len({r.prediction for r in records}) == 1
        top = max(set(train_reports), key=lambda r: (train_reports.count(r), [-ord(c) for c in r]))
        assert records[0].prediction == top


def test_eval_from_checkpoint_alone_reproduces_predictions(tiny_train, tmp_path):
    from pathreport.app.entry import prepare
    from pathreport.app.run import evaluate_checkpoint

    summary, out = tiny_train("model=migen", "encoder=conch15", *smoke_overrides("migen"))
    prepare()
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    eval_dir = tmp_path / "eval"
    with initialize_config_dir(config_dir=str(paths.CONFIGS_DIR), version_base="1.3"):
        cfg = compose(
            config_name="eval",
            overrides=[
                f"ckpt_path={summary['best_checkpoint']}",
                f"paths.output_dir={eval_dir}",
                "trainer.enable_progress_bar=false",
            ],
        )
    again = evaluate_checkpoint(cfg)
    first = read_predictions(out / "predictions" / "test.jsonl")
    second = read_predictions(eval_dir / "predictions" / "test.jsonl")
    assert [(r.id, r.prediction) for r in first] == [(r.id, r.prediction) for r in second]
    assert again["BLEU_4"] == pytest.approx(summary["BLEU_4"])


def test_train_resumes_from_last_checkpoint(tiny_train):
    summary, out = tiny_train("model=migen", *smoke_overrides("migen"), "test=false")
    first = torch.load(out / "checkpoints" / "last.ckpt", map_location="cpu", weights_only=False)
    assert first["epoch"] == 1
    _, out2 = tiny_train(
        "model=migen",
        *smoke_overrides("migen"),
        "test=false",
        "trainer.max_epochs=3",
        f"ckpt_path={out / 'checkpoints' / 'last.ckpt'}",
        name="resumed",
    )
    resumed = torch.load(out2 / "checkpoints" / "last.ckpt", map_location="cpu", weights_only=False)
    assert resumed["epoch"] == 2  # continued from epoch 1 instead of starting over


def _run_script(
    args: list[str], cwd: Path, env_extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def test_new_generator_is_one_file_in_a_plugin_folder(tmp_path):
    """A generator written as one file in its own folder trains and decodes with no other edit."""
    plugin_dir = tmp_path / "my_models"
    plugin_dir.mkdir()
    (plugin_dir / "pooled_caption.py").write_text(PLUGIN_FILE)
    out = tmp_path / "run"
    result = _run_script(
        [
            str(paths.PROJECT_ROOT / "train.py"),
            "model=pooled_caption",
            "model.d_model=32",
            "eval.metrics=[nlg]",
            *TINY_DATA,
            *FAST_RUN,
            f"hydra.run.dir={out}",
        ],
        cwd=tmp_path,
        env_extra={"PATHREPORT_PLUGIN_PATH": str(plugin_dir)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    records = read_predictions(out / "predictions" / "test.jsonl")
    assert records and all(r.model == "pooled_caption" for r in records)
    assert (out / "metrics" / "test.json").is_file()


def test_hydra_multirun_runs_every_combination(tmp_path):
    result = _run_script(
        [
            str(paths.PROJECT_ROOT / "train.py"),
            "-m",
            "model=most_frequent,nearest_neighbor",
            "encoder=uni2,conch15",
            "eval.metrics=[nlg]",
            *TINY_DATA,
            *FAST_RUN,
            f"hydra.sweep.dir={tmp_path / 'sweep'}",
        ],
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    summaries = sorted((tmp_path / "sweep").rglob("metrics/test.json"))
    combos = {
        (json.loads(p.read_text())["model"], json.loads(p.read_text())["encoder"])
        for p in summaries
    }
    assert combos == {
        (m, e) for m in ("most_frequent", "nearest_neighbor") for e in ("uni2", "conch15")
    }


def test_wandb_logger_runs_offline(tiny_train):
    _, out = tiny_train("model=most_frequent", "eval.metrics=[nlg]", "logger=wandb")
    runs = list((out / "wandb").glob("offline-run-*"))
    assert len(runs) == 1
    assert any(runs[0].rglob("*.wandb"))


PLUGIN_FILE = '''
"""Mean-pooled caption model: a user's generator written as one file (paper: none)."""
from dataclasses import dataclass

from torch import nn

from pathreport.generation.generator import GeneratorConfig, ReportGenerator, register_generator
from pathreport.generation.nn import TextDecoder


@dataclass
class PooledCaptionConfig(GeneratorConfig):
    d_model: int = 64


@register_generator("pooled_caption", config=PooledCaptionConfig, paper="none")
class PooledCaption(ReportGenerator):
    def __init__(self, cfg, ctx):
        super().__init__(cfg, ctx)
        self.proj = nn.Linear(ctx.feature_dim, cfg.d_model)
        self.decoder = TextDecoder(ctx.vocab_size, cfg.d_model, 2, 2 * cfg.d_model, 1,
                                   max_len=ctx.max_report_tokens + 2)

    def encode(self, batch):
        return {"memory": self.proj(batch.features), "mask": batch.mask}

    def decode(self, state, tokens, cache=None):
        return self.decoder(tokens, state["memory"], state["mask"], cache)
'''


def _trident_job(root: Path, ids: list[str], trident_name: str, dim: int, folder: str) -> Path:
    import numpy as np

    from pathreport.data.trident import write_features

    rng = np.random.default_rng(0)
    for sid in ids:
        n = int(rng.integers(3, 9))
        write_features(
            root / folder / f"features_{trident_name}" / f"{sid}.h5",
            rng.standard_normal((n, dim)).astype(np.float32),
            rng.integers(0, 10_000, (n, 2)),
            encoder=trident_name,
            patch_size=512,
        )
    return root


@pytest.mark.parametrize("split_format", ["paper", "histgen"])
def test_train_on_real_layout_with_documented_overrides(tiny_train, tmp_path, split_format):
    """data=reg2025 with a TRIDENT job directory and a split file, as a user types it."""
    reports = [
        "Breast, core-needle biopsy;\n  Invasive carcinoma of no special type, grade II",
        "Stomach, endoscopic biopsy;\n  Chronic gastritis",
        "Prostate, needle biopsy;\n  Benign prostatic tissue",
    ]
    ids = [f"PIT_01_{i:05d}_01" for i in range(12)]
    split = {"train": ids[:8], "val": ids[8:10], "test": ids[10:]}
    entries = {
        name: [
            {
                "id": sid,
                "report": reports[int(sid[7:12]) % 3],
                **(
                    {"image_path": [f"{sid}.pt"], "split": name}
                    if split_format == "histgen"
                    else {}
                ),
            }
            for sid in members
        ]
        for name, members in split.items()
    }
    split_file = tmp_path / "reg_splits.json"
    split_file.write_text(json.dumps(entries))
    job = _trident_job(tmp_path / "trident", ids, "conch_v15", 768, "20x_512px_0px_overlap")
    _, out = tiny_train(
        "data=reg2025",
        "encoder=conch15",
        f"paths.features_dir={job}",
        f"data.splits={split_file}",
        "model=nearest_neighbor",
        "data.batch_size=4",
        synthetic=False,
    )
    records = read_predictions(out / "predictions" / "test.jsonl")
    assert [r.id for r in records] == ids[10:]
    assert all(r.dataset == "reg2025" and r.encoder == "conch15" for r in records)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["feature_dirs"]["patch"].endswith("20x_512px_0px_overlap/features_conch_v15")


def test_ckpt_path_last_finds_this_configurations_newest_run(tmp_path):
    import time

    from pathreport.app.run import _resolve_ckpt

    runs = tmp_path / "logs" / "train" / "synthetic" / "histgen-uni2"
    for name in (
        "seed0_2026-01-01_10-00-00",
        "seed1_2026-01-02_10-00-00",
        "seed0_2026-01-03_10-00-00",
    ):
        (runs / name / "checkpoints").mkdir(parents=True)
        (runs / name / "checkpoints" / "last.ckpt").write_bytes(b"x")
        time.sleep(0.01)
    new_run = runs / "seed0_2026-01-04_10-00-00"
    assert (
        _resolve_ckpt("last", new_run, seed=0)
        == runs / "seed0_2026-01-03_10-00-00" / "checkpoints" / "last.ckpt"
    )
    assert _resolve_ckpt("last", new_run, seed=1).parent.parent.name.startswith("seed1_")
    with pytest.raises(FileNotFoundError, match="ckpt_path=last"):
        _resolve_ckpt("last", new_run, seed=7)
