"""The one loader of plug-ins: built-ins, plug-in folders and entry points, for every registry.

Discovery runs once, on the first lookup of any registry (or explicitly through :func:`discover`,
which the Hydra entry points call before composing, because ``model=<name>`` needs the generator's
config dataclass in Hydra's ConfigStore). It loads, in order:

1. the built-in plug-in packages (:data:`BUILTIN_PACKAGES`), every module below them: every report
   metric in ``pathreport/evaluation/`` (an evaluator, a CRQS extractor or a judge backend is added
   by one new file there), and the PathLang and PathBind model adapters;
2. encoder specs, one YAML file each in ``encoders/``;
3. dataset specs, one YAML file each in ``configs/data/``;
4. every ``*.py`` file in ``models/`` and in the folders of ``PATHREPORT_PLUGIN_PATH``: a generator
   is added by dropping one file there, with no import list to edit. Names starting with ``_`` are
   not plug-ins: a plug-in keeps its helpers in a package beside it (``models/_bigen/``) and
   imports them relatively (``from ._bigen.knowledge_bank import load_bank``), because each folder
   is loaded as a package of its own. A helper module registers what is its own (BiGen's text
   encoders, its ``pathreport bigen`` command) when its plug-in file imports it;
5. third-party packages through each registry's entry-point group (``pathreport.generators``,
   ``pathreport.evaluators``, ...): an entry point may name a module (importing it registers its
   plug-ins) or an object (registered under the entry point's name).

A plug-in file or entry-point module that registers nothing is an error that names it (a file that
only helps others starts with ``_``), and a name registered twice is an error naming both providers.

This module sits above :mod:`pathreport.registry` and below everything else: it imports only the
kernel, and reaches the built-in plug-ins by module name, at run time, which is what a loader does.
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

import yaml

from pathreport import paths
from pathreport.encoders import EncoderSpec
from pathreport.errors import ConfigError, PluginError
from pathreport.registry import DATASETS, ENCODERS, GENERATORS, REGISTRIES, Entry, Registry

log = logging.getLogger(__name__)

#: ConfigStore group of the generators' per-dataset size presets (option ``<dataset>-<model>``).
MODEL_PRESET_GROUP = "model_preset"

#: Packages whose every public module (recursively) registers built-in plug-ins when imported. They
#: must stay cheap to import (standard library, numpy, torch and pathreport only at top level).
BUILTIN_PACKAGES: tuple[str, ...] = (
    "pathreport.evaluation",
    "pathreport.pathlang.adapters",
    "pathreport.pathbind.adapters",
)

#: The package under which plug-in folders are imported (one sub-package per folder).
PLUGIN_PACKAGE = "pathreport_plugins"

_lock = threading.RLock()
_discovered = False
_loaded_files: dict[Path, str] = {}
_folder_packages: dict[Path, str] = {}


def _store_generator_config(entry: Entry) -> None:
    """Put a generator's config dataclass into Hydra's ConfigStore as option ``model=<name>``.

    A generator's ``dataset_presets`` (``{dataset: {field: value}}``) are stored too, as options
    ``<dataset>-<model>`` of the ``model_preset`` group written into the ``model`` node:
    ``train.yaml`` selects ``model_preset: ${data}-${model}`` (optional), so a preset applies on its
    dataset only, below every command-line ``model.<field>=...``, and shows in ``config.yaml``.
    """
    from hydra.core.config_store import ConfigStore
    from omegaconf import OmegaConf

    if entry.config is None:
        return
    node = OmegaConf.structured(entry.config)
    if "name" in getattr(entry.config, "__dataclass_fields__", {}):
        node.name = entry.name
    store = ConfigStore.instance()
    store.store(group="model", name=entry.name, node=node, provider="pathreport")
    for dataset, values in entry.metadata.get("dataset_presets", {}).items():
        store.store(
            group=MODEL_PRESET_GROUP,
            name=f"{dataset}-{entry.name}",
            node=dict(values),
            package="model",
            provider="pathreport",
        )


def _store_encoder(entry: Entry) -> None:
    """Put an encoder spec into Hydra's ConfigStore as option ``encoder=<name>``."""
    from hydra.core.config_store import ConfigStore

    ConfigStore.instance().store(
        group="encoder", name=entry.name, node=entry.obj, provider="pathreport"
    )


GENERATORS.set_hooks(on_register=_store_generator_config)
ENCODERS.set_hooks(on_register=_store_encoder)


