"""Plain-words rendering of events, states and the rules table, for the terminal and the log panel."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from battlemat.core.encounter import Encounter
from battlemat.core.events import Event
from battlemat.core.rules import Rules
from battlemat.core.state import MatchState

_INDENT = {"turn_start": "", "phase": "  ", "turn_end": "  "}


def format_event(ev: Event) -> str | None:
    """One readable line (or a few) per event; None for events that only feed machines."""
    if ev.type == "turn_start":
        return f"\n== Turn {ev.turn} =="
    if ev.type == "phase":
        return f"  -- {ev.text}"
    if ev.type == "turn_end":
        return None
    rules = f"  [{', '.join(dict.fromkeys(ev.rules))}]" if ev.rules else ""
    body = textwrap.fill(ev.text, width=110, initial_indent="     ", subsequent_indent="        ")
    if ev.type in ("losses", "defeated", "healed", "not_healed", "fled"):
        body = body.replace("     ", "   * ", 1)
    mark = house_mark(ev)
    return body + rules + (f"  {mark}" if mark else "")


def house_mark(ev: Event) -> str:
    """'[house] C3 mutual_tie_both_succeed = false': the house rules that decided an event, as the
    resolver found them in the rules data (the event's `house_rules`); '' for an event of core rules."""
    found = ev.data.get("house_rules")
    if not found:
        return ""
    named = [h for h in found if h.get("switch") or h.get("data")]
    bare = [h for h in found if h not in named and h["rule"] not in {n["rule"] for n in named}]
    return "[house] " + "; ".join(_ruling(h) for h in found if h in named or h in bare)


def _ruling(h: Mapping[str, Any]) -> str:
    name = h.get("switch") or h.get("data")
    if not name:
        return str(h["rule"])
    value = h.get("value")
    if isinstance(value, bool):
        shown = f" = {str(value).lower()}"
    elif isinstance(value, (int, float, str)):
        shown = f" = {value}"
    else:
        shown = ""  # a table or a list: its name says where to look
    return f"{h['rule']} {name}{shown}"


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
