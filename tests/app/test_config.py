"""Hydra composition: typed configs, helpful errors, every Trainer argument, sweep specs."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from omegaconf import OmegaConf

from pathreport import paths
from pathreport.app.entry import check_overrides, prepare
from tests.conftest import compose_train


def test_config_default_composition_is_histgen_on_uni2_synthetic(tmp_path):
    cfg = compose_train([], tmp_path)
    assert (cfg.model.name, cfg.encoder.name, cfg.data.name) == ("histgen", "uni2", "synthetic")
    assert cfg.encoder.embedding_dim == 1536


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ("model=histgn", "Unknown model 'histgn' (model=histgn). Did you mean 'histgen'?"),
        ("encoder=uni3", "Unknown encoder 'uni3' (encoder=uni3). Did you mean 'uni2'"),
        ("data=reg2026", "Unknown dataset 'reg2026' (data=reg2026). Did you mean 'reg2025'?"),
        (
            "trainer.max_epoch=3",
            "Unknown config key 'trainer.max_epoch'. Did you mean 'max_epochs'",
        ),
        ("data.batch_sise=2", "Unknown config key 'data.batch_sise'. Did you mean 'batch_size'"),
        ("model=migen,histgn", "Unknown model 'histgn'"),
    ],
)
def test_config_unknown_names_and_keys_answer_did_you_mean(override, expected):
    prepare()
    assert expected in (check_overrides([override], "train") or "")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("data.knowledge_bank", "model.bank_path"),
        ("data.knowledge_bank_encoder", "model.bank_text_encoder"),
        ("data.n_concepts", "model.n_concepts"),
    ],
)
def test_config_settings_moved_into_a_model_name_their_new_key(old, new):
    prepare()
    message = check_overrides([f"{old}=1"], "train") or ""
    assert f"'{old}' was removed" in message and f"Write {new}=..." in message


def test_config_valid_overrides_pass_the_check():
    prepare()
    assert (
        check_overrides(
            ["model=migen", "trainer.max_epochs=2", "+trainer.foo=1", "hydra.run.dir=x"], "train"
        )
        is None
    )


@pytest.mark.parametrize(
    "override", ["trainer.max_epochs=abc", "optim.lr=fast", "data.batch_size=2.5"]
)
def test_config_wrong_type_fails_at_composition(override, tmp_path):
    from hydra.errors import ConfigCompositionException

    with pytest.raises(
        ConfigCompositionException, match=f"Error merging override {override}"
    ) as err:
        compose_train([override], tmp_path)
    assert "could not be converted" in str(err.value.__cause__)


@pytest.mark.parametrize(
    "arg",
    [
        "devices=2",
        "num_nodes=2",
        "accumulate_grad_batches=4",
        "gradient_clip_val=1.0",
        "precision=bf16-mixed",
        "strategy=ddp",
        "limit_train_batches=0.5",
    ],
)
def test_config_every_trainer_argument_is_reachable(arg, tmp_path):
    key, value = arg.split("=")
    cfg = compose_train([f"trainer.{arg}"], tmp_path)
    assert str(cfg.trainer[key]) == value


def test_config_trainer_schema_covers_the_lightning_signature():
    import inspect

    from pytorch_lightning import Trainer

    from pathreport.app.config import TrainerConfig

    wanted = set(inspect.signature(Trainer.__init__).parameters) - {
        "self",
        "callbacks",
        "logger",
        "plugins",
        "default_root_dir",
    }
    assert wanted <= set(TrainerConfig.__dataclass_fields__)


def _sample(spec: dict) -> list:
    if "values" in spec:
        return list(spec["values"])
    return [spec["min"], spec["max"]]


@pytest.mark.parametrize(
    "sweep", sorted((paths.PROJECT_ROOT / "sweeps").glob("*.yaml")), ids=lambda p: p.stem
)
def test_config_every_wandb_sweep_spec_composes(sweep: Path, tmp_path):
    """W&B fills ${args_no_hyphens} with key=value pairs; each must compose with the command."""
    spec = yaml.safe_load(sweep.read_text())
    assert spec["metric"] == {"name": "val/loss", "goal": "minimize"} and spec["method"] == "bayes"
    command = spec["command"]
    assert (
        command[-1] == "${args_no_hyphens}"
        and command[2] == "${program}"
        and spec["program"] == "train.py"
    )
    fixed = [c for c in command[3:-1]]
    params = spec["parameters"]
    # the extremes of every parameter, one parameter at a time, plus all minima together
    combos = [{k: _sample(v)[0] for k, v in params.items()}]
    for key, value in params.items():
        for choice in _sample(value):
            combos.append({**combos[0], key: choice})
    for combo in combos:
        cfg = compose_train([*fixed, *(f"{k}={v}" for k, v in combo.items())], tmp_path)
        for key, value in combo.items():
            assert OmegaConf.select(cfg, key) == pytest.approx(value)
    prepare()
    assert check_overrides([*fixed, *(f"{k}={v}" for k, v in combos[0].items())], "train") is None


@pytest.mark.parametrize("dataset", ["reg2025", "tcga", "histai"])
@pytest.mark.parametrize("model", ["migen", "histgen", "bigen", "scout"])
def test_config_paper_recipe_composes_with_the_authors_settings(dataset, model, tmp_path):
    cfg = compose_train(
        [
            f"experiment={dataset}-{model}",
            "encoder=hoptimus1",
            "paths.features_dir=/data/trident",
            "data.splits=/data/splits.json",
        ],
        tmp_path,
    )
    assert (cfg.data.name, cfg.model.name, cfg.encoder.name) == (dataset, model, "hoptimus1")
    assert (cfg.optim.lr, cfg.optim.weight_decay, cfg.optim.lr_patience) == (7e-5, 1e-5, 3)
    assert (cfg.data.batch_size, cfg.trainer.max_epochs, cfg.callbacks.early_stopping.patience) == (
        1,
        200,
        7,
    )
    assert (cfg.optimized_metric, cfg.optimized_mode) == (
        "val/loss",
        "min",
    ) and cfg.decoding.beam_size == 3
    assert cfg.data.max_report_tokens == {"reg2025": 96, "tcga": 600, "histai": 600}[dataset]


@pytest.mark.parametrize(
    ("overrides", "d_model"),
    [
        (["model=scout"], 256),  # the synthetic dataset's preset
        (["model=scout", "model.d_model=512"], 512),  # the command line wins
        (["model=scout", "~model_preset"], 768),  # the paper's size on request
        (
            ["experiment=reg2025-scout", "paths.features_dir=/data/trident", "data.splits=/s.json"],
            768,
        ),
        (["model=histgen"], 512),  # no preset declared: the defaults
    ],
)
def test_config_model_preset_applies_on_its_dataset_below_the_command_line(
    overrides, d_model, tmp_path
):
    cfg = compose_train(overrides, tmp_path)
    assert cfg.model.d_model == d_model


def test_config_model_preset_with_an_unknown_field_fails_at_registration():
    from pathreport.generation.generator import (
        ReportGenerator,
        TransformerGeneratorConfig,
        register_generator,
    )
    from pathreport.registry import GENERATORS

    with pytest.raises(TypeError, match=r"dataset preset 'synthetic' sets \['d_modle'\]"):
        register_generator(
            "preset_typo",
            config=TransformerGeneratorConfig,
            dataset_presets={"synthetic": {"d_modle": 256}},
        )(type("Typo", (ReportGenerator,), {}))
    assert "preset_typo" not in GENERATORS


def test_config_debug_and_search_presets_compose(tmp_path):
    for folder in ("debug", "hparams_search"):
        for path in sorted((paths.CONFIGS_DIR / folder).glob("*.yaml")):
            cfg = compose_train([f"{folder}={path.stem}"], tmp_path)
            assert cfg.model.name == "histgen", path


def test_config_slurm_launcher_composes_for_the_paper_grid():
    """The documented SLURM multirun composes (hydra-submitit-launcher is in the [slurm] extra)."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    prepare()
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(paths.CONFIGS_DIR), version_base="1.3"):
        cfg = compose(
            config_name="train",
            return_hydra_config=True,
            overrides=[
                "hydra/launcher=submitit_slurm",
                "hydra.launcher.partition=gpu",
                "hydra.launcher.gpus_per_node=1",
                "trainer=gpu",
                "experiment=reg2025-histgen",
                "paths.features_dir=/data/trident",
                "data.splits=/data/splits.json",
            ],
        )
    assert cfg.hydra.launcher._target_.endswith("SlurmLauncher")
    assert cfg.hydra.launcher.partition == "gpu" and cfg.trainer.precision == "bf16-mixed"


def test_config_eval_decoding_overrides_are_typed_and_partial(tmp_path):
    """``eval.py decoding.<field>=...`` takes DecodingConfig's fields, checked by name and type, and
    leaves the others unset so the checkpoint's own settings stay."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    prepare()
    assert "beam_size" in (
        check_overrides(["ckpt_path=x.ckpt", "decoding.beam_sise=1"], "eval") or ""
    )
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(paths.CONFIGS_DIR), version_base="1.3"):
        cfg = compose(config_name="eval", overrides=["ckpt_path=x.ckpt", "decoding.beam_size=1"])
        with pytest.raises(Exception, match="temperature"):
            compose(config_name="eval", overrides=["ckpt_path=x.ckpt", "decoding.temperature=warm"])
    given = {k: v for k, v in OmegaConf.to_container(cfg.decoding).items() if v is not None}
    assert given == {"beam_size": 1}
