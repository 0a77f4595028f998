"""Benchmarks of the board (DESIGN: quality bars): loading a map, and what a huge map costs in memory.

1. Loading a Tiled map into a Board vs pytmx's bare parse of the same file. A 100x100 map with three
tile layers (zlib-compressed base64, the format Tiled saves by default), an external tileset whose
tiles carry terrain classes and properties, a `terrain` object layer and a `tokens` layer is
generated into a temporary folder. Timed, in the same run:

- baseline: `pytmx.TiledMap(path)`, pytmx's own parse with its default image loader;
- ours: `battlemat.io.tiled.load_map(path)`: defusedxml parse, size bound, bounded inflation,
  tilesets embedded, pytmx's parse of the prepared tree, then the terrain arrays and tokens.

The ratio ours / baseline is what the safety and the terrain cost on top of pytmx. Goal: <= 2.

2. Memory per square of the movement grid (issue 15), on 100x100 and 1000x1000 boards, measured with
   tracemalloc in this process: the grid's tables (movement.grid), the compiled search's tables
   (kernel.Tables), the walking weights and one walking-distance answer (walks), each as bytes a
   square and as a ratio to the board's own terrain arrays (the baseline: about 12 bytes a square).
   Before issue 15 it took about 6,900 bytes a square (traced the same way on 200x200): the grid a
   networkx graph plus per-square Python lists (4,800), the walks a reversed networkx graph (2,000).

3. Peak memory (RSS) of the commands on a generated 1000x1000 map (one tile layer: the most
   io/limits.MAX_CELLS allows), each in a subprocess: `reach`, `resolve` (one turn), `simulate
   --runs 2`, and one frame of the play window (headless), against `check` of the same encounter
   (the baseline: reading the map). Goal: each within 1 GB (before issue 15 `resolve` peaked at
   7.5 GB, and `reach`, `simulate` and `play` grew past 6 GB and were killed).

Run: python bench/bench_board.py [--repeat N] [--size N] [--skip-commands]   (prints figures and ratios;
no assertions)
"""

from __future__ import annotations

import argparse
import base64
import os
import struct
import subprocess
import sys
import tempfile
import time
import tracemalloc
import zlib
from pathlib import Path

import numpy as np
from timing import median_seconds  # bench/timing.py

from battlemat.core import movement
from battlemat.core.board import Board
from battlemat.core.movement import kernel
from battlemat.io.tiled import load_map, pytmx  # pytmx imported headless (no pygame)

ROOT = Path(__file__).resolve().parent.parent
SIZE = 100
TILES = ["floor", "wall", "rubble", "stairs", "pit", "statue", "underbrush", "grass"]


def write_fixture(folder: Path, seed: int = 1) -> Path:
    rng = np.random.default_rng(seed)
    tsx = folder / "bench.tsx"
    tiles = "".join(f'<tile id="{i}" type="{name}"/>' for i, name in enumerate(TILES))
    tiles += ('<tile id="8"><properties><property name="level" type="int" value="1"/>'
              '<property name="cover" type="int" value="1"/></properties></tile>')
    tsx.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<tileset version="1.8" name="bench" tilewidth="32" '
                   f'tileheight="32" tilecount="9" columns="0">{tiles}</tileset>\n')

    def layer(lid: int, name: str, gids: np.ndarray) -> str:
        raw = b"".join(struct.pack("<I", int(g)) for g in gids.ravel())
        data = base64.b64encode(zlib.compress(raw)).decode()
        return (f'<layer id="{lid}" name="{name}" width="{SIZE}" height="{SIZE}">'
                f'<data encoding="base64" compression="zlib">{data}</data></layer>')

    ground = rng.choice([1, 8], size=(SIZE, SIZE), p=[0.7, 0.3])
    features = np.where(rng.random((SIZE, SIZE)) < 0.25, rng.integers(2, 8, (SIZE, SIZE)), 0)
    features |= np.where(rng.random((SIZE, SIZE)) < 0.02, 0x80000000, 0)  # some flipped tiles
    features[features == 0x80000000] = 0
    high = np.where(rng.random((SIZE, SIZE)) < 0.05, 9, 0)
    objects = "".join(f'<object id="{i + 1}" name="area{i}" x="{32 * i * 3}" y="{32 * i * 2}" width="96" height="64">'
                      f'<properties><property name="difficult" type="bool" value="true"/></properties></object>'
                      for i in range(20))
    tokens = "".join(f'<object id="{100 + i}" name="c{i}" x="{32 * i + 4}" y="{32 * (i % 50) + 4}" width="24" '
                     f'height="24"><ellipse/></object>' for i in range(30))
    path = folder / "bench.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.8" orientation="orthogonal" renderorder="right-down" width="{SIZE}" height="{SIZE}" '
        'tilewidth="32" tileheight="32" infinite="0" nextlayerid="6" nextobjectid="200">'
        '<tileset firstgid="1" source="bench.tsx"/>'
        + layer(1, "ground", ground) + layer(2, "features", features) + layer(3, "high", high)
        + f'<objectgroup id="4" name="terrain">{objects}</objectgroup>'
        + f'<objectgroup id="5" name="tokens">{tokens}</objectgroup></map>\n'
    )
    return path


