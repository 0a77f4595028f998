"""Dragging a token to move it, with a live ruler along the route.

Press on the selected character's token and drag: the ruler follows the pointer and shows the route
a drop would declare, the squares it uses of the allowance, and where it stops and by which rule.
Dropping declares the move exactly as clicking the square does; Esc or the right button cancels.
Where the skill lets the mover choose its path, Shift (or the middle button) pins the square under
the pointer as a waypoint; a skill whose rules data says it charges (M7) takes no waypoints, and the
ruler says why in the movement module's own words.

Nothing here knows a rule. The route is `movement.plan_route`'s, the resolver's own function, for
the intent the drop would declare; legs between waypoints come from `movement.reach` and the whole
path is walked again by `movement.follow` (through plan_route), so costs, jumps and the first step
a rule refuses are the movement module's Steps and Refusals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import pygame

from battlemat.core import movement, uses
from battlemat.core.encounter import Encounter
from battlemat.core.errors import BattlematError
from battlemat.core.intents import Intent
from battlemat.core.memory import MatchMemory
from battlemat.core.movement.results import off_line
from battlemat.core.types import XY, CharId
from battlemat.ui import input as keys
from battlemat.ui import overlays, theme
from battlemat.ui.boardview import BoardView, Layer
from battlemat.ui.cards import Line, draw_card
from battlemat.ui.context import PlayContext
from battlemat.ui.declaring import Declaring

WAYPOINT_COLOR = (120, 220, 255)


@dataclass(frozen=True)
class Stop:
    """A place the ruler names: a waypoint, the end, or the square where a rule stops the route."""

    at: XY
    cost: int  # squares of the allowance used on arriving there
    rule: str  # the rule ID of a refusal; "" for a waypoint or a lawful end
    words: str


@dataclass(frozen=True)
class Ruler:
    """The route a drop on `to` would declare, as the movement module walks it."""

    route: movement.Route  # what the resolver follows for the declared intent (plan_route)
    allowance: int
    to: XY
    waypoints: tuple[XY, ...] = ()
    refusal: movement.Refusal | None = None  # why a drop on `to` is refused; None: it declares the move
    path: tuple[XY, ...] = ()  # the intent's path a drop declares (with waypoints)

    @property
    def used(self) -> int:
        return self.route.cost

    @property
    def stops(self) -> tuple[Stop, ...]:
        """Each waypoint the route passes, then its end: where the drop ends the move, or where and
        why the route stops (the Refusal's rule ID and words)."""
        cost_at: dict[XY, int] = {}
        for s in self.route.steps:
            cost_at.setdefault(s.to, s.cost)
        out = [Stop(w, cost_at[w], "", "waypoint") for w in self.waypoints if w in cost_at]
        if self.refusal is None:
            out.append(Stop(self.route.end, self.used, "", "ends here"))
        else:
            at = self.route.stopped_at if self.route.steps and self.route.stopped_at is not None else self.to
            out.append(Stop(at, self.used, self.refusal.rule, self.refusal.why))
        return tuple(out)


def mover_and_context(enc: Encounter, chars: Mapping[CharId, Any], draft: Intent,
                      declared: Mapping[CharId, Intent], memory: MatchMemory) -> tuple[Any, Any] | None:
    """The Mover and Context the move preview uses (preview.reach_for), or None for a draft the
    movement module cannot make a mover of (the resolver's check says why on declaring)."""
    if chars[draft.who].at is None:
        return None
    try:
        mover = movement.mover_for(memory, chars, draft.who, draft.use, draft.target, draft.item)
    except (BattlematError, KeyError):
        return None
    ctx = movement.context(enc, chars, enc.by_id[draft.who].side, uses.sticky_uses(enc.rules, declared), who=draft.who)
    return mover, ctx


def waypoint_refusal(enc: Encounter, mover: Any) -> movement.Refusal | None:
    """Why this mover may not choose its path: a half that charges (rules data `charges`) moves in
    as straight a line as possible, in the movement module's words; None when it may."""
    if uses.charges(enc.rules, mover.use):
        return off_line(mover.target_name or "its target")
    return None


def measure(enc: Encounter, board: Any, mover: Any, ctx: Any, to: XY, waypoints: tuple[XY, ...] = ()) -> Ruler:
    """The ruler for a drop on `to` after `waypoints`. Without waypoints the drop declares what a
    click declares (the reach's route to the square); with them, each leg is the reach's cheapest
    route from the last waypoint, and the whole path is walked again from the start."""
    rules = enc.rules
    if not waypoints:
        rc = movement.reach(board, rules, mover, ctx)
        path = tuple(rc.route_to(to).squares) if rc.can_end(to) else ()
        refusal = None if to == mover.at or rc.can_end(to) else rc.why_not(to)
        route = movement.plan_route(board, rules, mover, ctx, movement.Plan(to, path, ctx))
        if refusal is not None:  # nothing is declared: no route, and the reach's reason
            route = movement.Route(mover.at, (), refusal, mover.at)
        return Ruler(route, mover.allowance, to, (), refusal, path)
    squares: list[XY] = []
    at, refusal = mover.at, None
    for goal in (*waypoints, to):
        if goal == at:
            continue
        leg = movement.reach(board, rules, mover._replace(at=at), ctx)  # its route is the cheapest
        if not leg.can_end(goal):
            refusal = leg.why_not(goal)
            break
        squares += leg.route_to(goal).squares
        at = goal
    path = tuple(squares)
    # The whole path walked from the start under the rules: what it costs and where it stops (the
    # allowance counted over every leg, M1) is the movement module's answer, not the legs'.
    route = (movement.plan_route(board, rules, mover, ctx, movement.Plan(to, path, ctx)) if path
             else movement.Route(mover.at, ()))
    if route.stopped is not None and route.end != (path[-1] if path else mover.at):
        refusal = route.stopped
    elif refusal is not None:
        route = movement.Route(mover.at, route.steps, refusal, route.end)
    return Ruler(route, mover.allowance, to, waypoints, refusal, path)


@dataclass
class Drag:
    """A press on the selected token: a click until it moves past the threshold, then a drag."""

    who: CharId
    press: tuple[int, int]  # where the button went down (screen)
    active: bool = False
    waypoints: list[XY] = field(default_factory=list)
    ruler: Ruler | None = None
    note: movement.Refusal | None = None  # a waypoint refused, and why


@dataclass(frozen=True)
class Refused:
    """A drop the rules refused: shown where it fell until the pointer moves."""

    pos: tuple[int, int]
    at: XY
    why: movement.Refusal


class Dragging(Layer):
    """The play screen's token dragging: the gesture, the ruler, the drop. A layer of the board view:
    the ruler over the plans, its card (or a refused drop's) instead of the board's hover. A press
    that never moved is a click (`click`, the play screen's)."""

    def __init__(self, ctx: PlayContext, board: BoardView, declaring: Declaring,
                 click: Callable[[tuple[int, int]], None]) -> None:
        self.ctx = ctx
        self.board = board
        self.declaring = declaring
        self.click = click
        self.drag: Drag | None = None
        self.refused: Refused | None = None

    def holds_pointer(self) -> bool:
        return self.token_dragged()

    def over_plans(self, surface: pygame.Surface) -> None:
        if self.token_dragged():
            self.draw_ruler(surface)

    def hover(self, surface: pygame.Surface) -> bool:
        return self.draw_drag_hover(surface)

    # -- the gesture -----------------------------------------------------------------------------
    def drag_press(self, pos: tuple[int, int]) -> bool:
        """A left press on the selected character's token, with a skill picked, may start a drag."""
        sel = self.ctx.sel
        who = sel.who
        if self.ctx.player is not None or who is None or sel.draft is None or self.board.token_under(pos) != who:
            return False
        self.drag = Drag(who, pos)
        return True

    def token_dragged(self) -> bool:
        return self.drag is not None and self.drag.active

    def drag_motion(self, pos: tuple[int, int]) -> bool:
        d = self.drag
        if d is None:
            return False
        if not d.active and abs(pos[0] - d.press[0]) + abs(pos[1] - d.press[1]) > keys.DRAG_THRESHOLD:
            d.active = True
        if d.active:
            self._measure()
        return True

    def drag_release(self, pos: tuple[int, int]) -> bool:
        """The left button comes up: a drop ends the drag, a press that never moved is a click."""
        d = self.drag
        if d is None:
            return False
        self.drag = None
        if not d.active:
            self.click(pos)
        else:
            self._drop(d, pos)
        return True

    def drag_button(self, button: int) -> bool:
        """Another button during a drag: the right one cancels, the middle one pins a waypoint."""
        if not self.token_dragged():
            return False
        if button == keys.CANCEL_DRAG_BUTTON:
            self.cancel_drag()
        elif button == keys.WAYPOINT_BUTTON:
            self.add_waypoint()
        return True

    def drag_key(self, key: int) -> bool:
        """Keys during a drag: Esc cancels, Shift pins a waypoint, Backspace unpins the last one."""
        if not self.token_dragged():
            return False
        if key in keys.CANCEL_DRAG_KEYS:
            self.cancel_drag()
        elif key in keys.WAYPOINT_KEYS:
            self.add_waypoint()
        elif key in keys.UNPIN_KEYS:
            assert self.drag is not None
            if self.drag.waypoints:
                self.drag.waypoints.pop()
            self.drag.note = None
            self._measure()
        else:
            return False
        return True

    def cancel_drag(self) -> None:
        self.drag = None
        self.ctx.set_status("Move not changed (drag cancelled).", theme.TEXT)

    def add_waypoint(self) -> None:
        """Pin the square under the pointer, when the skill lets the mover choose its path."""
        d = self.drag
        assert d is not None
        sq = self.board.square_under(self.ctx.mouse)
        found = self._mover()
        if sq is None or found is None:
            return
        why = waypoint_refusal(self.ctx.enc, found[0])
        if why is not None:
            d.note = why
            self.ctx.set_status(f"No waypoints: {tagged(why.why, why.rule)}", theme.BAD)
            return
        if sq != found[0].at and (not d.waypoints or d.waypoints[-1] != sq):  # a held Shift repeats
            d.waypoints.append(sq)
        self._measure()

    def drag_looks(self) -> object:
        d = self.drag
        return self.refused if d is None else (d.active, tuple(d.waypoints), d.ruler, d.note)

    # -- the ruler -------------------------------------------------------------------------------
    def _mover(self) -> tuple[Any, Any] | None:
        d, who = self.ctx.sel.draft, self.ctx.sel.who
        if d is None or who is None:
            return None
        visible = {c: it for c, it in self.ctx.session.declared.items() if self.ctx.visible_intent(c) and c != who}
        return mover_and_context(self.ctx.enc, self.ctx.session.chars_view(), d, visible, self.ctx.session.match.memory)

    def ruler_at(self, sq: XY, waypoints: tuple[XY, ...] = ()) -> Ruler | None:
        """The ruler for the selected character's draft dropped on `sq` after `waypoints`."""
        found = self._mover()
        if found is None:
            return None
        return measure(self.ctx.enc, self.ctx.session.board, found[0], found[1], sq, waypoints)

    def _measure(self) -> None:
        d = self.drag
        assert d is not None
        sq = self.board.square_under(self.ctx.mouse)
        if sq is None:
            d.ruler = None
            return
        if d.ruler is None or d.ruler.to != sq or d.ruler.waypoints != tuple(d.waypoints):
            d.ruler = self.ruler_at(sq, tuple(d.waypoints))
        r = d.ruler
        if r is not None:
            words = ruler_words(r)
            self.ctx.set_status(words[0] + (f" - {words[-1]}" if len(words) > 1 else ""),
                            theme.BAD if r.refusal else theme.GOOD)

    def _drop(self, d: Drag, pos: tuple[int, int]) -> None:
        """Declare the move the ruler showed, as a click on the square would; or say why not."""
        sq = self.board.square_under(pos)
        draft = self.ctx.sel.draft
        if sq is None or self.ctx.player is not None or self.ctx.sel.who != d.who or draft is None:
            self.ctx.set_status("Move not changed (dropped off the board).", theme.TEXT)
            return
        r = self.ruler_at(sq, tuple(d.waypoints))
        if r is not None and r.refusal is not None:
            self.refused = Refused(pos, sq, r.refusal)
            self.ctx.set_status(refused_words(sq, r.refusal), theme.BAD)
            return
        if not d.waypoints or r is None:
            self.declaring.set_destination(sq)  # exactly what a click on the square does
            return
        self.ctx.sel.draft = replace(draft, to=sq if r.path else None, path=r.path)
        self.declaring.commit()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_ruler(self, surface: pygame.Surface) -> None:
        """The route the drop would declare, each step's squares used, waypoints and the stop."""
        d = self.drag
        if d is None or d.ruler is None:
            return
        r, cam, lay = d.ruler, self.ctx.cam, self.ctx.layout
        route = r.route
        color = theme.BAD if r.refusal is not None else theme.ROUTE
        jumps = tuple(o for s in route.jumps for o in s.over)
        overlays.draw_route(surface, cam, lay, overlays.RouteShape(route.origin, route.squares, jumps), color)
        for s in route.steps:  # the ruler's marks: squares used so far
            label = theme.text(str(s.cost), 13, (20, 20, 20), True)
            x, y = cam.to_screen(*lay.center(s.to))
            box = label.get_rect(center=(round(x), round(y - lay.cell * 0.28 * cam.zoom)))
            pygame.draw.rect(surface, color, box.inflate(6, 2), border_radius=3)
            surface.blit(label, box)
        for i, w in enumerate(d.waypoints):
            x, y = cam.to_screen(*lay.center(w))
            k = max(6, round(lay.cell * 0.22 * cam.zoom))
            pygame.draw.polygon(surface, WAYPOINT_COLOR, [(x, y - k), (x + k, y), (x, y + k), (x - k, y)], 3)
            tag = theme.text(f"W{i + 1}", 12, WAYPOINT_COLOR, True)
            surface.blit(tag, (x + k + 2, y - k))
        if r.refusal is not None:
            stop = r.stops[-1]
            overlays.square_outline(surface, cam, lay, stop.at, theme.BAD, 3)
            x, y = cam.to_screen(*lay.center(stop.at))
            k = max(5, round(lay.cell * 0.2 * cam.zoom))
            pygame.draw.line(surface, theme.BAD, (x - k, y - k), (x + k, y + k), 4)
            pygame.draw.line(surface, theme.BAD, (x - k, y + k), (x + k, y - k), 4)

    def draw_drag_hover(self, surface: pygame.Surface) -> bool:
        """The ruler's card while dragging, or a refused drop's reason until the pointer moves on
        (the status line says it too); False when neither shows, and the board's hover card does."""
        if self.token_dragged():
            self.draw_ruler_card(surface)
            return True
        no = self.refused
        if no is None or no.pos != self.ctx.mouse or self.ctx.player is not None:
            self.refused = None
            return False
        overlays.square_outline(surface, self.ctx.cam, self.ctx.layout, no.at, theme.BAD, 3)
        draw_card(surface, [Line(f"Refused [{no.why.rule}]", theme.BAD, True), Line(no.why.why)], self.ctx.mouse,
                  self.ctx.frame.board, 360)
        self.ctx.set_status(refused_words(no.at, no.why), theme.BAD)
        return True

    def draw_ruler_card(self, surface: pygame.Surface) -> None:
        d = self.drag
        if d is None:
            return
        lines: list[Line] = []
        if d.ruler is None:
            lines.append(Line("Drop on a square of the map (Esc cancels)", theme.TEXT_DIM))
        else:
            words = ruler_words(d.ruler)
            name = self.ctx.enc.by_id[d.who].name
            use = self.ctx.sel.draft.use if self.ctx.sel.draft is not None else ""
            lines.append(Line(f"{name} ({use}): {words[0]}", theme.BAD if d.ruler.refusal else theme.GOOD, True))
            lines += [Line(w, theme.BAD if i == len(words) - 2 and d.ruler.refusal else theme.TEXT)
                      for i, w in enumerate(words[1:])]
        if d.note is not None:
            lines.append(Line(f"No waypoints: {tagged(d.note.why, d.note.rule)}", theme.ACCENT))
        lines += [Line(h, theme.TEXT_DIM, size=12) for h in keys.DRAG_HELP]
        draw_card(surface, lines, self.ctx.mouse, self.ctx.frame.board, 460)


def tagged(words: str, rule: str) -> str:
    """Words with their rule ID in brackets (the movement module's words may end in "(M1)" already)."""
    if not rule:
        return words
    tail = f" ({rule})"
    return f"{words[: -len(tail)] if words.endswith(tail) else words} [{rule}]"


def refused_words(sq: XY, why: movement.Refusal) -> str:
    return f"Cannot end on {sq}: {tagged(why.why, why.rule)}"


def ruler_words(r: Ruler) -> list[str]:
    """The ruler in words: squares used of the allowance, then each stop with its rule ID."""
    out = [f"{r.used} of {r.allowance} squares" + (" - refused" if r.refusal else "")]
    for s in r.stops:
        out.append(f"{s.at} at {s.cost}: {tagged(s.words, s.rule)}")
    return out
