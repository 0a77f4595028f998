"""The simulation report: PNG figures (matplotlib, Agg) and report.json with every number.

- win_rates.png: each side's win rate with its 95% Wilson interval (and the undecided share);
- turns.png: how long combats last, with the median and quartiles marked;
- characters.png: how often each character is defeated or flees;
- defeats_map.png, stops_map.png: heat over the rendered map of where characters were defeated
  and where moves were cut short (only for encounters with a map); the defeats map also marks every
  side's start squares and numbers its darkest squares, the legend naming each one's main casualty;
- losses_by_turn.png: each side's losses per turn, median line and quartile band;
- presence_<side>.png: where each side's characters stood at the end of each turn (character-turns
  a square), every side's start squares marked in its colour, with a legend.

A partial summary (an interrupted batch) gives a partial report: report.json says `"partial": true`
with `runs_planned`, and every figure's title says how many of the planned runs it shows. If no run
had finished there is nothing to draw: report.json alone is written.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.io.outfile import write_file, writing
from battlemat.labels import display_names
from battlemat.sim.render import MAX_RENDER_SIDE, board_sketch, render_map, square_centre
from battlemat.sim.stats import Summary

SIDE_COLOURS = ("#3b6fb6", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#566573")


def _plt():  # type: ignore[no-untyped-def]
    import matplotlib  # noqa: PLC0415 - start-up time of `battlemat simulate`: matplotlib only when --report draws

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - start-up time of `battlemat simulate`, and after use("Agg")

    plt.rcParams.update({"font.size": 11, "axes.titlesize": 13, "axes.titleweight": "bold",
                         "axes.spines.top": False, "axes.spines.right": False})
    return plt


DPI = 110  # figures are written at this resolution: reads on screen and in print


def _save(fig, path: Path) -> Path:  # type: ignore[no-untyped-def]
    """Lay out, write whole or not at all (io.outfile: a second Ctrl+C, a full disk), free the figure."""
    try:
        fig.tight_layout()
        with writing(path, "the report's figure", "choose another --report folder") as part:
            fig.savefig(part, dpi=DPI)
    finally:
        _plt().close(fig)
    return path


# After a stop (Ctrl+C), figures are started only this long after report.json is written: the one
# being drawn then finishes (about 0.2-1.5 s each on a busy 2-core machine) and the rest are skipped,
# so a stopped batch exits within about 2 s with every number saved (issue 27 item 8).
FIGURES_AFTER_STOP = 0.5


def write_report(enc: Encounter, s: Summary, out: Path, encounter_path: Path | None = None,
                 numbers_written: Callable[[Path], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> list[Path]:
    """report.json first (every number, in a moment), then the figures one by one: a stop while they
    are drawn (a second Ctrl+C) keeps report.json and every figure already written, each whole.
    `numbers_written` (given after a stop) is told where report.json is before the first figure,
    and then only the figures started within FIGURES_AFTER_STOP are drawn: the others are named on
    stderr. `clock` is the time the budget is counted in (a test gives its own)."""
    report = write_file(out / "report.json", json.dumps(s.to_json(), indent=2), "the report",
                        "choose another --report folder")
    deadline = None
    if numbers_written is not None:
        numbers_written(report)
        deadline = clock() + FIGURES_AFTER_STOP
    files: list[Path] = []
    skipped: list[str] = []
    for name, draw in _figures(enc, s, out, encounter_path):
        if deadline is not None and clock() > deadline:
            skipped.append(name)
            continue
        files.append(draw())
    if skipped:
        print(f"battlemat: figures not drawn after the stop: {', '.join(skipped)} (every number is in "
              f"{report.name}; run the batch again without stopping to draw them)", file=sys.stderr, flush=True)
    files.append(report)
    return files


def _figures(enc: Encounter, s: Summary, out: Path,
             encounter_path: Path | None) -> list[tuple[str, Callable[[], Path]]]:
    """Each figure of the report as (file name, how to draw it), in the order they are drawn."""
    todo: list[tuple[str, Callable[[], Path]]] = []
    if s.runs:
        todo += [("win_rates.png", lambda: _win_rates(s, out / "win_rates.png")),
                 ("turns.png", lambda: _turns(s, out / "turns.png")),
                 ("characters.png", lambda: _characters(s, out / "characters.png"))]
    map_path = None
    if enc.map and encounter_path is not None:
        map_path = (encounter_path.parent / enc.map).resolve()
    picture = _Picture(map_path)  # the map drawn once for every heat map, at most the figure's pixels
    if s.runs and enc.board is not None and s.defeat_heat is not None and s.stop_heat is not None:
        defeats, stops = s.defeat_heat, s.stop_heat
        todo.append(("defeats_map.png", lambda: _heat(
            enc, defeats, picture, out / "defeats_map.png",
            f"Where characters were defeated ({int(defeats.sum())} defeats in {s.runs} combats{_partial(s)})",
            starts=s.starts, label="defeats on the square", marks=casualties(s))))
        todo.append(("stops_map.png", lambda: _heat(
            enc, stops, picture, out / "stops_map.png",
            f"Where moves were cut short ({int(stops.sum())} stops in {s.runs} combats{_partial(s)})")))
    if s.runs and any(s.losses_by_turn.values()):
        todo.append(("losses_by_turn.png", lambda: _losses_by_turn(s, out / "losses_by_turn.png")))
    if s.runs and enc.board is not None:
        for i, (side, heat) in enumerate(s.presence.items()):
            name = f"presence_{_file_word(side)}.png"

            def presence(side: str = side, heat: Any = heat, i: int = i, name: str = name) -> Path:
                return _heat(enc, heat, picture, out / name,
                             f"Where the {side} stood (end of each turn, {s.runs} combats{_partial(s)})",
                             starts=s.starts, cmap=_SIDE_CMAPS[i % len(_SIDE_CMAPS)],
                             label="character-turns ending here")

            todo.append((name, presence))
    return todo


class _Picture:
    """The map's picture for the heat maps, drawn on first use and kept: (image, pytmx map, scale),
    or Nones when the map cannot be drawn (the board's sketch is drawn instead)."""

    def __init__(self, map_path: Path | None) -> None:
        self.map_path = map_path
        self._drawn: tuple[Any, Any, float] | None = None

    def get(self) -> tuple[Any, Any, float]:
        if self._drawn is None:
            self._drawn = (None, None, 1.0)
            if self.map_path is not None and self.map_path.is_file():
                try:
                    self._drawn = render_map(self.map_path, MAX_RENDER_SIDE)
                except (BattlematError, OSError, ValueError, LookupError, TypeError, SyntaxError, ArithmeticError,
                        AttributeError):  # a picture problem (a tileset, an image, the XML) must not lose the numbers
                    pass
        return self._drawn


_SIDE_CMAPS = ("Blues", "Reds", "Greens", "Purples", "Oranges", "Greys")


def _file_word(side: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in side) or "side"


def _losses_by_turn(s: Summary, path: Path) -> Path:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    for i, (side, rows) in enumerate(s.losses_by_turn.items()):
        if not rows:
            continue
        colour = SIDE_COLOURS[i % len(SIDE_COLOURS)]
        t = [r.turn for r in rows]
        ax.fill_between(t, [r.q1 for r in rows], [r.q3 for r in rows], color=colour, alpha=0.18, step="mid")
        ax.plot(t, [r.median for r in rows], color=colour, lw=2, marker="o", ms=3,
                label=f"{side}: median (band: quartiles)")
    ax.set_xlabel("turn (over the combats still going at its start)")
    ax.set_ylabel("losses taken that turn")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_ylim(bottom=0)
    ax.legend(frameon=False)
    ax.set_title(f"{s.title}: losses per turn by side{_partial(s, ' (', ')')}")
    return _save(fig, path)


def _partial(s: Summary, before: str = "; ", after: str = "") -> str:
    """What a figure's title adds for a partial summary; nothing for a complete one."""
    return f"{before}partial: {s.runs:,} of {s.planned:,} runs{after}" if s.partial else ""


def _win_rates(s: Summary, path: Path) -> Path:
    plt = _plt()
    labels = [side.side for side in s.sides]
    rates = [side.rate * 100 for side in s.sides]
    lows = [max(0.0, side.rate - side.low) * 100 for side in s.sides]  # float noise at 0% and 100%
    highs = [max(0.0, side.high - side.rate) * 100 for side in s.sides]
    colours = [SIDE_COLOURS[i % len(SIDE_COLOURS)] for i in range(len(labels))]
    if s.undecided:
        labels.append("undecided")
        rates.append(s.undecided / s.runs * 100)
        lows.append(0)
        highs.append(0)
        colours.append("#aaaaaa")
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.7 * len(labels)))
    y = np.arange(len(labels))[::-1]
    ax.barh(y, rates, xerr=[lows, highs], color=colours, capsize=6, height=0.6, error_kw={"elinewidth": 1.5})
    for yi, r, hi in zip(y, rates, highs, strict=True):
        if r > 80:  # inside the bar, in white, clear of the interval whisker
            ax.text(r - hi - 2, yi, f"{r:.1f}%", va="center", ha="right", fontsize=11, color="white",
                    fontweight="bold")
        else:
            ax.text(r + hi + 1.5, yi, f"{r:.1f}%", va="center", fontsize=11)
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 100)
    ax.set_xlabel("wins, % of combats (bars: 95% Wilson interval)")
    ax.set_title(f"{s.title}: who wins ({s.runs} combats, dice {s.dice}{_partial(s)})")
    return _save(fig, path)


