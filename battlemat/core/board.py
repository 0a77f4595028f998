"""The board: a square or hex grid with per-square terrain as numpy arrays (DESIGN: maps).

Pure value built by `battlemat.io` from a Tiled map; the core never sees pytmx or pygame.
Arrays are indexed [y, x]. All rules speak of "squares"; on hex maps a square is a hex.

What the terrain arrays mean, by rule:
- `blocked`: nobody enters or stands there (walls, large statues, tree trunks).
- `difficult`: entering ends the move (M4), from any direction.
- `difficult_dirs`: bits of DIRECTIONS, the way the square rises; entering it going up ends the move
  (M4, stairs and slopes going up). A step goes up when its compass direction (`direction`) has a
  part along the rise (`ASCENDS`): on stairs rising N, the steps N, NE and NW.
- `level`: elevation (M12: changing level needs stairs or Climb; R5: higher ground).
- `opaque`: blocks the line of sight between square centres (R4).
- `cover`: 0..2, each cover square on a line of sight gives -1 to the shooter (R4).
- `pit`: never entered, may be jumped (M5).
- `hazard`: index into `hazards`, -1 for none (E1).
- `feature`: index into `features`, the terrain's name ("stairs", "rubble") for explanations, -1 none.
Besides the squares, thin lines (core.walls): `walls` between squares (M1, R4) and `doors` that open
(M4 house switch `door_opening`); `barriers` are the walls and the doors not open, as this board
has them (a match's door states make another board: `with_doors`). `lights` are kept for the
picture; no rule reads them.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from battlemat.core.types import XY
from battlemat.core.walls import Door, Light, Wall

# Directions of travel for `difficult_dirs`, as bits. Tiled y grows downward: N is y-1.
DIRECTIONS: Mapping[str, int] = MappingProxyType(
    {"N": 1, "NE": 2, "E": 4, "SE": 8, "S": 16, "SW": 32, "W": 64, "NW": 128})
# Unit steps of each direction in board coordinates (x right, y down).
DIRECTION_STEPS: Mapping[str, XY] = MappingProxyType({
    "N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1), "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1),
})



def _ascends(step: str) -> int:
    """The rises (bits of DIRECTIONS) that a step in compass direction `step` goes up: every direction
    its travel has a part along (their unit steps' dot product is positive)."""
    sx, sy = DIRECTION_STEPS[step]
    return sum(bit for name, bit in DIRECTIONS.items()
               if sx * DIRECTION_STEPS[name][0] + sy * DIRECTION_STEPS[name][1] > 0)


# M4: by a step's compass direction, the bits of `difficult_dirs` it climbs. Ascending stairs or a slope
# is slow (text line 262) however squarely the step meets them: a step NE or NW goes up stairs rising N
# as surely as a step N does; a step E or W goes along them and a step S, SE or SW down.
ASCENDS: Mapping[str, int] = MappingProxyType({step: _ascends(step) for step in DIRECTIONS})


def parse_directions(text: str) -> int:
    """'N,NE' (commas or spaces, any case) -> bits of DIRECTIONS. Raises ValueError naming the bad word."""
    bits = 0
    for word in re.split(r"[\s,;|]+", text.strip()):
        if not word:
            continue
        try:
            bits |= DIRECTIONS[word.upper()]
        except KeyError:
            raise ValueError(f"{word!r} is not a direction (use {', '.join(DIRECTIONS)})") from None
    return bits


def directions_text(bits: int) -> str:
    """Bits of DIRECTIONS -> 'N,NE' (the order of DIRECTIONS)."""
    return ",".join(name for name, bit in DIRECTIONS.items() if bits & bit)


def transform_directions(bits: int, flip_x: bool, flip_y: bool, diagonal: bool) -> int:
    """Directions of a tile that Tiled drew flipped or rotated (its gid flags): diagonal flip (swap x and
    y) first, then horizontal, then vertical, the order Tiled applies them. A stairs tile rising north,
    rotated 90 degrees clockwise in Tiled (diagonal + horizontal), rises east."""
    out = 0
    for name, bit in DIRECTIONS.items():
        if not bits & bit:
            continue
        dx, dy = DIRECTION_STEPS[name]
        if diagonal:
            dx, dy = dy, dx
        if flip_x:
            dx = -dx
        if flip_y:
            dy = -dy
        out |= DIRECTIONS[_STEP_NAMES[(dx, dy)]]
    return out


_STEP_NAMES = MappingProxyType({step: name for name, step in DIRECTION_STEPS.items()})

# The six hex neighbours clockwise, by stagger axis: rows staggered ("y", pointy tops) or columns ("x").
HEX_CLOCKWISE = MappingProxyType({"y": ("NE", "E", "SE", "SW", "W", "NW"), "x": ("N", "NE", "SE", "S", "SW", "NW")})
_HEX_MIRROR_X = MappingProxyType(
    {"N": "N", "S": "S", "E": "W", "W": "E", "NE": "NW", "NW": "NE", "SE": "SW", "SW": "SE"})
_HEX_MIRROR_Y = MappingProxyType(
    {"E": "E", "W": "W", "N": "S", "S": "N", "NE": "SE", "SE": "NE", "NW": "SW", "SW": "NW"})


def transform_hex_directions(bits: int, flip_x: bool, flip_y: bool, sixths: int, stagger_axis: str) -> int:
    """Directions of a hex tile that Tiled drew flipped or rotated: on hexagonal maps Tiled reads its
    diagonal-flip flag as a 60-degree turn and a flag of its own as a 120-degree turn, both clockwise,
    and mirrors the tile before turning it. `sixths` is the turn in sixths of a circle. A direction
    that names no hex neighbour on this map (N on pointy-topped rows) stays as it is: the steps with a
    part along it climb it (ASCENDS: NE and NW rise toward N)."""
    ring = HEX_CLOCKWISE[stagger_axis]
    out = 0
    for name, bit in DIRECTIONS.items():
        if not bits & bit:
            continue
        if name in ring:
            if flip_x:
                name = _HEX_MIRROR_X[name]
            if flip_y:
                name = _HEX_MIRROR_Y[name]
            name = ring[(ring.index(name) + sixths) % 6]
        out |= DIRECTIONS[name]
    return out
_REQUIREMENT = re.compile(r"^(?P<skill>[A-Za-z][A-Za-z /'-]*?)\s*(?P<rating>\d+)$")


@dataclass(frozen=True)
class Hazard:
    """A hazard's elusion requirement (rule E1), e.g. 'Block/Dodge 4 or Perception 3', and its harm."""

    text: str
    requirements: tuple[tuple[str, int], ...]  # (skill pair or half, minimum rating)
    harm: int
    mechanical: bool = False  # a mechanical trap: O2's noticing talent (Machinery) adds to Perception
    # its name on the map (a Tiled object's name or a tile's class), for the log: no rule reads it, so
    # two hazards that differ only by name are the same hazard
    name: str = field(default="", compare=False)

    @staticmethod
    def parse(text: str, harm: int, mechanical: bool = False) -> Hazard:
        """Read the elusion text of E1: alternatives joined by 'or' (or commas), each a skill and the
        rating that exempts. A name and brackets may frame it: 'Floor Trap [Block/Dodge 4 or Perception 3]'.
        Skill names are kept as written; the io layer checks them against the rules.
        Raises ValueError saying what is wrong."""
        inner = text.strip()
        bracket = re.search(r"\[(.*)\]", inner)
        if bracket:
            inner = bracket.group(1)
        parts = [p.strip() for p in re.split(r"\s+or\s+|\s*[,;]\s*", inner, flags=re.I) if p.strip()]
        if not parts:
            raise ValueError("a hazard names the skills that elude it, e.g. 'Block/Dodge 4 or Perception 3'")
        reqs: list[tuple[str, int]] = []
        for part in parts:
            m = _REQUIREMENT.match(part)
            if not m:
                raise ValueError(f"{part!r} is not 'Skill rating' (e.g. 'Perception 3')")
            reqs.append((m.group("skill").strip(), int(m.group("rating"))))
        if isinstance(harm, bool) or not isinstance(harm, int) or harm < 1:
            raise ValueError(f"harm is the losses a hazard inflicts, a whole number >= 1, found {harm!r}")
        return Hazard(text.strip(), tuple(reqs), harm, mechanical)


class BoardCache:
    """What is worked out from one board's terrain, kept exactly as long as that board (`board.cache`).

    Terrain never changes, so nothing here goes stale and nothing needs a key naming the board; no
    module keeps such tables. `dataclasses.replace` makes a board with a fresh cache (a new board
    may have new terrain). Each table is bounded by its user:
    - `grids`: the movement tables and their search arrays by diagonal setting, each with its reach
      memo (battlemat.core.movement.grid);
    - `sight`: line-of-sight answers by (from, to) square (geometry.sight, at most SIGHT_LIMIT);
    - `walks`: walking distances to a goal, by (diagonal setting, goal) (movement.walk_field, at
      most walks.kept(board));
    - `level_windows`: where levels change within r squares, by r (movement.level_changes_near);
    - `sealed`: the barrier (index into `Board.barriers`) between each pair of neighbouring squares
      it lies between, both ways (geometry.barrier_between), worked out once for the whole board;
    - `variants`: the boards of other door states (`Board.with_doors`), shared by a board and its
      variants, at most VARIANTS_KEPT; `family`: what they all share (the walls' neighbour pairs).
    """

    __slots__ = ("grids", "sight", "walks", "level_windows", "sealed", "variants", "family")

    def __init__(self) -> None:
        self.grids: dict[str, object] = {}  # movement.Grid (opaque here: the grid module imports this one)
        self.sight: dict[tuple[XY, XY], tuple[bool, int, str]] = {}
        self.walks: dict[tuple[str, XY, str], Sequence[int]] = {}
        self.level_windows: dict[int, list[list[bool]]] = {}
        self.sealed: dict[tuple[XY, XY], int] | None = None
        self.variants: dict[tuple[tuple[str, str], ...], Board] = {}
        self.family = Family()  # what every board of one map shares (walls never move)


class Family:
    """What the boards of one map at different door states share (`Board.with_doors`): the pairs of
    neighbouring squares its walls lie between (geometry.barrier_between), worked out once."""

    __slots__ = ("wall_pairs",)

    def __init__(self) -> None:
        self.wall_pairs: dict[tuple[XY, XY], int] | None = None


VARIANTS_KEPT = 64  # boards of other door states kept per map; the table starts over when full


@dataclass(frozen=True, eq=False)
class Board:
    width: int
    height: int
    grid: str = "square"  # "square" | "hex"
    stagger_axis: str = ""  # hex only: "x" | "y" (Tiled's staggeraxis)
    stagger_index: str = ""  # hex only: "odd" | "even" (Tiled's staggerindex)
    tile_width: int = 32
    tile_height: int = 32
    blocked: np.ndarray = field(default=None)  # type: ignore[arg-type]  # bool
    difficult: np.ndarray = field(default=None)  # type: ignore[arg-type]  # bool, any direction
    difficult_dirs: np.ndarray = field(default=None)  # type: ignore[arg-type]  # uint8 bits of DIRECTIONS
    level: np.ndarray = field(default=None)  # type: ignore[arg-type]  # int16
    opaque: np.ndarray = field(default=None)  # type: ignore[arg-type]  # bool
    cover: np.ndarray = field(default=None)  # type: ignore[arg-type]  # uint8 0..2
    pit: np.ndarray = field(default=None)  # type: ignore[arg-type]  # bool
    hazard: np.ndarray = field(default=None)  # type: ignore[arg-type]  # int16 index into hazards, -1 none
    hazards: tuple[Hazard, ...] = ()
    tokens: Mapping[str, XY] = field(default_factory=lambda: MappingProxyType({}))
    source: str = ""  # file it came from, for messages
    hex_side_length: int = 0  # hex only: Tiled's hexsidelength (pixels)
    feature: np.ndarray = field(default=None)  # type: ignore[arg-type]  # int16 index into features, -1 none
    features: tuple[str, ...] = ()
    # How Tiled draws the square grid (DESIGN: grids): "" flat (orthogonal squares, or hexes), or
    # "isometric" / "staggered" (diamonds). The rules see only `grid`; on a staggered map the squares
    # are the equivalent isometric grid (`staggered_squares`), its stagger kept in stagger_axis/index.
    # Set with `projected` (not constructor arguments, so the terrain arrays can be passed as **kwargs).
    walls: tuple[Wall, ...] = ()  # thin walls between squares (core.walls), board units
    doors: tuple[Door, ...] = ()  # doors, in the state this board has them
    lights: tuple[Light, ...] = ()  # the map's lights, for the picture only
    projection: str = field(default="", init=False)
    origin: tuple[float, float] = field(default=(0.0, 0.0), init=False)  # diamonds: square (0, 0)'s drawn centre
    cache: BoardCache = field(default_factory=BoardCache, init=False, repr=False, compare=False)
    # the walls and the doors that are not open (walls, locked, closed), each with its door (None for a wall)
    barriers: tuple[tuple[Wall, Door | None], ...] = field(default=(), init=False, repr=False, compare=False)
    # the doors' states as one value, (id, state) by id: the boards of one map differ by it alone
    door_key: tuple[tuple[str, str], ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.grid not in ("square", "hex"):
            raise ValueError(f"grid is 'square' or 'hex', not {self.grid!r}")
        if self.projection not in ("", "isometric", "staggered") or (self.projection and self.grid != "square"):
            raise ValueError(f"projection is '', 'isometric' or 'staggered' (square grids), not {self.projection!r}")
        if self.grid == "hex" and (self.stagger_axis not in ("x", "y") or self.stagger_index not in ("odd", "even")):
            raise ValueError("a hex board needs stagger_axis 'x' or 'y' and stagger_index 'odd' or 'even'")
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
            "feature": np.full(shape, -1, np.int16),
        }
        for name, default in defaults.items():
            arr = getattr(self, name)
            if arr is None:
                arr = default
            elif arr.shape != shape:
                raise ValueError(f"terrain array {name} has shape {arr.shape}, expected {shape}")
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)
        if not isinstance(self.tokens, MappingProxyType):
            object.__setattr__(self, "tokens", MappingProxyType(dict(self.tokens)))
        object.__setattr__(self, "walls", tuple(Wall(*map(float, w)) for w in self.walls))
        ids = [d.id for d in self.doors]
        if len(set(ids)) != len(ids):
            raise ValueError(f"two doors share an id: {sorted(i for i in set(ids) if ids.count(i) > 1)}")
        object.__setattr__(self, "doors", tuple(self.doors))
        # walls first, then locked doors, then closed ones: where several lie between two squares, the
        # first one found says what holds the step (a locked door beside a closed one is a wall, M1)
        object.__setattr__(self, "barriers", tuple((w, None) for w in self.walls)
                           + tuple((d.wall, d) for d in self.doors if d.state == "locked")
                           + tuple((d.wall, d) for d in self.doors if d.state == "closed"))
        object.__setattr__(self, "door_key", tuple(sorted((d.id, d.state) for d in self.doors)))

    @property
    def door_states(self) -> dict[str, str]:
        """Each door's state on this board, by id."""
        return {d.id: d.state for d in self.doors}

    def with_doors(self, states: Mapping[str, str]) -> Board:
        """This board with its doors in `states` (by id; doors not named keep theirs): itself when
        nothing changes, else a board of its own (its own caches: sight and movement differ), kept
        among the variants its family shares, so one door state is always one board."""
        if not self.doors:
            return self
        want = {d.id: states.get(d.id, d.state) for d in self.doors}
        if all(want[d.id] == d.state for d in self.doors):
            return self
        key = tuple(sorted(want.items()))
        variants = self.cache.variants
        got = variants.get(key)
        if got is None:
            if len(variants) >= VARIANTS_KEPT:
                variants.clear()
            got = dataclasses.replace(self, doors=tuple(dataclasses.replace(d, state=want[d.id]) for d in self.doors))
            object.__setattr__(got, "projection", self.projection)
            object.__setattr__(got, "origin", self.origin)
            got.cache.variants, got.cache.family = variants, self.cache.family
            variants[self.door_key] = self
            variants[key] = got
        return got

    def door(self, door_id: str) -> Door | None:
        return next((d for d in self.doors if d.id == door_id), None)

    def projected(self, projection: str, origin: tuple[float, float]) -> Board:
        """This board drawn as Tiled draws an isometric or staggered map: square (x, y) a diamond whose
        centre is `origin` moved x half-diamonds down-right and y down-left (a new board, fresh cache)."""
        board = dataclasses.replace(self)
        object.__setattr__(board, "projection", projection)
        object.__setattr__(board, "origin", (float(origin[0]), float(origin[1])))
        board.__post_init__()
        return board

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

    # -- geometry of the drawn map -----------------------------------------------------------------
    def screen_centers(self) -> tuple[np.ndarray, np.ndarray]:
        """Where every square's centre is drawn, as two float arrays [y, x] in the map's picture: the
        same as `centers` for flat maps; on isometric and staggered maps the square (x, y) is a
        diamond, x running down-right and y down-left from `origin` (Tiled's isometric renderer)."""
        if not self.projection:
            return self.centers()
        ys, xs = np.mgrid[0 : self.height, 0 : self.width]
        return self.diamond_center(xs, ys)

    def diamond_center(self, x: np.ndarray | int, y: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
        """`screen_centers` of one square (x, y) of an isometric or staggered board, or of arrays of
        them: the one formula, so a caller that wants a few squares does not lay out the whole board."""
        xs, ys = np.asarray(x), np.asarray(y)
        ox, oy = self.origin
        return (xs - ys) * (self.tile_width / 2) + ox, (xs + ys) * (self.tile_height / 2) + oy

    def centers(self) -> tuple[np.ndarray, np.ndarray]:
        """Pixel centres of every square as two float arrays [y, x], in Tiled's map pixel space (the
        space of object positions). Hex layout follows Tiled's hexagonal renderer: with stagger axis x
        the staggered columns sit half a tile lower, with y the staggered rows sit half a tile right.
        Tiled places an isometric map's objects on a grid of tile-height squares; a staggered map's
        in its picture."""
        ys, xs = np.mgrid[0 : self.height, 0 : self.width]
        tw, th = self.tile_width, self.tile_height
        if self.projection == "isometric":
            return xs * th + th / 2.0, ys * th + th / 2.0
        if self.projection == "staggered":
            return self.screen_centers()
        if self.grid == "square":
            return xs * tw + tw / 2.0, ys * th + th / 2.0
        tw, th = tw & ~1, th & ~1  # Tiled rounds hex tiles down to even sizes
        side = self.hex_side_length
        even = self.stagger_index == "even"
        if self.stagger_axis == "x":
            column_width = (tw - side) // 2 + side
            staggered = (xs % 2 == 0) if even else (xs % 2 == 1)
            px = xs * column_width
            py = ys * th + np.where(staggered, th // 2, 0)
        else:
            row_height = (th - side) // 2 + side
            staggered = (ys % 2 == 0) if even else (ys % 2 == 1)
            px = xs * tw + np.where(staggered, tw // 2, 0)
            py = ys * row_height
        return px + tw / 2.0, py + th / 2.0

    def center(self, sq: XY) -> tuple[float, float]:
        cx, cy = self.centers()
        x, y = sq
        return float(cx[y, x]), float(cy[y, x])

    def direction(self, a: XY, b: XY) -> str:
        """Compass direction of a step from a to b (the name used by `difficult_dirs`). On hex maps it
        is the compass point nearest the line between the two centres: flat-topped hexes (stagger x)
        step N, NE, SE, S, SW, NW; pointy-topped hexes (stagger y) step E, NE, NW, W, SW, SE."""
        if self.grid == "square":
            dx, dy = b[0] - a[0], b[1] - a[1]
            return _STEP_NAMES[((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))]
        ax, ay = self.center(a)
        bx, by = self.center(b)
        angle = math.degrees(math.atan2(ay - by, bx - ax)) % 360  # counter-clockwise from east, y up
        names = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")
        return names[round(angle / 45) % 8]

    def difficult_entering(self, a: XY, b: XY) -> bool:
        """Does stepping from a into b end the move (M4)? Difficult squares always do; directional
        ones only when the step goes up them (ASCENDS: straight or at an angle)."""
        x, y = b
        if self.difficult[y, x]:
            return True
        bits = int(self.difficult_dirs[y, x])
        return bool(bits and bits & ASCENDS[self.direction(a, b)])

    def feature_at(self, sq: XY) -> str:
        """The terrain's name at a square ('stairs', 'rubble'), or '' when it has none."""
        x, y = sq
        i = int(self.feature[y, x])
        return self.features[i] if i >= 0 else ""

    def hazard_at(self, sq: XY) -> Hazard | None:
        x, y = sq
        i = int(self.hazard[y, x])
        return self.hazards[i] if i >= 0 else None

    def describe(self, sq: XY) -> str:
        """Plain words for one square, for tooltips and explanations."""
        x, y = sq
        words: list[str] = []
        name = self.feature_at(sq)
        if name:
            words.append(name)
        if self.blocked[y, x]:
            words.append("blocked")
        if self.pit[y, x]:
            words.append("pit (jump it: M5)")
        if self.difficult[y, x]:
            words.append("difficult (M4)")
        if self.difficult_dirs[y, x]:
            words.append(f"difficult going {directions_text(int(self.difficult_dirs[y, x]))} (M4)")
        if self.level[y, x]:
            words.append(f"level {int(self.level[y, x])} (M12)")
        if self.opaque[y, x]:
            words.append("blocks sight (R4)")
        if self.cover[y, x]:
            words.append(f"cover {int(self.cover[y, x])} (R4)")
        hz = self.hazard_at(sq)
        if hz:
            words.append(f"hazard [{hz.text}], harm {hz.harm} (E1)")
        return ", ".join(words) or "open ground"


OUTSIDE = "outside the map"  # the feature of a staggered board's squares that are no cell of the map


def staggered_squares(xs: np.ndarray, ys: np.ndarray, axis: str, index: str) -> tuple[np.ndarray, np.ndarray]:
    """The squares of a staggered (isometric) map's cells: Tiled's staggered map is an isometric map
    cut to a rectangle, so each cell (x, y) is one square (u, v) of the isometric grid; two cells that
    share a diamond's edge are orthogonal neighbours, two that share only a corner (the cells beside
    in a row, two rows apart in a column) are diagonal ones (Tiled's own neighbours of a staggered
    cell). Unshifted: the caller moves the smallest to 0. With a the diagonal across (u - v) and b
    the one down (u + v): stagger axis y gives a = 2x + s, b = y; axis x gives a = x, b = 2y + s
    (s: 1 on staggered rows or columns)."""
    if axis == "x":
        s = (xs % 2 == (1 if index == "odd" else 0)).astype(np.int64)
        a, b = xs, 2 * ys + s
    else:
        s = (ys % 2 == (1 if index == "odd" else 0)).astype(np.int64)
        a, b = 2 * xs + s, ys
    p = 0 if index == "odd" else 1  # a + b + p is even on every cell
    return (b + a + p) // 2, (b - a + p) // 2
