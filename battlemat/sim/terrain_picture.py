"""`battlemat check MAP --picture OUT.png`: the map with the terrain battlemat understood over it.

A game master sees at a glance what battlemat will play: walls, pits, difficult ground and void
painted over the map's own picture (matplotlib, Agg: no window), thin walls and doors drawn as lines
(doors coloured by state), with a legend row per kind giving its squares (or segments, or doors) and
where they came from (the same words `check` prints). The window shows the same
view on a key (battlemat.ui.overlays, TERRAIN_COLOURS below is the one palette).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import numpy as np

from battlemat.core.board import Board
from battlemat.io.errors import LoadError, Problem
from battlemat.io.tiled import Understood, survey_map

# Kind of understood terrain -> (RGBA over the map, legend word). Void is drawn first; a wall over it wins.
TERRAIN_COLOURS: Mapping[str, tuple[tuple[float, float, float, float], str]] = MappingProxyType({
    "void": ((0.05, 0.05, 0.08, 0.85), "void (outside the map)"),
    "walls": ((0.85, 0.1, 0.1, 0.55), "walls"),
    "pit": ((0.35, 0.1, 0.75, 0.6), "pits"),
    "difficult": ((0.95, 0.75, 0.05, 0.5), "difficult ground"),
})
# Thin walls and doors (core.walls), drawn as lines: colour, dash, legend word.
LINE_STYLES: Mapping[str, tuple[tuple[float, float, float], Literal["-", "--"], str]] = MappingProxyType({
    "wall": ((0.85, 0.1, 0.1), "-", "wall segments"),
    "closed": ((1.0, 0.55, 0.0), "-", "doors, closed"),
    "open": ((0.1, 0.8, 0.3), "--", "doors, open"),
    "locked": ((0.55, 0.0, 0.45), "-", "doors, locked"),
})


def terrain_kinds(board: Board) -> dict[str, np.ndarray]:
    """The board's understood terrain by kind, as masks, in drawing order."""
    void = board.blocked & np.isin(board.feature, [i for i, f in enumerate(board.features) if f == "void"])
    return {
        "void": void,
        "walls": board.blocked & ~void,
        "pit": board.pit,
        "difficult": (board.difficult | (board.difficult_dirs > 0)) & ~board.blocked & ~board.pit,
    }


def legend_rows(board: Board, understood: list[Understood]) -> list[tuple[str, str]]:
    """(kind, text) per kind present: its squares and where they came from."""
    rows = []
    for kind, mask in terrain_kinds(board).items():
        count = int(mask.sum())
        if not count:
            continue
        origins = [u.origin for u in understood if u.terrain == kind]
        label = TERRAIN_COLOURS[kind][1]
        rows.append((kind, f"{label}: {count} squares" + (f" ({'; '.join(origins)})" if origins else "")))
    return rows


def line_rows(board: Board, understood: list[Understood]) -> list[tuple[str, str]]:
    """(style, text) per kind of thin line present: wall segments, then doors by state."""
    rows = []
    if board.walls:
        origins = [u.origin for u in understood if u.terrain == "wall segments"]
        rows.append(("wall", f"{LINE_STYLES['wall'][2]}: {len(board.walls)}"
                     + (f" ({'; '.join(origins)})" if origins else "")))
    for state in ("closed", "open", "locked"):
        ids = [d.id for d in board.doors if d.state == state]
        if ids:
            rows.append((state, f"{LINE_STYLES[state][2]}: {', '.join(ids)}"))
    return rows


def draw_lines(ax: Any, board: Board, scale: float) -> None:
    """The board's walls and doors over its picture drawn at `scale` (board units to the picture:
    battlemat.io.tiled.walls.units_to_picture)."""
    from battlemat.io.tiled.walls import apply, units_to_picture  # noqa: PLC0415 - start-up time: only --picture

    m = units_to_picture(board)
    width = max(1.5, 0.08 * board.tile_height * scale)
    lines = [("wall", w) for w in board.walls] + [(d.state, d.wall) for d in board.doors]
    for style, w in lines:
        colour, dash, _ = LINE_STYLES[style]
        (ax0, ay0), (ax1, ay1) = apply(m, w.x1, w.y1), apply(m, w.x2, w.y2)
        ax.plot([ax0 * scale - 0.5, ax1 * scale - 0.5], [ay0 * scale - 0.5, ay1 * scale - 0.5], color=colour,
                linestyle=dash, linewidth=width, solid_capstyle="round")


