"""The log is the teaching record (issue 16, items 6, 7, 9, 10, 11): it never goes silent or misleads.

- every house rule that decides an outcome is marked `[house]` in the text log and `"house": true` in
  the JSON, the tag read from the rules data;
- every declared intent ends in an event: performed, or refused/failed with its reason and rule ID;
- a losses line gives this turn's losses and the running total; a Wonder advance is logged in P2;
- `check` refuses empty or duplicate display names;
- docs/RULINGS.md is generated from the rules data and kept in sync.
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from conftest import ROOT, act, char, of, play_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battlemat.ai import Brain
from battlemat.core.encounter import Encounter
from battlemat.core.errors import IllegalIntent
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.core.resolver import validate_intent
from battlemat.core.state import MatchState
from battlemat.io.encounter import load_encounter
from battlemat.log import format_event

BUNDLED = ("art_gallery", "forest_ambush", "boulder_field", "bridge_hex")


def lines(events: list[Event]) -> list[str]:
    return [s for s in (format_event(e) for e in events) if s]


def involved(cid: str, ev: Event) -> bool:
    d = ev.data
    who = d.get("who")
    return (who == cid or (isinstance(who, list) and cid in who) or cid in (d.get("attackers") or ())
            or cid in (d.get("defenders") or ()) or cid in (d.get("searchers") or ()))


# -- item 7: every declared intent ends in an event ---------------------------------------------------
def _refusal(ev: Event, it: Intent) -> bool:
    """A `no_effect` about this intent: its character, its skill, a reason and a rule ID."""
    d = ev.data
    return (ev.type == "no_effect" and involved(it.who, ev) and d.get("use") == it.use and bool(ev.rules)
            and bool(d.get("reason")))


def _moved(it: Intent, before: MatchState, mine: list[Event]) -> list[str]:
    start = before[it.who].at
    dest = it.to if it.to is not None else (it.path[-1] if it.path else None)
    if dest is None or start is None or tuple(dest) == tuple(start):
        return []
    if any(e.type in ("stopped", "collided") or _refusal(e, it) for e in mine):
        return []  # cut short, with where and why
    if any(e.type == "moved" and tuple(e.data["to"]) == tuple(dest) for e in mine):
        return []  # got there
    return [f"{it.who}: declared move to {tuple(dest)} neither gets there nor says why not"]


def _attacked(it: Intent, mine: list[Event]) -> list[str]:
    out = []
    done = any(e.type == "contest" and ((it.who in e.data["attackers"] and it.target in e.data["defenders"])
                                        or (it.who in e.data["defenders"] and it.target in e.data["attackers"]))
               for e in mine)
    if not done and not any(_refusal(e, it) and e.data.get("target") == it.target for e in mine):
        out.append(f"{it.who}: {it.use} on {it.target} has no contest and no refusal")
    for extra in it.also:
        hit = any(e.type == "contest" and e.data.get("kind") == "secondary" and extra in e.data["defenders"]
                  for e in mine)
        if not hit and not any(_refusal(e, it) and e.data.get("target") == extra for e in mine):
            out.append(f"{it.who}: secondary target {extra} has no contest and no refusal")
    return out


def _came_of(kind: str, it: Intent, mine: list[Event]) -> bool:
    """Whether `mine` says what came of an intent whose half acts as `kind` (rules data `act`)."""
    if any(_refusal(e, it) for e in mine):
        return True
    if kind == "advance":
        return any(e.type == "advantage" and "O5" in e.rules for e in mine)
    if kind == "defend":
        return any(e.type == "contest" and it.who in e.data["defenders"] for e in mine)
    if kind == "flee":
        return any(e.type in ("fled", "defeated") for e in mine)
    if kind == "observe":
        return any(e.type == "check" for e in mine)
    if kind in ("search", "hide"):
        return any(e.type in ("found", "hidden") for e in mine)
    if kind == "item":
        return any(e.type == "item_used" for e in mine)
    return True  # `none`: the intent line is the record


def missing_outcomes(enc: Encounter, before: MatchState, intents: list[Intent], events: tuple[Event, ...]) -> list[str]:
    """What of each declared intent has no event saying what came of it (empty: nothing is silent)."""
    out: list[str] = []
    quiet = ("turn_start", "phase", "intent", "turn_end")
    for it in intents:
        half = enc.rules.halves[it.use]
        mine = [e for e in events if e.type not in quiet and involved(it.who, e)]
        out += _moved(it, before, mine)
        if half.act == "attack" and it.target is not None:
            out += _attacked(it, mine)
            continue
        kind = half.untargeted if half.act == "attack" else half.act
        if kind == "observe" and it.target is None:
            kind = "search" if it.use == "Perception" else "none"
        if not _came_of(kind, it, mine):
            out.append(f"{it.who}: {it.use} ({kind}) has no event saying what came of it")
    for e in events:
        assert e.type != "no_effect" or e.rules, f"a refusal without a rule ID: {e.text}"
    return out


@functools.cache
def bundled(name: str) -> Encounter:
    return load_encounter(ROOT / "maps" / f"{name}.toml")


def random_intent(enc: Encounter, state: MatchState, cid: str, rng: random.Random) -> Intent | None:
    """A random legal intent for `cid` (or None): any half, any target, any square within 4."""
    rules = enc.rules
    halves = [h for h in rules.halves if h != "item"] + ["item"]
    others = [c.id for c in enc.characters if c.id != cid and state[c.id].active]
    me = state[cid]
    for _ in range(12):
        use = rng.choice(halves)
        half = rules.halves[use]
        target = rng.choice(others) if others and rng.random() < 0.85 else None
        also: tuple[str, ...] = ()
        if half.sweeps and enc.by_id[cid].talent(half.pair) and others:
            also = tuple(c for c in rng.sample(others, min(len(others), 1)) if c != target)
        to = None
        if me.at is not None and rng.random() < 0.6:
            to = (me.at[0] + rng.randint(-4, 4), me.at[1] + rng.randint(-4, 4))
        for attempt in (Intent(cid, use, target, also, to=to), Intent(cid, use, target, also),
                        Intent(cid, use, target)):
            try:
                return validate_intent(enc, state, attempt)
            except IllegalIntent:
                continue
    return None


def audit(match: Match, intents: list[Intent]) -> list[str]:
    before = match.state
    events = match.play(intents)
    return missing_outcomes(match.encounter, before, intents, events)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(BUNDLED), seed=st.integers(0, 10_000), turns=st.integers(1, 4),
       mix=st.floats(0.0, 1.0))
def test_every_declared_intent_ends_in_an_event(name: str, seed: int, turns: int, mix: float) -> None:
    """Item 7: for AI-made and random legal intents on the bundled encounters, every declared intent's
    character has an event saying what came of it: performed, or a refusal with its reason and rule."""
    enc = bundled(name)
    match = Match(enc, seed=seed)
    brain = Brain(enc, match.memory)
    rng = random.Random(seed)
    for _ in range(turns):
        if match.outcome().over:
            break
        ai = {i.who: i for i in brain.decide(match.state, rng)}
        intents = []
        for c in enc.characters:
            if not match.state[c.id].active:
                continue
            it = random_intent(enc, match.state, c.id, rng) if rng.random() < mix else ai.get(c.id)
            if it is not None:
                intents.append(it)
        assert audit(match, intents) == []


def test_P4_attacker_felled_in_P3_says_its_attack_does_not_happen() -> None:
    """Item 7: the attacker fell in P3 before its P4 attack."""
    _, events = play_data(
        [char("archer", "x", skills={"Shoot": 6}), char("brute", "y", skills={"Melee": 2}),
         char("knight", "x", skills={"Block": 2}), char("foe2", "y", skills={"Melee": 1})],
        [[act("archer", "Shoot", "brute"), act("brute", "Press", "knight"), act("knight", "Block", "brute"),
          act("foe2", "item")]],
        rules={"deadly_defeats_after": 2},
    )
    (fell,) = [e for e in of(events, "no_effect") if e.data.get("who") == "brute"]
    assert fell.phase == "P4" and fell.data["use"] == "Press" and fell.data["reason"]
    assert "defeated" in fell.text and "P3" in fell.text


def test_attack_on_a_target_already_defeated_says_so() -> None:
    _, events = play_data(
        [char("a", "x", skills={"Shoot": 8}), char("b", "x", skills={"Melee": 3}), char("c", "y", skills={"Melee": 1})],
        [[act("a", "Shoot", "c"), act("b", "Melee", "c")]],
    )
    (gone,) = [e for e in of(events, "no_effect") if e.data.get("who") == "b"]
    assert "defeated" in gone.text and gone.data["target"] == "c"


def test_untested_block_says_nobody_attacked() -> None:
    _, events = play_data(
        [char("a", "x", skills={"Block": 3}), char("b", "y", skills={"Melee": 3})],
        [[act("a", "Block", "b"), act("b", "Dodge")]],
    )
    untested = [e for e in of(events, "no_effect") if e.data.get("who") in ("a", "b")]
    assert {e.data["who"] for e in untested} == {"a", "b"}
    assert all("no attack" in e.text for e in untested)


def test_secondary_target_already_down_says_so_C7() -> None:
    _, events = play_data(
        [char("archer", "x", skills={"Shoot": 8}), char("sw", "x", skills={"Melee": 4}, talents={"Melee": 1}),
         char("f1", "y", skills={"Melee": 1}), char("f2", "y", skills={"Melee": 1})],
        [[act("archer", "Shoot", "f2"), act("sw", "Melee", "f1", also=["f2"])]],
    )
    assert [e for e in of(events, "no_effect") if e.data.get("who") == "sw" and e.data.get("target") == "f2"]


# -- item 6: house rules marked in the log and the JSON -------------------------------------------------
def test_house_rules_marked_in_log_and_json() -> None:
    """Item 6: a C3 tie decided by the house switch is marked [house] in the text log and carries
    "house": true with the switch in --json; a core outcome carries neither."""
    _, events = play_data(
        [char("a", "x", skills={"Melee": 3}), char("b", "y", skills={"Melee": 3})],
        [[act("a", "Melee", "b"), act("b", "Melee", "a")]],
    )
    (tie,) = of(events, "no_effect")
    assert "[house]" in format_event(tie)  # type: ignore[operator]
    d = json.loads(json.dumps(tie.to_dict()))
    assert d["house"] is True
    assert {"rule": "C3", "switch": "mutual_tie_both_succeed", "value": False} in d["house_rules"]
    (contest,) = of(events, "contest")
    assert "house" not in contest.to_dict() and "[house]" not in format_event(contest)  # type: ignore[operator]


HOUSE_CASES = [
    # (name, characters, one turn of intents, rules, event type, expected house rule IDs)
    ("S7_group_of_three", [char("a", "x", skills={"Melee": 3}), char("b", "x", skills={"Melee": 2}),
                           char("c", "x", skills={"Melee": 2}), char("d", "y", skills={"Block": 4})],
     [act("a", "Melee", "d"), act("b", "Melee", "d"), act("c", "Melee", "d"), act("d", "Block", "a")],
     {}, "contest", {"S7"}),
    ("S5_quality_sets_the_bonus", [char("a", "x", skills={"Melee": 3}, equipment=[
        {"name": "enchanted sword", "skill": "Melee", "quality": "enchanted"}]), char("b", "y", skills={"Block": 3})],
     [act("a", "Melee", "b"), act("b", "Block", "a")], {}, "contest", {"S5"}),
    ("S8_provoke_vs_press", [char("a", "x", skills={"Provoke": 3}), char("b", "y", skills={"Press": 3})],
     [act("a", "Provoke", "b"), act("b", "Press", "a")], {}, "contest", {"S8"}),
    ("O1_default_target_number", [char("a", "x", skills={"Lore": 5}), char("b", "y", skills={"Melee": 1})],
     [act("a", "Lore", "b")], {}, "check", {"O1"}),
    ("O4_tie_keeps_hider_hidden", [char("a", "x", skills={"Stealth": 3}),
                                   char("b", "y", skills={"Perception": 3})],
     [act("a", "Stealth", "b"), act("b", "Perception")], {}, "hidden", {"O4"}),
    ("C5_defender_out_rates_attacker", [char("a", "x", skills={"Shoot": 1}), char("b", "y", skills={"Shoot": 6}),
                                        char("c", "x", skills={"Melee": 1})],
     [act("a", "Shoot", "b"), act("b", "Shoot", "c")], {}, "contest", {"C5"}),
    ("C5_exit_leaves_the_conflict", [char("a", "x", skills={"Exit": 3}), char("b", "y", skills={"Melee": 1})],
     [act("a", "Exit")], {}, "fled", {"C5"}),
]


@pytest.mark.parametrize("name,chars,intents,rules,kind,expected", HOUSE_CASES, ids=[c[0] for c in HOUSE_CASES])
def test_house_rule_marks_come_from_the_rules_data(name, chars, intents, rules, kind, expected) -> None:
    _, events = play_data(chars, [intents], rules=rules or None)
    evs = [e for e in of(events, kind) if e.data.get("house")]
    assert evs, [e.text for e in of(events, kind)]
    marked = {h["rule"] for e in evs for h in e.data["house_rules"]}
    assert expected <= marked
    assert all("[house]" in (format_event(e) or "") for e in evs)


def test_L5_major_loss_penalty_on_every_skill_is_marked_house() -> None:
    _, events = play_data(
        [char("a", "x", skills={"Shoot": 5}), char("b", "y", skills={"Block": 2})],
        [[act("a", "Shoot", "b"), act("b", "Block", "a")], [act("a", "Shoot", "b"), act("b", "Block", "a")]],
    )
    first, second = of(events, "contest")
    assert "house" not in first.data
    assert {"rule": "L5", "switch": "major_loss_penalty", "value": "skills"} in second.data["house_rules"]
    assert "[house] L5 major_loss_penalty = skills" in (format_event(second) or "")


def test_house_marks_follow_the_data_not_the_code() -> None:
    """The tag is read from the rules data: a group of 2 or 4 is the text's own bonus (core), a group of 3
    is the table's house value; a GM's changed table is house at every size."""
    def marked(n: int, rules: dict | None = None) -> bool:
        chars = [char(f"a{i}", "x", skills={"Melee": 2}) for i in range(n)] + [char("d", "y", skills={"Block": 8})]
        intents = [act(f"a{i}", "Melee", "d") for i in range(n)] + [act("d", "Block", "a0")]
        _, events = play_data(chars, [intents], rules=rules)
        (c,) = of(events, "contest")
        return any(h["rule"] == "S7" for h in c.data.get("house_rules", ()))

    assert not marked(2) and marked(3) and not marked(4) and not marked(6)
    assert marked(2, {"group_table": [0, 0, 2, 2, 2, 3]})


# -- item 9: losses this turn and in all; the Wonder advance in P2 --------------------------------------
def test_losses_line_shows_turn_and_total_L1() -> None:
    _, events = play_data(
        [char("a", "x", skills={"Shoot": 3}), char("b", "y", skills={"Block": 1})],
        [[act("a", "Shoot", "b"), act("b", "Block", "a")], [act("a", "Shoot", "b"), act("b", "Block", "a")]],
    )
    first, second = of(events, "losses")
    assert "suffers 2 losses" in first.text and "(now 2 minor, 0 major)" in first.text
    assert "suffers 2 losses" in second.text and "(now 2 minor, 2 major)" in second.text
    assert "both major" in second.text
    assert second.data["n"] == 2 and second.data["minor"] == 2 and second.data["major"] == 2
    assert second.data["new_minor"] == 0 and second.data["new_major"] == 2


def test_wonder_advance_logged_in_P2_O5() -> None:
    _, events = play_data(
        [char("a", "x", skills={"Wonder": 3, "Shoot": 3}), char("b", "y", skills={"Block": 1})],
        [[act("a", "Shoot", "b"), act("b", "Block", "a")], [act("a", "Wonder"), act("b", "Block", "a")]],
    )
    (intent,) = [e for e in of(events, "intent", 2) if e.data.get("who") == "a"]
    assert intent.rules[0] == "P2" and "advance" in intent.text
    (adv,) = [e for e in of(events, "advantage", 2) if e.data["who"] == "a"]
    assert adv.phase == "P2" and adv.rules == ("O5",)
    _, quiet = play_data([char("a", "x", skills={"Wonder": 3}), char("b", "y", skills={"Melee": 3})],
                         [[act("a", "Wonder")]])
    (none,) = of(quiet, "no_effect")
    assert none.phase == "P2" and none.data["who"] == "a" and none.data["reason"]


# -- item 10: display names ------------------------------------------------------------------------------
def _check(tmp_path: Path, names: list[str | None], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from battlemat.cli import main

    body = '[encounter]\ntitle = "names"\n'
    for i, name in enumerate(names):
        body += f'[[character]]\nid = "c{i}"\nside = "s{i % 2}"\n' + (f'name = "{name}"\n' if name is not None else "")
    path = tmp_path / "names.toml"
    path.write_text(body)
    code = main(["check", str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_check_refuses_duplicate_display_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _check(tmp_path, ["Ogre", "ogre ", None], capsys)
    assert code == 2
    assert "names.toml" in out and "character[1] 'c1'.name" in out and "'ogre '" in out
    assert "character[0]" in out and "Fix:" in out
    assert _check(tmp_path, ["Ogre", None, "Troll"], capsys)[0] == 0  # a name left to its id is a name too


def test_check_refuses_empty_display_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _check(tmp_path, ["  ", "Ogre"], capsys)
    assert code == 2 and "character[0] 'c0'.name" in out and "empty" in out and "Fix:" in out


# -- item 11: the rulings document -------------------------------------------------------------------------
def test_rulings_doc_in_sync() -> None:
    """Item 11: docs/RULINGS.md is what `python tools/rulings.py` writes from the rules data."""
    from battlemat.io.rules_file import load_rules
    from battlemat.teach.rulings import render

    assert (ROOT / "docs" / "RULINGS.md").read_text() == render(load_rules())


def test_rulings_doc_lists_every_house_choice() -> None:
    """Every switch with its default, options and the gap in the text; every house-tagged entry."""
    from battlemat.io.rules_file import load_rules

    rules = load_rules()
    doc = (ROOT / "docs" / "RULINGS.md").read_text()
    for key, sw in rules.switches.items():
        assert f"`{key}`" in doc
        assert sw.gap and sw.options, key
    for rid, e in rules.entries.items():
        if e.tag == "house":
            assert f"**{rid}**" in doc
