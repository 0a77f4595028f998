"""Playing a resolved turn back: one beat per event, in the resolver's order.

The turn is already decided when playback starts (Match.play returned its events); animation only
shows them: a phase banner per phase, moves gliding along their routes, stops flashing their
reason, arrows for ranged attacks, clashes for reach attacks, floating numbers for losses.
Token positions and loss pips during playback come from the events themselves, so what moves on
screen is exactly what the log says. Step mode waits for a key after every event (for teaching).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pygame

from battlemat.core.events import Event
from battlemat.core.rules import Rules
from battlemat.core.state import CharacterState
from battlemat.core.types import XY, CharId
from battlemat.ui import theme
from battlemat.ui.camera import Camera
from battlemat.ui.logbook import is_idle
from battlemat.ui.overlays import Pen, arrow

DURATIONS = {
    "turn_start": 0.35, "phase": 0.9, "intent": 0.0, "turn_end": 0.0, "contest": 0.8, "check": 0.5,
    "losses": 0.6, "defeated": 0.7, "healed": 0.45, "advantage": 0.35, "found": 0.5, "hidden": 0.5,
    "shared": 0.45, "fled": 0.6, "no_effect": 0.4, "item_used": 0.45, "observed": 0.35,
}
STEP_SECONDS = 0.16  # per square of a glide


@dataclass
class Effect:
    kind: str  # arrow | clash | float | flash
    a: tuple[float, float]
    b: tuple[float, float] = (0.0, 0.0)
    text: str = ""
    color: theme.Color = theme.TEXT
    t: float = 0.0
    duration: float = 0.8


@dataclass
class Glide:
    who: CharId
    points: list[tuple[float, float]]
    duration: float
    t: float = 0.0


@dataclass
class Player:
    """Playback of one turn's events."""

    events: tuple[Event, ...]
    positions: dict[CharId, tuple[float, float]]  # map pixels, updated as moves play
    states: dict[CharId, CharacterState]  # display states, updated as losses land
    center: Callable[[XY], tuple[float, float]]
    rules: Rules  # which attacks are ranged (an arrow) and which reach (a clash)
    step_mode: bool = False
    speed: float = 1.0
    index: int = 0
    t: float = 0.0
    current: float = 0.0  # duration of the current beat
    waiting: bool = False
    banner: str = ""
    banner_t: float = 0.0
    effects: list[Effect] = field(default_factory=list)
    glides: list[Glide] = field(default_factory=list)
    started: bool = False
    doors: dict[str, str] = field(default_factory=dict)  # each door as drawn, updated as the turn opens doors

    @property
    def done(self) -> bool:
        return self.index >= len(self.events) and not self.glides and self.t >= self.current and not self.waiting

    def update(self, dt: float) -> list[Event]:
        """Advance time; return the events that started now (the log writes them)."""
        dt *= self.speed
        self.banner_t = max(0.0, self.banner_t - dt)
        for e in self.effects:
            e.t += dt
        self.effects = [e for e in self.effects if e.t < e.duration]
        for g in self.glides:
            g.t = min(g.duration, g.t + dt)
            self.positions[g.who] = _along(g.points, g.t / g.duration if g.duration else 1.0)
        self.glides = [g for g in self.glides if g.t < g.duration]
        started: list[Event] = []
        self.t += dt
        while self.index < len(self.events) and self.t >= self.current and not self.waiting:
            if self.step_mode and self.started and not self._same_line(self.index):
                self.waiting = True
                break
            ev = self.events[self.index]
            self.index += 1
            self.started = True
            self.t = 0.0
            self.current = self._start(ev)
            started.append(ev)
        if self.step_mode and self.index >= len(self.events) and self.t >= self.current:
            self.waiting = False
        return started

    def _same_line(self, i: int) -> bool:
        """Whether event `i` is shown on one line with the one before (a run of idle characters,
        logbook.event_entries): step mode starts the whole run with one key press."""
        return 0 < i < len(self.events) and is_idle(self.events[i]) and is_idle(self.events[i - 1]) \
            and self.events[i].turn == self.events[i - 1].turn

    def advance(self) -> None:
        """Step mode: the next key press starts the next event."""
        if self.waiting:
            self.waiting = False
            self.t = self.current
            self.started = False

    def finish(self) -> list[Event]:
        """Skip to the end (Esc): every remaining event lands at once."""
        rest: list[Event] = []
        self.step_mode = False
        self.waiting = False
        while self.index < len(self.events):
            ev = self.events[self.index]
            self.index += 1
            self._start(ev)
            rest.append(ev)
        for g in self.glides:
            self.positions[g.who] = g.points[-1]
        self.glides = []
        self.effects = []
        self.t = self.current = 0.0
        return rest

    # -- one event ---------------------------------------------------------------------------------
    def _start(self, ev: Event) -> float:
        """Start one event's beat; return how long it lasts."""
        handler = _HANDLERS.get(ev.type)
        took = handler(self, ev, ev.data) if handler is not None else None
        return took if took is not None else DURATIONS.get(ev.type, 0.4)

    def _on_phase(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        self.banner, self.banner_t = ev.text, 1.1
        return None

    def _on_turn_start(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        self.banner, self.banner_t = f"Turn {ev.turn}", 0.8
        return None

    def _on_moved(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        who = d.get("who")
        if who not in self.positions:
            return None
        squares = [_xy(p) for p in (d.get("path") or d.get("route") or ())]
        if d.get("to") is not None and (not squares or squares[-1] != _xy(d["to"])):
            squares.append(_xy(d["to"]))
        pts = [self.positions[who]] + [self.center(sq) for sq in squares]
        dur = max(0.3, STEP_SECONDS * (len(pts) - 1))
        self.glides.append(Glide(who, pts, dur))
        st = self.states.get(who)
        if st is not None and squares:
            self.states[who] = st.with_(at=squares[-1])
        if d.get("stopped") or d.get("why"):
            self.effects.append(Effect("flash", self.center(squares[-1]) if squares else pts[0],
                                       text=str(d.get("why") or d.get("stopped")), color=theme.ACCENT,
                                       t=-dur, duration=dur + 1.4))
        return dur

    def _on_stop(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        """stopped, collided, jumped: a flash where it happened, with the reason."""
        if d.get("who") not in self.positions:
            return None
        where = d.get("at") or d.get("to")
        spot = self.center(_xy(where)) if where is not None else self.positions[d["who"]]
        words = {"stopped": f"stops: {d.get('reason', ev.text)} ({d.get('rule', '')})",
                 "collided": ev.text, "jumped": "jump! (M5)"}[ev.type]
        self.effects.append(Effect("flash", spot, text=words, color=theme.ACCENT, duration=1.8))
        return 1.0 if ev.type != "jumped" else 0.3

    def _on_contest(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        """An arrow from a ranged attacker (the rules data's `ranged` halves), a clash for the rest."""
        att = [a for a in d.get("attackers", ()) if a in self.positions]
        dfn = [x for x in d.get("defenders", ()) if x in self.positions]
        half = self.rules.halves.get(str((d.get("attack") or {}).get("skill", "")))
        ranged = half is not None and half.ranged
        kind, color = ("arrow", theme.ACCENT) if ranged else ("clash", theme.BAD)
        for a in att:
            for x in dfn:
                self.effects.append(Effect(kind, self.positions[a], self.positions[x], color=color, duration=0.8))
        return None

    def _on_losses(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        who = d.get("who")
        if who in self.states:
            self.states[who] = self.states[who].with_(minor=int(d.get("minor", 0)), major=int(d.get("major", 0)))
            self.effects.append(Effect("float", self.positions[who], text=f"-{d.get('n', '')}", color=theme.BAD,
                                       duration=1.0))
        return None

    def _on_healed(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        who = d.get("who")
        if who in self.states:
            self.states[who] = self.states[who].with_(minor=int(d.get("minor", 0)))
            self.effects.append(Effect("float", self.positions[who], text="+1 healed", color=theme.GOOD, duration=1.0))
        return None

    def _on_defeated(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        who = d.get("who")
        if who in self.states:
            self.states[who] = self.states[who].with_(defeated=True)
            self.effects.append(Effect("flash", self.positions[who], text="defeated", color=theme.BAD, duration=1.2))
        return None

    def _on_thrown(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        """A held foe thrown (M13): its token flies to where it lands, with the words of the event."""
        took = self._on_moved(ev, d)
        if took is not None and d.get("to") is not None:
            self.effects.append(Effect("flash", self.center(_xy(d["to"])), text=ev.text,
                                       color=theme.BAD, duration=1.6))
        return took

    def _on_leaving(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        """A runner on the edge (C5): it stays on the board, still a target, until the turn ends."""
        who = d.get("who")
        if who in self.positions:
            self.effects.append(Effect("flash", self.positions[who], text="leaves at the end of the turn (C5)",
                                       color=theme.ACCENT, duration=1.4))
        return None

    def _on_fled(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        who = d.get("who")
        if who in self.states:
            self.states[who] = self.states[who].with_(fled=True)
        return None

    def _on_door(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        """A door opened by a step through it (M4), or set by the game master: drawn so from now on."""
        if isinstance(d.get("door"), str) and isinstance(d.get("state"), str):
            self.doors[d["door"]] = d["state"]
        return 0.3

    def _on_advantage(self, ev: Event, d: Mapping[str, Any]) -> float | None:
        if d.get("who") in self.positions:
            self.effects.append(Effect("float", self.positions[d["who"]], text=f"{int(d.get('value', 0)):+d} vs",
                                       color=theme.GOOD, duration=0.9))
        return None

    # -- drawing ---------------------------------------------------------------------------------------
    def draw(self, screen: pygame.Surface, cam: Camera) -> None:
        for e in self.effects:
            if e.t < 0:
                continue
            k = e.t / e.duration
            a = cam.to_screen(*e.a)
            if e.kind == "arrow":
                b = cam.to_screen(*e.b)
                head = min(1.0, k * 1.6)
                tip = (a[0] + (b[0] - a[0]) * head, a[1] + (b[1] - a[1]) * head)
                arrow(screen, a, tip, Pen(e.color, 3, 12))
            elif e.kind == "clash":
                b = cam.to_screen(*e.b)
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                r = 8 + 18 * math.sin(min(1.0, k) * math.pi)
                for i in range(8):
                    ang = i * math.pi / 4 + k
                    pygame.draw.line(screen, e.color, mid, (mid[0] + r * math.cos(ang), mid[1] + r * math.sin(ang)), 3)
                pygame.draw.circle(screen, (255, 240, 200), mid, max(2, int(r / 3)))
            elif e.kind in ("float", "flash"):
                rise = 30 * k if e.kind == "float" else 0
                size = 20 if e.kind == "float" else 16
                label = theme.text(e.text[:90], size, e.color, True)
                rect = label.get_rect(center=(a[0], a[1] - 28 - rise))
                plate = pygame.Surface(rect.inflate(10, 4).size, pygame.SRCALPHA)
                plate.fill((10, 10, 14, 190))
                screen.blit(plate, rect.inflate(10, 4))
                screen.blit(label, rect)
        if self.banner and self.banner_t > 0:
            draw_banner(screen, cam, self.banner, min(1.0, self.banner_t * 3))
        if self.waiting:
            hint = theme.text("step mode: Space / Right for the next event, Esc to finish", 14, theme.ACCENT)
            screen.blit(hint, hint.get_rect(midbottom=(cam.view_x + cam.view_w // 2, cam.view_y + cam.view_h - 10)))


# event type -> the beat that starts it (None from a handler: the type's usual duration)
_HANDLERS: dict[str, Callable[[Player, Event, Mapping[str, Any]], float | None]] = {
    "phase": Player._on_phase,
    "turn_start": Player._on_turn_start,
    "moved": Player._on_moved,
    "stopped": Player._on_stop,
    "collided": Player._on_stop,
    "jumped": Player._on_stop,
    "contest": Player._on_contest,
    "losses": Player._on_losses,
    "healed": Player._on_healed,
    "defeated": Player._on_defeated,
    "fled": Player._on_fled,
    "thrown": Player._on_thrown,
    "leaving": Player._on_leaving,
    "advantage": Player._on_advantage,
    "door": Player._on_door,
}


def draw_banner(screen: pygame.Surface, cam: Camera, words: str, alpha: float) -> None:
    label = theme.text(words, 26, theme.ACCENT, True)
    rect = label.get_rect(center=(cam.view_x + cam.view_w // 2, cam.view_y + 54))
    plate = pygame.Surface(rect.inflate(40, 16).size, pygame.SRCALPHA)
    plate.fill((12, 12, 16, round(210 * alpha)))
    screen.blit(plate, rect.inflate(40, 16))
    label.set_alpha(round(255 * alpha))
    screen.blit(label, rect)
    label.set_alpha(None)


def _along(points: list[tuple[float, float]], k: float) -> tuple[float, float]:
    if len(points) == 1 or k >= 1:
        return points[-1]
    seg = k * (len(points) - 1)
    i = int(seg)
    f = seg - i
    a, b = points[i], points[i + 1]
    return a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f


def _xy(square: Any) -> XY:
    """A square as an event's data holds it (a list, read back from a save) as a square."""
    x, y = square
    return (x, y)