def _turns(s: Summary, path: Path) -> Path:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    lo, hi = min(s.turns), max(s.turns)
    counts, edges, _ = ax.hist(s.turns, bins=np.arange(lo - 0.5, hi + 1.5, 1), color="#5d6d7e", edgecolor="white")
    if len(counts) <= 25:
        for c, left in zip(counts, edges, strict=False):
            if c:
                ax.text(left + 0.5, c, str(int(c)), ha="center", va="bottom", fontsize=9, color="#333333")
    ax.axvline(s.turns_median, color="#c0392b", lw=2, label=f"median {s.turns_median:g}")
    ax.axvspan(s.turns_q1, s.turns_q3, color="#c0392b", alpha=0.12, label=f"quartiles {s.turns_q1:g}-{s.turns_q3:g}")
    ax.set_xlabel("turns until one side is defeated or fled")
    ax.set_ylabel("combats")
    ax.set_title(f"{s.title}: length of combat{_partial(s, ' (', ')')}")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(frameon=False)
    return _save(fig, path)


def _characters(s: Summary, path: Path) -> Path:
    plt = _plt()
    names = [f"{c.name} ({c.side})" for c in s.chars]
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.42 * len(names)))
    y = np.arange(len(names))[::-1]
    defeated = [c.defeat_rate * 100 for c in s.chars]
    fled = [c.fled_rate * 100 for c in s.chars]
    ax.barh(y, defeated, color="#c0392b", height=0.6, label="defeated")
    ax.barh(y, fled, left=defeated, color="#f5b041", height=0.6, label="fled")
    for yi, c in zip(y, s.chars, strict=True):
        ax.text(101, yi, f"{c.mean_losses:.1f} losses", va="center", fontsize=9, color="#444444")
    ax.set_yticks(y, names)
    ax.set_xlim(0, 118)
    ax.set_xticks([0, 25, 50, 75, 100])
    ax.set_xlabel("% of combats")
    ax.set_title(f"{s.title}: fate of each character")
    ax.legend(frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2)
    ax.set_title(f"{s.title}: fate of each character{_partial(s, ' (', ')')}", pad=26)
    return _save(fig, path)


