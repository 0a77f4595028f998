"""The players' window: a second window (pygame-ce's `pygame.Window`) showing the board as one side
knows it, for the TV or the projector at the table (`battlemat play ENC --players-window`, the
Players button or Ctrl+P; `--view SIDE` for any side).

It is a second `BoardView` over the game master's session with that side's `Knowledge` (seen.py:
sight now from each of its characters, R4; terrain seen before, dimmed; foes seen before as ghosts;
foes hidden by Stealth, O4, not at all), not a copy of the drawing code. It follows the game
master's window (turns, step mode, the playback, replays, another encounter opened): each frame it
draws from the same session and playback. No widgets, no GM overlays, no NPC intents, no sheets, no
hover. Keys in it: F11 or F toggles full screen, Esc leaves it, Home fits the map, +/- and the wheel
zoom, a drag pans; every other key goes to the game master's window.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pygame

from battlemat.core.types import XY, CharId
from battlemat.ui.animation import Effect, Player
from battlemat.ui.boardview import BoardView
from battlemat.ui.context import PlayContext
from battlemat.ui.declaring import Declaring
from battlemat.ui.knowledge import Knowledge
from battlemat.ui.panels import STATUS_H, Frame
from battlemat.ui.play import map_file_of
from battlemat.ui.renderer import build_art
from battlemat.ui.seen import Eyes, Memory, Moment, Sight
from battlemat.ui.session import Session

FULL_KEYS = (pygame.K_F11, pygame.K_f)  # toggle full screen


def players_side(session: Session, wanted: str | None) -> str:
    """The side the window shows: `wanted` (--view) when the encounter has it, else the first side the
    table plays (Session.pc_sides)."""
    return wanted if wanted in session.enc.sides else session.pc_sides[0]


def players_frame(w: int, h: int) -> Frame:
    """The whole window is the board, with a status line under it (no top bar, no side panel)."""
    board = pygame.Rect(0, 0, w, h - STATUS_H)
    return Frame(pygame.Rect(0, 0, w, 0), board, pygame.Rect(0, h - STATUS_H, w, STATUS_H),
                 pygame.Rect(w, 0, 0, h), 1.0, stage=board.copy())


class SideContext(PlayContext):
    """The players' window's context: the game master's session, its own map art, camera, frame and
    status, no selection, no pointer; only its own side's intents are visible (a secret stays one)."""

    def __init__(self, gm: PlayContext, side: str, size: tuple[int, int]) -> None:
        art = build_art(gm.session.board, map_file_of(gm.session))
        super().__init__(gm.session, gm.services, art, players_frame(*size))
        self.view_side = side
        self.mouse = (-1, -1)  # nobody points at the players' board: no hover, no card

    def visible_intent(self, cid: CharId) -> bool:
        return self.enc.by_id[cid].side == self.view_side


