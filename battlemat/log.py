"""Plain-words rendering of events, states and the rules table, for the terminal and the log panel."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping
from typing import Any

from battlemat.core.board import Board
from battlemat.core.encounter import Encounter
from battlemat.core.events import Event
from battlemat.core.intents import Intent
from battlemat.core.rules import Rules
from battlemat.core.state import MatchState
from battlemat.core.types import XY

_INDENT = {"turn_start": "", "phase": "  ", "turn_end": "  "}


def format_event(ev: Event, board: Board | None = None) -> str | None:
    """One readable line (or a few) per event; None for events that only feed machines. With the
    board, a hazard is called by its name on the map (`event_words`)."""
    if ev.type == "turn_start":
        return f"\n== Turn {ev.turn} =="
    if ev.type == "phase":
        return f"  -- {ev.text}"
    if ev.type == "turn_end":
        return None
    rules = f"  [{', '.join(dict.fromkeys(ev.rules))}]" if ev.rules else ""
    body = textwrap.fill(event_words(ev, board), width=110, initial_indent="     ", subsequent_indent="        ")
    if ev.type in ("losses", "defeated", "healed", "not_healed", "fled"):
        body = body.replace("     ", "   * ", 1)
    mark = house_mark(ev)
    return body + rules + (f"  {mark}" if mark else "")


def house_mark(ev: Event) -> str:
    """'[house] C3 mutual_tie_both_succeed = false': the house rules that decided an event, as the
    resolver found them in the rules data (the event's `house_rules`); '' for an event of core rules."""
    found = house_rulings(ev)
    if not found:
        return ""
    return "[house] " + "; ".join(f"{rule} {name}{shown}" if name else rule for rule, name, shown in found)


def house_rulings(ev: Event) -> list[tuple[str, str, str]]:
    """(rule ID, switch or data name, ' = value' or '') of each house rule that decided an event; a
    rule named bare is left out where the same rule is also named with its switch."""
    found = ev.data.get("house_rules")
    if not found:
        return []
    named = [h for h in found if h.get("switch") or h.get("data")]
    bare = [h for h in found if h not in named and h["rule"] not in {n["rule"] for n in named}]
    return [_ruling(h) for h in found if h in named or h in bare]


def _ruling(h: Mapping[str, Any]) -> tuple[str, str, str]:
    name = h.get("switch") or h.get("data")
    if not name:
        return str(h["rule"]), "", ""
    value = h.get("value")
    if isinstance(value, bool):
        shown = f" = {str(value).lower()}"
    elif isinstance(value, (int, float, str)):
        shown = f" = {value}"
    else:
        shown = ""  # a table or a list: its name says where to look
    return str(h["rule"]), str(name), shown


def hazard_name(board: Board, sq: XY) -> str:
    """A hazard's name on the map: the Tiled object's name or the tile's class ('wasp nest', 'trap'),
    else the name its text gives ('Floor Trap [Block/Dodge 4 or Perception 3]'); '' if it has none."""
    hz = board.hazard_at(sq) if board.inside(sq) else None
    if hz is None:
        return ""
    if hz.name:
        return hz.name
    m = re.match(r"^\s*([^\[\]]+?)\s*\[", hz.text)
    return m.group(1) if m else ""


def event_words(ev: Event, board: Board | None = None) -> str:
    """An event's words, with a hazard called by its name on the map (E1): 'Tobin enters the wasp
    nest [Stealth 3 or Animals 3] at (28, 14): ...'. The resolver's event is left as it is."""
    at = ev.data.get("at")
    if ev.type != "hazard" or board is None or not isinstance(at, (list, tuple)) or len(at) != 2:
        return ev.text
    sq = (int(at[0]), int(at[1]))
    name = hazard_name(board, sq)
    hz = board.hazard_at(sq) if name else None
    if hz is None:
        return ev.text
    shown = hz.text if name in hz.text else f"the {name} [{hz.text}]"
    said = f"enters {hz.text!r}"
    return ev.text.replace(said, f"enters {shown}", 1) if said in ev.text else f"{name}: {ev.text}"


def format_state(enc: Encounter, state: MatchState) -> str:
    lines = []
    for c in enc.characters:
        s = state[c.id]
        status = "defeated" if s.defeated else "fled" if s.fled else "standing"
        at = f" at {s.at}" if s.at is not None else ""
        lines.append(f"  {c.name:<16} {c.side:<10} minor {s.minor}  major {s.major}  {status}{at}")
    return "\n".join(lines)


def format_rules_table(rules: Rules) -> str:
    lines = [f"{'ID':<5} {'tag':<6} {'title':<34} rule", f"{'-' * 5} {'-' * 6} {'-' * 34} {'-' * 60}"]
    for rid, e in rules.entries.items():
        text = textwrap.wrap(e.text, width=70) or [""]
        lines.append(f"{rid:<5} {e.tag:<6} {e.title:<34} {text[0]}")
        lines.extend(f"{'':<48} {more}" for more in text[1:])
    lines.append("")
    lines.append("House switches (override in an encounter's [rules] table):")
    for sw in rules.switches.values():
        changed = "" if sw.value == sw.default else f"  (default {sw.default!r})"
        lines.append(f"  {sw.key:<30} = {sw.value!r:<24} {sw.rule}{changed}")
    return "\n".join(lines)


def format_rule(rules: Rules, rid: str) -> str:
    e = rules.entries[rid]
    lines = [f"{rid} [{e.tag}] {e.title}", textwrap.fill(e.text, width=100)]
    values = rules.value_of(rid)
    if values:
        lines.append("Current values:")
        lines.extend(f"  {label}: {value}" for label, value in values)
    return "\n".join(lines)


def describe_intent(enc: Encounter, it: Intent) -> str:
    """'Garran: Press -> Ogre leader, to (4, 5)': an intent in words (the window's intents list,
    the steps `battlemat lesson-from` writes)."""
    words = f"{enc.by_id[it.who].name}: {it.use}"
    if enc.rules.halves[it.use].act == "item":
        words += f" ({it.item})"
    if it.target:
        words += f" -> {enc.by_id[it.target].name}"
    if it.also:
        words += " + " + ", ".join(enc.by_id[a].name for a in it.also)
    if it.to is not None:
        words += f", to {tuple(it.to)}"
    if it.modifiers:
        words += f", GM {sum(m.value for m in it.modifiers):+d}"
    if it.share:
        words += ", shouts"
    return words
