"""Grid geometry: neighbours, distances, centre lines and sight (rules M11, R1, R4, R5).

Pure functions of a Board and squares. Square grids count diagonals by the `diagonals` setting
(M11); hex maps use Tiled's staggered layout (stagger_axis "x"/"y", stagger_index "odd"/"even")
converted to cube coordinates for distances and lines.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

import numpy as np

from battlemat.core import walls
from battlemat.core.board import Board
from battlemat.core.types import XY
from battlemat.core.walls import Door, Wall

if TYPE_CHECKING:  # names for mypy only
    import numpy.typing as npt

# Square-grid steps in a fixed order (the order of every neighbour loop: determinism, STYLE 5).
SQUARE_STEPS: tuple[tuple[int, int, str], ...] = (
    (0, -1, "N"), (1, -1, "NE"), (1, 0, "E"), (1, 1, "SE"),
    (0, 1, "S"), (-1, 1, "SW"), (-1, 0, "W"), (-1, -1, "NW"),
)
CUBE_DIRS: tuple[tuple[int, int, int], ...] = (
    (1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1),
)


def is_hex(board: Board) -> bool:
    return board.grid == "hex"


# -- hex coordinates ---------------------------------------------------------------------------------
def to_cube(board: Board, sq: XY) -> tuple[int, int, int]:
    """Offset (Tiled staggered) -> cube coordinates."""
    x, y = sq
    odd = board.stagger_index != "even"
    if board.stagger_axis == "x":  # columns staggered (flat-topped)
        shift = (x - (x & 1)) // 2 if odd else (x + (x & 1)) // 2
        q, r = x, y - shift
    else:  # rows staggered (pointy-topped), Tiled's default
        shift = (y - (y & 1)) // 2 if odd else (y + (y & 1)) // 2
        q, r = x - shift, y
    return q, r, -q - r


def from_cube(board: Board, c: tuple[int, int, int]) -> XY:
    q, r, _ = c
    odd = board.stagger_index != "even"
    if board.stagger_axis == "x":
        x = q
        shift = (x - (x & 1)) // 2 if odd else (x + (x & 1)) // 2
        return x, r + shift
    y = r
    shift = (y - (y & 1)) // 2 if odd else (y + (y & 1)) // 2
    return q + shift, y


def centre(board: Board, sq: XY) -> tuple[float, float]:
    """Centre of a square in square units (x right, y down); hexes as Tiled draws them."""
    x, y = sq
    if not is_hex(board):
        return x + 0.5, y + 0.5
    odd = board.stagger_index != "even"
    if board.stagger_axis == "x":
        shifted = (x % 2 == 1) == odd
        return x * math.sqrt(3) / 2 + 0.5, y + 0.5 + (0.5 if shifted else 0.0)
    shifted = (y % 2 == 1) == odd
    return x + 0.5 + (0.5 if shifted else 0.0), y * math.sqrt(3) / 2 + 0.5


def centres(board: Board) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """`centre` of every square at once: two float64 arrays [y, x] with the same numbers."""
    ys, xs = np.mgrid[0:board.height, 0:board.width].astype(np.float64)
    if not is_hex(board):
        return xs + 0.5, ys + 0.5
    odd = board.stagger_index != "even"
    if board.stagger_axis == "x":
        shifted = (xs % 2 == 1) == odd
        return xs * math.sqrt(3) / 2 + 0.5, ys + 0.5 + np.where(shifted, 0.5, 0.0)
    shifted = (ys % 2 == 1) == odd
    return xs + 0.5 + np.where(shifted, 0.5, 0.0), ys * math.sqrt(3) / 2 + 0.5


def compass(dx: float, dy: float) -> str:
    """Nearest of the eight compass directions to a travel vector (y grows southward)."""
    angle = math.degrees(math.atan2(dx, -dy)) % 360  # 0 = N, 90 = E
    names = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    return names[int((angle + 22.5) // 45) % 8]


def steps(board: Board, sq: XY, diagonals: str = "alternating") -> list[tuple[XY, bool, str]]:
    """Neighbours inside the board as (square, diagonal, compass direction), in a fixed order.

    Square grids: 8 neighbours, or 4 with `manhattan` (M11). Hex maps: 6 (direction of travel by
    the centres, so `difficult_dirs` works on hexes too)."""
    out: list[tuple[XY, bool, str]] = []
    if is_hex(board):
        c = to_cube(board, sq)
        here = centre(board, sq)
        for d in CUBE_DIRS:
            n = from_cube(board, (c[0] + d[0], c[1] + d[1], c[2] + d[2]))
            if board.inside(n):
                there = centre(board, n)
                out.append((n, False, compass(there[0] - here[0], there[1] - here[1])))
        return out
    x, y = sq
    for dx, dy, name in SQUARE_STEPS:
        diag = dx != 0 and dy != 0
        if diag and diagonals == "manhattan":
            continue
        n = (x + dx, y + dy)
        if board.inside(n):
            out.append((n, diag, name))
    return out


def adjacent(board: Board, a: XY, b: XY) -> bool:
    """Next to each other: sharing an edge or a corner on squares, an edge on hexes (M6, P4), with no
    wall or closed door between them (core.walls: a foe across a wall is not next to you)."""
    if board.grid == "hex":  # (is_hex, written out: asked a few dozen times a turn)
        near = a != b and hex_distance(board, a, b) == 1
    else:
        dx, dy = a[0] - b[0], a[1] - b[1]
        near = -1 <= dx <= 1 and -1 <= dy <= 1 and (dx != 0 or dy != 0)
    return near and not (board.barriers and barrier_between(board, a, b) is not None)


# -- walls between squares (core.walls) ----------------------------------------------------------
def barrier_between(board: Board, a: XY, b: XY) -> tuple[Wall, Door | None] | None:
    """The wall or closed door between two neighbouring squares (M1), as `board.barriers` lists it
    (None: none): the first one the line between their centres touches. Worked out for every pair of
    neighbours near a barrier once per board (`Board.cache.sealed`)."""
    if not board.barriers:
        return None
    i = sealed_pairs(board).get(((a[0], a[1]), (b[0], b[1])))
    return None if i is None else board.barriers[i]


def sealed_pairs(board: Board) -> dict[tuple[XY, XY], int]:
    """Each pair of neighbouring squares a barrier lies between, both ways round, with the index of
    that barrier in `board.barriers` (`_seal`), worked out once per board (`Board.cache.sealed`)."""
    sealed = board.cache.sealed
    if sealed is None:
        sealed = board.cache.sealed = _seal(board) if board.barriers else {}
    return sealed


def _seal(board: Board) -> dict[tuple[XY, XY], int]:
    """Every pair of neighbouring squares (8 ways on squares, 6 on hexes) a barrier lies between,
    both ways round, with the first such barrier's index. The walls' pairs are the same on every
    board of one map (only doors open and close: `Board.with_doors`), so they are worked out once for
    the map's family of boards (`BoardCache.family`), and each board adds its closed doors' pairs."""
    walls_of = len(board.walls)
    family = board.cache.family
    fixed = family.wall_pairs
    if fixed is None:
        fixed = family.wall_pairs = _pairs(board, [w for w, _ in board.barriers[:walls_of]], 0)
    if len(board.barriers) == walls_of:
        return fixed
    out = dict(_pairs(board, [w for w, _ in board.barriers[walls_of:]], walls_of))
    out.update(fixed)  # (a wall comes before any door in `barriers`: the first barrier is the wall)
    return out


def _pairs(board: Board, lines: list[Wall], first: int) -> dict[tuple[XY, XY], int]:
    """`_seal` for some barriers (`lines`, indices from `first`): the squares within reach of each
    line's box are its candidates, all of them tested at once per neighbour direction
    (walls.touches_many: the test of `walls.touches`, in numpy); where several lines lie between one
    pair, the first one's index."""
    if not lines:
        return {}
    cx, cy = centres(board)
    w, h = board.width, board.height
    fx, fy, pad = 1.0, 1.0, 1  # (on squares a step's line reaches one square beyond a square: pad 1)
    if is_hex(board):  # hex units: columns are sqrt(3)/2 wide (stagger x) or rows are (stagger y)
        fx, fy = (2 / math.sqrt(3), 1.0) if board.stagger_axis == "x" else (1.0, 2 / math.sqrt(3))
        pad = 2
    ends = np.array(lines, np.float64)
    lo_x = np.floor(np.minimum(ends[:, 0], ends[:, 2]) * fx).astype(np.int64) - pad
    hi_x = np.floor(np.maximum(ends[:, 0], ends[:, 2]) * fx).astype(np.int64) + pad + 1
    lo_y = np.floor(np.minimum(ends[:, 1], ends[:, 3]) * fy).astype(np.int64) - pad
    hi_y = np.floor(np.maximum(ends[:, 1], ends[:, 3]) * fy).astype(np.int64) + pad + 1
    lo_x, hi_x = np.clip(lo_x, 0, w), np.clip(hi_x, 0, w)
    lo_y, hi_y = np.clip(lo_y, 0, h), np.clip(hi_y, 0, h)
    across, down = np.maximum(hi_x - lo_x, 0), np.maximum(hi_y - lo_y, 0)
    counts = across * down
    which = np.repeat(np.arange(len(lines)), counts)  # each candidate's line
    k = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    xs = lo_x[which] + k % np.maximum(across[which], 1)
    ys = lo_y[which] + k // np.maximum(across[which], 1)
    seg_ends = ends[which]
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    for nx_, ny in _neighbours_of(board, xs, ys):
        inside = (nx_ >= 0) & (nx_ < w) & (ny >= 0) & (ny < h)
        tx, ty = np.clip(nx_, 0, w - 1), np.clip(ny, 0, h - 1)
        segments = np.stack((cx[ys, xs], cy[ys, xs], cx[ty, tx], cy[ty, tx]), axis=-1)
        hit = inside & walls.touches_many(segments, seg_ends)
        found.append((xs[hit], ys[hit], tx[hit], ty[hit], which[hit]))
    ax, ay, bx, by, idx = (np.concatenate(parts) for parts in zip(*found, strict=True))
    order = np.argsort(-idx, kind="stable")  # the last written wins: the first line, both ways round
    ax, ay, bx, by, idx = ax[order].tolist(), ay[order].tolist(), bx[order].tolist(), by[order].tolist(), \
        (idx[order] + first).tolist()
    here = list(zip(ax, ay, strict=True))
    there = list(zip(bx, by, strict=True))
    out: dict[tuple[XY, XY], int] = dict(zip(zip(here, there, strict=True), idx, strict=True))
    out.update(zip(zip(there, here, strict=True), idx, strict=True))
    return out


