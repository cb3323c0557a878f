"""From entity-to-image attention to a heat map and a mask (App. C.1, Algorithm 1, Eqs. 1-5).

Input: per decoder layer and per entity token, the head-averaged post-softmax attention over the
image tokens (Eq. 1; adapters return it). The steps below are the paper's, in order: choose layers
(Eq. 2), average them (Eq. 3), place tokens on the patch grid, take the max over entity tokens (Eq.
4), Gaussian-smooth on the grid (sigma in patch units), min-max normalise, upsample to the original
image, and keep the top ``q`` of pixels (Eq. 5). Everything is NumPy so that a map can be recomputed
from saved attention without a model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pathreport.pathbind.config import AttentionConfig
from pathreport.pathbind.vlm import EntityAttention


def layer_indices(num_layers: int, which: str) -> list[int]:
    """0-indexed decoder layers of a layer set: thirds are ``[0, L//3)``, ``[L//3, 2L//3)``,
    ``[2L//3, L)`` (the paper's rounding is NOT STATED, ambiguity A8)."""
    if num_layers < 1:
        raise ValueError(f"A model needs at least one decoder layer, got {num_layers}.")
    lo, hi = num_layers // 3, (2 * num_layers) // 3
    ranges = {"shallow": (0, lo), "mid": (lo, hi), "deep": (hi, num_layers), "all": (0, num_layers)}
    if which not in ranges:
        raise ValueError(f"Unknown layer set {which!r}; choose from {', '.join(ranges)}.")
    start, stop = ranges[which]
    if stop <= start:  # fewer than three layers: fall back to the closest non-empty choice
        start, stop = (
            (0, num_layers)
            if which == "all"
            else (min(start, num_layers - 1), min(start, num_layers - 1) + 1)
        )
    return list(range(start, stop))


def entity_map(layer_token_maps: np.ndarray, layers: list[int], order: str) -> np.ndarray:
    """Collapse ``[L, K, N]`` attention to one value per image token.

    ``layer_mean_first`` is Eqs. 3-4 (mean over layers, then max over tokens);
    ``token_max_first`` takes the max over tokens per layer, then the layer mean (ambiguity A11).
    """
    selected = np.asarray(layer_token_maps, dtype=np.float64)[layers]
    if order == "layer_mean_first":
        return selected.mean(axis=0).max(axis=0)
    if order == "token_max_first":
        return selected.max(axis=1).mean(axis=0)
    raise ValueError(f"Unknown aggregation order {order!r}.")


def to_grid(values: np.ndarray, token_grid: np.ndarray) -> np.ndarray:
    """Place per-token values on the patch grid (``token_grid`` holds a token index per cell)."""
    return np.asarray(values, dtype=np.float64)[np.asarray(token_grid)]


def gaussian_kernel(sigma: float, truncate: float) -> np.ndarray:
    radius = int(truncate * sigma + 0.5)
    x = np.arange(-radius, radius + 1, dtype=np.float64)
    kernel = np.exp(-0.5 * (x / sigma) ** 2)
    return kernel / kernel.sum()


_PAD_MODES = {"reflect": "symmetric", "nearest": "edge", "constant": "constant"}


def gaussian_smooth(
    grid: np.ndarray, sigma: float, truncate: float = 4.0, border: str = "reflect"
) -> np.ndarray:
    """Separable Gaussian filter on a 2-D grid; matches ``scipy.ndimage.gaussian_filter`` with the
    same ``truncate`` and ``mode`` (``reflect`` mirrors about the edge, repeating the edge cell)."""
    grid = np.asarray(grid, dtype=np.float64)
    if sigma <= 0:
        return grid.copy()
    kernel = gaussian_kernel(sigma, truncate)
    radius = len(kernel) // 2
    out = grid
    for axis in (0, 1):
        pad = [(0, 0), (0, 0)]
        pad[axis] = (radius, radius)
        padded = np.pad(out, pad, mode=_PAD_MODES[border])
        windows = np.lib.stride_tricks.sliding_window_view(padded, len(kernel), axis=axis)
        out = windows @ kernel
    return out


def min_max(grid: np.ndarray) -> tuple[np.ndarray, bool]:
    """Scale to [0, 1]. A constant map (no spatial signal) becomes all zeros and is flagged."""
    lo, hi = float(np.min(grid)), float(np.max(grid))
    if not np.isfinite(lo) or not np.isfinite(hi) or hi - lo <= 1e-12 * max(1.0, abs(hi)):
        return np.zeros_like(grid, dtype=np.float64), True
    return (grid - lo) / (hi - lo), False


def _axis_sampling(
    n_pixels: int, start: float, stop: float, n_cells: int, mode: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each pixel centre along one axis: two grid indices, the weight of the second, and
    whether the pixel lies inside the model's view."""
    centres = np.arange(n_pixels, dtype=np.float64) + 0.5
    inside = (centres >= start) & (centres <= stop)
    coord = (centres - start) / (stop - start) * n_cells - 0.5  # half-pixel convention
    if mode == "nearest":
        index = np.clip(np.floor(coord + 0.5), 0, n_cells - 1).astype(int)
        return index, index, np.zeros(n_pixels), inside
    coord = np.clip(coord, 0.0, n_cells - 1)
    i0 = np.floor(coord).astype(int)
    i1 = np.minimum(i0 + 1, n_cells - 1)
    return i0, i1, coord - i0, inside


def upsample(
    grid: np.ndarray,
    image_size: tuple[int, int],
    view_box: tuple[float, float, float, float] | None = None,
    mode: str = "bilinear",
    fill: float = 0.0,
) -> np.ndarray:
    """Resample a grid map to the original image (``image_size`` = (W, H)).

    ``view_box`` (x0, y0, x1, y1) is the part of the original image, in its pixel coordinates, that
    the grid covers; it may extend past the image (padding) or cover only part of it (a centre
    crop). Pixels outside it get ``fill``. With the whole image as the view this equals
    ``torch.nn.functional.interpolate(..., align_corners=False)``.
    """
    width, height = image_size
    x0, y0, x1, y1 = view_box if view_box is not None else (0.0, 0.0, float(width), float(height))
    rows, cols = grid.shape
    r0, r1, wr, in_r = _axis_sampling(height, y0, y1, rows, mode)
    c0, c1, wc, in_c = _axis_sampling(width, x0, x1, cols, mode)
    g = np.asarray(grid, dtype=np.float64)
    top = g[r0][:, c0] * (1 - wc) + g[r0][:, c1] * wc
    bottom = g[r1][:, c0] * (1 - wc) + g[r1][:, c1] * wc
    out = top * (1 - wr)[:, None] + bottom * wr[:, None]
    out[~(in_r[:, None] & in_c[None, :])] = fill
    return out


def quantile_mask(
    heat: np.ndarray, q: float, ties: str = "ge", method: str = "linear"
) -> np.ndarray:
    """The top-``q`` mask of a heat map (Eq. 5).

    ``ge`` keeps every pixel >= the (1 - q) quantile, so ties can push the mask above q (the paper's
    rule); ``top_k`` keeps exactly round(q * pixels), ties broken by pixel order.
    """
    flat = heat.ravel()
    if ties == "ge":
        threshold = np.quantile(flat, 1.0 - q, method=method)
        return heat >= threshold
    if ties == "top_k":
        k = max(1, int(round(q * flat.size)))
        order = np.argsort(-flat, kind="stable")
        mask = np.zeros(flat.size, dtype=bool)
        mask[order[:k]] = True
        return mask.reshape(heat.shape)
    raise ValueError(f"Unknown tie rule {ties!r}; choose 'ge' or 'top_k'.")


@dataclass
class HeatMap:
    """Every stage of one entity's map.

    Attributes:
        raw: token-max map on the patch grid, before smoothing (Eq. 4).
        smoothed: after the Gaussian filter.
        normalised: smoothed and min-max scaled grid.
        heat: ``normalised`` upsampled to the original image: M-hat.
        degenerate: the map was constant, so it carries no location (min-max gave all zeros).
    """

    raw: np.ndarray
    smoothed: np.ndarray
    normalised: np.ndarray
    heat: np.ndarray
    degenerate: bool


def build_heatmap(
    attention: EntityAttention, config: AttentionConfig, layers: str | None = None
) -> HeatMap:
    """Run Algorithm 1 on one entity's attention; ``layers`` overrides ``config.layers``."""
    chosen = layer_indices(attention.num_layers, layers or config.layers)
    # Placing tokens on the grid is a gather, so it commutes with the token max of Eq. 4.
    raw = to_grid(
        entity_map(attention.layer_token_maps, chosen, config.order), attention.token_grid
    )
    smoothed = gaussian_smooth(raw, config.sigma, config.truncate, config.border)
    normalised, degenerate = min_max(smoothed)
    view = None if config.geometry == "stretch" else attention.view_box
    heat = upsample(normalised, attention.image_size, view, config.upsample)
    return HeatMap(
        raw=raw, smoothed=smoothed, normalised=normalised, heat=heat, degenerate=degenerate
    )
