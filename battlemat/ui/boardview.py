"""Drawing the board each frame for one side's knowledge: map, plans, tokens, playback, hover
explanations, status line.

A `BoardView` draws what its `Knowledge` lets it show (the game master's, everything, in the window
today); a players' window is a second instance with their side's knowledge. The play screen's other
parts that draw on the board are its `Layer`s. Everything is drawn inside the board rectangle (and
the status line below it), never over the panels, which lets the app keep the panels' pixels
between frames (App._draw_ui).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import pygame

from battlemat.core import uses
from battlemat.core.movement import Reach
from battlemat.core.types import XY, CharId
from battlemat.labels import labels_by_id
from battlemat.log import hazard_name
from battlemat.ui import fog, overlays, theme
from battlemat.ui.cards import Line, character_lines, forecast_lines
from battlemat.ui.context import PlayContext
from battlemat.ui.declaring import Declaring
from battlemat.ui.forecast import AttackForecast, Forecasts, aimed_at
from battlemat.ui.knowledge import GM, Knowledge
from battlemat.ui.move_preview import refusal_text
from battlemat.ui.tokens import TokenLook, draw_tokens, token_at
from battlemat.ui.walls_view import WallsView, door_hint, edge_words


class Layer:
    """A part of the play screen drawn on the board, around the board's own drawing.

    Layers nest like wrappers, the first outermost: each draws before the board's plans in the
    order given (`under_plans`) and after them, after the tokens and after the whole board in the
    reverse order (`over_plans`, `over_tokens`, `over_board`); the outermost is asked first whether
    it takes the hover (`hover`), and the others add to the board's hover in reverse (`after_hover`).
    Each hook does nothing unless the layer draws there."""

    def under_plans(self, surface: pygame.Surface) -> None:
        """Under the move preview and the declared intents (the plans)."""

    def over_plans(self, surface: pygame.Surface) -> None:
        """Over the plans, under the tokens."""

    def over_tokens(self, surface: pygame.Surface) -> None:
        """Over the tokens, under the hover."""

    def hover(self, surface: pygame.Surface) -> bool:
        """The hover drawn by this layer instead of the board's (True), or nothing (False)."""
        return False

    def after_hover(self, surface: pygame.Surface) -> None:
        """Over the board's hover."""

    def over_board(self, surface: pygame.Surface) -> None:
        """Over the whole board, after the status line."""

    def holds_pointer(self) -> bool:
        """While True the board draws no route to the pointer (a dragged token's ruler shows it)."""
        return False


