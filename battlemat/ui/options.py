"""The window's options, read once from the command line: `PlayOptions.from_namespace(args)`.

`battlemat play` (and `battlemat learn`, which adds the lesson) parse their arguments with argparse;
`battlemat.ui.app.run(args)` turns the Namespace into this one typed value, and the window reads only
it. Never imports pygame.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (the lessons import the whole core: every command would pay for it at start-up)
    from battlemat.teach.tutor import Lesson

DEFAULT_SIZE = (1280, 800)


def window_size(text: str | None) -> tuple[int, int]:
    """--size WIDTHxHEIGHT as a window size (at least 800x600); the default without one."""
    if not text:
        return DEFAULT_SIZE
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"battlemat: --size is WIDTHxHEIGHT like 1280x800, not {text!r}") from None
    return max(800, w), max(600, h)


@dataclass(frozen=True)
class PlayOptions:
    """What `battlemat play` was asked: the encounter or save, the window, a headless screenshot and
    what it shows, the table's sides and where files go. `lesson`: `battlemat learn`'s lesson, read
    already."""

    encounter: str | None = None
    load: str | None = None  # --load SAVE, --replay SAVE, or an encounter argument that is a save (.json)
    replay: bool = False
    lesson: Lesson | None = None
    seed: int | None = None
    dice: str | None = None
    sides: tuple[str, ...] = ()
    save_dir: Path = field(default_factory=lambda: Path.home() / ".battlemat")
    size: tuple[int, int] = DEFAULT_SIZE
    screenshot: str | None = None  # render headless, save a PNG here and exit
    frames: int = 3
    select: str | None = None
    use: str | None = None
    target: str | None = None
    gm: bool = False
    predict: bool = False
    overlay: str | None = None
    players_window: bool = False  # open the players' window (players_window.py)
    view: str | None = None  # the side it shows (and a --screenshot's), else the table's
    think_ms: float | None = None  # the search's cap per NPC character (the K key; ui/difficulty.py)

    @classmethod
    def from_namespace(cls, args: argparse.Namespace) -> PlayOptions:
        """The options of a parsed command line; an option its parser does not define keeps its default
        (`battlemat learn` and the benchmarks give fewer)."""
        given = vars(args)
        encounter = given.get("encounter")
        load = given.get("load") or given.get("replay")
        if encounter and str(encounter).endswith(".json"):
            load = encounter
        frames = given.get("frames", 3)
        return cls(
            encounter=str(encounter) if encounter else None,
            load=str(load) if load else None,
            replay=bool(given.get("replay")),
            lesson=given.get("lesson"),
            seed=given.get("seed"),
            dice=given.get("dice"),
            sides=tuple(given.get("side") or ()),
            save_dir=Path(given.get("save_dir") or Path.home() / ".battlemat"),
            size=window_size(given.get("size")),
            screenshot=given.get("screenshot") or None,
            frames=max(1, int(frames or 1)),
            select=given.get("select"),
            use=given.get("use"),
            target=given.get("target"),
            gm=bool(given.get("gm")),
            predict=bool(given.get("predict")),
            overlay=given.get("overlay"),
            players_window=bool(given.get("players_window")),
            view=given.get("view"),
            think_ms=given.get("think_ms"),
        )
