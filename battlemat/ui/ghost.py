"""The predicted turn laid out for its ghost layer (P or the Predict button; prediction.py draws it).

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

from dataclasses import dataclass, field

import pygame

from battlemat.core.events import Event
from battlemat.core.types import XY, CharId
from battlemat.predict import (
    DICE_SAMPLES,
    Question,
    TurnPrediction,
    guess_line,
    predict_turn,
    spread_lines,
    suffered_losses,
)
from battlemat.ui import theme
from battlemat.ui.cards import Line
from battlemat.ui.session import Session

CARD_EVENTS = 16  # events on the summary card at most; the log tells the rest once the turn is played


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
    return Question(s.live, s.state, known, fill, dice, samples, s.match.seed, s.state_view())


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
    """The card: what was predicted and how sure it is (each guessed intent with the AI's other
    choices and their share), then losses, defeats and every failure in the
    events' own words (the first sample), then the spread over the samples."""
    enc, q, first = session.enc, pred.question, pred.first
    lines = [Line(f"Predicted turn {q.state.turn}", theme.ACCENT, True, 16)]
    if q.exact:
        lines.append(Line("diceless, every intent known: Enter plays exactly this turn", theme.GOOD, size=13))
    else:
        guessed = ", ".join(enc.by_id[g.who].name for g in pred.guesses)
        lines.append(Line(f"the AI guesses the secret or undeclared intents of {guessed}" if guessed
                          else "every intent known", theme.TEXT_DIM, size=13))
        if pred.guesses:  # how sure each guess is: the AI's choices over draws of its own stream ('?' on the map)
            lines.append(Line(f"Guessed ({pred.guesses[0].draws} draws of the AI; the map shows one)", theme.ACCENT,
                              True, 14))
            lines += [Line(f"? {guess_line(enc, g)}", theme.TEXT, size=13) for g in pred.guesses]
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
