"""Shared test helpers. Window tests run headless (SDL_VIDEODRIVER=dummy)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

from battlemat.core.events import Event  # noqa: E402
from battlemat.core.match import Match  # noqa: E402
from battlemat.io.encounter import load_encounter, parse_encounter  # noqa: E402

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
