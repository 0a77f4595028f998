"""Plain-words rendering of events, states and the rules table, for the terminal and the log panel."""

from __future__ import annotations

import textwrap

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
    return body + rules


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
