"""`battlemat annotate MAP -o OUT.tmx [--force]`: the terrain battlemat understood, written back.

A copy of the map gets battlemat's own terrain layer (the object layer `terrain`, hidden) holding
what battlemat read from the map's conventions, mapping and properties, so the game master opens the
copy in Tiled, shows the layer and corrects it; the rest of the map is the original's text
(`battlemat.io.tiled.annotate`). battlemat reading the copy gets the same board, and this is checked
before the copy is kept. An existing output is replaced only with --force; the input never is.
"""

from __future__ import annotations

import argparse
import sys

from battlemat.io.tiled.annotate import annotate_map


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("map", metavar="MAP", help="the map to read (.tmx)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.tmx",
                        help="the copy to write (never the map itself)")
    parser.add_argument("--force", action="store_true", help="replace OUT.tmx when it exists")


def run(args: argparse.Namespace) -> int:
    done = annotate_map(args.map, args.output, force=args.force)
    print(f"wrote {done.out}: the terrain of {done.board.width}x{done.board.height} squares as {done.rectangles} "
          f"rectangle{'s' * (done.rectangles != 1)} over {done.squares} square{'s' * (done.squares != 1)} in the "
          f"hidden object layer 'terrain' (show it in Tiled with the layer's eye; battlemat reads it either way)",
          file=sys.stdout)
    return 0
