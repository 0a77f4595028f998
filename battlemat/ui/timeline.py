"""The timeline under the board: one mark a turn, a click or a drag goes to that turn's start, as
Wesnoth's replay controls do, in a replay and in play alike.

`Timeline` is the drawn strip and its mouse handling (drawn by hand, inside the board rectangle, so
the app may keep the panels' pixels between frames); `TimeTravel` is the play screen's part that
moves along the line: rewind, step, back to the latest turn, and the words that say where the game
is. The session does the work (`Session.go_to` replays the recorded intents through a fresh Match),
so what the timeline shows is what a replay of the save shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from battlemat.core.errors import BattlematError
from battlemat.ui import theme
from battlemat.ui.context import MovePreview, PlayContext, Selection
from battlemat.ui.session import Where

HEIGHT = 52
MARGIN = 8
LABELS_FROM = 24  # pixels between marks at which each mark shows its turn number
OFF_BOARD = (-1, -1)  # where the pointer counts as being while it is on the strip


@dataclass(frozen=True)
class Scrub:
    """What the timeline made of a mouse event: whether it was the timeline's, and a turn to show."""

    used: bool = False
    go_to: int | None = None


class Timeline:
    """The strip: words on top (where the game is, the keys), the marks of turns 1..last below."""

    def __init__(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.dragging = False
        self.hover: int | None = None
        self._shade: pygame.Surface | None = None

    def place(self, board: pygame.Rect) -> None:
        """In the strip docked under the board (panels.Frame.strip), inside its margins."""
        self.rect = pygame.Rect(board.x + MARGIN, board.bottom - HEIGHT - MARGIN, board.width - 2 * MARGIN, HEIGHT)

    @staticmethod
    def shown(where: Where) -> bool:
        """Only once there is a turn to go back to."""
        return where.last > 1

    @property
    def track(self) -> pygame.Rect:
        r = self.rect
        return pygame.Rect(r.x + 22, r.y + 26, r.width - 44, 22)

    def x_of(self, turn: int, last: int) -> float:
        t = self.track
        return t.centerx if last <= 1 else t.x + (turn - 1) * t.width / (last - 1)

    def turn_at(self, x: float, last: int) -> int:
        t = self.track
        if last <= 1:
            return 1
        return max(1, min(last, round((x - t.x) * (last - 1) / t.width) + 1))

    # -- input -------------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event, where: Where, enabled: bool) -> Scrub:
        """A press on the strip goes to the turn under it and starts a drag; dragging goes to each
        turn it passes; the release ends it. Events on the strip are the timeline's, not the board's."""
        if not self.shown(where) or event.type not in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION,
                                                       pygame.MOUSEBUTTONUP):
            return Scrub()
        on_strip = self.rect.collidepoint(event.pos)
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.turn_at(event.pos[0], where.last) if on_strip or self.dragging else None
            if self.dragging and enabled:
                turn = self.turn_at(event.pos[0], where.last)
                return Scrub(True, turn if turn != where.turn else None)
            return Scrub(self.dragging)
        if event.type == pygame.MOUSEBUTTONUP:  # the board ends its own drags (a pan) wherever they end
            was = self.dragging
            self.dragging = False
            return Scrub(was)
        if not on_strip:
            return Scrub()
        if event.button == 1 and enabled and self.track.inflate(24, 10).collidepoint(event.pos):
            self.dragging = True
            turn = self.turn_at(event.pos[0], where.last)
            return Scrub(True, turn if turn != where.turn else None)
        return Scrub(True)

    # -- drawing -----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, where: Where, enabled: bool) -> None:
        if not self.shown(where):
            return
        r = self.rect
        if self._shade is None or self._shade.get_size() != r.size:
            self._shade = pygame.Surface(r.size, pygame.SRCALPHA)
            pygame.draw.rect(self._shade, (*theme.PANEL, 225), self._shade.get_rect(), border_radius=8)
            pygame.draw.rect(self._shade, (*theme.PANEL_EDGE, 255), self._shade.get_rect(), 1, border_radius=8)
        surface.blit(self._shade, r.topleft)
        color = theme.ACCENT if where.rewound else theme.TEXT
        words = theme.text(where.words(), 14, color, bold=where.rewound)
        surface.blit(words, (r.x + 12, r.y + 4))
        keys = theme.text("PgUp / PgDn: a turn back / ahead - End: the latest - click or drag here", 12,
                          theme.TEXT_DIM)
        if r.x + 24 + words.get_width() + keys.get_width() < r.right:
            surface.blit(keys, (r.right - keys.get_width() - 12, r.y + 6))
        self._draw_marks(surface, where, enabled)

    def _draw_marks(self, surface: pygame.Surface, where: Where, enabled: bool) -> None:
        t, last = self.track, where.last
        y = t.centery
        pygame.draw.line(surface, theme.PANEL_EDGE, (t.x, y), (t.right, y), 3)
        pygame.draw.line(surface, theme.INFO, (t.x, y), (self.x_of(where.turn, last), y), 3)  # played
        roomy = last <= 1 or t.width / (last - 1) >= LABELS_FROM
        radius = 9 if roomy else 5
        for turn in range(1, last + 1):
            x = round(self.x_of(turn, last))
            if turn == where.turn:
                continue
            played = turn < where.turn
            fill = theme.INFO if played else theme.PANEL
            edge = theme.INFO if played else theme.TEXT_DIM
            if turn == last and not where.over:  # the turn still to be declared at the end of the line
                edge = theme.GOOD
            pygame.draw.circle(surface, fill, (x, y), radius)
            pygame.draw.circle(surface, theme.TEXT if turn == self.hover else edge, (x, y), radius, 2)
            if roomy:
                n = theme.text(str(turn), 11, theme.BG if played else theme.TEXT_DIM, bold=True)
                surface.blit(n, n.get_rect(center=(x, y)))
        if where.branched_at:
            bx = round(self.x_of(where.branched_at, last))
            pygame.draw.polygon(surface, theme.HOUSE, [(bx - 5, y - radius - 9), (bx + 5, y - radius - 9),
                                                       (bx, y - radius - 2)])
        x = round(self.x_of(where.turn, last))
        knob = theme.ACCENT if enabled else theme.TEXT_DIM
        pygame.draw.circle(surface, knob, (x, y), radius + 3)
        pygame.draw.circle(surface, theme.TEXT, (x, y), radius + 3, 2)
        if roomy:
            n = theme.text(str(where.turn), 12, theme.BG, bold=True)
            surface.blit(n, n.get_rect(center=(x, y)))


