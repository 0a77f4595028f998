"""The board: a square or hex grid with per-square terrain as numpy arrays (DESIGN: maps).

Pure value built by `battlemat.io` from a Tiled map; the core never sees pytmx or pygame.
Arrays are indexed [y, x]. All rules speak of "squares"; on hex maps a square is a hex.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from battlemat.types import XY

# Directions of travel for `difficult_dirs`, as bits. Tiled y grows downward: N is y-1.
DIRECTIONS: dict[str, int] = {"N": 1, "NE": 2, "E": 4, "SE": 8, "S": 16, "SW": 32, "W": 64, "NW": 128}


@dataclass(frozen=True)
class Hazard:
    """A hazard's elusion requirement (rule E1), e.g. 'Block/Dodge 4 or Perception 3', and its harm."""

    text: str
    requirements: tuple[tuple[str, int], ...]  # (skill pair or half, minimum rating)
    harm: int


@dataclass(frozen=True, eq=False)
class Board:
    width: int
    height: int
    grid: str = "square"  # "square" | "hex"
    stagger_axis: str = ""  # hex only: "x" | "y" (Tiled's staggeraxis)
    stagger_index: str = ""  # hex only: "odd" | "even" (Tiled's staggerindex)
    tile_width: int = 32
    tile_height: int = 32
    blocked: np.ndarray = field(default=None)  # type: ignore[assignment]  # bool
    difficult: np.ndarray = field(default=None)  # type: ignore[assignment]  # bool, any direction
    difficult_dirs: np.ndarray = field(default=None)  # type: ignore[assignment]  # uint8 bits of DIRECTIONS
    level: np.ndarray = field(default=None)  # type: ignore[assignment]  # int16
    opaque: np.ndarray = field(default=None)  # type: ignore[assignment]  # bool
    cover: np.ndarray = field(default=None)  # type: ignore[assignment]  # uint8 0..2
    pit: np.ndarray = field(default=None)  # type: ignore[assignment]  # bool
    hazard: np.ndarray = field(default=None)  # type: ignore[assignment]  # int16 index into hazards, -1 none
    hazards: tuple[Hazard, ...] = ()
    tokens: Mapping[str, XY] = field(default_factory=lambda: MappingProxyType({}))
    source: str = ""  # file it came from, for messages

    def __post_init__(self) -> None:
        shape = (self.height, self.width)
        defaults = {
            "blocked": np.zeros(shape, bool),
            "difficult": np.zeros(shape, bool),
            "difficult_dirs": np.zeros(shape, np.uint8),
            "level": np.zeros(shape, np.int16),
            "opaque": np.zeros(shape, bool),
            "cover": np.zeros(shape, np.uint8),
            "pit": np.zeros(shape, bool),
            "hazard": np.full(shape, -1, np.int16),
        }
        for name, default in defaults.items():
            arr = getattr(self, name)
            if arr is None:
                arr = default
            elif arr.shape != shape:
                raise ValueError(f"terrain array {name} has shape {arr.shape}, expected {shape}")
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)

    @staticmethod
    def empty(width: int, height: int, grid: str = "square", **kw: object) -> Board:
        return Board(width, height, grid, **kw)  # type: ignore[arg-type]

    def inside(self, sq: XY) -> bool:
        x, y = sq
        return 0 <= x < self.width and 0 <= y < self.height

    def enterable(self, sq: XY) -> bool:
        """Inside, not blocked and not a pit (pits are jumped, never entered: M5)."""
        x, y = sq
        return self.inside(sq) and not self.blocked[y, x] and not self.pit[y, x]
