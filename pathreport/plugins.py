"""The registries of every plug-in kind, and their discovery.

Discovery runs once, on the first lookup of any registry (or explicitly through :func:`discover`,
which the Hydra entry points call before composing, because ``model=<name>`` needs the generator's
config dataclass in Hydra's ConfigStore). It loads, in order:

1. the built-in evaluator and adapter modules of the package, including every module under
   ``pathreport/evaluation/`` (an evaluator or a judge backend is added by one new file there);
2. encoder specs, one YAML file each in ``encoders/``;
3. dataset specs, one YAML file each in ``configs/data/``;
4. every ``*.py`` file in ``models/`` and in the folders of ``PATHREPORT_PLUGIN_PATH``: a generator
   is added by dropping one file there, with no import list to edit. Names starting with ``_`` are
   not plug-ins: a plug-in keeps its helpers in a package beside it (``models/_bigen/``) and
   imports them relatively (``from ._bigen.knowledge_bank import load_bank``), because each folder
   is loaded as a package of its own;
5. third-party packages through the entry-point groups ``pathreport.<kind>`` (for example
   ``pathreport.generators``): an entry point may name a module (importing it registers its
   plug-ins) or an object (registered under the entry point's name).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import logging
import pkgutil
import re
import sys
import threading
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import yaml

from pathreport import paths
from pathreport.registry import Entry, Registry

log = logging.getLogger(__name__)


#: ConfigStore group of the generators' per-dataset size presets (option ``<dataset>-<model>``).
MODEL_PRESET_GROUP = "model_preset"


def _store_in_hydra(group: str):
    """An ``on_register`` hook that puts the entry's config into Hydra's ConfigStore ``group``.

    A generator's ``dataset_presets`` (``{dataset: {field: value}}``) are stored too, as options
    ``<dataset>-<model>`` of the ``model_preset`` group written into the ``model`` node:
    ``train.yaml`` selects ``model_preset: ${data}-${model}`` (optional), so a preset applies on its
    dataset only, below every command-line ``model.<field>=...``, and shows in ``config.yaml``.
    """

    def hook(entry: Entry) -> None:
        from hydra.core.config_store import ConfigStore
        from omegaconf import OmegaConf

        if entry.config is None:
            return
        node = OmegaConf.structured(entry.config)
        if "name" in getattr(entry.config, "__dataclass_fields__", {}):
            node.name = entry.name
        store = ConfigStore.instance()
        store.store(group=group, name=entry.name, node=node, provider="pathreport")
        for dataset, values in entry.metadata.get("dataset_presets", {}).items():
            store.store(group=MODEL_PRESET_GROUP, name=f"{dataset}-{entry.name}", node=dict(values),
                        package=group, provider="pathreport")

    return hook


def _store_encoder(entry: Entry) -> None:
    from hydra.core.config_store import ConfigStore

    ConfigStore.instance().store(group="encoder", name=entry.name, node=entry.obj, provider="pathreport")


GENERATORS: Registry = Registry("models", on_register=_store_in_hydra("model"))
ENCODERS: Registry = Registry("encoders", on_register=_store_encoder)
DATASETS: Registry = Registry("datasets")
EVALUATORS: Registry = Registry("evaluators")
TEXT_ENCODERS: Registry = Registry("text_encoders")
#: ``pathreport <name>`` sub-commands that plug-ins contribute: the entry is a function that fills
#: the sub-command's ``argparse`` parser (arguments, and ``func`` through ``set_defaults``); its
#: ``help`` metadata is the line shown by ``pathreport --help``.
COMMANDS: Registry = Registry("commands")
VLMS: Registry = Registry("vlms")
GENERATIVE_VLMS: Registry = Registry("generative_vlms")
JUDGE_BACKENDS: Registry = Registry("judge_backends")

REGISTRIES: dict[str, Registry] = {
    "models": GENERATORS,
    "encoders": ENCODERS,
    "datasets": DATASETS,
    "evaluators": EVALUATORS,
    "text_encoders": TEXT_ENCODERS,
    "commands": COMMANDS,
    "vlms": VLMS,
    "generative_vlms": GENERATIVE_VLMS,
    "judge_backends": JUDGE_BACKENDS,
}

# Entry-point group per registry, for third-party packages.
ENTRY_POINT_GROUPS: dict[str, str] = {
    "pathreport.generators": "models",
    "pathreport.encoders": "encoders",
    "pathreport.datasets": "datasets",
    "pathreport.evaluators": "evaluators",
    "pathreport.text_encoders": "text_encoders",
    "pathreport.commands": "commands",
    "pathreport.vlms": "vlms",
    "pathreport.generative_vlms": "generative_vlms",
    "pathreport.judge_backends": "judge_backends",
}

# Built-in modules that register evaluators and adapters when imported. They must stay cheap to
# import (standard library, numpy, torch and pathreport only at top level).
BUILTIN_MODULES: tuple[str, ...] = (
    "pathreport.crqs",
    "pathreport.pathlang",
    "pathreport.pathbind",
)

# Packages whose every module (recursively) is imported, with the same cheap-import rule.
BUILTIN_PACKAGES: tuple[str, ...] = ("pathreport.evaluation",)

_lock = threading.RLock()
_discovered = False
_loaded_files: dict[Path, str] = {}
_folder_packages: dict[Path, str] = {}
PLUGIN_PACKAGE = "pathreport_plugins"


def discover() -> None:
    """Load every plug-in once (idempotent and thread-safe)."""
    global _discovered
    with _lock:
        if _discovered:
            return
        _discovered = True
        for package in BUILTIN_PACKAGES:
            _import_package_tree(package)
        for module in BUILTIN_MODULES:
            if importlib.util.find_spec(module) is not None:
                importlib.import_module(module)
        _load_encoder_specs(paths.ENCODERS_DIR)
        _load_dataset_specs(paths.CONFIGS_DIR / "data")
        for folder in paths.plugin_dirs():
            load_plugin_folder(folder)
        _load_entry_points()


def _import_package_tree(package: str) -> None:
    """Import ``package`` and every module below it (sorted, so registration order is stable)."""
    root = importlib.import_module(package)
    for info in sorted(pkgutil.walk_packages(root.__path__, prefix=f"{package}."), key=lambda i: i.name):
        importlib.import_module(info.name)


def load_plugin_folder(folder: Path) -> None:
    """Import every ``*.py`` file of ``folder`` (skipping ``_private.py`` helpers)."""
    folder = Path(folder)
    if not folder.is_dir():
        if folder != paths.MODELS_DIR:
            log.warning("Plug-in folder %s (from %s) does not exist.", folder, paths.PLUGIN_PATH_ENV)
        return
    for path in sorted(folder.glob("*.py")):
        if not path.name.startswith("_"):
            load_plugin_file(path)


def load_plugin_file(path: Path) -> str:
    """Import one plug-in file under a private module name and return that name.

    Files are loaded by path, so a plug-in folder needs no ``__init__.py`` and two folders may
    hold files with the same stem; the folder becomes a package of its own
    (``pathreport_plugins.<folder>``), so a plug-in imports its helper package relatively.
    """
    path = Path(path).resolve()
    if path in _loaded_files:
        return _loaded_files[path]
    module_name = f"{folder_package(path.parent)}.{path.stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"Cannot import plug-in file {path}.")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    _loaded_files[path] = module_name
    try:
        spec.loader.exec_module(module)
    except Exception:
        sys.modules.pop(module_name, None)
        _loaded_files.pop(path, None)
        raise
    return module_name


def folder_package(folder: Path) -> str:
    """The package name under which the modules of a plug-in folder are imported (made once).

    Its search path is the folder itself, so ``from ._helpers import x`` in a plug-in file
    imports ``<folder>/_helpers/``; two folders with the same name get distinct packages.
    """
    folder = Path(folder).resolve()
    if folder in _folder_packages:
        return _folder_packages[folder]
    _ensure_package(PLUGIN_PACKAGE, [])
    base = name = f"{PLUGIN_PACKAGE}.{re.sub(r'[^0-9A-Za-z_]', '_', folder.name)}"
    copy = 1
    while name in sys.modules:  # a folder of the same name elsewhere
        copy += 1
        name = f"{base}_{copy}"
    _ensure_package(name, [str(folder)])
    _folder_packages[folder] = name
    return name


def _ensure_package(name: str, search_path: list[str]) -> None:
    if name in sys.modules:
        return
    spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
    spec.submodule_search_locations = search_path
    sys.modules[name] = importlib.util.module_from_spec(spec)


def _load_encoder_specs(folder: Path) -> None:
    from pathreport.encoders import EncoderSpec

    for path in sorted(folder.glob("*.yaml")):
        spec = EncoderSpec.from_yaml(path)
        ENCODERS.add(spec.name, spec, provider=str(path), **spec.metadata())


def _load_dataset_specs(folder: Path) -> None:
    for path in sorted(folder.glob("*.yaml")):
        with open(path) as f:
            raw = yaml.safe_load(f) or {}
        name = raw.get("name", path.stem)
        if name != path.stem:
            raise ValueError(
                f"{path}: field 'name' is {name!r} but the file is called {path.name}; "
                f"the dataset name is the join key, so rename one to match."
            )
        DATASETS.add(
            name,
            raw,
            provider=str(path),
            description=raw.get("description", ""),
            cleaning=raw.get("cleaning"),
            max_report_tokens=raw.get("max_report_tokens"),
        )


def _load_entry_points() -> None:
    for group, kind in ENTRY_POINT_GROUPS.items():
        for ep in entry_points(group=group):
            obj = ep.load()
            if isinstance(obj, type(sys)):  # a module: importing it registered its plug-ins
                continue
            registry = REGISTRIES[kind]
            if ep.name not in registry._entries:
                dist = getattr(ep, "dist", None)
                provider = f"{dist.name} {dist.version}" if dist is not None else ep.value
                registry.add(ep.name, obj, config=getattr(obj, "config_class", None), provider=provider)


for _registry in REGISTRIES.values():
    _registry.set_loader(discover)


def describe(kind: str) -> list[dict[str, Any]]:
    """Rows for ``pathreport list <kind>``: name, provider and metadata of every entry."""
    try:
        registry = REGISTRIES[kind]
    except KeyError:
        from pathreport.registry import RegistryError, did_you_mean

        hint = did_you_mean(kind, list(REGISTRIES))
        raise RegistryError(
            f"Unknown registry '{kind}'. {hint + ' ' if hint else ''}Choose from: {', '.join(REGISTRIES)}."
        ) from None
    rows = []
    for entry in registry.entries():
        row: dict[str, Any] = {"name": entry.name, "provider": _short_provider(entry.provider)}
        row.update({k: v for k, v in entry.metadata.items() if v not in (None, "", [], {})})
        if kind in ("evaluators", "judge_backends") and callable(entry.obj):
            from pathreport.evaluation.options import describe_options

            row["options"] = describe_options(entry.obj)
        rows.append(row)
    return rows


def _short_provider(provider: str) -> str:
    try:
        return str(Path(provider).resolve().relative_to(paths.PROJECT_ROOT))
    except (ValueError, OSError):
        return provider
