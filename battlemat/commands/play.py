"""`battlemat play [ENCOUNTER] [options]` (and `python main.py`): the window on an encounter.

The window (battlemat.ui.app) is the `ui` extra; without it (no pygame), `play` resolves the encounter
headless and prints its log, as `resolve` does.
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

from battlemat.commands import resolve
from battlemat.commands.args import add_play_arguments

DEFAULT_ENCOUNTER = Path(__file__).resolve().parents[2] / "maps" / "art_gallery.toml"


def add_arguments(pl: argparse.ArgumentParser) -> None:
    pl.add_argument("encounter", nargs="?", default=None)
    if importlib.util.find_spec("battlemat.ui.app") is not None:
        add_play_arguments(pl)


def run(args: argparse.Namespace) -> int:
    try:
        from battlemat.ui.app import run as window  # noqa: PLC0415 - optional dependency: pygame (the ui extra)
    except ModuleNotFoundError as exc:
        if exc.name not in ("battlemat.ui.app", "pygame", "pygame_gui"):
            raise
        ns = argparse.Namespace(encounter=args.encounter or str(DEFAULT_ENCOUNTER), json=False, seed=None, dice=None)
        return resolve.run(ns)
    return int(window(args))