def draw_terrain_picture(path: Path, out: Path, terrain: Any = None, rules: Any = None) -> list[Problem]:
    """Write OUT.png; problems (a map that cannot be read or drawn, OUT not writable) are returned.
    `terrain` and `rules`: an encounter's [terrain] table (with its file) and rules, for its map."""
    import matplotlib  # noqa: PLC0415 - start-up time: matplotlib only for --picture

    matplotlib.use("Agg")
    from matplotlib.figure import Figure  # noqa: PLC0415 - start-up time, and after use("Agg")
    from matplotlib.lines import Line2D  # noqa: PLC0415 - start-up time, and after use("Agg")
    from matplotlib.patches import Patch  # noqa: PLC0415 - start-up time, and after use("Agg")

    from battlemat.sim.render import (  # noqa: PLC0415 - start-up time: matplotlib
        MAX_RENDER_SIDE,
        render_map,
        square_centre,
    )

    board, problems, understood = survey_map(path, terrain=terrain, rules=rules)
    if board is None:
        return [Problem(str(out), "", "no picture: the map cannot be read (its problems are listed)",
                        "fix the map's problems, then draw it again")]
    try:
        image, tmx, scale_drawn = render_map(path, MAX_RENDER_SIDE)  # bounded by the picture, not the map
    except LoadError as exc:
        return exc.problems
    overlay = np.zeros(image.shape, np.float32)
    half_w, half_h = tmx.tilewidth * scale_drawn / 2, tmx.tileheight * scale_drawn / 2
    h, w = image.shape[:2]
    for kind, mask in terrain_kinds(board).items():
        colour = TERRAIN_COLOURS[kind][0]
        for y, x in zip(*np.nonzero(mask), strict=True):
            cx, cy = square_centre(tmx, (int(x), int(y)), board, scale_drawn)
            x0, y0 = max(0, int(cx - half_w)), max(0, int(cy - half_h))
            x1, y1 = min(w, int(cx + half_w)), min(h, int(cy + half_h))
            overlay[y0:y1, x0:x1] = colour
    alpha = overlay[..., 3:4]
    picture = image.copy()
    picture[..., :3] = image[..., :3] * (1 - alpha) + overlay[..., :3] * alpha
    rows = legend_rows(board, understood)
    lines = line_rows(board, understood)
    rows_shown = len(rows) + len(lines)
    scale = max(1.0, 900 / max(w, h))
    fig = Figure(figsize=(w * scale / 100, h * scale / 100 + 0.35 * (rows_shown + 1)), dpi=100)
    ax = fig.add_axes((0, 0.35 * (rows_shown + 1) / fig.get_figheight(), 1,
                       1 - 0.35 * (rows_shown + 1) / fig.get_figheight()))
    ax.imshow(picture, interpolation="nearest")
    draw_lines(ax, board, scale_drawn)
    ax.set_xlim(-0.5, w - 0.5)
    ax.set_ylim(h - 0.5, -0.5)
    ax.set_axis_off()
    handles: list[Any] = [Patch(color=TERRAIN_COLOURS[k][0][:3], label=text) for k, text in rows]
    handles += [Line2D([], [], color=LINE_STYLES[k][0], linestyle=LINE_STYLES[k][1], linewidth=2, label=text)
                for k, text in lines]
    if not handles:
        handles = [Patch(color=(1, 1, 1), label="every square is open floor: this map marks no terrain")]
    fig.legend(handles=handles, loc="lower left", fontsize=8, frameon=False, title=Path(path).name,
               title_fontsize=9, alignment="left")
    try:
        fig.savefig(out)
    except OSError as exc:
        return [Problem(str(out), "", f"cannot write the picture ({exc.strerror or exc})",
                        "pass a path in a folder you can write to")]
    return [Problem(str(out), "", f"wrote the map with its understood terrain ({rows_shown} kinds)", note=True)]
