"""Drawing the board each frame: map, plans, tokens, playback, hover explanations, status line.

Everything is drawn inside the board rectangle (and the status line below it), never over the
panels, which lets the app keep the panels' pixels between frames (App._draw_ui).
"""

from __future__ import annotations

import time

import pygame

from battlemat.labels import labels_by_id
from battlemat.types import XY, CharId
from battlemat.ui import overlays, theme
from battlemat.ui.cards import Line, character_lines, draw_card, prediction_lines
from battlemat.ui.preview import refusal_text
from battlemat.ui.state import ScreenState


class BoardView(ScreenState):
    """The play screen's drawing part."""

    def token_under(self, pos: tuple[int, int]) -> CharId | None:
        from battlemat.ui.tokens import token_at

        states = self.display_states()
        alive = {c: p for c, p in self.positions().items() if states[c].active}
        return token_at(self.cam, self.layout.cell, alive, *pos)

    def square_under(self, pos: tuple[int, int]) -> XY | None:
        if not self.frame.board.collidepoint(pos):
            return None
        return self.layout.pick(*self.cam.to_map(*pos))

    def draw_card(self, surface: pygame.Surface, lines: list[Line], anchor: tuple[int, int], bounds: pygame.Rect,
                  max_width: int = 420) -> pygame.Rect:
        """A card next to the pointer (cards.draw_card); the reading aids keep it still when the
        pointer moves onto it (battlemat.ui.aids)."""
        return draw_card(surface, lines, anchor, bounds, max_width)

    def square_words(self, sq: XY) -> str:
        return f"{sq}: {self.session.board.describe(sq)}"

    def on_draw(self, surface: pygame.Surface) -> None:
        now = time.monotonic()
        board = self.frame.board
        x0, y0, x1, y1 = self.cam.visible_map_rect()
        if x0 < 0 or y0 < 0 or x1 > self.art.width or y1 > self.art.height:
            surface.fill(theme.BG, board)  # only where the map does not cover the view
        self.art.draw(surface, self.cam)
        clip = surface.get_clip()
        surface.set_clip(board)
        self.draw_plans(surface)
        from battlemat.ui.tokens import TokenLook, draw_tokens

        positions = self.positions()
        states = self.display_states()
        hover_tok = self.token_under(self.mouse) if board.collidepoint(self.mouse) else None
        target = self.sel.draft.target if self.sel.draft else None
        labels = labels_by_id(self.enc.characters)  # GS1, GS2 where initials repeat (as in simulate tables)
        looks = [
            TokenLook(c, self.color_of(c.id), states[c.id], positions[c.id], c.id == self.sel.who,
                      c.id == hover_tok, c.id == target,
                      c.id in self.session.declared and self.visible_intent(c.id) and self.player is None,
                      labels[c.id], c.defeat_threshold(self.enc.rules))
            for c in self.enc.characters if c.id in positions
        ]
        draw_tokens(surface, self.cam, self.layout.cell, looks, now)
        self.draw_ghost(surface)
        if self.player is not None:
            self.player.draw(surface, self.cam)
        else:
            self.draw_hover(surface, hover_tok)
        surface.set_clip(clip)
        self.draw_status(surface)

    def draw_plans(self, surface: pygame.Surface) -> None:
        """Reach, route, range bands and everyone's visible intents."""
        if self.player is not None:
            return
        lay = self.layout
        rc = self.current_reach()
        if rc is not None and self.preview.fill is not None:
            self.preview.fill.draw(surface, self.cam)
            if self.preview.refused is not None:
                self.preview.refused.draw(surface, self.cam)
        bands = self.current_bands()
        if bands is not None:
            bands.draw(surface, self.cam)
        positions = {c: self.session.position(c) for c in self.session.active()}
        for cid, it in self.session.declared.items() if self.ghost is None else ():  # (the ghosts show them)
            if not self.visible_intent(cid) or positions.get(cid) is None:
                continue
            color = self.color_of(cid)
            start = positions[cid]
            assert start is not None
            end = it.to if it.to is not None else start
            if cid != self.sel.who and it.to is not None:
                squares = tuple(it.path) if it.path else (it.to,)
                overlays.draw_route(surface, self.cam, lay, overlays.RouteShape(start, squares), color)
            if it.target and positions.get(it.target) is not None:
                a = self.cam.to_screen(*lay.center(end))
                b = self.cam.to_screen(*lay.center(positions[it.target]))  # type: ignore[arg-type]
                overlays.arrow(surface, a, b, overlays.Pen(color, 2, 10, shorten=lay.cell * 0.4 * self.cam.zoom,
                                                           dashed=not self.session.is_pc(cid)))
        d = self.sel.draft
        if d is not None and self.sel.who is not None:
            start = self.session.position(self.sel.who)
            hover = self.square_under(self.mouse)
            charging = bool(d.target) and self.enc.rules.halves[d.use].charges  # M7: the charge picks its square
            if rc is not None and hover is not None and rc.can_end(hover) and not charging:
                route = rc.route_to(hover)
                jumps = tuple(o for s in route.jumps for o in s.over)
                overlays.draw_route(surface, self.cam, lay,
                                    overlays.RouteShape(start, tuple(route.squares), jumps),  # type: ignore[arg-type]
                                    theme.ROUTE)
            elif d.to is not None and start is not None:
                squares = tuple(d.path) if d.path else (d.to,)
                overlays.draw_route(surface, self.cam, lay, overlays.RouteShape(start, squares), theme.ACCENT)

    def draw_hover(self, surface: pygame.Surface, hover_tok: CharId | None) -> None:
        board = self.frame.board
        if not board.collidepoint(self.mouse):
            return
        d, who = self.sel.draft, self.sel.who
        if hover_tok is not None:
            c = self.enc.by_id[hover_tok]
            if d is not None and who is not None and hover_tok != who:
                half = self.enc.rules.halves[d.use]
                # The forecast resolves the turn with what this side may know (a secret intent stays
                # secret, P: its owner is assumed to stay where it is, and the card says so).
                p = self.forecast_for(hover_tok) if half.act == "attack" else None
                ends = p.found.state if p is not None else None  # sight is taken after movement (R4)
                a = self.session.position(who, ends) if ends is not None else \
                    (d.to if d.to is not None else self.session.position(who))
                b = self.session.position(hover_tok, ends)
                lines: list[Line] = []
                if half.ranged and a is not None and b is not None:
                    seen, cover, why = overlays.draw_sight(surface, self.cam, self.layout, a, b)
                    lines.append(Line("line of sight: " + ("clear" if seen and not cover else
                                      f"{cover} cover square(s), -1 each (R4)" if seen else why),
                                      theme.GOOD if seen else theme.BAD))
                if p is not None:
                    lines = prediction_lines(self.enc, p, self.session.match.dice.name) + lines
                self.shown_card = tuple(ln.text for ln in lines)
                if lines:
                    self.draw_card(surface, lines, self.mouse, board)
                    return
            st = self.display_states()[hover_tok]
            self.draw_card(surface, character_lines(self.enc, c, st, self.color_of(hover_tok)), self.mouse, board)
            return
        sq = self.square_under(self.mouse)
        if sq is None:
            return
        overlays.square_outline(surface, self.cam, self.layout, sq, (255, 255, 255), 1)
        rc = self.current_reach()
        if rc is not None and d is not None:
            if rc.can_end(sq):
                cost = rc.costs[sq]
                words = f"{sq}: reachable, {cost} of {rc.allowance} squares - click to move here"
                self.set_status(words + f" ({self.session.board.describe(sq)})", theme.GOOD)
            elif sq != self.session.position(who):  # type: ignore[arg-type]
                rule, why = refusal_text(rc.why_not(sq))
                self.set_status(f"{sq}: cannot end here - {why} [{rule}]", theme.BAD)
                self.draw_card(surface, [Line(f"Refused [{rule}]", theme.BAD, True), Line(why)], self.mouse, board, 360)
        elif self.player is None and who is None:
            self.set_status(self.square_words(sq))

    def draw_status(self, surface: pygame.Surface) -> None:
        r = self.frame.status
        surface.fill(theme.PANEL, r)
        pygame.draw.line(surface, theme.PANEL_EDGE, r.topleft, r.topright)
        label = theme.text(self.status[:220], 14, self.status_color)
        clip = surface.get_clip()
        surface.set_clip(r)
        surface.blit(label, (r.x + 8, r.y + (r.height - label.get_height()) // 2))
        surface.set_clip(clip)