def _neighbours_of(board: Board, xs: npt.NDArray[np.int_], ys: npt.NDArray[np.int_]) -> list[
        tuple[npt.NDArray[np.int_], npt.NDArray[np.int_]]]:
    """The neighbours of the squares (xs, ys), direction by direction: the eight of `SQUARE_STEPS`
    on squares, the six of `CUBE_DIRS` on hexes (`to_cube` and `from_cube`, whose arithmetic works on
    arrays as on numbers)."""
    if not is_hex(board):
        return [(xs + dx, ys + dy) for dx, dy, _ in SQUARE_STEPS]
    q, r, s = to_cube(board, cast(XY, (xs, ys)))
    return [cast("tuple[npt.NDArray[np.int_], npt.NDArray[np.int_]]",
                 from_cube(board, (q + dq, r + dr, s + ds))) for dq, dr, ds in CUBE_DIRS]


def wall_across(board: Board, a: XY, b: XY) -> tuple[Wall, Door | None] | None:
    """The first wall or closed door (in `board.barriers`' order) that the straight line between the
    centres of any two squares touches (R4 sight, M13 a throw's flight); None: nothing."""
    if not board.barriers or a == b:
        return None
    (ax, ay), (bx, by) = centre(board, a), centre(board, b)
    lo_x, hi_x, lo_y, hi_y = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
    for w, door in board.barriers:
        x0, y0, x1, y1 = walls.box(w)
        if x1 < lo_x - walls.EPS or x0 > hi_x + walls.EPS or y1 < lo_y - walls.EPS or y0 > hi_y + walls.EPS:
            continue
        if walls.touches(ax, ay, bx, by, w):
            return w, door
    return None


