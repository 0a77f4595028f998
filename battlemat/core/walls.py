"""Walls between squares and doors (M1, M4, R4): thin lines on the board, besides blocked squares.

A `Wall` is a segment in board units: on square grids square (x, y) spans x..x+1 and y..y+1, so a
wall along the grid line between (4, 5) and (5, 5) runs from (5, 5) to (5, 6); on hex maps the
units are `geometry.centre`'s (a hex's centre and its neighbours' one unit apart). Walls may lie
anywhere, not only on grid lines. A `Door` is a wall that can be open, closed or locked; its state
as the map draws it is the state a match starts with, and a match's own door states live in its
`MatchState.doors`, the board of a state being `Board.with_doors(state.doors)`.

What a wall does, by rule:
- M1: a step whose line between the two centres touches a wall, or a closed or locked door, is
  refused ("wall between (4, 5) and (5, 5) (M1)"). Touching counts, a wall's end included [house,
  RULINGS: `wall_corners`]: a diagonal step never squeezes past a wall's end or between two walls
  that meet at a corner.
- M5: a jump never passes through a wall: each square-to-square hop of it is a step for this test.
- M6, P4, R5: two squares a wall lies between are not next to each other (`geometry.adjacent`): a
  foe across a wall is no sticky neighbour, and no reach effect crosses it.
- R4: a line of sight that touches a wall or a closed door is blocked.
- Doors [house, RULINGS: `door_opening`]: closed doors block sight and, by the switch, movement:
  `ends_move` (a step through a closed, unlocked door opens it and ends the move on the square
  beyond, as difficult ground does, M4), `free` (it opens as part of any move), `closed` (only
  the game master opens doors). Locked doors are walls until the game master unlocks them.

Pure values and plane geometry only: what the board makes of them is in board.py and geometry.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:  # names for mypy only
    import numpy.typing as npt

    Floats = npt.NDArray[np.float64]

DOOR_STATES = ("open", "closed", "locked")
EPS = 1e-9  # how near a line must pass a wall's end to touch it (board units)


class Wall(NamedTuple):
    """A wall segment from (x1, y1) to (x2, y2), in board units."""

    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Door:
    """A door: a wall that opens. `id` is unique on its board (a save names doors by it); `name`, if
    any, is the map's name for it ("cellar door"), for the log."""

    id: str
    wall: Wall
    state: str = "closed"
    name: str = ""

    def __post_init__(self) -> None:
        if self.state not in DOOR_STATES:
            raise ValueError(f"a door is open, closed or locked, not {self.state!r}")
        if not self.id:
            raise ValueError("a door needs an id")

    @property
    def label(self) -> str:
        """The door as the log names it: "door 'cellar door'", or "door portal3" without a name."""
        return f"door {self.name!r}" if self.name else f"door {self.id}"


@dataclass(frozen=True)
class Light:
    """A light the map's author placed (Universal VTT `lights`): kept and drawn as a faint glow; no
    rule reads it yet. Position and range in board units; colour '#rrggbb'; intensity 0..1."""

    x: float
    y: float
    range: float
    color: str = "#ffffff"
    intensity: float = 1.0


def _orient(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> int:
    v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return 0 if abs(v) <= EPS else (1 if v > 0 else -1)


def _on(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> bool:
    """c (collinear with a-b) lies on the segment a-b."""
    return min(ax, bx) - EPS <= cx <= max(ax, bx) + EPS and min(ay, by) - EPS <= cy <= max(ay, by) + EPS


def touches(ax: float, ay: float, bx: float, by: float, w: Wall) -> bool:
    """Does the segment a-b cross or touch the wall `w` (an end on the other counts)?"""
    o1 = _orient(ax, ay, bx, by, w.x1, w.y1)
    o2 = _orient(ax, ay, bx, by, w.x2, w.y2)
    o3 = _orient(w.x1, w.y1, w.x2, w.y2, ax, ay)
    o4 = _orient(w.x1, w.y1, w.x2, w.y2, bx, by)
    if o1 != o2 and o3 != o4:
        return True
    return ((o1 == 0 and _on(ax, ay, bx, by, w.x1, w.y1)) or (o2 == 0 and _on(ax, ay, bx, by, w.x2, w.y2))
            or (o3 == 0 and _on(w.x1, w.y1, w.x2, w.y2, ax, ay)) or (o4 == 0 and _on(w.x1, w.y1, w.x2, w.y2, bx, by)))


def _orients(ax: Floats, ay: Floats, bx: Floats, by: Floats, cx: Floats, cy: Floats) -> Floats:
    v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return np.where(np.abs(v) <= EPS, 0.0, np.sign(v))


def _ons(ax: Floats, ay: Floats, bx: Floats, by: Floats, cx: Floats, cy: Floats) -> npt.NDArray[np.bool_]:
    return ((np.minimum(ax, bx) - EPS <= cx) & (cx <= np.maximum(ax, bx) + EPS)
            & (np.minimum(ay, by) - EPS <= cy) & (cy <= np.maximum(ay, by) + EPS))


def touches_many(segments: Floats, ends: Floats) -> npt.NDArray[np.bool_]:
    """`touches` for many segments and walls at once, row by row ([n, 4] arrays: ax, ay, bx, by and
    the walls' x1, y1, x2, y2): the same test, in numpy."""
    ax, ay, bx, by = segments.T
    wx1, wy1, wx2, wy2 = ends.T
    o1, o2 = _orients(ax, ay, bx, by, wx1, wy1), _orients(ax, ay, bx, by, wx2, wy2)
    o3, o4 = _orients(wx1, wy1, wx2, wy2, ax, ay), _orients(wx1, wy1, wx2, wy2, bx, by)
    out: npt.NDArray[np.bool_] = (((o1 != o2) & (o3 != o4)) | ((o1 == 0) & _ons(ax, ay, bx, by, wx1, wy1))
                                  | ((o2 == 0) & _ons(ax, ay, bx, by, wx2, wy2))
                                  | ((o3 == 0) & _ons(wx1, wy1, wx2, wy2, ax, ay))
                                  | ((o4 == 0) & _ons(wx1, wy1, wx2, wy2, bx, by)))
    return out


def box(w: Wall) -> tuple[float, float, float, float]:
    """The wall's bounding box (x0, y0, x1, y1)."""
    return min(w.x1, w.x2), min(w.y1, w.y2), max(w.x1, w.x2), max(w.y1, w.y2)


def wall_text(w: Wall) -> str:
    """A wall for messages: '(5, 5)-(5, 6)' (whole numbers without decimals)."""
    def n(v: float) -> str:
        return str(int(v)) if float(v).is_integer() else f"{v:.2f}".rstrip("0")
    return f"({n(w.x1)}, {n(w.y1)})-({n(w.x2)}, {n(w.y2)})"
