"""`battlemat prepare [--quiet]`: compile the movement search now (numba keeps it in the user's cache).

The first search after an install compiles the reach search and the walking distances (many seconds
on a busy machine); later ones load them in a fraction of a second. The play window runs this command
in a process of its own on every launch while its board is already usable (the reference search
answers meanwhile: battlemat.core.movement.search.warming), and anyone may run it once after
installing. It says where the compiled code is kept and how long it took.
"""

from __future__ import annotations

import argparse
import os
import time


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", action="store_true", help="print nothing")
    p.add_argument("--background", action="store_true",
                   help="run at a low priority (the window's own preparation: its set-up goes first)")


def run(args: argparse.Namespace) -> int:
    t0 = time.monotonic()
    if args.background and hasattr(os, "nice"):
        os.nice(10)
    if not args.quiet:
        print("preparing the movement search (compiled once, then loaded from the cache)...", flush=True)
    from battlemat.core.movement import kernel  # noqa: PLC0415 - start-up time: numba is imported here only

    if not kernel.AVAILABLE:
        if not args.quiet:
            print("numba is not installed: battlemat uses its Python search (slower, same answers)")
        return 0
    kernel.warm_up()
    if not args.quiet:
        print(f"ready in {time.monotonic() - t0:.1f} s; kept in {os.environ.get('NUMBA_CACHE_DIR', '')}")
    return 0
