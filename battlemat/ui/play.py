"""The play screen: the board, declaring a turn, explanations, resolving with animation.

It owns the Session (the match and this turn's declarations) and turns input into intents through
`Session.declare`, which validates them with the resolver (one door). Everything shown on the board
while declaring comes from the same code the resolver runs: Reach/Route (movement), sight
(geometry), and the turn resolved with what is known for the hover forecast and the predicted turn
(prediction.py). The screen is made of parts sharing one context (context.py); it wires them,
owns the widgets and turns events into commands.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from battlemat.core.errors import BattlematError, IllegalIntent
from battlemat.core.intents import Intent
from battlemat.log import describe_intent
from battlemat.ui import input as keys
from battlemat.ui import theme
from battlemat.ui.aids import Aids
from battlemat.ui.animation import Player
from battlemat.ui.boardview import BoardView
from battlemat.ui.context import MovePreview, PlayContext, Selection, Services
from battlemat.ui.declaring import Declaring, skill_words, takes_target
from battlemat.ui.difficulty import THINK_MS, toggle
from battlemat.ui.doors import DOOR_HELP, GmDoors
from battlemat.ui.drag import Dragging
from battlemat.ui.files import Files, autosave_for
from battlemat.ui.gm_edit import open_gm_edit
from battlemat.ui.idle import AskIdle
from battlemat.ui.knowledge import GM
from battlemat.ui.layout import Layout
from battlemat.ui.panels import Sidebar, TopBar, frame_rects
from battlemat.ui.prediction import Ghosts
from battlemat.ui.renderer import MapArt, build_art
from battlemat.ui.screens import Action, AfterCombat, Push, RulesScreen, VictoryScreen
from battlemat.ui.session import Session
from battlemat.ui.setup import open_map_setup, open_setup
from battlemat.ui.teaching import Teaching
from battlemat.ui.timeline import Timeline, TimeTravel
from battlemat.ui.tokens import pulse, radius

# While a turn plays back only these commands act; the rest wait for the turn to end.
PLAYBACK_COMMANDS = frozenset({"cancel", "advance", "shot", "rules", "grid", "fit", "zoom_in", "zoom_out", "step",
                               "legend", "big_log", "log_newest", "teach", "terrain_view", "players"})
ADJUST_COMMANDS = ("mod_minus", "mod_plus", "shout", "item_kind")  # GM touches on the draft (Declaring.adjust)
STEP_KEYS = (pygame.K_SPACE, pygame.K_RIGHT, pygame.K_n)  # step mode: the next event


class PlayScreen:
    """The bottom screen of the stack: widgets, input, resolving with playback. Its parts (each holding
    the shared context `ctx`) declare, draw the board, aid reading, teach, predict, travel in time,
    ask before idling, drag and keep files."""

    def __init__(self, session: Session, services: Services, size: tuple[int, int]) -> None:
        art = build_art(session.board, map_file_of(session))
        self.ui_scale = frame_rects(*size).scale  # the widgets' theme is made for the first size (App)
        self.ctx = ctx = PlayContext(session, services, art, frame_rects(*size))
        ctx.refresh = self.refresh_panels
        self.manager = services.manager
        self.timeline = self.new_timeline()  # the turns of the line, under the board (timeline.py)
        self.declaring = Declaring(ctx)
        self.board = BoardView(ctx, self.declaring, GM)
        self.teaching = Teaching(ctx, self.timeline)
        self.aids = Aids(ctx, self.board, self.declaring, self.teaching, self.timeline)
        self.ghosts = Ghosts(ctx)
        self.dragging = Dragging(ctx, self.board, self.declaring, self.click)
        self.board.layers = (self.dragging, self.aids, self.teaching, self.ghosts)  # outermost first
        self.asking = AskIdle(ctx, self.declaring, self.resolve_now)
        self.time = self.time_travel()
        self.files = Files(ctx, self.load_session)
        self.doors = GmDoors(ctx, self.board)
        self.files.open_map = partial(open_map_setup, self)  # Ctrl+O on a map: its set-up (ui/setup.py)
        self.art_frames = 0  # tile animation frames shown so far (each is a new look)
        self.think_ms = THINK_MS  # the search's cap per NPC character when K puts the NPCs on it (--think-ms)
        self._show(session, art, None)
        self.resize(size)

    def time_travel(self) -> TimeTravel:
        """The part that moves along the line of turns (a lesson has its own)."""
        return TimeTravel(self.ctx, self.timeline, self._log_intro)

    @property
    def session(self) -> Session:
        return self.ctx.session

    # -- setup ---------------------------------------------------------------------------------
    def load_session(self, session: Session, pending: list[tuple[Intent, ...]] | None = None) -> None:
        art = build_art(session.board, map_file_of(session))  # first: a map it cannot draw leaves the game as it was
        self._show(session, art, pending)
        # nothing said of the game before stays: the status line, the pointer's subject, a held card
        self.ctx.cards.card = self.ctx.cards.drawn = None
        self.aids.subject = None
        if not self.pending:
            self.ctx.set_status(*self.time.turn_status())

    def _show(self, session: Session, art: MapArt, pending: list[tuple[Intent, ...]] | None) -> None:
        ctx = self.ctx
        ctx.session = session
        ctx.layout = Layout(session.board)
        ctx.art = art
        ctx.sel = Selection()
        ctx.preview = MovePreview()
        ctx.player = None
        if pending is not None:
            session.future = list(pending)
        ctx.idle = ()
        ctx.ghost = None
        ctx.victory_shown = False
        ctx.cam.fit(art.width, art.height)
        if ctx.side is not None:
            ctx.side.clear_log()
            self._log_intro()
        self._fill_from_replay()

    def resize(self, size: tuple[int, int]) -> None:
        """(Re)build the widgets for a window size; panels are laid out from the size alone."""
        ctx = self.ctx
        if ctx.top is not None:
            ctx.top.panel.kill()
        kept = (ctx.side.book, ctx.side.view) if ctx.side is not None else (None, None)  # the log, as shown
        if ctx.side is not None:
            ctx.side.panel.kill()
        ctx.frame = frame_rects(*size, scale=self.ui_scale)
        self.manager.set_window_resolution(size)
        ctx.top = TopBar(self.manager, ctx.frame.top, ctx.frame.scale)
        ctx.side = Sidebar(self.manager, ctx.frame.side, kept[0], kept[1], scale=ctx.frame.scale)
        self.dock()
        ctx.cam.fit(ctx.art.width, ctx.art.height)  # a new window size shows the whole map again
        if not ctx.side.book.entries:
            self._log_intro()
        ctx.top.set_toggle("grid", ctx.art.show_grid)
        self.refresh_panels()

    def new_timeline(self) -> Timeline:
        return Timeline()

    def dock(self) -> None:
        """The board view takes what the docked parts leave of the stage (panels.Frame.docked): the
        dock column while the legend (L) or the predicted turn (P) shows, the timeline's strip once
        there is a turn to go back to. The map point at the view's centre stays at its centre."""
        ctx = self.ctx
        frame = ctx.frame.docked(self.aids.legend or ctx.ghost is not None,
                                 self.timeline.shown(ctx.session.where()))
        if frame == ctx.frame:
            return
        cam, b = ctx.cam, frame.board
        mx, my = cam.to_map(cam.view_x + cam.view_w / 2, cam.view_y + cam.view_h / 2)
        ctx.frame = frame
        cam.set_view(b.x, b.y, b.width, b.height)
        cam.x, cam.y = mx - b.width / 2 / cam.zoom, my - b.height / 2 / cam.zoom

    def _log_intro(self) -> None:
        side = self.ctx.side
        assert side is not None
        s = self.ctx.session
        enc = s.enc
        side.log_text(f"{enc.title}: {', '.join(enc.sides)}. You play {', '.join(s.pc_sides)}; "
                      "the others declare in secret (M shows them).", theme.TEXT)
        if not s.has_map:
            side.log_text("No map: an open arena; positions are taken as declared.")
        elif not (s.board.blocked.any() or s.board.pit.any() or s.board.difficult.any()
                  or (s.board.difficult_dirs > 0).any() or s.board.walls or s.board.doors):  # walls only in its art
            side.log_text("This map marks no walls, pits or difficult ground: every square plays as open floor. "
                          "`battlemat check` on the map says how to mark them; V shows what is understood.",
                          theme.ACCENT)

    @property
    def ui_epoch(self) -> tuple[int, ...]:
        """Changes whenever this screen changed a widget (see App._draw_ui)."""
        side, top = self.ctx.side, self.ctx.top
        return (id(side), side.epoch if side else 0, id(top), top.epoch if top else 0)

    # -- panels --------------------------------------------------------------------------------
    def refresh_panels(self) -> None:
        """Tell the widgets what to show; they keep no game state of their own."""
        ctx = self.ctx
        side, top = ctx.side, ctx.top
        if side is None or top is None:
            return
        self.aids.panel_cast()
        s = ctx.session
        top.set_title(f"{s.enc.title}  -  {s.where().title()}")
        top.set_toggle("gm", ctx.gm_mode)
        top.set_toggle("step", ctx.step_mode)
        top.set_toggle("grid", ctx.art.show_grid)
        top.set_toggle("predict", ctx.ghost is not None)
        top.set_toggle("teach", self.teaching.on)
        who = ctx.sel.who
        if who is None:
            side.who.set_text("No one selected")
            side.set_hint("Tab or click a token; Enter resolves the turn")
            side.set_skills(("none",), [])
        else:
            c = s.enc.by_id[who]
            st = s.state[who]
            side.who.set_text(f"{c.name}  ({c.side})")
            side.set_hint(f"losses {st.minor} minor, {st.major} major - skill: allowance, phase, rating")
            entries = []
            chosen = ctx.sel.draft.use if ctx.sel.draft else None
            for half in ctx.skills_of(who):  # each with its key: the same half's key for everyone
                words, tip = skill_words(s.enc, who, half, st.major)
                hk, spelled = self.aids.skill_key_label(half), self.aids.skill_key_label(half, long=True)
                entries.append((half, f"{hk} {words}", f"{tip}; key {spelled}" if spelled else tip,
                                half == chosen))
            side.set_skills((who, s.turn, st.major), entries)
        rows = []
        for c in s.enc.characters:
            it = s.declared.get(c.id)
            if not s.state[c.id].active:
                continue
            if not ctx.visible_intent(c.id):
                rows.append((c.id, f"{c.name}: (secret)"))  # even idleness is a secret (P)
            elif it is None:
                rows.append((c.id, f"{c.name}: (idle)"))
            else:
                rows.append((c.id, describe_intent(s.enc, it)))
        side.set_intents(rows)

    # -- resolving -----------------------------------------------------------------------------
    @property
    def pending(self) -> list[tuple[Intent, ...]]:
        """Recorded turns still ahead (a replay, a rewound game): the session's."""
        return self.ctx.session.future

    @pending.setter
    def pending(self, turns: list[tuple[Intent, ...]]) -> None:
        self.ctx.session.future = list(turns)

    def resolve(self) -> Action | None:
        """Enter: play the turn, after asking when player characters have no intent (idle.py)."""
        if self.ctx.player is not None:
            return None
        if self.ctx.session.outcome().over:
            self.ctx.set_status("The combat is over. Open another encounter (Ctrl+O) or play again.", theme.ACCENT)
            return None
        return self.asking.ask_or_resolve()

    def resolve_now(self) -> None:
        ctx = self.ctx
        s = ctx.session
        if ctx.player is not None or s.outcome().over:
            return
        ctx.idle = ()
        positions = ctx.positions()
        states, doors = dict(s.state.chars), dict(s.state.doors)  # as the turn starts (the playback moves them)
        try:
            events = s.resolve()  # at a recorded turn (replay, rewound) a changed intent branches
        except IllegalIntent as exc:
            ctx.set_status(f"Refused: {ctx.enc.by_id[exc.who].name if exc.who in ctx.enc.by_id else exc.who} - "
                           f"{exc.reason}" + (f" [{exc.rule}]" if exc.rule else ""), theme.BAD)
            return
        except BattlematError as exc:
            ctx.set_status(f"Cannot resolve: {exc}", theme.BAD)
            return
        except OSError as exc:
            ctx.set_status(f"Turn played, but the autosave failed: {exc}", theme.BAD)
            events = s.last_events
        ctx.sel = Selection()
        ctx.preview = MovePreview()
        ctx.ghost = None  # the predicted turn is played: its ghosts go
        ctx.player = Player(events, dict(positions), states, ctx.layout.center, s.enc.rules,
                            step_mode=ctx.step_mode, doors=doors)
        ctx.set_status("Resolving... Esc skips to the end" + (", Space steps" if ctx.step_mode else ""), theme.TEXT)
        self.refresh_panels()

    def _fill_from_replay(self) -> None:
        """The session declares a recorded turn's intents itself; say what Enter does with them."""
        if self.pending:
            self.ctx.set_status(*self.time.turn_status())

    def _finish_turn(self) -> Action | None:
        ctx = self.ctx
        ctx.player = None
        self._fill_from_replay()
        self.refresh_panels()
        result = ctx.session.outcome()
        if result.over and not ctx.victory_shown:
            ctx.victory_shown = True
            return Push(VictoryScreen(self.manager, ctx.enc, ctx.session.state, result, ctx.frame.board,
                                      AfterCombat(self.restart, self.files.save_game)))
        if not self.pending:
            ctx.set_status(*self.time.turn_status())
        return None

    def restart(self) -> None:
        s = self.ctx.session
        autosave = autosave_for(self.ctx.services.save_dir, s.path) if s.autosave_path else None  # not a branch's
        self.load_session(Session(s.path, seed=s.match.seed, dice=s.dice_override, pc_sides=s.pc_sides,
                                  autosave=autosave))
        self.refresh_panels()

    def open_path(self, path: str, replay: bool = False) -> None:
        self.files.open_path(path, replay)

    # -- events --------------------------------------------------------------------------------
    def command(self, cmd: str) -> Action | None:
        """One command from a key, a button or the mouse (input.BINDINGS names them)."""
        if cmd.startswith("skill:"):
            self.aids.skill_by_slot(int(cmd.split(":")[1]))  # slot i: the i-th half of the rules data, for all
            return None
        if self.ctx.player is not None and cmd not in PLAYBACK_COMMANDS:
            return None
        handler = self._commands().get(cmd)
        return handler() if handler is not None else None

    def _commands(self) -> dict[str, Callable[[], Action | None]]:
        """Command name -> what it does (a table rather than a chain of ifs)."""
        cam, art, d, t = self.ctx.cam, self.ctx.art, self.declaring, self.time
        return {
            **{cmd: partial(d.adjust, cmd) for cmd in ADJUST_COMMANDS},
            **self.aids.commands(),
            "resolve": self.resolve,
            "undo": d.undo,
            "clear": d.clear,
            "next": lambda: d.cycle(-1 if pygame.key.get_mods() & pygame.KMOD_SHIFT else 1),
            "cancel": self.cancel,
            "advance": self.advance,
            "rules": self.open_rules,
            "shot": self.shot,
            "grid": self.toggle_grid,
            "gm": self.toggle_gm,
            "step": self.toggle_step,
            "predict": self.ghosts.toggle,
            "teach": self.teaching.toggle,
            "fit": lambda: cam.fit(art.width, art.height),
            "zoom_in": partial(cam.zoom_at, 1),
            "zoom_out": partial(cam.zoom_at, -1),
            "save": self.files.save,
            "save_as": self.files.save_as,
            "open": self.files.open,
            "replay": self.files.replay,
            **t.commands(),
            "setup": partial(open_setup, self),  # F2, before turn 1 (ui/setup.py)
            "gm_edit": partial(open_gm_edit, self),  # E in GM mode: a rating or losses (ui/gm_edit.py)
            "players": self.ctx.services.players,  # the players' window (App.toggle_players)
            "difficulty": lambda: self.ctx.set_status(toggle(self.ctx.session, self.think_ms), theme.ACCENT),
        }

    def open_rules(self, href: str | None = None) -> Action:
        """The rules panel (F1), showing `href`'s entry if given ('rule:M6': a link in the log, a card's ID)."""
        return Push(RulesScreen(self.manager, self.ctx.enc, self.ctx.frame.board, show=href))

    def cancel(self) -> None:
        """Esc / right click: finish the playback, drop an undeclared draft, or deselect."""
        ctx = self.ctx
        if ctx.player is not None:
            if ctx.side is not None:
                ctx.side.log_events(ctx.player.finish())
        elif ctx.ghost is not None:
            self.ghosts.clear()
        elif ctx.sel.draft is not None and ctx.sel.who not in ctx.session.declared:
            ctx.sel.draft = None
        else:
            ctx.sel = Selection()
        self.refresh_panels()

    def advance(self) -> None:
        if self.ctx.player is not None:
            self.ctx.player.advance()

    def shot(self) -> None:
        try:
            path = self.ctx.services.screenshot(None)
        except BattlematError as exc:  # the writer's refusal (io.outfile): a full disk, a folder not writable
            self.ctx.set_status(str(exc), theme.BAD)
            return
        self.ctx.set_status(f"Screenshot saved: {path}", theme.GOOD)

    def toggle_grid(self) -> None:
        self.ctx.art.show_grid = not self.ctx.art.show_grid
        self.ctx.art.invalidate()
        self.refresh_panels()

    def toggle_gm(self) -> None:
        ctx = self.ctx
        ctx.gm_mode = not ctx.gm_mode
        if not ctx.gm_mode and ctx.sel.who and not ctx.session.is_pc(ctx.sel.who):
            ctx.sel = Selection()
        words = "GM mode: NPC intents shown and editable." + (f" {DOOR_HELP}." if ctx.session.board.doors else "")
        ctx.set_status(words if ctx.gm_mode else "GM mode off.", theme.TEXT)
        self.refresh_panels()

    def toggle_step(self) -> None:
        ctx = self.ctx
        ctx.step_mode = not ctx.step_mode
        if ctx.player is not None:
            ctx.player.step_mode = ctx.step_mode
            ctx.player.waiting = False
        ctx.set_status("Step mode: one event per Space while resolving." if ctx.step_mode else "Step mode off.",
                       theme.TEXT)
        self.refresh_panels()

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        side = self.ctx.side
        if self.time.scrub(event, consumed):  # the timeline under the board (timeline.py)
            return None
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self._button(event.ui_element)
        if event.type == pygame_gui.UI_TEXT_BOX_LINK_CLICKED and side is not None and event.ui_element is side.log:
            return self.open_rules(event.link_target)  # a rule ID or a house switch in the log
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            self._intent_picked(event)
            return None
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and side is not None:
            side.filter_picked(event.ui_element, getattr(event, "selected_option_id", None))
            return None
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self._mouse_motion(event, consumed)
        elif event.type in (pygame.MOUSEWHEEL, pygame.MOUSEBUTTONDOWN):
            self._mouse_press(event, consumed)
        elif event.type == pygame.MOUSEBUTTONUP:
            return self._mouse_release(event)
        return None

    def _intent_picked(self, event: pygame.event.Event) -> None:
        """A row of the declared-intents list: select that character if this side controls it."""
        side = self.ctx.side
        if side is None or event.ui_element is not side.intents:
            return
        text = getattr(event, "text", None)
        cid = next((c for c, w in side.rows if w == text), None)
        if cid is not None and self.ctx.controllable(cid):
            self.declaring.select(cid)

    def _key(self, event: pygame.event.Event) -> Action | None:
        player = self.ctx.player
        if self.dragging.drag_key(event.key):
            return None
        if player is not None and player.waiting and event.key in STEP_KEYS:
            player.advance()
            return None
        cmd = keys.command_for(event)
        return self.command(cmd) if cmd else None

    def _mouse_motion(self, event: pygame.event.Event, consumed: bool) -> None:
        """Hover, and panning by dragging the board (past a few pixels, so a click stays a click)."""
        ctx = self.ctx
        ctx.mouse = event.pos
        if self.dragging.drag_motion(event.pos) or ctx.pan_from is None or consumed:
            return
        if ctx.panning or abs(event.pos[0] - ctx.pan_from[0]) + abs(event.pos[1] - ctx.pan_from[1]) > 6:
            ctx.panning = True
            ctx.cam.pan(*event.rel)

    def _mouse_press(self, event: pygame.event.Event, consumed: bool) -> None:
        """The wheel zooms at the pointer; a button press on the board may start a drag or a click."""
        ctx = self.ctx
        board = ctx.frame.board
        if event.type == pygame.MOUSEWHEEL:
            if board.collidepoint(ctx.mouse) and not consumed:
                ctx.cam.zoom_at(1 if event.y > 0 else -1, *ctx.mouse)
            return
        if self.dragging.drag_button(event.button):
            return
        if board.collidepoint(event.pos) and not consumed:
            ctx.mouse = event.pos
            if event.button == 1 and self.dragging.drag_press(event.pos):
                return  # the selected token: a drag to move it, or a click
            if event.button in (1, 2, 3):
                ctx.pan_from = event.pos
                ctx.panning = False

    def _mouse_release(self, event: pygame.event.Event) -> Action | None:
        """A release that was no drag is a click: left picks (or opens a rule ID clicked on a card or
        the legend), right cancels."""
        ctx = self.ctx
        if event.button == 1 and self.dragging.drag_release(event.pos):
            return None
        if event.button == 1 and ctx.frame.dock.collidepoint(event.pos) and ctx.pan_from is None:
            rid = self.aids.aid_rule_at(event.pos)  # a legend row's rule ID, in the dock beside the board
            return self.open_rules(f"rule:{rid}") if rid else None
        if ctx.pan_from is None:
            return None
        was_drag = ctx.panning
        ctx.pan_from, ctx.panning = None, False
        if not was_drag and ctx.frame.board.collidepoint(event.pos):
            ctx.mouse = event.pos
            if event.button == 1:
                rid = self.aids.aid_rule_at(event.pos) if ctx.player is None else None
                if rid:
                    return self.open_rules(f"rule:{rid}")
                self.click(event.pos)
            elif event.button == 3:
                self.command("cancel")
        return None

    def _button(self, element: object) -> Action | None:
        top, side = self.ctx.top, self.ctx.side
        assert top is not None and side is not None
        for key, btn in top.buttons.items():
            if element is btn:
                return self.command({"rules": "rules", "shot": "shot"}.get(key, key))
        half = side.skill_of(element)
        if half is not None:
            self.declaring.choose_skill(half)
            return None
        if element is side.resolve:
            return self.command("resolve")
        if element is side.undo:
            return self.command("undo")
        if element is side.clear:
            return self.command("clear")
        log_cmd = side.button(element)
        return self.command(log_cmd) if log_cmd else None

    def click(self, pos: tuple[int, int]) -> None:
        ctx, d = self.ctx, self.declaring
        if ctx.player is not None:  # (a hover card never takes a click: the board under it gets it)
            return
        if self.doors.click(pos, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)):  # GM mode: a door (doors.py)
            return
        tok = self.board.token_under(pos)
        who = ctx.sel.who
        if tok is not None and who is not None and tok != who and ctx.sel.draft is not None:
            enemy = ctx.enc.by_id[tok].side != ctx.enc.by_id[who].side
            half = ctx.enc.rules.halves[ctx.sel.draft.use]
            if (enemy or not ctx.controllable(tok)) and takes_target(half):
                if not ctx.session.state[tok].active:
                    return
                if pygame.key.get_mods() & pygame.KMOD_SHIFT and ctx.sel.draft.target is not None:
                    d.add_secondary(tok)
                else:
                    d.set_target(tok)
                return
        if tok is not None and tok != who:
            d.select(tok)
            return
        sq = self.board.square_under(pos)
        if sq is not None and ctx.sel.draft is not None:
            d.set_destination(sq)
        elif tok is None and sq is not None and ctx.sel.who is None:
            ctx.set_status(self.board.square_words(sq))

    # -- per frame -----------------------------------------------------------------------------
    def on_draw(self, surface: pygame.Surface) -> None:
        self.dock()
        self.board.draw(surface)  # the board with its layers (boardview.py)
        self.asking.draw(surface)
        self.time.draw(surface)

    def update(self, dt: float) -> Action | None:
        ctx = self.ctx
        self.dock()
        dx, dy = keys.pan_vector(pygame.key.get_pressed(), bool(pygame.key.get_mods() & pygame.KMOD_CTRL))
        typing = any(isinstance(e, UITextEntryLine) for e in (self.manager.get_focus_set() or ()))
        if (dx or dy) and not typing:  # not while typing a file name
            ctx.cam.pan(dx * keys.PAN_SPEED * dt, dy * keys.PAN_SPEED * dt)
        if ctx.art.advance(dt * 1000):  # water ripples, torches flicker: Tiled's tile animations
            self.art_frames += 1
        self.aids.follow_pointer()  # the status line says what the pointer is on
        if ctx.player is not None:
            started = ctx.player.update(dt)
            if started and ctx.side is not None:
                ctx.side.log_events(started)
            if ctx.player.done:
                return self._finish_turn()
        return None

    def moving(self) -> bool:
        """Whether the board moves by itself, so that every frame is drawn (a turn playing back)."""
        return self.ctx.player is not None

    def looks(self) -> tuple[object, ...]:
        """What the board shows, as values cheap to make and compare: the app draws a frame when an
        event came or this changed (a selection made by a command, a tile animation...). The
        selection ring's pulse is apart (`ring`): it changes only its own small square of the screen."""
        ctx = self.ctx
        c, s = ctx.cam, ctx.session
        return ((c.x, c.y, c.zoom, c.view_x, c.view_y, c.view_w, c.view_h), ctx.mouse, ctx.frame.board,
                ctx.sel.who, ctx.sel.draft, tuple(s.declared.items()), s.state, ctx.gm_mode, ctx.step_mode,
                ctx.status, ctx.status_color, ctx.art, ctx.art.show_grid, self.art_frames,
                self.dragging.drag_looks(), ctx.ghost, ctx.idle, len(s.future), self.teaching.on)

    def ring(self) -> tuple[int, pygame.Rect] | None:
        """The selection ring's pulse now and the screen area it covers (inside the board), if any."""
        ctx = self.ctx
        who = ctx.sel.who
        if who is None or ctx.player is not None or (at := ctx.session.position(who)) is None:
            return None
        x, y = ctx.cam.to_screen(*ctx.layout.center(at))
        r = radius(ctx.layout.cell, ctx.cam.zoom) + pulse(0.0) + 8  # the widest ring, and its width
        return pulse(time.monotonic()), pygame.Rect(round(x) - r, round(y) - r, 2 * r, 2 * r).clip(ctx.frame.board)

    def close(self) -> None:
        pass


def map_file_of(session: Session) -> Path | None:
    """The map file a session's board was read from, for its pictures (None: an open arena)."""
    return (session.path.parent / session.enc.map) if session.has_map and session.enc.map else None
