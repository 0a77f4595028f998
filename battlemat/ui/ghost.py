"""The whole-turn preview (P or the Predict button): the next turn played in a ghost layer on the map.

`battlemat.predict` resolves the turn with the intents this side knows (its own; the NPCs' in GM mode)
and the AI's guesses for every other NPC, on copies (the match's state, random generator, memory and
AI notes are never touched). The first sample is drawn over the board: where everyone ends (ghost
tokens and their routes), who attacks whom (arrows, green when the attack wins, red when it is held,
grey dashed with a cross when it comes to nothing), the losses each suffers; a card lists the losses,
defeats and everything that fails, in the events' own words, and with dice or guesses the spread
over the samples. The prediction follows the declarations: a changed intent predicts again. P again
or Esc clears it; resolving the turn clears it too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from battlemat.core.errors import BattlematError
from battlemat.core.events import Event
from battlemat.predict import DICE_SAMPLES, Question, TurnPrediction, predict_turn, spread_lines, suffered_losses
from battlemat.types import XY, CharId
from battlemat.ui import overlays, theme
from battlemat.ui.cards import Line, draw_card
from battlemat.ui.predict import Forecasts, Prediction, aimed_at
from battlemat.ui.session import Session
from battlemat.ui.state import ScreenState
from battlemat.ui.tokens import initials, radius

CARD_EVENTS = 16  # events on the summary card at most; the log tells the rest once the turn is played
FAILED = (150, 156, 170)  # an attack or a move that comes to nothing


@dataclass(frozen=True)
class Ghost:
    """A predicted turn ready to draw: from what it was predicted (`key`), where everyone starts and
    ends, the routes walked, the contests and failures of the first sample, and its summary card."""

    key: tuple[object, ...]
    pred: TurnPrediction
    starts: dict[CharId, XY]
    ends: dict[CharId, XY]
    routes: dict[CharId, tuple[XY, ...]]
    losses: dict[CharId, int]
    card: tuple[Line, ...]
    sprites: dict[tuple[CharId, int], pygame.Surface] = field(default_factory=dict)  # ghost tokens by zoom

    @property
    def events(self) -> tuple[Event, ...]:
        return self.pred.first.events


def question(session: Session, gm_mode: bool) -> Question:
    """What the window knows of this turn: the declared intents it may see (its own; the NPCs' in GM
    mode) and the NPCs whose intents it does not know, for the AI to guess. Its players' characters
    without an intent stay idle, as they would if the turn were resolved now."""
    s = session
    visible = {cid: it for cid, it in s.declared.items() if (gm_mode or s.is_pc(cid)) and s.state[cid].active}
    fill = tuple(cid for cid in s.active() if not s.is_pc(cid) and cid not in visible)
    known = tuple(visible[c.id] for c in s.enc.characters if c.id in visible)
    dice = s.match.dice.name
    samples = 1 if dice == "none" else DICE_SAMPLES
    return Question(s.enc, s.state, known, fill, dice, samples, s.match.seed, s.state_view())


def ghost_key(session: Session, gm_mode: bool) -> tuple[object, ...]:
    """What a prediction depends on: the session, its state (by identity: a value never changed),
    the declarations and what this side may see of them."""
    return (id(session), id(session.state), tuple(session.declared.items()), gm_mode)


def build_ghost(session: Session, gm_mode: bool) -> Ghost:
    """Predict the turn (battlemat.predict) and lay out what the ghost layer draws."""
    q = question(session, gm_mode)
    pred = predict_turn(q, session.match.memory, getattr(session.brain, "memory", None))
    first = pred.first
    starts = {c.id: sq for c in session.enc.characters if (sq := session.position(c.id)) is not None}
    ends = {c.id: sq for c in session.enc.characters if (sq := session.position(c.id, first.state)) is not None}
    routes: dict[CharId, tuple[XY, ...]] = {}
    for ev in first.events:
        if ev.type == "moved":
            routes[ev.data["who"]] = routes.get(ev.data["who"], ()) + tuple(
                (int(x), int(y)) for x, y in ev.data.get("route") or [ev.data["to"]])
    return Ghost(ghost_key(session, gm_mode), pred, starts, ends, routes, suffered_losses(first.events),
                 tuple(summary(session, pred)))


def summary(session: Session, pred: TurnPrediction) -> list[Line]:
    """The card: what was predicted and how sure it is, then losses, defeats and every failure in the
    events' own words (the first sample), then the spread over the samples."""
    enc, q, first = session.enc, pred.question, pred.first
    lines = [Line(f"Predicted turn {q.state.turn}", theme.ACCENT, True, 16)]
    if q.exact:
        lines.append(Line("diceless, every intent known: Enter plays exactly this turn", theme.GOOD, size=13))
    else:
        guessed = ", ".join(enc.by_id[it.who].name for it in first.guessed)
        lines.append(Line(f"the AI guesses the secret or undeclared intents of {guessed}" if guessed
                          else "every intent known", theme.TEXT_DIM, size=13))
        if q.dice != "none":
            lines.append(Line(f"{q.dice} dice: {len(pred.samples)} samples; the map shows the first", theme.TEXT_DIM,
                              size=13))
    told = [Line(ev.text, theme.BAD if ev.type in ("losses", "defeated", "fled") else theme.TEXT, size=13)
            for ev in first.events if ev.type in ("losses", "defeated", "fled", "no_effect", "stopped", "collided")]
    if len(told) > CARD_EVENTS:
        told = told[:CARD_EVENTS] + [Line(f"... and {len(told) - CARD_EVENTS} more", theme.TEXT_DIM, size=13)]
    lines += told or [Line("nobody suffers a loss and nothing fails", theme.TEXT_DIM, size=13)]
    if len(pred.samples) > 1:
        lines.append(Line(f"Over {len(pred.samples)} samples: losses this turn", theme.ACCENT, True, 14))
        lines += [Line(words, size=13) for words in spread_lines(enc, pred) or ["nobody suffers a loss"]]
    lines.append(Line("P or Esc clears the prediction", theme.TEXT_DIM, size=13))
    return lines


