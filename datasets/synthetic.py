"""Synthetic image classification tasks rendered with Pillow, for pretraining and finetuning experiments.

``SyntheticShapes`` (pretraining: ten geometric shapes, many images) and ``SyntheticGlyphs`` (finetuning:
eight other figures, few labelled images) share one renderer: a filled figure of random colour, size,
position, rotation and slight stretch on a random background (gradient, stripes, blotches or checkers),
with occasional clutter (lines and dots, sometimes over the figure) and pixel noise. Figures are drawn at
twice the size and box-downsampled, so edges are antialiased.

Image ``i`` of a split is a pure function of ``(seed, task, split, i)``: it is rendered on access from a
numpy generator seeded with those numbers, so any DataLoader worker can produce any image.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from .vision import VisionDataset

# A figure is a list of (polygon, value) drawn in order on a mask: 255 fills, 0 cuts a hole. Polygons are
# (n, 2) arrays of (x, y) points, y pointing down, inside the unit disc.
Figure = list[tuple[np.ndarray, int]]


def _regular(n: int, radius: float = 1.0, phase: float = -math.pi / 2) -> np.ndarray:
    angles = phase + 2 * math.pi * np.arange(n) / n
    return radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)


def _disc(radius: float = 1.0, centre: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    return _regular(48, radius) + np.asarray(centre)


def _star(rng: np.random.Generator) -> Figure:
    points = _regular(10)
    points[1::2] *= rng.uniform(0.38, 0.5)
    return [(points, 255)]


def _cross(rng: np.random.Generator) -> Figure:
    w = rng.uniform(0.22, 0.34)
    corner = np.array([[w, -1.0], [w, -w], [1.0, -w]])  # the right side of the top arm, turned four times
    quarter_turn = np.array([[0.0, 1.0], [-1.0, 0.0]])
    return [(np.concatenate([corner @ np.linalg.matrix_power(quarter_turn, k) for k in range(4)]), 255)]


def _arrow(rng: np.random.Generator) -> Figure:
    w, head = rng.uniform(0.14, 0.22), rng.uniform(0.5, 0.65)
    return [(np.array([[-1, -w], [0.15, -w], [0.15, -head], [1, 0], [0.15, head], [0.15, w], [-1, w]]), 255)]


def _ring(rng: np.random.Generator) -> Figure:
    return [(_disc(0.9), 255), (_disc(0.9 * rng.uniform(0.5, 0.65)), 0)]


def _ellipse(rng: np.random.Generator) -> Figure:
    return [(_disc() * np.array([1.0, rng.uniform(0.45, 0.62)]), 255)]


SHAPES: dict[str, Callable[[np.random.Generator], Figure]] = {
    "circle": lambda rng: [(_disc(0.85), 255)],
    "square": lambda rng: [(_regular(4, phase=math.pi / 4), 255)],
    "triangle": lambda rng: [(_regular(3), 255)],
    "pentagon": lambda rng: [(_regular(5), 255)],
    "hexagon": lambda rng: [(_regular(6), 255)],
    "star": _star,
    "cross": _cross,
    "ellipse": _ellipse,
    "ring": _ring,
    "arrow": _arrow,
}


def _letter_h(rng: np.random.Generator) -> Figure:
    t = rng.uniform(0.3, 0.42)
    a, b = -0.75 + t, 0.75 - t
    return [(np.array([[-0.75, -1], [a, -1], [a, -t / 2], [b, -t / 2], [b, -1], [0.75, -1], [0.75, 1], [b, 1],
                       [b, t / 2], [a, t / 2], [a, 1], [-0.75, 1]]), 255)]


def _letter_l(rng: np.random.Generator) -> Figure:
    t = rng.uniform(0.3, 0.42)
    return [(np.array([[-0.6, -1], [-0.6 + t, -1], [-0.6 + t, 1 - t], [0.6, 1 - t], [0.6, 1], [-0.6, 1]]), 255)]


def _letter_t(rng: np.random.Generator) -> Figure:
    t = rng.uniform(0.3, 0.42)
    return [(np.array([[-0.8, -1], [0.8, -1], [0.8, -1 + t], [t / 2, -1 + t], [t / 2, 1], [-t / 2, 1],
                       [-t / 2, -1 + t], [-0.8, -1 + t]]), 255)]


def _crescent(rng: np.random.Generator) -> Figure:
    return [(_disc(0.9), 255), (_disc(0.8, (rng.uniform(0.35, 0.5), 0.0)), 0)]


def _heart(rng: np.random.Generator) -> Figure:
    t = np.linspace(0, 2 * math.pi, 48, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) - 3
    return [(np.stack([x, y], axis=1) / 17, 255)]


def _hourglass(rng: np.random.Generator) -> Figure:
    neck = rng.uniform(0.06, 0.16)
    return [(np.array([[-0.7, -1], [0.7, -1], [neck, 0], [0.7, 1], [-0.7, 1], [-neck, 0]]), 255)]


def _semicircle(rng: np.random.Generator) -> Figure:
    angles = np.linspace(0, math.pi, 25)
    return [(np.stack([np.cos(angles), np.sin(angles) - 0.42], axis=1), 255)]


GLYPHS: dict[str, Callable[[np.random.Generator], Figure]] = {
    "crescent": _crescent,
    "heart": _heart,
    "hourglass": _hourglass,
    "letter_H": _letter_h,
    "letter_L": _letter_l,
    "letter_T": _letter_t,
    "lightning": lambda rng: [(np.array([[0.25, -1], [-0.55, 0.12], [-0.05, 0.12], [-0.3, 1], [0.55, -0.18],
                                         [0.05, -0.18]]), 255)],
    "semicircle": _semicircle,
}


def _background(rng: np.random.Generator, n: int) -> tuple[Image.Image, np.ndarray]:
    """An n x n RGB texture blending two random colours, and those colours."""
    first = rng.uniform(0, 255, 3)
    # the second colour stays near the first: the texture shows, but less than the figure's edges
    colours = np.stack([first, np.clip(first + rng.uniform(-90, 90, 3), 0, 255)]).astype(np.float32)
    kind = rng.integers(4)
    theta = rng.uniform(0, 2 * math.pi)
    coords = np.arange(n, dtype=np.float32) / n
    u = coords[None, :] * math.cos(theta) + coords[:, None] * math.sin(theta)  # position along a random direction
    if kind == 0:  # linear gradient
        t = (u - u.min()) / (u.max() - u.min())
    elif kind == 1:  # stripes, smooth or hard
        t = 0.5 + 0.5 * np.sin(2 * math.pi * rng.uniform(2, 6) * u + rng.uniform(0, 2 * math.pi))
        if rng.random() < 0.5:
            t = (t > 0.5).astype(np.float32)
    elif kind == 2:  # blotches: a few random values smoothly upsampled
        k = int(rng.integers(3, 7))
        small = Image.fromarray((rng.random((k, k)) * 255).astype(np.uint8))
        t = np.asarray(small.resize((n, n), Image.Resampling.BICUBIC), dtype=np.float32) / 255
    else:  # rotated checkers
        v = coords[:, None] * math.cos(theta) - coords[None, :] * math.sin(theta)
        cells = rng.uniform(3, 7)
        t = ((np.floor(u * cells) + np.floor(v * cells)) % 2).astype(np.float32)
    # blend through a palette of 256 shades, which Pillow expands to RGB far faster than numpy arithmetic
    shades = colours[0] + np.linspace(0, 1, 256, dtype=np.float32)[:, None] * (colours[1] - colours[0])
    img = Image.fromarray((t * 255).astype(np.uint8))
    img.putpalette(shades.astype(np.uint8).tobytes())
    return img.convert("RGB"), colours


def _contrasting_colour(rng: np.random.Generator, palette: np.ndarray) -> tuple[int, ...]:
    """A random colour far enough from every colour of ``palette`` to stay visible on it."""
    candidates = rng.integers(0, 256, (8, 3))
    distance = np.linalg.norm(candidates[:, None, :] - palette[None, :, :], axis=2).min(axis=1)
    far = np.flatnonzero(distance > 100)
    return tuple(int(c) for c in candidates[far[0] if far.size else distance.argmax()])


def _draw_clutter(rng: np.random.Generator, draw: ImageDraw.ImageDraw, n: int) -> None:
    """One to three thin lines or small dots of random colours."""
    for _ in range(rng.integers(1, 4)):
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        if rng.random() < 0.6:
            draw.line(rng.uniform(0, n, 4).tolist(), fill=colour, width=int(rng.integers(2, 5)))
        else:
            x, y = rng.uniform(0, n, 2)
            r = rng.uniform(0.03, 0.07) * n
            draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def _render(figure: Callable[[np.random.Generator], Figure], rng: np.random.Generator, image_size: int) -> Image.Image:
    """One RGB image of ``figure`` drawn with the random choices of ``rng``."""
    n = 2 * image_size
    img, palette = _background(rng, n)
    draw = ImageDraw.Draw(img)
    clutter = rng.random()
    if clutter < 0.5:
        _draw_clutter(rng, draw, n)

    radius = rng.uniform(0.2, 0.36) * n
    centre = rng.uniform(radius * 0.9, n - radius * 0.9, 2)
    angle = rng.uniform(0, 2 * math.pi)
    rotation = np.array([[math.cos(angle), math.sin(angle)], [-math.sin(angle), math.cos(angle)]])
    scale = radius * rng.uniform(0.85, 1.15, 2)  # a slight stretch, so that no class has one exact geometry
    mask = Image.new("L", (n, n), 0)
    mask_draw = ImageDraw.Draw(mask)
    for polygon, value in figure(rng):
        points = (polygon * scale) @ rotation + centre
        mask_draw.polygon(points.ravel().tolist(), fill=value)
    img.paste(_contrasting_colour(rng, palette), mask=mask)
    if clutter < 0.15:  # some clutter in front of the figure
        _draw_clutter(rng, draw, n)

    pixels = np.asarray(img.reduce(2), dtype=np.float32)
    pixels += rng.uniform(0, 10) * rng.standard_normal(pixels.shape, dtype=np.float32)
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))


class _SyntheticTask(VisionDataset):
    """A rendered classification task: subclasses set ``figures``, ``task_id`` and ``default_size``."""

    figures: dict[str, Callable[[np.random.Generator], Figure]]
    task_id: int
    default_size: dict[str, int]
    splits = ("train", "test")

    def __init__(self, split: str = "train", size: int | None = None, image_size: int = 32, seed: int = 0,
                 transform: Callable | None = None, target_transform: Callable | None = None) -> None:
        super().__init__(None, transform=transform, target_transform=target_transform)
        if split not in self.splits:
            raise ValueError(f"Unknown split {split!r}: expected one of {', '.join(map(repr, self.splits))}")
        if image_size < 8:
            raise ValueError(f"image_size should be at least 8, got {image_size}")
        if seed < 0:
            raise ValueError(f"seed should be a non-negative integer, got {seed}")
        self.split = split
        self.size = self.default_size[split] if size is None else size
        self.image_size = image_size
        self.seed = seed
        self.classes = list(self.figures)
        self.class_to_idx = {name: i for i, name in enumerate(self.classes)}
        # Labels come in blocks of len(classes), each block a random permutation: balanced, and label i does
        # not depend on the dataset size (row b of the random draws depends only on the first draws).
        k = len(self.classes)
        keys = np.random.default_rng([seed, self.task_id, self.splits.index(split)]).random((-(-self.size // k), k))
        self.targets = keys.argsort(axis=1).ravel()[:self.size].tolist()

    def __getitem__(self, index: int) -> tuple[Any, Any]:
        if not -self.size <= index < self.size:
            raise IndexError(f"index {index} is out of range for a dataset of {self.size} images")
        index %= self.size
        target = self.targets[index]
        rng = np.random.default_rng([self.seed, self.task_id, self.splits.index(self.split), index])
        img = _render(self.figures[self.classes[target]], rng, self.image_size)
        return self._transformed(img, target)

    def __len__(self) -> int:
        return self.size

    def extra_repr(self) -> str:
        return f"Split: {self.split}\nImage size: {self.image_size}\nSeed: {self.seed}"


class SyntheticShapes(_SyntheticTask):
    """Pretraining task: ten shapes (``SHAPES``), 10,000 training and 2,000 test images by default.

    Args:
        split: 'train' or 'test' (disjoint random streams).
        size: number of images (default 10,000 for 'train', 2,000 for 'test'); labels are balanced.
        image_size: side of the square RGB images, in pixels.
        seed: selects another, equally distributed set of images.
        transform / target_transform: applied to the PIL image / the int label.
    """

    figures = SHAPES
    task_id = 1
    default_size = {"train": 10_000, "test": 2_000}


class SyntheticGlyphs(_SyntheticTask):
    """Finetuning task: eight figures absent from ``SyntheticShapes`` (``GLYPHS``), in the same style.

    Few labelled images by default: 25 per class for 'train' (200), 100 per class for 'test' (800).
    Arguments as for ``SyntheticShapes``.
    """

    figures = GLYPHS
    task_id = 2
    default_size = {"train": 200, "test": 800}