# Squares drawn one patch each (exact squares and hexes) up to this many; beyond, or when the map's
# picture was shrunk to fit the figure, the heat is drawn as one image of at most the figure's pixels.
MAX_HEAT_PATCHES = 20_000


# The defeats map numbers its darkest squares, at most this many, each with at least DARK_SHARE of
# the darkest one's defeats, and names each one's main casualty in the legend (issue 31 item 6).
MAX_MARKED = 8
DARK_SHARE = 0.4


def casualties(s: Summary) -> list[tuple[tuple[int, int], str]]:
    """The darkest squares of the defeats map, darkest first, each with its legend line: the character
    defeated there most often, its side, and how many of the square's defeats were its."""
    if s.defeat_heat is None or not s.defeated_here:
        return []
    names = display_names(s.chars)
    side = {c.id: c.side for c in s.chars}
    heat = s.defeat_heat
    top = int(heat.max())
    squares = sorted(s.defeated_here, key=lambda sq: (-int(heat[sq[1], sq[0]]), sq[1], sq[0]))
    out = []
    for sq in squares[:MAX_MARKED]:
        total = int(heat[sq[1], sq[0]])
        if total < max(1, DARK_SHARE * top):
            break
        who, k = s.defeated_here[sq][0]
        out.append((sq, f"{names.get(who, who)} ({side.get(who, '?')}): {k} of the {total} defeats there"))
    return out