class PlayersWindow:
    """The second window and its board view; `App` hands it the events of its window and asks it to
    draw after each frame of its own."""

    def __init__(self, gm: PlayContext, wanted: str | None, size: tuple[int, int], headless: bool = False) -> None:
        self.gm = gm
        self.wanted = wanted
        self.window = pygame.Window("battlemat - players", size, resizable=not headless)
        self.fullscreen = False
        self.closed = False
        self._grab: tuple[int, int] | None = None
        self._memory: tuple[object, Memory] | None = None
        self._known: tuple[object, Knowledge] | None = None
        self._build()

    # -- following the game master's session ---------------------------------------------------
    def _build(self) -> None:
        """A context, a board view and a sight memo for the game master's session (again when another
        encounter is opened)."""
        session = self.gm.session
        self.session = session
        self.side = players_side(session, self.wanted)
        self.size = self.window.size
        self.ctx = SideContext(self.gm, self.side, self.size)
        self.view = BoardView(self.ctx, Declaring(self.ctx), Knowledge())
        self.eyes = Eyes(session.enc, self.side, Sight(session.board_at(session.enc.initial_state())))
        self._memory = self._known = None
        self.window.title = f"battlemat - {self.side}: the players' view"
        self.fit()

    def fit(self) -> None:
        b = self.ctx.frame.board
        self.ctx.cam.set_view(b.x, b.y, b.width, b.height)
        self.ctx.cam.fit(self.ctx.art.width, self.ctx.art.height)

    def _sync(self) -> None:
        """The game master's session, grid and playback, as this side may see them: the playback's
        arrows, clashes and words only where this side sees both ends."""
        gm = self.gm
        if gm.session is not self.session:
            self._build()
        ctx = self.ctx
        if ctx.art.show_grid != gm.art.show_grid:
            ctx.art.show_grid = gm.art.show_grid
            ctx.art.invalidate()
        self.view.knowledge = self.knowledge()
        ctx.player = self._playback() if gm.player is not None else None
        ctx.set_status(self._status())

    def _playback(self) -> Player:
        """The game master's playback with only the effects this side sees: every end of an arrow or
        a clash, every number or word, on a square in sight where a character it is shown stands (so
        nothing points at a hider, O4: its "+1 vs" stays unseen)."""
        player = self.gm.player
        assert player is not None
        known = self.knowledge()
        fog = known.fog
        lay = self.ctx.layout
        shown = {lay.pick(*p) for c, p in player.positions.items() if known.shows(c)}

        def seen(e: Effect) -> bool:
            ends = [lay.pick(*p) for p in ([e.a, e.b] if e.kind in ("arrow", "clash") else [e.a])]
            return fog is None or all(sq in fog.now and sq in shown for sq in ends)

        return dataclasses.replace(player, effects=[e for e in player.effects if seen(e)], waiting=False)

    # -- what the side knows -------------------------------------------------------------------
    def memory(self) -> Memory:
        """The side's memory of the line so far: every event played, and while a turn plays back,
        those of its events already shown (the one still gliding waits for its end)."""
        s, player = self.session, self.gm.player
        log = s.match.log
        if player is None:
            events = list(log)
        else:
            turn = player.events[0].turn if player.events else s.turn
            shown = player.index if not player.glides else max(0, player.index - 1)
            events = [e for e in log if e.turn < turn] + list(player.events[:shown])
        key = (id(s.match), len(log), self.side, len(events), id(events[-1]) if events else 0)
        if self._memory is None or self._memory[0] != key:
            init = s.enc.initial_state()
            start = {c.id: sq for c in s.enc.characters if (sq := s.position(c.id, init)) is not None}
            out = [cid for cid, st in init.chars.items() if not st.active]
            start_at = Moment(start, frozenset(out), init.doors)
            self._memory = (key, self.eyes.remember(start_at, events))
        return self._memory[1]

    def knowledge(self) -> Knowledge:
        """The side's knowledge now: its memory, and everyone's square as shown now (the playback's),
        but a foe's hidden from the side (O4), which is not even looked up."""
        memory = self.memory()
        s, gm = self.session, self.gm
        states = gm.display_states()
        at: dict[CharId, XY] = {}
        for c in s.enc.characters:
            if c.side != self.side and c.id in memory.hidden:
                continue
            sq = self._square_now(c.id)
            if sq is not None:
                at[c.id] = sq
        out = frozenset(cid for cid, st in states.items() if not st.active)
        doors = dict(gm.player.doors) if gm.player is not None else dict(s.state.doors)
        key = (self._memory[0] if self._memory else None, tuple(sorted(at.items())), out, tuple(sorted(doors.items())))
        if self._known is None or self._known[0] != key:
            known = self.eyes.knowledge(memory, Moment(at, out, doors))
            if self.side not in s.pc_sides:  # the NPCs' view: their own plans (SideContext shows no one else's)
                known = dataclasses.replace(known, npc_intents=True)
            self._known = (key, known)
        return self._known[1]

    def _square_now(self, cid: CharId) -> XY | None:
        player = self.gm.player
        if player is not None and cid in player.positions:
            return self.ctx.layout.pick(*player.positions[cid])
        return self.session.position(cid)

    def _status(self) -> str:
        k = self.view.knowledge
        s = self.session
        foes = [c for c in s.enc.characters if c.side != self.side]
        seen = sum(1 for c in foes if k.shows(c.id))
        words = (f"{s.enc.title} - {s.where().title()} - what the {self.side} know: {seen} foe(s) in sight, "
                 f"{len(k.seen_at)} last seen (ghosts)")
        return words + (" - F11: full screen" if not self.fullscreen else " - F11 or Esc: leave full screen")

    # -- the window ----------------------------------------------------------------------------
    def surface(self) -> pygame.Surface:
        return self.window.get_surface()

    def draw(self) -> None:
        """Draw the side's board from the game master's session as it stands, and show it."""
        if self.closed:
            return
        self._sync()
        surface = self.surface()
        if surface.get_size() != self.size:
            self.resize(surface.get_size())
        self.view.draw(surface)
        self.window.flip()

    def resize(self, size: tuple[int, int]) -> None:
        self.size = (max(1, size[0]), max(STATUS_H + 1, size[1]))
        self.ctx.frame = players_frame(*self.size)
        self.fit()

    def toggle_fullscreen(self) -> None:
        """F11 or F: full screen on the display the window is on, and back."""
        if self.fullscreen:
            self.window.set_windowed()
        else:
            self.window.set_fullscreen(desktop=True)
        self.fullscreen = not self.fullscreen
        self.resize(self.window.size)

    def takes(self, event: Any) -> bool:
        """Whether `event` was this window's and is handled here (the app skips it then). Keys that are
        not the window's own go on to the game master's window; so does nothing else."""
        if self.closed:
            return False
        if getattr(getattr(event, "window", None), "id", None) != self.window.id:
            return event.type == pygame.VIDEORESIZE  # (sent for either window; the GM's also sends WINDOWSIZECHANGED)
        if event.type == pygame.WINDOWCLOSE:
            self.close()
        elif event.type in (pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
            self.resize((event.x, event.y))
        elif event.type == pygame.KEYDOWN:
            return self._key(event.key)
        elif event.type == pygame.KEYUP:
            return event.key in (*FULL_KEYS, pygame.K_ESCAPE, pygame.K_HOME)
        elif event.type == pygame.MOUSEWHEEL:
            self.ctx.cam.zoom_at(1 if event.y > 0 else -1)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self._grab = event.pos
        elif event.type == pygame.MOUSEBUTTONUP:
            self._grab = None
        elif event.type == pygame.MOUSEMOTION and self._grab is not None:
            self.ctx.cam.pan(*event.rel)
        return True

    def _key(self, key: int) -> bool:
        if key in FULL_KEYS or (key == pygame.K_ESCAPE and self.fullscreen):
            self.toggle_fullscreen()
        elif key == pygame.K_HOME:
            self.fit()
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS, pygame.K_MINUS, pygame.K_KP_MINUS):
            self.ctx.cam.zoom_at(-1 if key in (pygame.K_MINUS, pygame.K_KP_MINUS) else 1)
        else:
            return False
        return True

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.window.destroy()