def write_big_fixture(folder: Path, size: int = 1000, seed: int = 7) -> Path:
    """A size x size map drawn with the bundled tileset (one zlib tile layer: grass, walls, rubble,
    pits, traps, raised ridges with stairs) and an encounter on it: two heroes and two monsters in
    the middle, with AI, and one scripted turn (a move and a charge). Returns the encounter."""
    rng = np.random.default_rng(seed)
    # gids of maps/battlemat.tsx: grass 6, ridge 11 (level 1), wall 15, pit 16, trap 17, stairs 20, rubble 33
    g = np.full((size, size), 6, np.uint32)
    roll = rng.random((size, size))
    g[roll < 0.08] = 15
    g[(roll >= 0.08) & (roll < 0.12)] = 33
    g[(roll >= 0.12) & (roll < 0.13)] = 16
    for _ in range(size * size // 2500):  # raised ridges, each with stairs on its south edge
        x, y = (int(v) for v in rng.integers(0, size - 16, 2))
        w, h = (int(v) for v in rng.integers(3, 15, 2))
        g[y:y + h, x:x + w] = 11
        g[y + h - 1, x + w // 2] = 20
    g[roll > 0.9995] = 17
    c = size // 2
    g[c - 5:c + 5, c - 5:c + 5] = 6  # open ground where they meet
    tileset = (ROOT / "maps" / "battlemat.tsx").read_text()
    image = (ROOT / "assets" / "tiles" / "battlemat.png").resolve()
    tileset = tileset.replace('source="../assets/tiles/battlemat.png"', f'source="{image}"')
    (folder / "battlemat.tsx").write_text(tileset)
    data = base64.b64encode(zlib.compress(g.astype("<u4").tobytes())).decode()
    (folder / "big.tmx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.8" orientation="orthogonal" renderorder="right-down" width="{size}" height="{size}" '
        'tilewidth="32" tileheight="32" infinite="0" nextlayerid="2" nextobjectid="1">'
        '<tileset firstgid="1" source="battlemat.tsx"/>'
        f'<layer id="1" name="ground" width="{size}" height="{size}">'
        f'<data encoding="base64" compression="zlib">{data}</data></layer></map>\n')
    people = [("a", "heroes", '"Melee/Press" = 3, "Block/Dodge" = 3, "Acrobatics/Climb" = 2', (c - 2, c), "brawler"),
              ("b", "heroes", '"Shoot/Throw" = 3, "Block/Dodge" = 2', (c - 3, c + 1), "archer"),
              ("x", "monsters", '"Melee/Press" = 3, "Block/Dodge" = 2', (c + 3, c), "brawler"),
              ("y", "monsters", '"Melee/Press" = 2, "Block/Dodge" = 2', (c + 4, c + 2), "skirmisher")]
    chars = "".join(f'[[character]]\nid = "{i}"\nside = "{side}"\nskills = {{ {skills} }}\nat = [{x}, {y}]\n'
                    f'ai = "{ai}"\n' for i, side, skills, (x, y), ai in people)
    path = folder / "big.toml"
    path.write_text(f'[encounter]\ntitle = "big"\nmap = "big.tmx"\nseed = 1\n{chars}'
                    f'[[turn]]\n[[turn.intent]]\nwho = "a"\nuse = "Exit"\nto = [{c - 4}, {c}]\n'
                    '[[turn.intent]]\nwho = "x"\nuse = "Press"\ntarget = "a"\n')
    return path


def grid_bytes(size: int) -> dict[str, float]:
    """Bytes a square of each part of the movement grid of a size x size board, traced as they are built."""
    rng = np.random.default_rng(size)
    roll = rng.random((size, size))
    board = Board(size, size, blocked=roll < 0.1, difficult=(roll >= 0.1) & (roll < 0.2),
                  level=(rng.random((size, size)) < 0.05).astype(np.int16))
    n = size * size
    out = {"board terrain arrays (baseline)": sum(
        getattr(board, name).nbytes for name in ("blocked", "difficult", "difficult_dirs", "level", "opaque", "cover",
                                                 "pit", "hazard", "feature")) / n}
    steps = [("movement grid tables", lambda: movement.grid(board)),
             ("compiled search tables", lambda: kernel.tables(movement.grid(board))),
             ("walking weights + one walk", lambda: movement.walk_field(board, "alternating", (size // 2, size // 2)))]
    kernel.warm_up()
    movement.walk_field(Board(3, 3), "alternating", (0, 0))  # compiled before tracing
    tracemalloc.start()
    for name, step in steps:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        step()
        now, peak = tracemalloc.get_traced_memory()
        out[name] = (now - before) / n
        out[name + " (peak while built)"] = (peak - before) / n
    tracemalloc.stop()
    return out


def peak_rss(args: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(peak RSS in MB, seconds, exit code) of one battlemat command in a subprocess. The peak is the
    process's own high-water mark (VmHWM), read as it ends: getrusage's would count this process's
    memory at the fork."""
    code = ("import sys\nfrom battlemat.cli import main\nrc = main(sys.argv[1:])\n"
            "print(open('/proc/self/status').read().split('VmHWM:')[1].split()[0], file=sys.stderr)\nsys.exit(rc)")
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    return (int(last) / 1024 if last.isdigit() else float("nan")), seconds, done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--size", type=int, default=1000, help="side of the huge map (parts 2 and 3)")
    parser.add_argument("--skip-commands", action="store_true", help="skip part 3 (about a minute)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = write_fixture(Path(tmp))
        board, info = load_map(path)
        assert board.blocked.any() and len(board.tokens) == 30 and len(info.layers) == 5
        base = median_seconds(lambda: pytmx.TiledMap(str(path)), args.repeat)
        ours = median_seconds(lambda: load_map(path), args.repeat)
    print(f"1. map: {SIZE}x{SIZE}, 3 tile layers (zlib), external tileset, 20 terrain areas, 30 tokens")
    print(f"pytmx.TiledMap (baseline): median {base * 1000:8.2f} ms over {args.repeat} runs")
    print(f"battlemat load_map (ours): median {ours * 1000:8.2f} ms over {args.repeat} runs")
    print(f"ratio ours / baseline:     {ours / base:8.2f}  (goal <= 2)")
    print("\n2. movement grid, bytes a square (tracemalloc), and ratio to the board's own terrain arrays")
    for size in (100, args.size):
        got = grid_bytes(size)
        baseline = got["board terrain arrays (baseline)"]
        print(f"  {size}x{size}:")
        for name, per in got.items():
            print(f"    {name:44s} {per:8.1f} B/square   x{per / baseline:5.2f}")
        kept = sum(v for k, v in got.items() if "peak" not in k and "baseline" not in k)
        print(f"    {'all of it, kept':44s} {kept:8.1f} B/square   x{kept / baseline:5.2f}"
              f"   ({kept * size * size / 2 ** 20:.0f} MB; before issue 15 about 6900 B/square)")
    if args.skip_commands:
        return 0
    print(f"\n3. peak RSS of commands on a {args.size}x{args.size} map, each in a subprocess (goal: <= 1024 MB)")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    with tempfile.TemporaryDirectory() as tmp:
        enc = str(write_big_fixture(Path(tmp), args.size))
        commands = [("check (baseline: reading the map)", ["check", enc]),
                    ("reach --who a --use Exit", ["reach", enc, "--who", "a", "--use", "Exit"]),
                    ("resolve (one turn)", ["resolve", enc]),
                    ("simulate --runs 2", ["simulate", enc, "--runs", "2"]),
                    ("play, one frame (headless)", ["play", enc, "--screenshot", str(Path(tmp) / "shot.png"),
                                                    "--frames", "1"])]
        baseline = 0.0
        for name, cmd in commands:
            mb, seconds, rc = peak_rss(cmd, env)
            baseline = baseline or mb
            status = "" if rc == 0 else f"   (exit {rc})"
            print(f"  {name:36s} {mb:8.0f} MB   x{mb / baseline:5.2f} of check   {seconds:6.1f} s{status}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