class Predicting(ScreenState):
    """The play screen's predicting part: the hover forecast and the ghost layer."""

    ghost: Ghost | None
    forecasts: Forecasts
    session: Session

    def init_predicting(self) -> None:
        self.ghost = None
        self.forecasts = Forecasts()
        self.shown_card: tuple[str, ...] = ()  # the words of the last forecast card drawn

    # -- the hover card's forecast (item 1) -------------------------------------------------------
    def forecast_for(self, target: CharId) -> Prediction | None:
        """The selected draft aimed at `target`, forecast from the intents this side may see; the
        others (secret) stay where they are, and the prediction says so."""
        d, s = self.sel.draft, self.session
        if d is None:
            return None
        known = {cid: it for cid, it in s.declared.items() if self.visible_intent(cid) and cid != d.who}
        unknown = [cid for cid in s.active() if cid != d.who and not self.visible_intent(cid)]
        return self.forecasts.get(self.enc, s.state, known, aimed_at(self.enc, d, target), unknown, s.match.memory)

    # -- the ghost layer (item 2) ------------------------------------------------------------------
    def toggle_predict(self) -> None:
        if self.ghost is not None:
            self.clear_ghost()
            self.set_status("Prediction cleared.", theme.TEXT)
            return
        if self.session.outcome().over:
            self.set_status("The combat is over: there is no next turn to predict.", theme.ACCENT)
            return
        if self._predict():
            self.set_status("Predicted turn shown as ghosts: P or Esc clears it.", theme.ACCENT)
        self.refresh_panels()

    def clear_ghost(self) -> None:
        self.ghost = None
        self.refresh_panels()

    def _predict(self) -> bool:
        try:
            self.ghost = build_ghost(self.session, self.gm_mode)
        except BattlematError as exc:
            self.ghost = None
            self.set_status(f"Cannot predict: {exc}", theme.BAD)
            return False
        return True

    def draw_ghost(self, surface: pygame.Surface) -> None:
        """The ghost layer over the board, predicted again when the declarations changed."""
        if self.ghost is None or self.player is not None:
            return
        if self.ghost.key != ghost_key(self.session, self.gm_mode) and not self._predict():
            return
        g = self.ghost
        assert g is not None
        for cid, route in g.routes.items():
            overlays.draw_route(surface, self.cam, self.layout, overlays.RouteShape(g.starts[cid], route),
                                _faded(self.color_of(cid)))
        self._draw_attacks(surface, g)
        for cid, end in g.ends.items():
            if cid in g.routes or g.losses.get(cid) or not g.pred.first.state[cid].active:
                self._ghost_token(surface, g, cid, end)
        draw_card(surface, g.card, (self.frame.board.x - 10, self.frame.board.y - 10), self.frame.board, 470)

    def _draw_attacks(self, surface: pygame.Surface, g: Ghost) -> None:
        """An arrow per attacker and defender of each contest, coloured by who won (C3: both strike,
        two arrows side by side); a dashed grey arrow with a cross for an attack that came to nothing."""
        zoom, cell = self.cam.zoom, self.layout.cell
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
        half = self.enc.rules.halves.get(use) if isinstance(use, str) else None
        return half is not None and half.act == "attack"

    def _arrow(self, surface: pygame.Surface, g: Ghost, pair: tuple[CharId, CharId], pen: overlays.Pen,
               shift: float, cross: bool = False) -> None:
        """An arrow between two characters' end squares, moved `shift` pixels to its left."""
        a, b = pair
        if a not in g.ends or b not in g.ends:
            return
        pa = self.cam.to_screen(*self.layout.center(g.ends[a]))
        pb = self.cam.to_screen(*self.layout.center(g.ends[b]))
        dx, dy = pb[0] - pa[0], pb[1] - pa[1]
        length = math.hypot(dx, dy) or 1.0
        ox, oy = dy / length * shift, -dx / length * shift
        pa, pb = (pa[0] + ox, pa[1] + oy), (pb[0] + ox, pb[1] + oy)
        overlays.arrow(surface, pa, pb, pen)
        if cross:
            mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
            k = 5 + 3 * self.cam.zoom
            pygame.draw.line(surface, theme.BAD, (mx - k, my - k), (mx + k, my + k), 3)
            pygame.draw.line(surface, theme.BAD, (mx - k, my + k), (mx + k, my - k), 3)

    def _ghost_token(self, surface: pygame.Surface, g: Ghost, cid: CharId, end: XY) -> None:
        """A see-through token where `cid` ends, with the losses it suffers ('-2') or a cross when it
        falls."""
        cx, cy = self.cam.to_screen(*self.layout.center(end))
        r = radius(self.layout.cell, self.cam.zoom)
        after = g.pred.first.state[cid]
        sprite = g.sprites.get((cid, r))
        if sprite is None:
            sprite = g.sprites[cid, r] = pygame.Surface((2 * r + 4, 2 * r + 4), pygame.SRCALPHA)
            pygame.draw.circle(sprite, (*self.color_of(cid), 110), (r + 2, r + 2), r)
            pygame.draw.circle(sprite, (255, 255, 255, 200), (r + 2, r + 2), r, 2)
            label = theme.text(initials(self.enc.by_id[cid].name), max(10, round(r * 0.8)), (255, 255, 255), True)
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


def _faded(color: tuple[int, int, int]) -> tuple[int, int, int]:
    return (int(color[0] * 0.55 + 110), int(color[1] * 0.55 + 110), int(color[2] * 0.55 + 110))


def _color(winner: str, side: str) -> theme.Color:
    """Green for the side that wins its contest, red for the side that loses, grey for a tie."""
    return theme.GOOD if winner == side else FAILED if winner == "tie" else theme.BAD
