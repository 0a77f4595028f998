"""`battlemat predict ENCOUNTER [--load SAVE] [--samples N] [--seed S] [--json]` (DESIGN: commands).

The next turn as it would resolve (battlemat.predict): the encounter's scripted intents for that turn
are the known ones (none after `--load`: a save holds only the turns played); the other characters of
the players' sides (`--side`, default the first side, as in the window) stay idle, and every other
character is given the AI's intent (`--all-ai`: the players' characters too). The events print as
`resolve` prints them (`--json`: one object per event exactly as `resolve --json` writes them, then the
final state, then a `prediction` object with what was guessed and the spread over the samples).
`--ai [SIDE=]TACTIC` guesses a side's intents with another AI (`--ai ogres=search`: the search AI).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from battlemat.commands.args import (
    PREDICT_SAMPLES,
    PREDICT_SAMPLES_HELP,
    add_ai_argument,
    ai_overrides,
    dice_argument,
    fail,
    seed_argument,
)
from battlemat.core.encounter import Encounter
from battlemat.core.match import Match
from battlemat.io.encounter import load_encounter
from battlemat.io.saves import gm_doors, read_save
from battlemat.log import format_event, format_state
from battlemat.predict import DICE_SAMPLES, Question, TurnPrediction, guess_lines, predict_turn, spread_lines
from battlemat.sim.overrides import with_ai


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("encounter", help="encounter .toml file")
    p.add_argument("--load", metavar="SAVE", default=None, help="predict the turn after a saved game's last turn")
    p.add_argument("--samples", type=PREDICT_SAMPLES, default=None, metavar="N",
                   help=f"turns to sample (default: 1 diceless, {DICE_SAMPLES} with dice); exact when diceless "
                        f"with every intent known; {PREDICT_SAMPLES_HELP}")
    p.add_argument("--seed", type=seed_argument, default=None, help="seed of the samples (default: the match's seed)")
    p.add_argument("--dice", type=dice_argument, default=None, help="override the dice engine")
    p.add_argument("--side", action="append", default=None, metavar="SIDE",
                   help="a side the players control: its undeclared characters stay idle (default: the first side)")
    p.add_argument("--all-ai", action="store_true", help="the AI declares for the players' idle characters too")
    add_ai_argument(p, "guess a side's (or every side's) intents with this AI instead of the encounter's")
    p.add_argument("--json", action="store_true", help="events as `resolve --json` writes them, then the prediction")


def _fail(message: str) -> int:
    return fail("battlemat predict", message)


def _played(enc: Encounter, args: argparse.Namespace) -> Encounter:
    """The encounter with the AI `--ai` puts on its sides."""
    return with_ai(enc, ai_overrides(enc, args.ai))


def _match(args: argparse.Namespace) -> tuple[Match, tuple[str, ...], bool]:
    """The match to predict from (after the save's turns with --load), the players' sides, and whether
    the encounter's scripted turn counts as declared."""
    if args.load:
        save = read_save(args.load)
        m = Match(_played(load_encounter(save.encounter_path(args.load)), args), seed=save.seed,
                  dice=args.dice or save.dice)
        for n, intents in enumerate(save.turns, 1):
            gm_doors(m, save.doors, n)  # the game master's door changes before each turn
            m.play(intents)
        gm_doors(m, save.doors, len(save.turns) + 1)
        return m, tuple(args.side or save.pc_sides), False
    m = Match(_played(load_encounter(args.encounter), args), seed=None, dice=args.dice)
    return m, tuple(args.side or ()), True


def run(args: argparse.Namespace) -> int:
    m, sides, scripted = _match(args)
    enc = m.encounter
    sides = sides or enc.sides[:1]
    unknown = [s for s in sides if s not in enc.sides]
    if unknown:
        return _fail(f"no side {unknown[0]!r}; the sides are {', '.join(enc.sides)}")
    if m.outcome().over:
        print(f"the combat is over ({m.outcome().reason}): nothing to predict")
        return 0
    index = m.state.turn - 1
    known = tuple(enc.turns[index]) if scripted and index < len(enc.turns) else ()
    declared = {it.who for it in known}
    fill = tuple(c.id for c in enc.characters if m.state[c.id].active and c.id not in declared
                 and (args.all_ai or c.side not in sides))
    samples = args.samples or (1 if m.dice.name == "none" else DICE_SAMPLES)
    seed = m.seed if args.seed is None else args.seed
    q = Question(enc, m.state, known, fill, m.dice.name, samples, seed)
    pred = predict_turn(q, m.memory)
    if args.json:
        _print_json(pred)
    else:
        _print_text(pred, m)
    return 0


def _print_json(pred: TurnPrediction) -> None:
    first = pred.first
    for ev in first.events:
        print(json.dumps(ev.to_dict(), sort_keys=False))
    print(json.dumps({"final": first.state.to_dict()}))
    print(json.dumps({"prediction": prediction_dict(pred)}))


def prediction_dict(pred: TurnPrediction) -> dict[str, Any]:
    """What was predicted and how: the turn, exact or sampled, the intents known and guessed (the first
    sample's), how the AI's choices spread for each guessed character (over draws of its own stream),
    and per character the samples by losses suffered, defeated and fled."""
    q = pred.question
    return {
        "turn": q.state.turn,
        "exact": q.exact,
        "dice": q.dice,
        "samples": len(pred.samples),
        "seed": q.seed,
        "known": [it.to_dict() for it in q.known],
        "guessed": [it.to_dict() for it in pred.first.guessed],
        "guesses": {g.who: {"draws": g.draws, "played": g.played,
                            "choices": [{"intent": w, "draws": k} for w, k in g.choices]}
                    for g in pred.guesses},
        "spread": {cid: {"losses": {str(k): v for k, v in sorted(sp.losses.items())}, "defeated": sp.defeated,
                         "fled": sp.fled}
                   for cid, sp in pred.spread().items()},
    }


def _print_text(pred: TurnPrediction, m: Match) -> None:
    q, first, enc = pred.question, pred.first, m.encounter
    print(f"# {enc.title}  (seed {m.seed}, dice {m.dice.name})")
    if q.exact:
        print(f"# predicted turn {q.state.turn}: exact (diceless, every intent known)")
    else:
        n = len(pred.samples)
        print(f"# predicted turn {q.state.turn}: " + (f"{n} samples (seed {q.seed}); the first is shown" if n > 1
                                                      else f"one sample (seed {q.seed})"))
    for i, said in enumerate(guess_lines(enc, pred)):
        print(f"#   {said}" if i == 0 else f"#     {said}")
    for ev in first.events:
        line = format_event(ev)
        if line is not None:
            print(line)
    print("\n== final ==")
    print(format_state(enc, first.state))
    if len(pred.samples) > 1:
        print(f"\n== over {len(pred.samples)} samples: losses suffered this turn ==")
        for line in spread_lines(enc, pred) or ["nobody suffers a loss in any sample"]:
            print(f"  {line}")
