"""Shared test helpers. Window tests run headless (SDL_VIDEODRIVER=dummy)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from battlemat.core.events import Event
from battlemat.core.match import Match
from battlemat.io.encounter import load_encounter, parse_encounter

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "maps" / "examples"
SHARED = ROOT.parent / "shared"


def play_file(path: Path | str, seed: int | None = None, dice: str | None = None) -> tuple[Match, list[Event]]:
    match = Match(load_encounter(path), seed=seed, dice=dice)
    events: list[Event] = []
    for _, evs in match.play_scripted():
        events.extend(evs)
    return match, events


def play_text(toml: str, **kw: object) -> tuple[Match, list[Event]]:
    import tomllib

    enc = parse_encounter(tomllib.loads(toml), "<test>")
    match = Match(enc, **kw)  # type: ignore[arg-type]
    events: list[Event] = []
    for _, evs in match.play_scripted():
        events.extend(evs)
    return match, events


def of(events: list[Event], type_: str, turn: int | None = None) -> list[Event]:
    return [e for e in events if e.type == type_ and (turn is None or e.turn == turn)]


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


def char(cid: str, side: str, **kw: object) -> dict[str, object]:
    return {"id": cid, "side": side, **kw}


def act(who: str, use: str, target: str | None = None, **kw: object) -> dict[str, object]:
    d: dict[str, object] = {"who": who, "use": use, **kw}
    if target:
        d["target"] = target
    return d


def play_data(chars: list[dict], turns: list[list[dict]], rules: dict | None = None, **head: object):
    data = {
        "encounter": {"title": "test", **head},
        "character": chars,
        "turn": [{"intent": t} for t in turns],
    }
    if rules:
        data["rules"] = rules
    match = Match(parse_encounter(data, "<test>"))
    events: list[Event] = []
    for _, evs in match.play_scripted():
        events.extend(evs)
    return match, events


def random_board(draw, shape: tuple[str, str, str], size: int = 11, stairs: float = 0.1,  # type: ignore[no-untyped-def]
                 walls: bool = False):
    """A random board for hypothesis (`draw` is a composite strategy's): walls, difficult squares, pits,
    levels and stairs rising in random directions, on a grid of `shape` (grid, stagger axis, stagger
    index); with `walls`, wall segments between squares and doors, open, closed or locked (core.walls:
    along grid lines, and a few at any angle). Returns the board and its enterable squares (M1, M4,
    M5, M12)."""
    import numpy as np
    from hypothesis import strategies as st

    from battlemat.core.board import DIRECTIONS, Board

    w, h = draw(st.integers(2, size)), draw(st.integers(2, size))
    grid, axis, index = shape
    rng = np.random.default_rng(draw(st.integers(0, 100_000)))
    roll = rng.random((h, w))
    levels = rng.integers(0, 3, (h, w)).astype(np.int16) * (rng.random((h, w)) < 0.3)
    dirs = np.where(rng.random((h, w)) < stairs, rng.choice(list(DIRECTIONS.values()), (h, w)), 0).astype(np.uint8)
    board = Board(w, h, grid, stagger_axis=axis, stagger_index=index, blocked=roll < 0.12,
                  difficult=(roll >= 0.12) & (roll < 0.25), pit=(roll >= 0.25) & (roll < 0.3),
                  level=levels, difficult_dirs=dirs, **(random_walls(rng, w, h) if walls else {}))
    return board, [(x, y) for y in range(h) for x in range(w) if board.enterable((x, y))]


def random_walls(rng, w: int, h: int) -> dict:  # type: ignore[no-untyped-def]
    """Walls and doors for `random_board`: unit pieces along grid lines (some joined into longer runs,
    so their ends meet at corners) and a few segments at any angle; doors of each state."""
    from battlemat.core.walls import Door, Wall

    pieces = []
    for _ in range(int(rng.integers(0, 3 + w * h // 8))):
        x, y = int(rng.integers(0, w + 1)), int(rng.integers(0, h + 1))
        if rng.random() < 0.5:
            pieces.append(Wall(x, y, x + int(rng.integers(1, 3)), y))
        else:
            pieces.append(Wall(x, y, x, y + int(rng.integers(1, 3))))
    for _ in range(int(rng.integers(0, 3))):
        x, y = rng.random() * w, rng.random() * h
        pieces.append(Wall(x, y, x + rng.normal() * 2, y + rng.normal() * 2))
    doors = []
    for i in range(int(rng.integers(0, 4))):
        x, y = int(rng.integers(0, w + 1)), int(rng.integers(0, h + 1))
        seg = Wall(x, y, x + 1, y) if rng.random() < 0.5 else Wall(x, y, x, y + 1)
        doors.append(Door(f"d{i}", seg, str(rng.choice(["open", "closed", "closed", "locked"]))))
    return {"walls": tuple(pieces), "doors": tuple(doors)}


@pytest.fixture
def app(tmp_path: Path):
    """The play window on the default encounter, two frames in, driven by real input events
    (tests/test_ui.py's helpers); closed after the test."""
    from test_ui import make_app, ticks

    a = make_app(tmp_path)
    ticks(a, 2)
    yield a
    a.close()
