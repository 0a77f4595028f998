"""Frame time of the play screen against one bare blit of the pre-rendered map, in the same run.

A 100x100 map (two tile layers, terrain marks, grid) at 1920x1080 with a character selected: reach
shading, the route under the mouse, Throw range bands, the hover card and every panel drawn. The
baseline blits one window-sized region of the whole pre-rendered map into a window-sized surface.
Frames and baseline blits are interleaved so both see the same machine load and caches; the ratio
of their medians is the headline (goal: at most 3x). The same blit repeated back to back (hot
caches, the harsher baseline) is printed too.
`--idle SECONDS` measures instead what a window left alone costs: the process CPU time of the real
loop (`App.tick()` with no input: it draws only when something changed and sleeps between looks)
against the same loop drawing every frame, as the window did before (goal: idle at most 5% of a core).
Run: SDL_VIDEODRIVER=dummy python bench/bench_frame.py [--frames N] [--idle SECONDS]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import pygame

from battlemat.core.board import Board
from battlemat.io.encounter import parse_encounter
from battlemat.ui.app import App
from battlemat.ui.options import PlayOptions
from battlemat.ui.session import Session

SIZE = 100
TILE = 32


def write_map(tmp: Path) -> Path:
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    sheet = pygame.Surface((4 * TILE, TILE), pygame.SRCALPHA)
    for i, c in enumerate(((90, 120, 70), (110, 100, 80), (70, 90, 120), (0, 0, 0, 0))):
        sheet.fill(c, pygame.Rect(i * TILE, 0, TILE, TILE))
    pygame.draw.circle(sheet, (40, 80, 40, 255), (3 * TILE + 16, 16), 12)  # a bush with transparency
    pygame.image.save(sheet, str(tmp / "sheet.png"))
    rng = np.random.default_rng(1)
    ground = rng.integers(1, 4, size=(SIZE, SIZE))
    deco = np.where(rng.random((SIZE, SIZE)) < 0.1, 4, 0)

    def csv(a: np.ndarray) -> str:
        return ",\n".join(",".join(str(v) for v in row) for row in a)

    path = tmp / "bench.tmx"
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?><map version="1.8" orientation="orthogonal" renderorder="right-down" '
        f'width="{SIZE}" height="{SIZE}" tilewidth="{TILE}" tileheight="{TILE}" infinite="0">'
        f'<tileset firstgid="1" name="t" tilewidth="{TILE}" tileheight="{TILE}" tilecount="4" columns="4">'
        f'<image source="sheet.png" width="{4 * TILE}" height="{TILE}"/></tileset>'
        f'<layer id="1" name="ground" width="{SIZE}" height="{SIZE}"><data encoding="csv">{csv(ground)}</data></layer>'
        f'<layer id="2" name="deco" width="{SIZE}" height="{SIZE}"><data encoding="csv">{csv(deco)}</data></layer>'
        "</map>"
    )
    pygame.display.quit()
    return path


def board() -> Board:
    rng = np.random.default_rng(2)
    return Board(SIZE, SIZE, tile_width=TILE, tile_height=TILE,
                 difficult=rng.random((SIZE, SIZE)) < 0.05, cover=(rng.random((SIZE, SIZE)) < 0.05).astype(np.uint8),
                 level=(rng.random((SIZE, SIZE)) < 0.03).astype(np.int16), source="bench")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=400)
    ap.add_argument("--idle", type=float, default=0.0, metavar="SECONDS",
                    help="measure the idle window's CPU use instead, over this many seconds each way")
    opts = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bm-bench-"))
    tmx = write_map(tmp)
    data = {
        "encounter": {"title": "bench", "map": tmx.name},
        "character": [
            {"id": "hero", "side": "a", "skills": {"Shoot/Throw": 4, "Melee/Press": 3}, "at": [50, 50]},
            {"id": "ally", "side": "a", "skills": {"Melee/Press": 3}, "at": [49, 51]},
            {"id": "orc1", "side": "b", "skills": {"Melee/Press": 3}, "at": [55, 48]},
            {"id": "orc2", "side": "b", "skills": {"Shoot/Throw": 3}, "at": [57, 53]},
        ],
    }
    enc = replace(parse_encounter(data, str(tmp / "bench.toml"), base_dir=tmp), board=board())

    args = argparse.Namespace(encounter=None, size="1920x1080", save_dir=str(tmp), screenshot=None)
    app = App.__new__(App)
    # App builds its session from a file; the bench hands it a prepared encounter instead.
    orig = Session.__init__

    def with_enc(self: Session, path: object, *a: object, **kw: object) -> None:
        kw["enc"] = enc
        orig(self, tmp / "bench.toml", *a, **kw)  # type: ignore[arg-type]

    Session.__init__ = with_enc  # type: ignore[method-assign,assignment]
    try:
        App.__init__(app, PlayOptions.from_namespace(args))
    finally:
        Session.__init__ = orig  # type: ignore[method-assign]
    play = app.play
    play.ctx.cam.zoom = 1.0
    cx, cy = play.ctx.layout.center((50, 50))
    play.ctx.cam.x, play.ctx.cam.y = cx - play.ctx.cam.view_w / 2, cy - play.ctx.cam.view_h / 2
    play.declaring.select("hero")
    play.declaring.choose_skill("Throw")
    rc = play.declaring.current_reach()
    far = max(rc.costs, key=lambda sq: (rc.costs[sq], sq)) if rc is not None and rc.costs else (51, 50)
    mx, my = play.ctx.cam.to_screen(*play.ctx.layout.center(far))
    play.ctx.mouse = (round(mx), round(my))
    for _ in range(20):  # warm up: chunks built and scaled, fonts cached
        app.tick(1 / 60)
    if opts.idle:
        return idle(app, opts.idle)

    full = play.ctx.art.render_full(marks=True, grid=True)
    area = pygame.Rect(round(play.ctx.cam.x), round(play.ctx.cam.y), 1920, 1080)
    # the baseline draws into a window-sized surface of the screen's format, not the window itself,
    # so it does not wipe the panels the app keeps on screen between frames
    target = pygame.Surface(app.screen.get_size()).convert(app.screen)
    frames, blits = [], []
    for _ in range(opts.frames):  # interleaved, so both see the same machine load
        t0 = time.perf_counter()
        app.invalidate()  # a frame that draws (an unchanged window draws nothing)
        app.tick(1 / 60)
        t1 = time.perf_counter()
        target.blit(full, (0, 0), area)
        t2 = time.perf_counter()
        frames.append(t1 - t0)
        blits.append(t2 - t1)
    warm = []  # the same blit back to back (hot caches): the harsher baseline, printed too
    for _ in range(opts.frames):
        t0 = time.perf_counter()
        target.blit(full, (0, 0), area)
        warm.append(time.perf_counter() - t0)
    app.close()
    f, b = statistics.median(frames), statistics.median(blits)
    print(f"frame (reach {len(rc.costs) if rc else 0} squares, route, Throw bands, panels): {f * 1000:.2f} ms median")
    print(f"bare viewport blit of the pre-rendered {SIZE}x{SIZE} map:                {b * 1000:.2f} ms median")
    w = statistics.median(warm)
    print(f"ratio: {f / b:.2f}x (goal <= 3x)")
    print(f"(the same blit repeated back to back, hot caches: {w * 1000:.2f} ms; frame/that = {f / w:.2f}x)")
    return 0


def idle(app: object, seconds: float) -> int:
    """CPU use of the real loop left alone, against the same loop drawing every frame (the old way)."""
    assert isinstance(app, App)

    def run(every_frame: bool) -> tuple[float, int]:
        drawn = app.draws
        c0, w0 = time.process_time(), time.perf_counter()
        while time.perf_counter() - w0 < seconds:
            if every_frame:
                app.invalidate()
            app.tick()
        return 100 * (time.process_time() - c0) / (time.perf_counter() - w0), app.draws - drawn

    app.play.declaring.select(None)  # nothing pulses: a window left alone (the ring rests after a while anyway)
    app.tick()
    rounds = [(run(False), run(True)) for _ in range(2)]  # alternated, so both see the same machine load
    app.close()
    idle_cpu = statistics.median(r[0][0] for r in rounds)
    busy_cpu = statistics.median(r[1][0] for r in rounds)
    print(f"idle window: {idle_cpu:.1f}% of a core, {rounds[-1][0][1]} frames drawn in {seconds:g} s (goal <= 5%)")
    print(f"drawing every frame (the window before): {busy_cpu:.1f}% of a core, {rounds[-1][1][1]} frames drawn")
    print(f"ratio: {idle_cpu / busy_cpu:.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
