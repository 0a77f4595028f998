"""`battlemat lesson-from SAVE [-o FILE]`: a lesson skeleton from a saved game (issue 19).

One step per saved turn: the intents of the learner's side as the step's expected ones, the other
sides' as its scripted NPC intents, the turn's events that cite a rule as the ones to point at, and
placeholder words for the game master to replace. The skeleton plays as written: it is read back
(and played through) before the command says it is done.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from battlemat.core.errors import BattlematError
from battlemat.core.intents import Intent

PLACEHOLDER = "(Write what to try.)"
SKIPPED = frozenset({"turn_start", "phase", "intent", "turn_end"})
MAX_POINTS = 4  # pointers a step starts with: the author keeps those that teach


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE", help="a saved game (.json)")
    parser.add_argument("-o", "--output", metavar="FILE", default=None,
                        help="the lesson to write (default: SAVE's name with .lesson.toml, beside it)")


def run(args: argparse.Namespace) -> int:
    from battlemat.io.errors import LoadError
    from battlemat.io.lessons import SUFFIX, load_lesson

    out = Path(args.output) if args.output else Path(args.save).with_suffix("").with_suffix(SUFFIX)
    text = lesson_text(args.save, out.parent)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise LoadError.one(str(out), "", f"cannot write the lesson ({exc.strerror or exc})",
                            "choose another place with -o") from None
    lesson = load_lesson(out)  # it plays as written, or the message says where it does not
    print(f"wrote {out}: {len(lesson.steps)} steps; replace the placeholder words, keep the pointers that "
          f"teach, then `battlemat learn {out}`")
    return 0


def lesson_text(save_file: str | Path, out_dir: Path) -> str:
    """The TOML of a lesson that replays `save_file`, its encounter path relative to `out_dir`."""
    from battlemat.core.match import Match
    from battlemat.io.cases import _relative, toml_value
    from battlemat.io.lessons import read_lesson_encounter
    from battlemat.io.saves import encounter_problem, read_save, replay_problem
    from battlemat.lessons import concerned
    from battlemat.ui.session import describe_intent  # imports no pygame

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
             f"encounter = {toml_value(_relative(enc_path, out_dir))}", f"side = {toml_value(side)}",
             f"seed = {match.seed}", f"dice = {toml_value(match.dice.name)}"]
    for n, intents in enumerate(save.turns, 1):
        if match.outcome().over:
            break
        try:
            events = match.play(intents)
        except BattlematError as exc:  # the encounter changed since the game was saved
            raise replay_problem(str(save_file), n - 1, intents, exc) from None
        mine = [it for it in intents if enc.by_id[it.who].side == side]
        npcs = [it for it in intents if enc.by_id[it.who].side != side]
        points: list[dict[str, Any]] = []
        for ev in events:
            if ev.type in SKIPPED or not ev.rules:
                continue
            who = concerned(ev)
            p = {"type": ev.type, **({"who": who[0]} if who else {}), "rule": ev.rules[0]}
            if p not in points:
                points.append(p)
        played = "; ".join(describe_intent(enc, it) for it in mine) or "your side does nothing"
        text = f"{PLACEHOLDER} Turn {n}: {played}"
        lines += ["", "[[step]]", f"text = {toml_value(text)}",
                  "expect = " + _array([_want(it) for it in mine]),
                  "npc = " + _array([it.to_dict() for it in npcs]),
                  "point = " + _array(points[:MAX_POINTS]),
                  f"after = {toml_value('(Write what the learner should notice, or remove this line.)')}"]
    return "\n".join(lines) + "\n"


def _want(it: Intent) -> dict[str, Any]:
    d: dict[str, Any] = {"who": it.who, "use": it.use}
    if it.target:
        d["target"] = it.target
    if it.to is not None:
        d["to"] = list(it.to)
    return d


def _array(items: list[dict[str, Any]]) -> str:
    from battlemat.io.cases import toml_value

    if not items:
        return "[]"
    return "[\n" + "".join(f"  {toml_value(d)},\n" for d in items) + "]"
