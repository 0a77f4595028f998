"""Benchmark: loading a Tiled map into a Board vs pytmx's bare parse of the same file (DESIGN: quality bars).

A 100x100 map with three tile layers (zlib-compressed base64, the format Tiled saves by default),
an external tileset whose tiles carry terrain classes and properties, a `terrain` object layer and
a `tokens` layer is generated into a temporary folder. Timed, in the same run:

- baseline: `pytmx.TiledMap(path)`, pytmx's own parse with its default image loader;
- ours: `battlemat.io.tiled.load_map(path)`: defusedxml parse, size bound, bounded inflation,
  tilesets embedded, pytmx's parse of the prepared tree, then the terrain arrays and tokens.

The ratio ours / baseline is what the safety and the terrain cost on top of pytmx. Goal: <= 2.

Run: python bench/bench_board.py [--repeat N]   (prints both medians and the ratio; no assertions)
"""

from __future__ import annotations

import argparse
import base64
import struct
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np
from timing import median_seconds  # bench/timing.py

from battlemat.io.tiled import load_map, pytmx  # pytmx imported headless (no pygame)

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = write_fixture(Path(tmp))
        board, info = load_map(path)
        assert board.blocked.any() and len(board.tokens) == 30 and len(info.layers) == 5
        base = median_seconds(lambda: pytmx.TiledMap(str(path)), args.repeat)
        ours = median_seconds(lambda: load_map(path), args.repeat)
    print(f"map: {SIZE}x{SIZE}, 3 tile layers (zlib), external tileset, 20 terrain areas, 30 tokens")
    print(f"pytmx.TiledMap (baseline): median {base * 1000:8.2f} ms over {args.repeat} runs")
    print(f"battlemat load_map (ours): median {ours * 1000:8.2f} ms over {args.repeat} runs")
    print(f"ratio ours / baseline:     {ours / base:8.2f}  (goal <= 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