def _heat(enc: Encounter, heat: np.ndarray | None, picture: _Picture, path: Path, title: str,  # noqa: PLR0913
          starts: dict[str, list[tuple[int, int]]] | None = None, cmap: str = "inferno_r",
          label: str = "count", marks: list[tuple[tuple[int, int], str]] | None = None) -> Path:
    """Heat over the map. `starts`: every side's start squares, marked in its colour with a legend
    (the per-side presence maps and the defeats map); without it the figure is drawn as before.
    `marks`: squares numbered 1, 2... on the map, each with its words in the legend (casualties)."""
    plt = _plt()
    from matplotlib import colormaps  # noqa: PLC0415 - start-up time of `battlemat simulate` (see _plt)

    board = enc.board
    assert board is not None and heat is not None
    image, tmx, scale = picture.get()
    h, w = (image.shape[:2] if image is not None else (board.height * 24, board.width * 24))
    width, height = min(12, max(6, w / 80)), min(10, max(4, h / 80)) + 0.6
    if marks:  # the legend's lines, one a row under the map (two columns overflow a narrow map)
        width, height = max(width, 7.5), height + 0.22 * (len(marks) + len(starts or {}))
    fig, ax = plt.subplots(figsize=(width, height))
    if image is not None and tmx is not None:
        ax.imshow(image, interpolation="nearest")
        tw, th = tmx.tilewidth * scale, tmx.tileheight * scale
    else:
        ax.imshow(board_sketch(board), interpolation="nearest", extent=(0, w, h, 0))
        tw = th = 24

    def centre(sq: tuple[int, int]) -> tuple[float, float]:
        return square_centre(tmx, sq, board, scale) if tmx is not None else ((sq[0] + 0.5) * tw, (sq[1] + 0.5) * th)

    ys, xs = np.nonzero(heat)
    if len(xs):
        values = heat[ys, xs]
        top = max(1, int(values.max()))
        if not board.projection and (scale < 1.0 or len(xs) > MAX_HEAT_PATCHES):  # diamonds stay patches
            shown, factor = _fit(heat, fig.get_size_inches() * DPI)
            masked = np.ma.masked_equal(shown, 0)
            top = max(1, int(shown.max()))
            sc = ax.imshow(masked, cmap=colormaps[cmap], alpha=0.7, interpolation="nearest", vmin=0, vmax=top,
                           extent=(0, shown.shape[1] * factor * tw, shown.shape[0] * factor * th, 0))
            ax.set_xlim(0, w)
            ax.set_ylim(h, 0)
            if factor > 1:
                label = f"{label} (per {factor} x {factor} squares)"
        else:
            from matplotlib.collections import PatchCollection  # noqa: PLC0415 - start-up time of `battlemat simulate`
            from matplotlib.patches import (  # noqa: PLC0415 - start-up time of `battlemat simulate`: only --report draws
                Patch,
                Polygon,
                Rectangle,
                RegularPolygon,
            )

            centres = [centre((int(x), int(y))) for x, y in zip(xs, ys, strict=True)]
            patches: list[Patch]
            if board.grid == "hex":
                radius = min(tw, th) / 2 * 0.98
                orient = 0.0 if board.stagger_axis != "x" else np.pi / 6
                patches = [RegularPolygon(c, 6, radius=radius, orientation=orient) for c in centres]
            elif board.projection:  # isometric and staggered maps: diamonds
                patches = [Polygon([(c[0], c[1] - th / 2), (c[0] + tw / 2, c[1]), (c[0], c[1] + th / 2),
                                    (c[0] - tw / 2, c[1])]) for c in centres]
            else:
                patches = [Rectangle((c[0] - tw / 2, c[1] - th / 2), tw, th) for c in centres]
            sc = PatchCollection(patches, cmap=colormaps[cmap], alpha=0.7, edgecolors="none")
            sc.set_array(values.astype(float))
            sc.set_clim(0, top)
            ax.add_collection(sc)
        cb = fig.colorbar(sc, ax=ax, fraction=0.035, pad=0.02)
        cb.set_label(label)
    else:
        ax.text(w / 2, h / 2, "none", ha="center", va="center", fontsize=20, color="#333333",
                bbox={"facecolor": "white", "alpha": 0.8})
    if starts:
        for i, (side, squares) in enumerate(starts.items()):
            if not squares:
                continue
            pts = [centre(sq) for sq in squares]
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=90, marker="o",
                       facecolors="none", edgecolors=SIDE_COLOURS[i % len(SIDE_COLOURS)], linewidths=2.2,
                       label=f"{side} start", zorder=5)
    if marks:
        _number_squares(ax, [centre(sq) for sq, _ in marks], [words for _, words in marks])
    if starts or marks:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.01), frameon=False,
                  ncol=1 if marks else len(starts or {}), fontsize=9 if marks else None)
    ax.set_title(title)
    ax.set_axis_off()
    return _save(fig, path)


