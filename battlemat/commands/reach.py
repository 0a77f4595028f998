"""`battlemat reach ENCOUNTER --who ID --use SKILL [--target ID] [--json]` (DESIGN: commands).

Shows the squares a character can end on this turn with that skill, and for the others within
allowance + 2 the rule that refuses them. It asks `battlemat.core.movement.reach`, the same query
the resolver and the UI preview use.
"""

from __future__ import annotations

import argparse
import json

from battlemat.commands.args import fail
from battlemat.core import movement
from battlemat.core.errors import IllegalIntent, RulesError
from battlemat.core.memory import MatchMemory
from battlemat.io.encounter import load_encounter
from battlemat.io.names import did_you_mean, unknown_name


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("encounter", help="encounter .toml file with a map")
    p.add_argument("--who", required=True, help="character id")
    p.add_argument("--use", required=True, help="the skill half used this turn, e.g. Press, or item")
    p.add_argument("--target", default=None, help="target character id (Press charges it, Provoke faces it)")
    p.add_argument("--item", default="simple", help="item use: simple, dexterity or concentration (M1)")
    p.add_argument("--json", action="store_true", help='print {"reachable": {"x,y": cost}, "unreachable": {...}}')


def _fail(message: str) -> int:
    return fail("battlemat reach", message)


def run(args: argparse.Namespace) -> int:
    enc = load_encounter(args.encounter)
    if enc.board is None:
        return _fail(f"{args.encounter}: the encounter has no map, so there is nothing to reach. "
                     "Fix: add map = \"FILE.tmx\" to it.")
    if args.who not in enc.by_id:
        return _fail("--who: {}. Fix: {}".format(*unknown_name("character", args.who, enc.by_id)))
    if args.target is not None and args.target not in enc.by_id:
        return _fail("--target: {}. Fix: {}".format(*unknown_name("character", args.target, enc.by_id)))
    try:
        use = "item" if args.use.strip().lower() == "item" else enc.rules.half(args.use).name
    except RulesError as exc:
        halves = [*enc.rules.halves]
        return _fail(f"--use: {exc}. Fix: {did_you_mean(args.use, halves)}use a skill half: {', '.join(halves)}")
    if args.item not in enc.rules.item_move:
        return _fail("--item: {}. Fix: {}".format(*unknown_name("item use (M1)", args.item, enc.rules.item_move)))
    state = enc.initial_state()
    chars = dict(state.chars)
    for cid, sq in getattr(enc.board, "tokens", {}).items():  # tokens place characters without `at`
        if cid in chars and chars[cid].at is None:
            chars[cid] = chars[cid].with_(at=tuple(sq))
    if chars[args.who].at is None:
        return _fail(f"{args.who} has no square on the map (give it `at` or a token)")
    try:
        mover = movement.mover_for(MatchMemory(enc), chars, args.who, use, args.target, args.item)
    except (KeyError, IllegalIntent) as exc:
        return _fail(str(exc))
    ctx = movement.context(enc, chars, enc.by_id[args.who].side, who=args.who)
    rc = movement.reach(enc.board, enc.rules, mover, ctx)
    if args.json:
        out = {
            "reachable": {f"{x},{y}": c for (x, y), c in sorted(rc.costs.items(), key=lambda kv: kv[0][::-1])},
            "unreachable": {f"{x},{y}": str(r) for (x, y), r in sorted(rc.refused.items(), key=lambda kv: kv[0][::-1])},
        }
        print(json.dumps(out))
        return 0
    print(render(enc, chars, rc))
    return 0


def render(enc: object, chars: dict, rc: movement.Reach) -> str:
    """A text map around the mover: @ the mover, letters for others, digits for the cost of a
    reachable square, # blocked, _ pit, x refused for another reason, . beyond the list."""
    board = enc.board  # type: ignore[attr-defined]
    r = rc.allowance + 2
    x0, y0 = rc.mover.at
    xs = range(max(0, x0 - r), min(board.width, x0 + r + 1))
    ys = range(max(0, y0 - r), min(board.height, y0 + r + 1))
    who_at = {tuple(s.at): cid for cid, s in chars.items() if s.at is not None}
    lines = [f"{rc.mover.name} using {rc.mover.use}: allowance {rc.allowance} (M1-M3)"]
    lines.append("    " + "".join(f"{x:>3}" for x in xs))
    for y in ys:
        row = f"{y:>3} "
        for x in xs:
            sq = (x, y)
            if sq == rc.mover.at:
                cell = "@"
            elif sq in who_at:
                cell = enc.by_id[who_at[sq]].name[:1].upper()  # type: ignore[attr-defined]
            elif sq in rc.costs:
                cell = str(rc.costs[sq])
            elif board.blocked[y, x]:
                cell = "#"
            elif board.pit[y, x]:
                cell = "_"
            elif sq in rc.refused:
                cell = "x"
            else:
                cell = "."
            row += f"{cell:>3}"
        lines.append(row)
    lines.append("why not:")
    for (x, y), why in sorted(rc.refused.items(), key=lambda kv: kv[0][::-1]):
        if not board.blocked[y, x]:
            lines.append(f"  {x},{y}: {why}")
    return "\n".join(lines)
