"""Model-family adapters for PathBind, one file per family.

Every module in this folder whose name does not start with ``_`` is imported by :func:`discover`, and
registers its named models in ``pathreport.discovery.GENERATIVE_VLMS``: adding a family is adding one
file. Adapters import transformers and Pillow only when a model is built, so discovery stays cheap.
Third-party adapters can also come from installed packages through the
``pathreport.generative_vlms`` entry-point group.
"""

from __future__ import annotations

import importlib
import pkgutil


def discover() -> list[str]:
    """Import every adapter module of this folder; return their names."""
    names = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
            names.append(info.name)
    return names