def _number_squares(ax: Any, centres: list[tuple[float, float]], words: list[str]) -> None:
    """Squares numbered 1, 2... on the map (white with a black outline, readable on any heat), and
    each number with its words in the legend ("1: ..."; matplotlib's number markers need mathtext's fonts)."""
    from matplotlib import patheffects  # noqa: PLC0415 - start-up time of `battlemat simulate` (see _plt)

    outline = [patheffects.withStroke(linewidth=3, foreground="black")]
    for k, ((x, y), text) in enumerate(zip(centres, words, strict=True), start=1):
        ax.text(x, y, str(k), ha="center", va="center", fontsize=10, fontweight="bold", color="white",
                path_effects=outline, zorder=6)
        ax.scatter([], [], marker="s", s=60, color="none", label=f"{k}: {text}")  # no handle: the number says it


def _fit(heat: np.ndarray, pixels: Any) -> tuple[np.ndarray, int]:
    """The heat summed over blocks of k x k squares, k the least that fits the figure's pixels
    (`pixels`: width, height), and k: a count per block never hides a square's count in a neighbour's."""
    w_px, h_px = max(1, int(pixels[0])), max(1, int(pixels[1]))
    k = max(1, math.ceil(heat.shape[1] / w_px), math.ceil(heat.shape[0] / h_px))
    if k == 1:
        return heat, 1
    rows, cols = math.ceil(heat.shape[0] / k) * k, math.ceil(heat.shape[1] / k) * k
    padded = np.zeros((rows, cols), dtype=np.float64)
    padded[:heat.shape[0], :heat.shape[1]] = heat
    return padded.reshape(rows // k, k, cols // k, k).sum(axis=(1, 3)), k