class TimeTravel:
    """The play screen's part that moves along the line of turns, shown on the timeline's strip.
    `log_intro` is the play screen's first words in the log."""

    def __init__(self, ctx: PlayContext, strip: Timeline, log_intro: Callable[[], None]) -> None:
        self.ctx = ctx
        self.timeline = strip
        self.log_intro = log_intro
        self.log_behind = False  # the log panel still shows another turn (a drag along the timeline)

    def go_to_turn(self, turn: int, log: bool = True) -> None:
        """Show the start of `turn`: the board, its recorded intents and (`log`) the log up to it.
        A drag along the timeline leaves the log for its release: laying out a long log takes far
        longer than replaying the turns."""
        s = self.ctx.session
        if self.ctx.player is not None or turn == s.turn:
            return
        try:
            s.go_to(turn)
        except BattlematError as exc:  # a saved turn the rules refuse (the encounter changed)
            self.ctx.set_status(f"Cannot go to turn {turn}: {exc}", theme.BAD)
            return
        self.ctx.sel, self.ctx.preview, self.ctx.idle = Selection(), MovePreview(), ()
        self.ctx.victory_shown = s.outcome().over  # scrubbing to the end shows the board, not the summary again
        self.log_behind = not log
        if log:
            self.relog()
        self.ctx.set_status(*self.turn_status())
        self.ctx.refresh()

    def relog(self) -> None:
        """The log panel as it stood at the start of the turn shown."""
        self.log_behind = False
        if self.ctx.side is not None:
            self.ctx.side.clear_log()
            self.log_intro()
            self.ctx.side.log_events(list(self.ctx.session.match.log))

    def commands(self) -> dict[str, Callable[[], None]]:
        """PgUp, PgDn and End (input.BINDINGS): a turn back, a turn ahead, the latest turn."""
        return {"turn_back": lambda: self.step_turn(-1), "turn_ahead": lambda: self.step_turn(1),
                "turn_latest": self.latest_turn}

    def step_turn(self, step: int) -> None:
        w = self.ctx.session.where()
        if not 1 <= w.turn + step <= w.last:
            self.ctx.set_status("This is the first turn." if step < 0 else "This is the latest turn.", theme.ACCENT)
            return
        self.go_to_turn(w.turn + step)

    def latest_turn(self) -> None:
        self.go_to_turn(self.ctx.session.where().last)

    def turn_status(self) -> tuple[str, theme.Color]:
        """What to do at this point of the line, for the status bar."""
        s = self.ctx.session
        w = s.where()
        if w.rewound and w.replay:
            return (f"Replay: Enter plays saved turn {w.turn} ({len(s.future)} left), PgDn skips it; "
                    "a changed intent branches.", theme.ACCENT)
        if w.rewound:
            return (f"Rewound to turn {w.turn} of {w.last}: Enter replays it, PgDn skips it, End: the latest; "
                    "a changed intent branches.", theme.ACCENT)
        if w.branched_at and w.branched_at == w.turn - 1 and s.autosave_path is not None:
            return (f"Branched at turn {w.branched_at}: saved as {s.autosave_path.name}; the original stays in "
                    f"{s.branch_of}.", theme.GOOD)
        return f"Turn {w.turn}: declare, then Enter.", theme.TEXT

    def scrub(self, event: pygame.event.Event, consumed: bool = False) -> bool:
        """The timeline's share of a mouse event; True when it was the timeline's. The pointer on
        the strip is off the board: no square or token under it is hovered. A release ends a drag
        wherever it happens, over a widget too."""
        if self.ctx.pan_from is not None or (consumed and event.type != pygame.MOUSEBUTTONUP):
            return False  # panning the board (the strip is just board), or a widget's event
        tl = self.timeline
        tl.place(self.ctx.frame.strip)
        got = tl.handle(event, self.ctx.session.where(), self.ctx.player is None)
        if got.go_to is not None:
            self.go_to_turn(got.go_to, log=not tl.dragging)
        if not tl.dragging and self.log_behind:
            self.relog()
        if event.type == pygame.MOUSEMOTION and tl.hover is not None:
            self.ctx.mouse = OFF_BOARD
            if not tl.dragging:
                self.ctx.set_status(f"Turn {tl.hover}: click to show its start (or drag along the turns).", theme.TEXT)
            return True
        return got.used

    def draw(self, surface: pygame.Surface) -> None:
        strip = self.ctx.frame.strip
        if strip.height:
            surface.fill(theme.BG, strip)
        self.timeline.place(strip)
        self.timeline.draw(surface, self.ctx.session.where(), self.ctx.player is None)
