"""Old module paths, from before the package was split into layers, kept importable.

Plug-in files written for earlier versions import ``pathreport.generator``, ``pathreport.nn`` or
``pathreport.plugins``, and a checkpoint loaded with ``ckpt_trust=true`` may name a class by its old
module. Each old path imports the module that now holds its code (the same module object, so
``isinstance`` and the registries see one class), with a ``DeprecationWarning`` naming the new path.
Code inside the package uses the new paths only (``tests/test_architecture.py`` checks that).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

#: Old module (or package) path -> where it lives now. A package maps its sub-modules too.
MOVED: dict[str, str] = {
    "pathreport.generator": "pathreport.generation.generator",
    "pathreport.nn": "pathreport.generation.nn",
    "pathreport.decoding": "pathreport.generation.decoding",
    "pathreport.lit": "pathreport.generation.lit",
    "pathreport.checkpoints": "pathreport.generation.checkpoints",
    "pathreport.entry": "pathreport.app.entry",
    "pathreport.run": "pathreport.app.run",
    "pathreport.run_folder": "pathreport.app.run_folder",
    "pathreport.cli": "pathreport.app.cli",
    "pathreport.config": "pathreport.app.config",
    "pathreport.commands": "pathreport.app.commands",
    "pathreport.crqs": "pathreport.evaluation.crqs",
    "pathreport.evaluation.predictions": "pathreport.data.predictions",
    # The registries and discovery: everything plug-ins used from it is exported by the package.
    "pathreport.plugins": "pathreport",
}


def new_name(old: str) -> str | None:
    """Where the module ``old`` lives now, or None when it has not moved."""
    for before, after in MOVED.items():
        if old == before or old.startswith(before + "."):
            return after + old[len(before) :]
    return None


class _Alias(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} has moved to {self.target}; import it from there (or, in a plug-in, "
            "from pathreport).",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(self.target)

    def exec_module(self, module: ModuleType) -> None:
        """The target module is already executed."""


class _MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: object = None, target: object = None):
        target_name = new_name(fullname)
        if target_name is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(target_name))


def install() -> None:
    """Make the old paths importable (once per process)."""
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _MovedFinder())  # before the path finder, which would load a copy
