"""The whole-turn prediction on the play screen (P or the Predict button): the next turn as
`battlemat.predict` resolves it, drawn over the board as ghosts (ghost.py lays it out).

A part of the play screen and a layer of its board view (`boardview.Layer`), drawn over the tokens.
"""

from __future__ import annotations

import math

import pygame

from battlemat.core.errors import BattlematError
from battlemat.core.types import XY, CharId
from battlemat.ui import overlays, theme
from battlemat.ui.boardview import Layer
from battlemat.ui.context import PlayContext
from battlemat.ui.ghost import Ghost, build_ghost, ghost_key
from battlemat.ui.tokens import initials, radius

FAILED = (150, 156, 170)  # an attack or a move that comes to nothing


class Ghosts(Layer):
    """The play screen's predicted turn: `ctx.ghost` while it shows."""

    def __init__(self, ctx: PlayContext) -> None:
        self.ctx = ctx

    def toggle(self) -> None:
        if self.ctx.ghost is not None:
            self.clear()
            self.ctx.set_status("Prediction cleared.", theme.TEXT)
            return
        if self.ctx.session.outcome().over:
            self.ctx.set_status("The combat is over: there is no next turn to predict.", theme.ACCENT)
            return
        if self._predict():
            self.ctx.set_status("Predicted turn shown as ghosts: P or Esc clears it.", theme.ACCENT)
        self.ctx.refresh()

    def clear(self) -> None:
        self.ctx.ghost = None
        self.ctx.refresh()

    def _predict(self) -> bool:
        try:
            self.ctx.ghost = build_ghost(self.ctx.session, self.ctx.gm_mode)
        except BattlematError as exc:
            self.ctx.ghost = None
            self.ctx.set_status(f"Cannot predict: {exc}", theme.BAD)
            return False
        return True

    def over_tokens(self, surface: pygame.Surface) -> None:
        """The ghost layer over the board's tokens, predicted again when the declarations changed."""
        if self.ctx.ghost is None or self.ctx.player is not None:
            return
        if self.ctx.ghost.key != ghost_key(self.ctx.session, self.ctx.gm_mode) and not self._predict():
            return
        g = self.ctx.ghost
        assert g is not None
        for cid, route in g.routes.items():
            overlays.draw_route(surface, self.ctx.cam, self.ctx.layout, overlays.RouteShape(g.starts[cid], route),
                                _faded(self.ctx.color_of(cid)))
        self._draw_attacks(surface, g)
        for cid, end in g.ends.items():
            if cid in g.routes or g.losses.get(cid) or not g.pred.first.state[cid].active:
                self._ghost_token(surface, g, cid, end)
        for guess in g.pred.guesses:
            if guess.who in g.ends:
                self._guess_mark(surface, g.ends[guess.who], len(guess.choices) > 1)
        # (its summary, g.card, is docked beside the board: aids.Aids.over_board)

    def _draw_attacks(self, surface: pygame.Surface, g: Ghost) -> None:
        """An arrow per attacker and defender of each contest, coloured by who won (C3: both strike,
        two arrows side by side); a dashed grey arrow with a cross for an attack that came to nothing."""
        zoom, cell = self.ctx.cam.zoom, self.ctx.layout.cell
        width, head, short = max(2, round(3 * zoom)), 9 + 5 * zoom, cell * 0.42 * zoom
        side = 4 * zoom
        for ev in g.events:
            if ev.type == "contest":
                won = ev.data["winner"]
                mutual = ev.data["kind"] == "interfere"
                for a in ev.data["attackers"]:
                    for d in ev.data["defenders"]:
                        pen = overlays.Pen(_color(won, "attack"), width, head, short)
                        self._arrow(surface, g, (a, d), pen, side if mutual else 0.0)
                        if mutual:
                            pen = overlays.Pen(_color(won, "defense"), width, head, short)
                            self._arrow(surface, g, (d, a), pen, side)
            elif ev.type == "no_effect" and ev.data.get("target") and self._attacks(ev.data.get("use")):
                pen = overlays.Pen(FAILED, width, head, short, dashed=True)
                self._arrow(surface, g, (ev.data["who"], ev.data["target"]), pen, 0.0, cross=True)

    def _attacks(self, use: object) -> bool:
        half = self.ctx.enc.rules.halves.get(use) if isinstance(use, str) else None
        return half is not None and half.act == "attack"

    def _arrow(self, surface: pygame.Surface, g: Ghost, pair: tuple[CharId, CharId], pen: overlays.Pen,
               shift: float, cross: bool = False) -> None:
        """An arrow between two characters' end squares, moved `shift` pixels to its left."""
        a, b = pair
        if a not in g.ends or b not in g.ends:
            return
        pa = self.ctx.cam.to_screen(*self.ctx.layout.center(g.ends[a]))
        pb = self.ctx.cam.to_screen(*self.ctx.layout.center(g.ends[b]))
        dx, dy = pb[0] - pa[0], pb[1] - pa[1]
        length = math.hypot(dx, dy) or 1.0
        ox, oy = dy / length * shift, -dx / length * shift
        pa, pb = (pa[0] + ox, pa[1] + oy), (pb[0] + ox, pb[1] + oy)
        overlays.arrow(surface, pa, pb, pen)
        if cross:
            mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
            k = 5 + 3 * self.ctx.cam.zoom
            pygame.draw.line(surface, theme.BAD, (mx - k, my - k), (mx + k, my + k), 3)
            pygame.draw.line(surface, theme.BAD, (mx - k, my + k), (mx + k, my - k), 3)

    def _guess_mark(self, surface: pygame.Surface, end: XY, unsure: bool) -> None:
        """A '?' tag above the left of a guessed character's predicted square ('??' when the AI's draws
        disagree): its intent is a guess, the card says what else the AI might do."""
        cx, cy = self.ctx.cam.to_screen(*self.ctx.layout.center(end))
        r = radius(self.ctx.layout.cell, self.ctx.cam.zoom)
        mark = theme.text("??" if unsure else "?", 14, (20, 20, 24), True)
        box = mark.get_rect(midright=(round(cx - r * 0.6), round(cy - r * 0.9))).inflate(8, 2)
        pygame.draw.rect(surface, GUESS, box, border_radius=4)
        surface.blit(mark, mark.get_rect(center=box.center))

    def _ghost_token(self, surface: pygame.Surface, g: Ghost, cid: CharId, end: XY) -> None:
        """A see-through token where `cid` ends, with the losses it suffers ('-2') or a cross when it
        falls."""
        cx, cy = self.ctx.cam.to_screen(*self.ctx.layout.center(end))
        r = radius(self.ctx.layout.cell, self.ctx.cam.zoom)
        after = g.pred.first.state[cid]
        sprite = g.sprites.get((cid, r))
        if sprite is None:
            sprite = g.sprites[cid, r] = pygame.Surface((2 * r + 4, 2 * r + 4), pygame.SRCALPHA)
            pygame.draw.circle(sprite, (*self.ctx.color_of(cid), 110), (r + 2, r + 2), r)
            pygame.draw.circle(sprite, (255, 255, 255, 200), (r + 2, r + 2), r, 2)
            label = theme.text(initials(self.ctx.enc.by_id[cid].name), max(10, round(r * 0.8)), (255, 255, 255), True)
            label = label.copy()  # (the text cache's surface is shared)
            label.set_alpha(190)
            sprite.blit(label, label.get_rect(center=(r + 2, r + 2)))
        surface.blit(sprite, (round(cx) - r - 2, round(cy) - r - 2))
        if not after.active:
            k = r * 0.8
            pygame.draw.line(surface, theme.BAD, (cx - k, cy - k), (cx + k, cy + k), 4)
            pygame.draw.line(surface, theme.BAD, (cx - k, cy + k), (cx + k, cy - k), 4)
        n = g.losses.get(cid, 0)
        if n or not after.active:
            words = ("defeated" if after.defeated else "fled" if after.fled else "") if not after.active else ""
            badge = theme.text(f"-{n}" + (f" {words}" if words else "") if n else words, 14, (255, 255, 255), True)
            box = badge.get_rect(midleft=(cx + r * 0.6, cy - r * 0.9)).inflate(8, 2)
            pygame.draw.rect(surface, theme.BAD, box, border_radius=4)
            surface.blit(badge, badge.get_rect(center=box.center))


GUESS = (255, 214, 90)  # the mark of an intent the AI guessed


def _faded(color: tuple[int, int, int]) -> tuple[int, int, int]:
    return (int(color[0] * 0.55 + 110), int(color[1] * 0.55 + 110), int(color[2] * 0.55 + 110))


def _color(winner: str, side: str) -> theme.Color:
    """Green for the side that wins its contest, red for the side that loses, grey for a tie."""
    return theme.GOOD if winner == side else FAILED if winner == "tie" else theme.BAD