def discover() -> None:
    """Load every plug-in once (idempotent and thread-safe)."""
    global _discovered
    with _lock:
        if _discovered:
            return
        _discovered = True
        for package in BUILTIN_PACKAGES:
            _import_package_tree(package)
        _load_encoder_specs(paths.ENCODERS_DIR)
        _load_dataset_specs(paths.CONFIGS_DIR / "data")
        for folder in paths.plugin_dirs():
            load_plugin_folder(folder)
        _load_entry_points()


def _import_package_tree(package: str) -> None:
    """Import ``package`` and each public module below it (sorted: registration order is stable)."""
    root = importlib.import_module(package)
    infos = pkgutil.walk_packages(root.__path__, prefix=f"{package}.")
    for info in sorted(infos, key=lambda i: i.name):
        if not info.name.rpartition(".")[2].startswith("_"):
            importlib.import_module(info.name)


def load_plugin_folder(folder: Path) -> None:
    """Import every ``*.py`` file of ``folder`` (skipping ``_private.py`` helpers)."""
    folder = Path(folder)
    if not folder.is_dir():
        if folder != paths.MODELS_DIR:
            log.warning(
                "Plug-in folder %s (from %s) does not exist.", folder, paths.PLUGIN_PATH_ENV
            )
        return
    for path in sorted(folder.glob("*.py")):
        if not path.name.startswith("_"):
            load_plugin_file(path)


def load_plugin_file(path: Path) -> str:
    """Import one plug-in file under a private module name and return that name.

    Files are loaded by path, so a plug-in folder needs no ``__init__.py`` and two folders may
    hold files with the same stem; the folder becomes a package of its own
    (``pathreport_plugins.<folder>``), so a plug-in imports its helper package relatively.

    Raises:
        PluginError: the file registered nothing.
    """
    path = Path(path).resolve()
    if path in _loaded_files:
        return _loaded_files[path]
    module_name = f"{folder_package(path.parent)}.{path.stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise PluginError(f"Cannot import plug-in file {path}: it is not a Python source file.")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    _loaded_files[path] = module_name
    before = Registry.registrations
    try:
        spec.loader.exec_module(module)
    except Exception:
        sys.modules.pop(module_name, None)
        _loaded_files.pop(path, None)
        raise
    if Registry.registrations == before:
        raise PluginError(
            f"Plug-in file {path} registered nothing. Register its plug-in where it is defined "
            '(e.g. @GENERATORS.register("<name>", config=...)), or, if the file only helps other '
            "plug-ins, rename it to start with '_'."
        )
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
    for path in sorted(folder.glob("*.yaml")):
        spec = EncoderSpec.from_yaml(path)
        ENCODERS.register(spec.name, provider=str(path), **spec.metadata())(spec)


def _load_dataset_specs(folder: Path) -> None:
    for path in sorted(folder.glob("*.yaml")):
        with open(path) as f:
            raw = yaml.safe_load(f) or {}
        name = raw.get("name", path.stem)
        if name != path.stem:
            raise ConfigError(
                f"{path}: field 'name' is {name!r} but the file is called {path.name}; "
                f"the dataset name is the join key, so rename one to match."
            )
        DATASETS.register(
            name,
            provider=str(path),
            description=raw.get("description", ""),
            cleaning=raw.get("cleaning"),
            max_report_tokens=raw.get("max_report_tokens"),
        )(raw)


def _load_entry_points() -> None:
    """Load every registry's entry points; each must register something."""
    for registry in REGISTRIES.values():
        for ep in entry_points(group=registry.group):
            dist = getattr(ep, "dist", None)
            provider = f"{dist.name} {dist.version}" if dist is not None else ep.value
            module_name = ep.value.partition(":")[0].strip()
            already_imported = module_name in sys.modules
            before = Registry.registrations
            obj = ep.load()
            if isinstance(obj, type(sys)):  # a module: importing it registers its plug-ins
                if Registry.registrations == before and not already_imported:
                    raise PluginError(
                        f"Entry point '{ep.name} = {ep.value}' (group {registry.group}, "
                        f"from {provider}) registered nothing: its module must register a "
                        "plug-in when imported, or the entry point must name the object to "
                        f"register as '{ep.name}'."
                    )
                continue
            registry.register(
                ep.name, config=getattr(obj, "config_class", None), provider=provider
            )(obj)


for _registry in REGISTRIES.values():
    _registry.set_loader(discover)
