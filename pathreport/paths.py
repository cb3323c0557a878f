"""Where pathreport finds its built-in plug-ins, configs and data, and where it caches.

pathreport is installed in editable mode from its repository (``pip install -e .``), so the
top-level folders of the repository (``models/``, ``encoders/``, ``configs/``, ``crqs/``,
``splits/``) sit next to the package. Users can add plug-in folders with the environment variable
``PATHREPORT_PLUGIN_PATH`` (folders separated by ``os.pathsep``), which is how a model file outside
the repository is picked up without editing anything.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_DIR.parent

MODELS_DIR = PROJECT_ROOT / "models"
ENCODERS_DIR = PROJECT_ROOT / "encoders"
CONFIGS_DIR = PROJECT_ROOT / "configs"
CRQS_DIR = PROJECT_ROOT / "crqs"
SPLITS_DIR = PROJECT_ROOT / "splits"
DATA_DIR = PACKAGE_DIR / "resources"

PLUGIN_PATH_ENV = "PATHREPORT_PLUGIN_PATH"
CACHE_ENV = "PATHREPORT_CACHE"


def plugin_dirs() -> list[Path]:
    """Folders scanned for plug-in files: the built-in ``models/`` then the user's folders."""
    dirs = [MODELS_DIR]
    extra = os.environ.get(PLUGIN_PATH_ENV, "")
    dirs += [Path(p).expanduser() for p in extra.split(os.pathsep) if p.strip()]
    return dirs


def cache_dir() -> Path:
    """Cache root for generated data (the synthetic dataset) and frozen artefacts."""
    root = os.environ.get(CACHE_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "pathreport"
    )
    return Path(root)
