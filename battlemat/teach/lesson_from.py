"""A lesson skeleton from a saved game (`battlemat lesson-from SAVE [-o FILE]`, issue 19).

One step per saved turn: the intents of the learner's side as the step's expected ones, the other
sides' as its scripted NPC intents, the turn's most decisive events that cite a rule as the ones to
point at (defeats, stops, blocked sight before losses, contests and moves), and
placeholder words for the game master to replace. Headless: it never imports the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from battlemat.core.errors import BattlematError
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.match import Match
from battlemat.io.lessons import read_lesson_encounter
from battlemat.io.saves import encounter_problem, gm_doors, read_save, replay_problem
from battlemat.io.toml_write import relative_path, toml_value
from battlemat.log import describe_intent
from battlemat.teach.tutor import concerned

PLACEHOLDER = "(Write what to try.)"
SKIPPED = frozenset({"turn_start", "phase", "intent", "turn_end"})
MAX_POINTS = 4  # pointers a step starts with: the author keeps those that teach
# What decided a turn comes first when a step has more events than pointers: defeats and flights,
# then stops, collisions and attacks that came to nothing (out of reach, blocked sight R4), then
# losses, contests, and last the rest (moves, heals, observations)
DECISIVE = {"defeated": 0, "fled": 0, "stopped": 1, "collided": 1, "no_effect": 1, "losses": 2, "contest": 3,
            "not_healed": 5}


def _rank(ev: Event) -> int:
    """How decisive an event is (DECISIVE; lower first). An attack that came to nothing (out of reach,
    no sight R4: its data names the target and why) counts; a defense that met no attack does not."""
    if ev.type == "no_effect" and not (ev.data.get("target") and ev.data.get("reason")):
        return 4
    return DECISIVE.get(ev.type, 4)


def lesson_text(save_file: str | Path, out_dir: Path) -> str:
    """The TOML of a lesson that replays `save_file`, its encounter path relative to `out_dir`."""
    save = read_save(save_file)
    problem = encounter_problem(save, str(save_file))
    if problem is not None:
        raise problem
    enc_path = save.find_encounter(save_file)
    enc = read_lesson_encounter(enc_path)
    side = (save.pc_sides or enc.sides)[0]
    match = Match(enc, seed=save.seed, dice=save.dice)
    title = str(save.meta.get("title") or enc.title)
    lines = ["# A lesson written by `battlemat lesson-from` from " + Path(save_file).name + ": replace the words",
             "# in parentheses, keep the pointers that teach (README: Writing a lesson).",
             "[lesson]", f"title = {toml_value(f'{title} (lesson)')}",
             f"goal = {toml_value('(Write the goal in one line.)')}",
             f"encounter = {toml_value(relative_path(enc_path, out_dir))}", f"side = {toml_value(side)}",
             f"seed = {match.seed}", f"dice = {toml_value(match.dice.name)}"]
    for n, intents in enumerate(save.turns, 1):
        if match.outcome().over:
            break
        gm_doors(match, save.doors, n)  # the game master's door changes before the turn, as played
        try:
            events = match.play(intents)
        except BattlematError as exc:  # the encounter changed since the game was saved
            raise replay_problem(str(save_file), n - 1, intents, exc) from None
        mine = [it for it in intents if enc.by_id[it.who].side == side]
        npcs = [it for it in intents if enc.by_id[it.who].side != side]
        points = decisive_points(events)
        played = "; ".join(describe_intent(enc, it) for it in mine) or "your side does nothing"
        text = f"{PLACEHOLDER} Turn {n}: {played}"
        lines += ["", "[[step]]", f"text = {toml_value(text)}",
                  "expect = " + _array([_want(it) for it in mine]),
                  "npc = " + _array([it.to_dict() for it in npcs]),
                  "point = " + _array(points),
                  f"after = {toml_value('(Write what the learner should notice, or remove this line.)')}"]
    return "\n".join(lines) + "\n"


def decisive_points(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The pointers of a turn: its events that cite a rule, the MAX_POINTS most decisive (DECISIVE;
    among equals the earlier), in the order they happened."""
    found: list[tuple[int, int, dict[str, Any]]] = []
    for i, ev in enumerate(events):
        if ev.type in SKIPPED or not ev.rules:
            continue
        who = concerned(ev)
        p = {"type": ev.type, **({"who": who[0]} if who else {}), "rule": ev.rules[0]}
        if all(p != q for _, _, q in found):
            found.append((_rank(ev), i, p))
    kept = sorted(found, key=lambda f: (f[0], f[1]))[:MAX_POINTS]
    return [p for _, _, p in sorted(kept, key=lambda f: f[1])]


def _want(it: Intent) -> dict[str, Any]:
    d: dict[str, Any] = {"who": it.who, "use": it.use}
    if it.target:
        d["target"] = it.target
    if it.to is not None:
        d["to"] = list(it.to)
    return d


def _array(items: list[dict[str, Any]]) -> str:
    if not items:
        return "[]"
    return "[\n" + "".join(f"  {toml_value(d)},\n" for d in items) + "]"
