"""The record is written when read (issue 30): a turn resolved for a search or a batch keeps every
event's structured fields, and writes its words (`Event.text`), its ratings' breakdowns
(`Rating.explain`, `Rating.to_dict`) only when the log, `--json`, the window or a lesson reads them.
The batch digest counts losses (L1) and defeats (L3) from the events' fields, never from their words."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import ROOT

from battlemat.ai import Brain, ai_stream
from battlemat.core.encounter import Encounter
from battlemat.core.events import Contest, Event
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.rating import Rating
from battlemat.core.resolver import resolve_turn
from battlemat.io.encounter import load_encounter
from battlemat.sim.runner import play_one

GALLERY = ROOT / "maps" / "art_gallery.toml"


def _refuse(*_: object, **__: object) -> str:
    raise AssertionError("the record was written though nobody read it")


@pytest.fixture
def no_words(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """Reading an event's words or writing a rating's breakdown fails the test."""
    monkeypatch.setattr(Event, "text", property(_refuse))
    monkeypatch.setattr(Rating, "explain", _refuse)
    monkeypatch.setattr(Rating, "to_dict", _refuse)
    return monkeypatch


def _mid_fight(path: Path = GALLERY) -> tuple[Encounter, Match, tuple[Intent, ...]]:
    """The art gallery (d6), seed 2, after two turns of the AI, and the AI's intents for the third."""
    enc = load_encounter(path)
    m = Match(enc, seed=2, dice="d6")
    rng = ai_stream(2)
    brain = Brain(enc, m.memory)
    for _ in range(2):
        m.play(brain.decide(m.state, rng))
    return enc, m, tuple(brain.decide(m.state, rng))


def test_a_batch_digests_fields_not_words(no_words: pytest.MonkeyPatch) -> None:
    """L1, L3: the same losses, defeats and stops with no word written as with every word read."""
    enc = load_encounter(GALLERY)
    quiet = [play_one(enc, i, 7, "d6", 30) for i in range(12)]
    no_words.undo()
    loud = [play_one(enc, i, 7, "d6", 30) for i in range(12)]
    assert quiet == loud
    assert sum(sum(r.losses_taken.values()) for r in quiet) > 0  # (losses were dealt: L1)
    assert any(r.defeat_turn for r in quiet)  # (and someone fell: L3)


def test_a_turn_for_search_writes_no_words_until_read(no_words: pytest.MonkeyPatch) -> None:
    """C2, L1: the contests and losses of a turn resolved without reading its record are the same
    events, words and breakdowns included, as those of the same turn read at once."""
    enc, m, intents = _mid_fight()
    quiet = resolve_turn(enc, m.state, intents, random.Random(5), m.dice, m.memory)
    contests = [Contest.of(ev) for ev in quiet.events if ev.type == Contest.TYPE]
    assert contests and {c.winner for c in contests} <= {"attack", "defense", "tie"}
    no_words.undo()
    loud = resolve_turn(enc, m.state, intents, random.Random(5), m.dice, m.memory)
    said = [ev.to_dict() for ev in loud.events]
    assert [ev.to_dict() for ev in quiet.events] == said
    assert quiet.events == loud.events and hash(quiet.events) == hash(loud.events)
    for ev, c in zip([ev for ev in quiet.events if ev.type == Contest.TYPE], contests, strict=True):
        assert c.attack.explain() in ev.text and ev.data["attack"] == c.attack.to_dict()  # C2: both breakdowns
