"""Hydra entry points with plug-in discovery and helpful errors.

Before Hydra composes, the plug-ins are discovered (so ``model=<name>`` finds a generator that
exists only as a file in ``models/``) and the command-line overrides are checked: an unknown group
option or config key stops with a "did you mean" suggestion instead of a bare composition error.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from typing import Any

from pathreport import paths
from pathreport.errors import USER_ERRORS
from pathreport.registry import GENERATORS, did_you_mean

log = logging.getLogger("pathreport")

# Config groups whose options are user-facing names, and the noun used in messages.
GROUP_NOUNS = {
    "model": "model",
    "encoder": "encoder",
    "data": "dataset",
    "trainer": "trainer config",
    "logger": "logger",
    "experiment": "experiment",
    "hparams_search": "search space",
    "debug": "debug preset",
}


def prepare() -> None:
    """Discover plug-ins and register the schemas in Hydra's ConfigStore."""
    from pathreport.app.config import register_configs
    from pathreport.discovery import discover

    register_configs()
    discover()


def check_overrides(overrides: list[str], config_name: str) -> str | None:
    """Return an error message for the first unknown group option or config key, else None."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    try:
        parsed = OverridesParser.create().parse_overrides(overrides)
    except HydraException:
        return None  # Hydra reports syntax errors itself
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(paths.CONFIGS_DIR), version_base="1.3"):
        loader = GlobalHydra.instance().config_loader()
        groups = set(loader.list_groups(""))
        group_choices: list[str] = []
        key_overrides = []
        for ov in parsed:
            key = ov.key_or_group
            if key.startswith("hydra") or ov.is_delete() or ov.is_add() or ov.is_force_add():
                continue
            if key in groups:
                options = loader.get_group_options(key)
                values = (
                    [ov.value()] if not ov.is_sweep_override() else list(ov.sweep_string_iterator())
                )
                for value in values:
                    if isinstance(value, str) and value not in options and value != "null":
                        noun = GROUP_NOUNS.get(key, f"'{key}' option")
                        hint = did_you_mean(value, options)
                        available = ", ".join(sorted(options))
                        return (
                            f"Unknown {noun} '{value}' "
                            f"({key}={value}). {hint + ' ' if hint else ''}Available: {available}."
                        )
                first = values[0] if values else None
                if isinstance(first, str):
                    group_choices.append(f"{key}={first}")
            else:
                key_overrides.append(key)
        if not key_overrides:
            return None
        try:
            cfg = compose(config_name=config_name, overrides=group_choices)
        except (HydraException, OmegaConfBaseException):
            return None  # composition problems are reported by Hydra with full context
    for key in key_overrides:
        parent_key, _, leaf = key.rpartition(".")
        parent = OmegaConf.select(cfg, parent_key, default=None) if parent_key else cfg
        if parent is None or not OmegaConf.is_dict(parent):
            continue
        known = [str(k) for k in parent]  # (``in`` would say False for a mandatory ??? value)
        if leaf not in known:
            moved = moved_key(key)
            if moved:
                return moved
            hint = did_you_mean(leaf, known)
            where = f"'{parent_key}'" if parent_key else "the top level"
            return (
                f"Unknown config key '{key}'. {hint + ' ' if hint else ''}Keys under {where}: "
                f"{', '.join(sorted(known))}. (To add a key that does not exist, write +{key}=...)"
            )
    return None


def moved_key(key: str) -> str | None:
    """Where a setting that moved into a generator's config went (its ``moved_keys`` metadata,
    ``{old key: new key}``), as an error message; None when ``key`` never moved."""
    for entry in GENERATORS.entries():
        new = entry.metadata.get("moved_keys", {}).get(key)
        if new:
            return (
                f"'{key}' was removed: it is now the {entry.name} setting '{new}'. Write {new}=... "
                f"(with model={entry.name}) instead."
            )
    return None


def hydra_entry(task: Callable[[Any], dict[str, Any]], config_name: str) -> None:
    """Run ``task`` under ``@hydra.main`` with ``configs/<config_name>.yaml``."""
    import hydra
    from omegaconf import DictConfig

    user_overrides = [a for a in sys.argv[1:] if not a.startswith("-")]
    try:
        prepare()  # a broken plug-in is a user error too
        problem = check_overrides(user_overrides, config_name)
        if problem:
            print(f"Error: {problem}", file=sys.stderr)
            sys.exit(2)
        check_output_folders(user_overrides)
    except USER_ERRORS as err:
        report_error(err)
        sys.exit(getattr(err, "exit_code", 1))
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()

    @hydra.main(config_path=str(paths.CONFIGS_DIR), config_name=config_name, version_base="1.3")
    def main(cfg: DictConfig) -> float | None:
        _quiet_third_party_logs()
        try:
            summary = task(cfg)
        except USER_ERRORS as err:
            if os.environ.get("HYDRA_FULL_ERROR") == "1":
                raise
            report_error(err)
            sys.exit(getattr(err, "exit_code", 1))
        metric = cfg.get("optimized_metric")
        value = summary.get(metric) if metric else None
        return float(value) if isinstance(value, (int, float)) else None

    main()


def check_output_folders(overrides: list[str]) -> None:
    """Check the folders Hydra will create before it creates them (Hydra itself would fail with a
    traceback): an explicit run or sweep folder, else the log root the default folders go under."""
    from pathlib import Path

    from pathreport.app.run_folder import check_creatable

    given = dict(o.split("=", 1) for o in overrides if "=" in o)
    for key in ("hydra.run.dir", "hydra.sweep.dir", "paths.log_dir"):
        value = given.get(key)
        if value and "${" not in value:
            check_creatable(Path(value).expanduser(), option=f"{key}=<folder>")
    if not any(k in given for k in ("hydra.run.dir", "hydra.sweep.dir", "paths.log_dir")):
        check_creatable(Path("logs"), option="paths.log_dir=<folder> or hydra.run.dir=<folder>")


def report_error(err: BaseException) -> None:
    """Print a user error as one message on stderr (Hydra's console log goes to stdout), and keep
    it in the run's log file too."""
    message = err.args[0] if isinstance(err, KeyError) and err.args else err
    print(f"Error: {message}", file=sys.stderr, flush=True)
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.FileHandler):
            handler.handle(
                log.makeRecord(log.name, logging.ERROR, __file__, 0, "%s", (message,), None)
            )


def _quiet_third_party_logs() -> None:
    import warnings

    # torch 2.13's pytree deprecation, raised inside Lightning on every batch transfer.
    warnings.filterwarnings("ignore", message=".*isinstance\\(treespec, LeafSpec\\).*")
    for name in ("pytorch_lightning.utilities.rank_zero", "lightning.fabric"):
        logging.getLogger(name).setLevel(logging.WARNING)
