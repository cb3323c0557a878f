"""Built-in VLM adapters, one file per model. Every module in this folder is imported when
:mod:`pathreport.pathlang` is, so a new adapter is one new file here (or, outside the repository, a
package exposing the ``pathreport.vlms`` entry point)."""

from __future__ import annotations

import importlib
import pkgutil


def load_all() -> list[str]:
    """Import every adapter module of this folder (names starting with ``_`` are helpers)."""
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    for name in names:
        importlib.import_module(f"{__name__}.{name}")
    return names
