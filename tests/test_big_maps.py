"""The largest map battlemat reads (io/limits.MAX_CELLS: 1000 x 1000 with one tile layer) reaches and
plays a turn within 1 GB (issue 15: the movement grid was a networkx graph and per-square Python
lists, about 7 KB a square, so `reach` grew past 6 GB and was killed).

A subprocess loads a generated 1000 x 1000 map under an address-space limit of 1 GB (RLIMIT_AS: an
allocation beyond it fails), asks `reach` of a mover, lets the AI declare for everyone (walking
distances over the whole board, M12 level windows) and resolves the turn, then reports its peak
resident memory. bench/bench_board.py measures the figures; this test holds the bound.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from battlemat.io.limits import MAX_CELLS

GIB = 1 << 30
SIZE = 1000
# grass, wall, rubble (difficult, M4), pit (M5), ridge (level 1, M12), stairs rising north (M12)
TILES = ("grass", "wall", "rubble", "pit", "ridge", "stairs")

CHILD = """
import json, random, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
from battlemat.ai import Brain
from battlemat.core import movement
from battlemat.core.match import Match
from battlemat.io.encounter import load_encounter

enc = load_encounter(sys.argv[1])
match = Match(enc, seed=1)
a = match.state.chars["a"]
mover = movement.mover_for(match.memory, match.state.chars, "a", "Exit")
reach = movement.reach(enc.board, enc.rules, mover)
brain = Brain(enc, match.memory)
intents = brain.decide(match.state, random.Random(1))
events = match.play(intents)
hwm = open("/proc/self/status").read().split("VmHWM:")[1].split()[0]
print(json.dumps({{"reach": len(reach.costs), "refused": len(reach.refused), "intents": len(intents),
                  "events": len(events), "turn": match.state.turn, "peak_kb": int(hwm)}}))
"""


def write_map(folder: Path) -> Path:
    """A SIZE x SIZE map (one zlib tile layer) with walls, rubble, pits and raised ridges with stairs,
    and an encounter of four characters with AI in the middle of it."""
    rng = np.random.default_rng(15)
    gids = np.ones((SIZE, SIZE), np.uint32)
    roll = rng.random((SIZE, SIZE))
    gids[roll < 0.08] = 2
    gids[(roll >= 0.08) & (roll < 0.12)] = 3
    gids[(roll >= 0.12) & (roll < 0.13)] = 4
    for x, y in rng.integers(0, SIZE - 16, (400, 2)).tolist():
        gids[y:y + 10, x:x + 12] = 5
        gids[y + 9, x + 6] = 6
    c = SIZE // 2
    gids[c - 5:c + 5, c - 5:c + 5] = 1
    tiles = "".join(f'<tile id="{i}" type="{name}"/>' for i, name in enumerate(TILES))
    data = base64.b64encode(zlib.compress(gids.astype("<u4").tobytes())).decode()
    (folder / "big.tmx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.8" orientation="orthogonal" renderorder="right-down" width="{SIZE}" height="{SIZE}" '
        'tilewidth="32" tileheight="32" infinite="0" nextlayerid="2" nextobjectid="1">'
        f'<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="{len(TILES)}" columns="0">'
        f'{tiles}</tileset><layer id="1" name="ground" width="{SIZE}" height="{SIZE}">'
        f'<data encoding="base64" compression="zlib">{data}</data></layer></map>\n')
    chars = [("a", "heroes", '"Melee/Press" = 3, "Block/Dodge" = 3', (c - 2, c), "brawler"),
             ("b", "heroes", '"Shoot/Throw" = 3, "Block/Dodge" = 2', (c - 3, c + 1), "archer"),
             ("x", "monsters", '"Melee/Press" = 3, "Block/Dodge" = 2', (c + 3, c), "brawler"),
             ("y", "monsters", '"Melee/Press" = 2, "Acrobatics/Climb" = 3', (c + 4, c + 2), "skirmisher")]
    text = '[encounter]\ntitle = "big"\nmap = "big.tmx"\n' + "".join(
        f'[[character]]\nid = "{i}"\nside = "{side}"\nskills = {{ {skills} }}\nat = [{x}, {y}]\nai = "{ai}"\n'
        for i, side, skills, (x, y), ai in chars)
    (folder / "big.toml").write_text(text)
    return folder / "big.toml"


def test_the_largest_map_reaches_and_plays_a_turn_within_1_gb(tmp_path: Path) -> None:
    assert SIZE * SIZE <= MAX_CELLS  # the largest map battlemat reads
    enc = write_map(tmp_path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", CHILD.format(limit=GIB), str(enc)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["reach"] > 1 and got["refused"] > 0  # M1: a mover goes somewhere, and is told why not elsewhere
    assert got["intents"] == 4 and got["events"] > 0 and got["turn"] == 2
    assert got["peak_kb"] * 1024 < GIB


@pytest.mark.parametrize("shape", [("square", "", ""), ("hex", "x", "odd"), ("hex", "y", "even")])
@pytest.mark.parametrize("width", [1, 2, 3])
def test_boards_one_or_two_squares_wide_have_the_graphs_steps(shape: tuple[str, str, str], width: int) -> None:
    """The tables are written by array slices, a slot at a time: on boards too narrow for some
    slots nothing steps off the edge (M1), and every step is the movement graph's."""
    from battlemat.core import movement
    from battlemat.core.board import Board

    board = Board(width, 3, *shape)
    for diagonals in ("alternating", "manhattan"):
        gr = movement.grid(board, diagonals)
        steps = {(gr.sq(i), gr.sq(j)) for i in range(gr.size) for j in gr.arrays.nbr[i].tolist() if j >= 0}
        assert steps == set(gr.graph.edges)


@pytest.mark.ui
def test_the_window_keeps_the_chunks_in_view_and_lets_the_others_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """Panning over a map much larger than the window composes only the chunks it sees, keeps at most
    CHUNKS_KEPT more, and draws a chunk it let go the same when it comes back into view."""
    import pygame

    from battlemat.core.board import Board
    from battlemat.ui import renderer
    from battlemat.ui.camera import Camera

    monkeypatch.setattr(renderer, "CHUNKS_KEPT", 2)
    pygame.display.init()
    screen = pygame.display.set_mode((400, 300))
    art = renderer.build_art(Board(80, 80), None)  # 2560 px: 5 x 5 chunks
    cam = Camera(0, 0, 400, 300)
    art.draw(screen, cam)
    first = pygame.surfarray.array3d(screen).copy()
    for x, y in ((600, 0), (1200, 600), (1800, 1800), (0, 1800)):
        cam.x, cam.y = x, y
        art.draw(screen, cam)
        assert art.kept() <= len(list(art.visible_chunks(cam))) + 2
    cam.x = cam.y = 0
    art.draw(screen, cam)
    assert (pygame.surfarray.array3d(screen) == first).all()
