"""argparse types and options shared by the commands (DESIGN: commands).

Each type turns a bad value into argparse's usage message and exit 2, with the fix in its words.
`add_play_arguments` is the window's options, shared by `play` and `learn` (and the window's own
`python -m battlemat.ui.app`); it imports no pygame.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.io.limits import (
    MAX_BALANCE_DEPTH,
    MAX_CALIBRATE_SAMPLES,
    MAX_FRAMES,
    MAX_PREDICT_SAMPLES,
    MAX_RUNS,
    MAX_SEED,
    MAX_TURN_CAP,
    MAX_WINDOW,
    MAX_WORKERS,
)
from battlemat.io.names import AI_NAMES, dice_problem, unknown_name

EXIT_BAD_INPUT = 2


def dice_argument(text: str) -> str:
    """argparse type of every `--dice`: a known engine, else the encounter file's message with the
    close match (argparse then exits 2 with it)."""
    problem = dice_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"{problem[0]}. Fix: {problem[1]}")
    return text


def bounded_int(low: int, high: int, why: str) -> Callable[[str], int]:
    """argparse type of a whole number from `low` to `high` (`why` says where the bound comes from)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value if abs(value) < 10**15 else 'it'} is out of range. "
                                             f"Fix: use {low} to {high} ({why})")
        return value

    return parse


def seed_argument(text: str) -> int:
    """argparse type of every `--seed`: a 64-bit whole number, like the seed of an encounter or a save."""
    return bounded_int(-MAX_SEED, MAX_SEED, "a seed is a 64-bit whole number")(text)


# -- one bounded type per kind of number a command takes (limits and reasons: battlemat.io.limits) ---
# Each is (argparse type, the words `--help` shows): every command that takes the number uses both.
RUNS = bounded_int(1, MAX_RUNS, "each finished run's result is kept for the statistics")
RUNS_HELP = f"1 to {MAX_RUNS:,}: each finished run's result is kept for the statistics"
WORKERS = bounded_int(1, MAX_WORKERS, "each worker is a process with its own engine and map; "
                                      "more than the cores only wait")
WORKERS_HELP = (f"1 to {MAX_WORKERS}: each worker is a process with its own engine and map, "
                "more than the cores only wait; the numbers are the same whatever it is")
TURNS = bounded_int(1, MAX_TURN_CAP, "a stalemate plays every run to the cap")
TURNS_HELP = f"1 to {MAX_TURN_CAP}: a stalemate plays every run to the cap"
CALIBRATE_SAMPLES = bounded_int(1, MAX_CALIBRATE_SAMPLES, "each cell holds its samples in memory")
CALIBRATE_SAMPLES_HELP = f"1 to {MAX_CALIBRATE_SAMPLES:,}: each cell holds its samples in memory (about 50 bytes each)"
PREDICT_SAMPLES = bounded_int(1, MAX_PREDICT_SAMPLES, "each sample resolves the whole turn")
PREDICT_SAMPLES_HELP = f"1 to {MAX_PREDICT_SAMPLES:,}: each sample resolves the whole turn"
DEPTH = bounded_int(1, MAX_BALANCE_DEPTH, "each depth screens every change again")
DEPTH_HELP = f"1 to {MAX_BALANCE_DEPTH}: each depth screens every change again"


def add_batch_options(p: argparse.ArgumentParser) -> None:
    """The options every batch command shares, in the same words: the batch seed, the dice, the turn
    cap and a Dask cluster (simulate, arena, balance)."""
    p.add_argument("--seed", type=seed_argument, default=None, help="batch seed (default: the encounter's seed)")
    p.add_argument("--dice", type=dice_argument, default=None, help="dice engine (default: the encounter's)")
    p.add_argument("--max-turns", type=TURNS, default=30,
                   help=f"stop a combat after this many turns (default 30; {TURNS_HELP})")
    p.add_argument("--dask-scheduler", metavar="ADDRESS", default=None,
                   help="run on an existing Dask distributed cluster, e.g. tcp://10.0.0.5:8786 (the numbers are "
                        "the same)")


# Tactics `--ai` may put on a side: every `ai =` name but scripted (it needs a script of its own)
AI_CHOICES = tuple(n for n in AI_NAMES if n != "scripted")


def ai_argument(text: str) -> tuple[str, str]:
    """argparse type of `--ai`: TACTIC (every side) or SIDE=TACTIC, as (side or '', tactic); the side is
    checked against the encounter later (`ai_overrides`)."""
    side, _, tactic = text.rpartition("=")
    if tactic not in AI_CHOICES:
        message, fix = unknown_name("tactics", tactic[:40], AI_CHOICES)
        raise argparse.ArgumentTypeError(f"{message}. Fix: {fix}")
    return side.strip(), tactic