def across_words(hit: tuple[Wall, Door | None]) -> str:
    """'a wall (4, 0)-(4, 4)' or "the closed door 'cellar door'"."""
    w, door = hit
    return f"a wall {walls.wall_text(w)}" if door is None else f"the {door.state} {door.label}"


def barrier_words(board: Board, a: XY, b: XY) -> str:
    """'wall between (4, 5) and (5, 5)' or 'closed door 'cellar door' between ...' (M1, M4)."""
    hit = barrier_between(board, a, b)
    if hit is None:
        return ""
    door = hit[1]
    what = "wall" if door is None else f"{door.state} {door.label}"
    return f"{what} between {a} and {b}"


def hex_distance(board: Board, a: XY, b: XY) -> int:
    ca, cb = to_cube(board, a), to_cube(board, b)
    return max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1]), abs(ca[2] - cb[2]))


def distance(board: Board, a: XY, b: XY, diagonals: str = "alternating") -> int:
    """Squares between a and b on an open board (M11): alternating counts every second diagonal
    as 2, chebyshev counts each as 1, manhattan allows none; hex maps use hex distance."""
    if is_hex(board):
        return hex_distance(board, a, b)
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    if diagonals == "chebyshev":
        return max(dx, dy)
    if diagonals == "manhattan":
        return dx + dy
    lo, hi = min(dx, dy), max(dx, dy)
    return hi + lo // 2


# -- lines and sight --------------------------------------------------------------------------------
def _line(board: Board, a: XY, b: XY, nudge: float) -> list[XY]:
    """Squares crossed by the segment between centres, nudged sideways by `nudge` (both nudges
    are tried so that a line grazing a corner is judged the same from either end)."""
    if a == b:
        return [a]
    if is_hex(board):
        ca, cb = to_cube(board, a), to_cube(board, b)
        n = hex_distance(board, a, b)
        out: list[XY] = []
        for i in range(n + 1):
            t = i / n
            fq = ca[0] + (cb[0] - ca[0]) * t + nudge
            fr = ca[1] + (cb[1] - ca[1]) * t + nudge
            fs = -fq - fr
            q, r, s = round(fq), round(fr), round(fs)
            dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
            if dq > dr and dq > ds:
                q = -r - s
            elif dr > ds:
                r = -q - s
            sq = from_cube(board, (q, r, -q - r))
            if not out or out[-1] != sq:
                out.append(sq)
        return out
    (x0, y0), (x1, y1) = centre(board, a), centre(board, b)
    n = 4 * max(abs(b[0] - a[0]), abs(b[1] - a[1])) + 1
    out = []
    for i in range(n + 1):
        t = i / n
        px = x0 + (x1 - x0) * t + nudge
        py = y0 + (y1 - y0) * t - nudge
        sq = (math.floor(px), math.floor(py))
        if not out or out[-1] != sq:
            out.append(sq)
    if out[0] != a:
        out.insert(0, a)
    if out[-1] != b:
        out.append(b)
    return out


def line(board: Board, a: XY, b: XY) -> list[XY]:
    """Squares on the line between centres, ends included (R4)."""
    return _line(board, a, b, 1e-6)


SIGHT_LIMIT = 100_000  # answers kept per board (about 20 MB at most); the table starts over when full


def sight(board: Board, a: XY, b: XY) -> tuple[bool, int, str]:
    """R4: (seen, cover count, why not). Opaque squares between the two centres block the line;
    each cover square on it is -1 to the shooter. Grazing a corner: either nudge of the line counts,
    taking the one that sees, then the one with less cover. Terrain never changes, so answers are
    kept in the board's own cache (`Board.cache`)."""
    memo = board.cache.sight
    key = (a[0], a[1]), (b[0], b[1])  # (tuples, should a caller pass lists)
    hit: tuple[bool, int, str] | None = memo.get(key)
    if hit is None:
        if len(memo) >= SIGHT_LIMIT:
            memo.clear()
        hit = memo[key] = _sight(board, a, b)
    return hit


def _sight(board: Board, a: XY, b: XY) -> tuple[bool, int, str]:
    hit = wall_across(board, a, b)
    if hit is not None:
        return False, 0, f"no line of sight: {across_words(hit)} stands between {a} and {b} (R4)"
    best: tuple[bool, int, str] | None = None
    for nudge in (1e-6, -1e-6):
        between = [s for s in _line(board, a, b, nudge)[1:-1] if board.inside(s)]
        wall = next((s for s in between if board.opaque[s[1], s[0]]), None)
        cover = sum(1 for s in between if board.cover[s[1], s[0]] > 0)
        res = (wall is None, cover, "" if wall is None else f"no line of sight: opaque square at {wall} (R4)")
        if best is None or (res[0], -res[1]) > (best[0], -best[1]):
            best = res
    assert best is not None
    return best

