"""Image loading and the image perturbations of the VQA protocol.

Pillow is optional for the rest of pathreport, so it is imported here, inside the functions, with an
install hint. Perturbations keep the question untouched and change only the picture (App. A.3).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

INSTALL_HINT = "Install the VLM extras: pip install 'pathreport[vlm]' (or: pip install pillow)."


def require_pil() -> Any:
    """The ``PIL.Image`` module, or an ImportError that says how to install it."""
    try:
        from PIL import Image
    except ImportError as err:  # pragma: no cover - pillow is installed with the vlm extra
        raise ImportError(f"PathBind needs Pillow to read images. {INSTALL_HINT}") from err
    return Image


def image_size(path: Path) -> tuple[int, int]:
    """(width, height) of an image file, reading only its header."""
    image_mod = require_pil()
    with image_mod.open(path) as image:
        return image.size


def load_image(path: Path) -> Any:
    """An RGB ``PIL.Image`` fully loaded in memory (the file is closed on return)."""
    image_mod = require_pil()
    with image_mod.open(path) as image:
        return image.convert("RGB")


def blank_image(size: tuple[int, int], color: tuple[int, int, int]) -> Any:
    """A uniform image: the "blank image" condition (its colour and size are NOT STATED)."""
    return require_pil().new("RGB", size, tuple(color))


def blurred_image(image: Any, radius: float) -> Any:
    """A Gaussian-blurred copy: one level of the "progressive blur" condition."""
    require_pil()
    from PIL import ImageFilter

    return image.filter(ImageFilter.GaussianBlur(radius=radius))