class BoardView:
    """The board as one side knows it (`knowledge`), with the selection's move preview (`declaring`)."""

    def __init__(self, ctx: PlayContext, declaring: Declaring, knowledge: Knowledge = GM,
                 layers: Sequence[Layer] = ()) -> None:
        self.ctx = ctx
        self.declaring = declaring
        self.knowledge = knowledge
        self.layers: tuple[Layer, ...] = tuple(layers)
        self.forecasts = Forecasts()
        self.shown_card: tuple[str, ...] = ()  # the words of the last forecast card drawn
        self._walls: WallsView | None = None

    def walls(self) -> WallsView:
        """The walls, doors and lights of the board shown, laid out for its layout (walls_view.py)."""
        if self._walls is None or self._walls.lay is not self.ctx.layout:
            self._walls = WallsView(self.ctx.layout)
        return self._walls

    # -- what this view shows --------------------------------------------------------------------
    def positions(self) -> dict[CharId, tuple[float, float]]:
        """Token centres in map pixels of the characters this view shows, where it knows them."""
        k, ctx = self.knowledge, self.ctx
        out = {c: p for c, p in ctx.positions().items() if k.shows(c)}
        if ctx.player is None:
            out.update({c: ctx.layout.center(sq) for c, sq in k.seen_at.items() if c in out})
        return out

    def shows_intent(self, cid: CharId) -> bool:
        """Whether this view draws `cid`'s declared intent: the table's own, the NPCs' in GM mode when
        the knowledge has them, of a character it shows."""
        k, ctx = self.knowledge, self.ctx
        return ctx.visible_intent(cid) and k.shows(cid) and (k.npc_intents or ctx.session.is_pc(cid))

    def _layers(self) -> tuple[Layer, ...]:
        return self.layers if self.knowledge.overlays else ()

    # -- what is under the pointer --------------------------------------------------------------
    def token_under(self, pos: tuple[int, int]) -> CharId | None:
        states = self.ctx.display_states()
        alive = {c: p for c, p in self.positions().items() if states[c].active}
        return token_at(self.ctx.cam, self.ctx.layout.cell, alive, *pos)

    def square_under(self, pos: tuple[int, int]) -> XY | None:
        if not self.ctx.frame.board.collidepoint(pos):
            return None
        return self.ctx.layout.pick(*self.ctx.cam.to_map(*pos))

    def square_words(self, sq: XY) -> str:
        """A square's terrain in words, a hazard by its name on the map first."""
        board = self.ctx.session.board
        words = f"{sq}: {board.describe(sq)}"
        name = hazard_name(board, sq)
        words = f"{sq}: the {name} - {words.split(': ', 1)[-1]}" if name else words
        edges = edge_words(board, sq)  # walls and doors on its edges, doors as this turn has them
        return words + (" - " + "; ".join(edges) if edges else "")

    def forecast_for(self, target: CharId) -> AttackForecast | None:
        """The selected draft aimed at `target`, forecast from the intents this side may see; the
        others (secret) stay where they are, and the forecast says so."""
        ctx = self.ctx
        d, s = ctx.sel.draft, ctx.session
        if d is None:
            return None
        known = {cid: it for cid, it in s.declared.items() if ctx.visible_intent(cid) and cid != d.who}
        unknown = [cid for cid in s.active() if cid != d.who and not ctx.visible_intent(cid)]
        return self.forecasts.get(ctx.enc, s.state, known, aimed_at(ctx.enc, d, target), unknown, s.match.memory)

    # -- drawing ---------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        ctx = self.ctx
        now = time.monotonic()
        board = ctx.frame.board
        x0, y0, x1, y1 = ctx.cam.visible_map_rect()
        if x0 < 0 or y0 < 0 or x1 > ctx.art.width or y1 > ctx.art.height:
            surface.fill(theme.BG, board)  # only where the map does not cover the view
        ctx.art.draw(surface, ctx.cam)
        clip = surface.get_clip()
        surface.set_clip(board)
        layers = self._layers()
        walls = self.walls()
        if not walls.empty:
            walls.draw_lights(surface, ctx.cam)
        for layer in layers:
            layer.under_plans(surface)
        if ctx.player is None:
            self.draw_plans(surface, hide_pointer=any(layer.holds_pointer() for layer in layers))
        for layer in reversed(layers):
            layer.over_plans(surface)
        if not walls.empty:  # over the terrain view (V) and the reach's fill and edges, under the tokens
            shown = ctx.session.board if ctx.player is None else ctx.session.board.with_doors(ctx.player.doors)
            shown = shown if self.knowledge.doors is None else shown.with_doors(self.knowledge.doors)  # (a side's)
            walls.draw(surface, ctx.cam, shown)  # (while a turn plays, its doors open as the steps reach them)
        fog.draw(surface, ctx, self.knowledge)  # a side's view: what it does not see now (the GM's has none)
        positions = self.positions()
        states = ctx.display_states()
        hover_tok = self.token_under(ctx.mouse) if board.collidepoint(ctx.mouse) else None
        target = ctx.sel.draft.target if ctx.sel.draft else None
        labels = labels_by_id(ctx.enc.characters)  # GS1, GS2 where initials repeat (as in simulate tables)
        looks = [
            TokenLook(c, ctx.color_of(c.id), states[c.id], positions[c.id], c.id == ctx.sel.who,
                      c.id == hover_tok, c.id == target,
                      c.id in ctx.session.declared and self.shows_intent(c.id) and ctx.player is None,
                      labels[c.id], c.defeat_threshold(ctx.enc.rules))
            for c in ctx.enc.characters if c.id in positions
        ]
        draw_tokens(surface, ctx.cam, ctx.layout.cell, looks, now)
        for layer in reversed(layers):
            layer.over_tokens(surface)
        if ctx.player is not None:
            ctx.player.draw(surface, ctx.cam)
        elif not any(layer.hover(surface) for layer in layers):
            self.draw_hover(surface, hover_tok)
            for layer in reversed(layers):
                layer.after_hover(surface)
        surface.set_clip(clip)
        self.draw_status(surface)
        for layer in reversed(layers):
            layer.over_board(surface)

    def draw_plans(self, surface: pygame.Surface, hide_pointer: bool = False) -> None:
        """Reach, route, range bands and everyone's visible intents. `hide_pointer`: no route to the
        pointer (a dragged token's ruler shows the route a drop would declare)."""
        ctx = self.ctx
        lay, cam = ctx.layout, ctx.cam
        rc = self.declaring.current_reach()
        if rc is not None and ctx.preview.fill is not None:
            ctx.preview.fill.draw(surface, cam)
            if ctx.preview.refused is not None:
                ctx.preview.refused.draw(surface, cam)
        bands = self.declaring.current_bands()
        if bands is not None:
            bands.draw(surface, cam)
        self._draw_intents(surface)
        d = ctx.sel.draft
        if d is not None and ctx.sel.who is not None:
            start = ctx.session.position(ctx.sel.who)
            hover = None if hide_pointer else self.square_under(ctx.mouse)
            charging = uses.charge_picks_square(ctx.enc.rules, d.use, d.target)  # M7: the charge picks its square
            if rc is not None and hover is not None and rc.can_end(hover) and not charging and start is not None:
                route = rc.route_to(hover)
                jumps = tuple(o for s in route.jumps for o in s.over)
                overlays.draw_route(surface, cam, lay, overlays.RouteShape(start, tuple(route.squares), jumps),
                                    theme.ROUTE)
            elif d.to is not None and start is not None:
                squares = tuple(d.path) if d.path else (d.to,)
                overlays.draw_route(surface, cam, lay, overlays.RouteShape(start, squares), theme.ACCENT)

    def _draw_intents(self, surface: pygame.Surface) -> None:
        """Each declared intent this view shows: its route (but the selection's) and an arrow to its target."""
        ctx = self.ctx
        lay, cam = ctx.layout, ctx.cam
        positions = {c: at for c in ctx.session.active()
                     if (at := ctx.session.position(c)) is not None and self.knowledge.shows(c)}
        for cid, it in ctx.session.declared.items() if ctx.ghost is None else ():  # (the ghosts show them)
            start = positions.get(cid)
            if not self.shows_intent(cid) or start is None:
                continue
            color = ctx.color_of(cid)
            end = it.to if it.to is not None else start
            if cid != ctx.sel.who and it.to is not None:
                squares = tuple(it.path) if it.path else (it.to,)
                overlays.draw_route(surface, cam, lay, overlays.RouteShape(start, squares), color)
            aim = positions.get(it.target) if it.target else None
            if aim is not None:
                a = cam.to_screen(*lay.center(end))
                b = cam.to_screen(*lay.center(aim))
                overlays.arrow(surface, a, b, overlays.Pen(color, 2, 10, shorten=lay.cell * 0.4 * cam.zoom,
                                                           dashed=not ctx.session.is_pc(cid)))

    def draw_hover(self, surface: pygame.Surface, hover_tok: CharId | None) -> None:
        ctx = self.ctx
        if not ctx.frame.board.collidepoint(ctx.mouse):
            return
        if hover_tok is not None:
            self._hover_token(surface, hover_tok)
            return
        if ctx.gm_mode and ctx.player is None and self._hover_door():  # (a token under the pointer came first)
            return
        sq = self.square_under(ctx.mouse)
        if sq is None:
            return
        overlays.square_outline(surface, ctx.cam, ctx.layout, sq, (255, 255, 255), 1)
        d, who = ctx.sel.draft, ctx.sel.who
        rc = self.declaring.current_reach()
        if rc is not None and d is not None and who is not None:
            self._hover_square(surface, rc, sq, ctx.session.position(who))
        elif ctx.player is None and who is None:
            ctx.set_status(self.square_words(sq))
            edges = edge_words(ctx.session.board, sq)
            if edges:  # a square next to a wall or a door: its card says which side (M1, M4)
                ctx.cards.draw(surface, [Line(f"{sq}", theme.TEXT, True), *(Line(e) for e in edges)], ctx.mouse,
                               ctx.frame.board, 360)

    def _hover_door(self) -> bool:
        """GM mode, the pointer on a door: the status line says what a click does to it (doors.py)."""
        door = self.walls().door_at(self.ctx.cam, self.ctx.mouse)
        if door is None:
            return False
        live = self.ctx.session.board.door(door.id) or door
        self.ctx.set_status(door_hint(door, live.state), theme.ACCENT)
        return True

    def _hover_square(self, surface: pygame.Surface, rc: Reach, sq: XY, here: XY | None) -> None:
        """A square under the pointer while declaring: reachable, or why not."""
        ctx = self.ctx
        if rc.can_end(sq):
            cost = rc.costs[sq]
            words = f"{sq}: reachable, {cost} of {rc.allowance} squares - click to move here"
            ctx.set_status(words + f" ({ctx.session.board.describe(sq)})", theme.GOOD)
        elif sq != here:
            rule, why = refusal_text(rc.why_not(sq))
            ctx.set_status(f"{sq}: cannot end here - {why} [{rule}]", theme.BAD)
            ctx.cards.draw(surface, [Line(f"Refused [{rule}]", theme.BAD, True), Line(why)], ctx.mouse,
                           ctx.frame.board, 360)

    def _hover_token(self, surface: pygame.Surface, hover_tok: CharId) -> None:
        """A token under the pointer: the selected attack's forecast on it, else its sheet."""
        ctx = self.ctx
        board = ctx.frame.board
        d, who = ctx.sel.draft, ctx.sel.who
        c = ctx.enc.by_id[hover_tok]
        if d is not None and who is not None and hover_tok != who:
            half = ctx.enc.rules.halves[d.use]
            # The forecast resolves the turn with what this side may know (a secret intent stays
            # secret, P: its owner is assumed to stay where it is, and the card says so).
            p = self.forecast_for(hover_tok) if half.act == "attack" else None
            ends = p.found.state if p is not None else None  # sight is taken after movement (R4)
            a = ctx.session.position(who, ends) if ends is not None else \
                (d.to if d.to is not None else ctx.session.position(who))
            b = ctx.session.position(hover_tok, ends)
            lines: list[Line] = []
            if half.ranged and a is not None and b is not None:
                on = ctx.session.board_at(ends) if ends is not None else ctx.session.board
                seen, cover, why = overlays.draw_sight(surface, ctx.cam, ctx.layout, a, b, on)
                lines.append(Line("line of sight: " + ("clear" if seen and not cover else
                                  f"{cover} cover square(s), -1 each (R4)" if seen else why),
                                  theme.GOOD if seen else theme.BAD))
            if p is not None:
                lines = forecast_lines(ctx.enc, p, ctx.session.match.dice.name) + lines
            self.shown_card = tuple(ln.text for ln in lines)
            if lines:
                ctx.cards.draw(surface, lines, ctx.mouse, board)
                return
        st = ctx.display_states()[hover_tok]
        lines = character_lines(ctx.enc, c, st, ctx.color_of(hover_tok)) if self.knowledge.sheets else \
            [Line(c.name, ctx.color_of(hover_tok), True, 17), Line(c.side, theme.TEXT_DIM)]
        ctx.cards.draw(surface, lines, ctx.mouse, board)

    def draw_status(self, surface: pygame.Surface) -> None:
        ctx = self.ctx
        r = ctx.frame.status
        surface.fill(theme.PANEL, r)
        pygame.draw.line(surface, theme.PANEL_EDGE, r.topleft, r.topright)
        label = theme.text(ctx.status[:220], 14, ctx.status_color)
        clip = surface.get_clip()
        surface.set_clip(r)
        surface.blit(label, (r.x + 8, r.y + (r.height - label.get_height()) // 2))
        surface.set_clip(clip)