def add_ai_argument(p: argparse.ArgumentParser, what: str) -> None:
    """`--ai [SIDE=]TACTIC`, repeatable (simulate, arena, predict)."""
    p.add_argument("--ai", type=ai_argument, action="append", default=[], metavar="[SIDE=]TACTIC",
                   help=f"{what}: 'search' (the search AI, each character on its own tactic as its base: "
                        f"battlemat/ai/search.py) or one of {', '.join(AI_CHOICES[:-1])}; 'search' alone puts it on "
                        "every side, 'watch=search' on one; repeatable")


def ai_overrides(enc: Encounter, given: list[tuple[str, str]]) -> tuple[tuple[str, str, str], ...]:
    """`--ai` values as sim.overrides' (side, tactic, style), in the encounter's side order; an unknown
    side is a BattlematError with the sides to choose from."""
    chosen: dict[str, str] = {}
    for side, tactic in given:
        if side and side not in enc.sides:
            message, fix = unknown_name("side", side[:40], enc.sides)
            raise BattlematError(f"--ai {side}={tactic}: {message}. Fix: {fix}")
        for s in [side] if side else enc.sides:
            chosen[s] = tactic
    return tuple((s, chosen[s], "") for s in enc.sides if s in chosen)


def target_argument(text: str) -> float:
    """argparse type of `balance --target`: a win rate strictly between 0 and 1 (both excluded: no
    change makes a side certain to win or to lose, and a 95% interval never reaches 0 or 1 exactly)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number") from None
    if not 0.0 < value < 1.0:  # NaN fails this too
        raise argparse.ArgumentTypeError(f"{text[:40]} is not a win rate strictly between 0 and 1. "
                                         "Fix: use e.g. 0.5 (0 and 1 themselves are excluded)")
    return value


TARGET_HELP = ("the win rate wanted, strictly between 0 and 1 (0 and 1 excluded; default 0.5); a variant "
               "reaches it when the target lies inside its 95%% interval, both ends included")


def size_argument(text: str) -> str:
    """argparse type of --size: WIDTHxHEIGHT, at most MAX_WINDOW (argparse exits 2 otherwise)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not WIDTHxHEIGHT. Fix: write it like 1280x800") from None
    if not (0 < w <= MAX_WINDOW[0] and 0 < h <= MAX_WINDOW[1]):
        raise argparse.ArgumentTypeError(f"{w if w < 10**9 else 'huge'} x {h if h < 10**9 else 'huge'} is no window "
                                         f"size. Fix: use up to {MAX_WINDOW[0]}x{MAX_WINDOW[1]}")
    return text


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    """Options of the window (`play`, `learn NAME`) beyond the encounter (kept free of pygame imports)."""
    p.add_argument("--screenshot", metavar="FILE", default=None,
                   help="render headless, save a PNG to FILE and exit (uses SDL_VIDEODRIVER=dummy if unset)")
    p.add_argument("--frames", type=bounded_int(1, MAX_FRAMES, "frames of a headless render"), default=3, metavar="N",
                   help="frames to render before --screenshot")
    p.add_argument("--select", metavar="ID", default=None, help="select this character (shows its reach)")
    p.add_argument("--use", metavar="SKILL", default=None, help="with --select: the skill half to preview")
    p.add_argument("--target", metavar="ID", default=None, help="with --select/--use: the target")
    p.add_argument("--size", type=size_argument, default=None, metavar="WxH",
                   help="window size, e.g. 1920x1080 (default 1280x800)")
    p.add_argument("--seed", type=seed_argument, default=None, help="override the encounter's seed")
    p.add_argument("--dice", type=dice_argument, default=None, help="override the encounter's dice engine")
    p.add_argument("--side", action="append", default=None, metavar="SIDE",
                   help="a side the players control (repeatable; default: the first side)")
    p.add_argument("--load", metavar="SAVE", default=None, help="resume a saved game (.json)")
    p.add_argument("--replay", metavar="SAVE", default=None, help="replay a saved game turn by turn")
    p.add_argument("--save-dir", default=None, metavar="DIR",
                   help="where saves, autosaves and screenshots go (default ~/.battlemat)")
    p.add_argument("--gm", action="store_true", help="start in GM mode (NPC intents shown)")
    p.add_argument("--predict", action="store_true",
                   help="with --screenshot: show the predicted turn as ghosts (the P key)")
    p.add_argument("--overlay", choices=("teaching",), default=None,
                   help="start with an overlay shown: teaching (every NPC's intent, threats and phases; the O key)")
    p.add_argument("--players-window", action="store_true",
                   help="open the players' window too: the board as the table's side knows it, with fog of war "
                        "(Ctrl+P; F11 in it: full screen)")
    p.add_argument("--view", metavar="SIDE", default=None,
                   help="the side the players' window shows (opens it); with --screenshot: save that side's view")
    p.add_argument("--think-ms", type=bounded_int(1, 60_000, "milliseconds of thinking per NPC character"),
                   default=None, metavar="MS",
                   help="the search AI's time per NPC character when the K key puts the NPCs on it (default 50)")


def fail(command: str, message: str) -> int:
    """Print `COMMAND: message` on stderr (COMMAND: "battlemat" or "battlemat reach") and return 2."""
    print(f"{command}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT
