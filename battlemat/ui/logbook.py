"""The log as the table reads it: one entry per event, shown by character, newest turn first or last.

The log panel keeps the entries (not only their HTML) so it can show one character's lines, or the
newest turn on top, and rebuild itself after a resize. Every rule ID an entry cites, and every ID
its words mention, becomes a link (`rule:M4`); a house switch a house mark names becomes one too
(`switch:diagonals`). What a link shows on hover is read from the rules data (`rule_tip`), never
restated here.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from battlemat.core.events import Event
from battlemat.core.rules import Rules
from battlemat.log import house_rulings
from battlemat.ui import theme

RULE_ID = re.compile(r"\b([A-Z][0-9]{1,2})\b")
NEWEST_FIRST_TURNS = 12  # turns the log shows newest first (oldest first, it shows them all)
EVENT_COLOURS = {"losses": theme.BAD, "defeated": theme.BAD, "healed": theme.GOOD, "advantage": theme.GOOD,
                 "fled": theme.ACCENT, "intent": theme.TEXT_DIM, "hazard": theme.ACCENT,
                 "door": theme.DOOR_COLOURS["closed"]}  # a door opened by a step (M4) or by the game master


def hexc(c: theme.Color) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c[:3])


@dataclass(frozen=True)
class Entry:
    """One line of the log: the turn it belongs to (None: not of a turn, e.g. a message), its kind
    (turn, phase, event, note), the characters it is about, its HTML and its plain words."""

    turn: int | None
    kind: str
    who: frozenset[str]
    html: str
    plain: str


def actors(ev: Event, ids: Collection[str]) -> frozenset[str]:
    """The characters an event is about: every character id among its data's values (who, target,
    by, vs, attackers, defenders, ...), so a new event type needs no list here."""
    found: set[str] = set()
    stack: list[Any] = list(ev.data.values())
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if v in ids:
                found.add(v)
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return frozenset(found)


def link_rules(text: str, rules: Rules) -> str:
    """Escaped `text` with every rule ID of the rules data in it made a link."""
    out = html.escape(text)
    return RULE_ID.sub(lambda m: _rule_link(m.group(1)) if m.group(1) in rules.entries else m.group(1), out)


def _rule_link(rid: str) -> str:
    return f"<a href='rule:{rid}'>{rid}</a>"


def house_html(ev: Event, rules: Rules) -> str:
    """The house rules that decided an event, readably: '[house rule M11: diagonals = alternating]'."""
    found = house_rulings(ev)
    if not found:
        return ""
    parts = []
    for rule, name, shown in found:
        rid = _rule_link(rule) if rule in rules.entries else html.escape(rule)
        if not name:
            parts.append(rid)
            continue
        label = f"<a href='switch:{html.escape(name)}'>{html.escape(name)}</a>" if name in rules.switches \
            else html.escape(name)
        parts.append(f"{rid}: {label}{html.escape(shown)}")
    noun = "house rule" if len(parts) == 1 else "house rules"
    return f" <font color='{hexc(theme.HOUSE)}'>[{noun} {'; '.join(parts)}]</font>"


def house_plain(ev: Event) -> str:
    found = house_rulings(ev)
    if not found:
        return ""
    return " [house " + "; ".join(f"{r}: {n}{s}" if n else r for r, n, s in found) + "]"


def event_entry(ev: Event, ids: Collection[str], rules: Rules, words: Callable[[Event], str]) -> Entry | None:
    """The log entry of one event; None for events only machines read (turn_end)."""
    if ev.type == "turn_end":
        return None
    text = words(ev)
    if ev.type == "turn_start":
        return Entry(ev.turn, "turn", frozenset(),
                     f"<br><b><font color='{hexc(theme.ACCENT)}'>== Turn {ev.turn} ==</font></b><br>",
                     f"== Turn {ev.turn} ==")
    if ev.type == "phase":
        return Entry(ev.turn, "phase", frozenset(),
                     f"<b><font color='{hexc(theme.INFO)}'>{link_rules(text, rules)}</font></b><br>", text)
    ids_cited = list(dict.fromkeys(ev.rules))
    cited = ""
    if ids_cited:
        links = ", ".join(_rule_link(r) if r in rules.entries else html.escape(r) for r in ids_cited)
        cited = f" <font color='{hexc(theme.CORE)}'>[{links}]</font>"
    body = f"<font color='{hexc(EVENT_COLOURS.get(ev.type, theme.TEXT))}'>{link_rules(text, rules)}</font>"
    if ev.type == "defeated":
        body = f"<b>{body}</b>"
    plain = text + (f" [{', '.join(ids_cited)}]" if ids_cited else "") + house_plain(ev)
    return Entry(ev.turn, "event", actors(ev, ids), f"{body}{cited}{house_html(ev, rules)}<br>", plain)


def is_idle(ev: Event) -> bool:
    """A character's intent event saying it does nothing this turn (resolve.py: use None)."""
    return ev.type == "intent" and ev.data.get("use") is None


def event_entries(events: Iterable[Event], ids: Collection[str], rules: Rules, words: Callable[[Event], str],
                  names: Mapping[str, str]) -> list[Entry | None]:
    """The log entries of events in order; a run of idle characters is one line ('Brin, Kwirt idle'):
    the events stay one per character, only the log groups them."""
    out: list[Entry | None] = []
    run: list[Event] = []

    def flush() -> None:
        if len(run) > 1:
            who = [str(ev.data.get("who")) for ev in run]
            plain = f"{', '.join(names.get(w, w) for w in who)} idle"
            out.append(Entry(run[0].turn, "event", frozenset(who) & frozenset(ids) or frozenset(who),
                             f"<font color='{hexc(EVENT_COLOURS['intent'])}'>{html.escape(plain)}</font><br>",
                             plain))
        elif run:
            out.append(event_entry(run[0], ids, rules, words))
        run.clear()

    for ev in events:
        if is_idle(ev) and (not run or run[-1].turn == ev.turn):
            run.append(ev)
            continue
        flush()
        if is_idle(ev):
            run.append(ev)
        else:
            out.append(event_entry(ev, ids, rules, words))
    flush()
    return out


def note_entry(words: str, color: theme.Color = theme.TEXT_DIM) -> Entry:
    return Entry(None, "note", frozenset(), f"<font color='{hexc(color)}'>{html.escape(words)}</font><br>", words)


def raw_entry(chunk: str) -> Entry:
    """HTML from elsewhere (kept as it is, shown to everyone)."""
    plain = html.unescape(re.sub(r"<[^>]+>", "", chunk.replace("<br>", "\n"))).strip()
    return Entry(None, "note", frozenset(), chunk, plain)


class LogBook:
    """The entries of a game's log, in the order they happened."""

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self.entries: list[Entry] = list(entries)

    def add(self, entries: Iterable[Entry | None]) -> list[Entry]:
        new = [e for e in entries if e is not None]
        self.entries.extend(new)
        return new

    def plain(self) -> str:
        return "\n".join(e.plain for e in self.entries)

    def blocks(self) -> list[list[Entry]]:
        """The entries cut into turns: a block starts at each turn header (notes before the first
        turn make a block of their own)."""
        out: list[list[Entry]] = []
        for e in self.entries:
            if e.kind == "turn" or not out:
                out.append([e])
            else:
                out[-1].append(e)
        return out

    def render(self, who: str | None = None, newest_first: bool = False,
               names: Mapping[str, str] | None = None, newest_only: bool = False) -> str:
        """The log's HTML: only what concerns `who` (turn headers, the phases with its lines, and
        messages stay), and with `newest_first` the turns from the latest down (at most
        NEWEST_FIRST_TURNS of them: laying text out costs about a millisecond a line). `newest_only`:
        the latest turn alone (cheap while a turn plays), with a word on the rest."""
        all_blocks = self.blocks()
        keep = 1 if newest_only else NEWEST_FIRST_TURNS if newest_first else len(all_blocks)
        chosen = all_blocks[-keep:]
        blocks = [self._only(b, who, (names or {}).get(who or "", who or "")) for b in chosen]
        if newest_first:
            blocks.reverse()
        chunks = [e.html for b in blocks for e in b]
        if newest_only and len(all_blocks) > 1:
            chunks.append(note_entry("(the earlier turns come back when this one has played)").html)
        elif len(chosen) < len(all_blocks):
            chunks.append(note_entry("(older turns: switch Newest first off to scroll back to turn 1)").html)
        if newest_first and chunks and chunks[0].startswith("<br>"):
            chunks[0] = chunks[0][len("<br>"):]  # no blank line at the top
        return "".join(chunks)

    @staticmethod
    def _only(block: list[Entry], who: str | None, name: str) -> list[Entry]:
        if who is None:
            return block
        kept: list[Entry] = []
        phase: Entry | None = None
        hits = 0
        for e in block:
            if e.kind == "phase":
                phase = e
            elif e.kind in ("turn", "note"):
                kept.append(e)
            elif who in e.who:
                if phase is not None:
                    kept.append(phase)
                    phase = None
                kept.append(e)
                hits += 1
        if block and block[0].kind == "turn" and not hits:
            kept.append(note_entry(f"(nothing about {name} this turn)"))
        return kept


def rule_tip(rules: Rules, href: str) -> tuple[str, str] | None:
    """(HTML, plain words) of what a log link stands for, from the rules data: a rule's ID, tag, title,
    text and house part; a house switch's rule, value, default and what it decides."""
    kind, _, key = href.partition(":")
    if kind == "rule" and key in rules.entries:
        e = rules.entries[key]
        colour = hexc(theme.RULE_COLOR.get(e.tag, theme.TEXT))
        extra = (f"<br><font color='{hexc(theme.HOUSE)}'>house part: {html.escape(e.house)}</font>"
                 if e.house and e.tag != "house" else "")
        values = rules.value_of(key)
        shown = "; ".join(f"{label} = {value}" for label, value in values[:4]) + ("; ..." if len(values) > 4 else "")
        now = f"<br>now: {html.escape(shown)}" if shown else ""
        plain = f"{key} [{e.tag}] {e.title}: {e.text}" + (f" House part: {e.house}" if extra else "")
        return (f"<b>{html.escape(key)}</b> <font color='{colour}'>[{html.escape(e.tag)}]</font> "
                f"<b>{html.escape(e.title)}</b><br>{html.escape(e.text)}{extra}{now}", plain)
    if kind == "switch" and key in rules.switches:
        sw = rules.switches[key]
        changed = "" if sw.value == sw.default else f" (default {sw.default!r})"
        plain = f"{key} = {sw.value!r}{changed} [house, {sw.rule}]: {sw.doc}"
        return (f"<b>{html.escape(key)}</b> = {html.escape(repr(sw.value))}{html.escape(changed)} "
                f"<font color='{hexc(theme.HOUSE)}'>[house, {html.escape(sw.rule)}]</font><br>"
                f"{html.escape(sw.doc)}", plain)
    return None
