"""The window: `battlemat play` / `python main.py`. Owns pygame, the GUI manager and the screen stack.

The window's options are battlemat.commands.args.add_play_arguments (no pygame: the CLI builds its
parser headless); pygame is imported inside `run` and `App`. The window reads its options from one
`PlayOptions` (options.py), made from the parsed command line once in `run`. `--screenshot FILE`
renders a few frames with whatever video driver is set (the dummy one in CI), saves a PNG and exits 0.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from battlemat.commands.args import add_play_arguments
from battlemat.core import movement
from battlemat.core.errors import BattlematError
from battlemat.io.lessons import read_lesson_encounter
from battlemat.io.maps import check_map_pictures
from battlemat.io.names import did_you_mean
from battlemat.io.outfile import writing
from battlemat.io.saves import read_save
from battlemat.ui.options import PlayOptions
from battlemat.ui.setup_draft import bare_map, is_map

IDLE_WAIT = 0.05  # seconds an idle window sleeps at most between looks at the clock
IDLE_NAP = 0.01  # ... in naps this long, looking for events between them
RING_PULSES = 6.0  # seconds the selection ring pulses after the last event (then it rests: no frames)
PANEL_SETTLE = 0.6  # seconds the panels keep being drawn after the pointer was over them
WARMING_WORDS = ("Preparing the fast movement search in the background (after an install: up to a minute); "
                 "the board works meanwhile")


Warm = Callable[[Callable[["subprocess.Popen[bytes]"], None]], None]  # App's background preparation


def warm_search(started: Callable[[subprocess.Popen[bytes]], None] | None = None) -> None:
    """Get the compiled movement search ready without making the window wait: `battlemat prepare` in a
    process of its own compiles it into numba's cache (numba compiles under that process's lock, not
    this window's), then this process loads what it compiled. `App` runs this in a thread named
    `movement.WARMING`, so every search meanwhile is the Python reference's, with the same answers.
    `started` is given the process (the window stops it when it closes first)."""
    try:
        proc = subprocess.Popen([sys.executable, "-m", "battlemat", "prepare", "--quiet", "--background"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:  # no process to be had: compile here instead (same result, the window shares the time)
        proc = None
    if proc is not None:
        if started is not None:
            started(proc)
        proc.wait()
    movement.prepare()




def view_problem(side: str, path: Path, sides: tuple[str, ...] | list[str]) -> str:
    """--view SIDE names no side of the encounter: what to write instead."""
    return f"--view {side!r}: no such side in {path.name}; use one of {', '.join(sides)}"


def _default_encounter() -> Path:
    return Path(__file__).resolve().parents[2] / "maps" / "art_gallery.toml"


class WindowClosed(Exception):
    """The window was closed before the game was set up."""


class App:
    """The window and its loop. Tests drive it one frame at a time with `tick()`."""

    def __init__(self, options: PlayOptions, warm: Warm | None = None) -> None:
        """`warm`: work to do in the background while the game is already playable (`run` passes
        `warm_search`, the compiled movement search's preparation): it runs in a thread named
        `movement.WARMING`, during which the core's searches are its Python reference's, and the
        status line says so."""
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep the terminal for our messages
        import pygame  # noqa: PLC0415 - optional dependency: pygame
        import pygame_gui  # noqa: PLC0415 - optional dependency: pygame

        from battlemat.ui import theme  # noqa: PLC0415 - optional dependency: pygame
        from battlemat.ui.context import Services  # noqa: PLC0415 - optional dependency: pygame
        from battlemat.ui.files import autosave_for  # noqa: PLC0415 - optional dependency: pygame
        from battlemat.ui.play import PlayScreen  # noqa: PLC0415 - optional dependency: pygame
        from battlemat.ui.session import Session  # noqa: PLC0415 - optional dependency: pygame

        self.pygame = pygame
        # The encounter (or save) is read before any window opens: a bad file gives its message
        # (LoadError, exit 2 from the CLI) without a window flashing up.
        self.options = options
        self.save_dir = options.save_dir
        load, encounter = options.load, options.encounter
        pending: list[Any] = []
        save = read_save(load) if load else None
        lesson = options.lesson  # battlemat learn NAME: a battlemat.teach.tutor.Lesson, read already
        path = lesson.encounter_file if lesson else Path(encounter) if encounter else _default_encounter()
        bare = lesson is None and save is None and is_map(path)  # a map alone: set up by hand (ui/setup.py)
        enc = lesson.enc if lesson else None if save is not None else bare_map(path) if bare else \
            read_lesson_encounter(path)
        if enc is not None and enc.board is not None and enc.map:  # and its pictures, which the board did not need
            check_map_pictures(path.parent / enc.map)
        if options.view and enc is not None and options.view not in enc.sides:  # before any window opens
            raise BattlematError(view_problem(options.view, path, enc.sides))
        self.headless = bool(options.screenshot)
        if self.headless:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        pygame.display.init()
        pygame.font.init()
        size = options.size
        flags = 0 if self.headless else pygame.RESIZABLE
        self.screen = pygame.display.set_mode(size, flags)
        self.size = size
        pygame.display.set_caption("battlemat")
        self._warming: threading.Thread | None = None
        self._warm_process: list[subprocess.Popen[bytes]] = []
        if warm is not None:  # (the game is set up at once: the NPCs' first plans use the Python search)
            self._warming = threading.Thread(target=warm, args=(self._warm_process.append,), name=movement.WARMING,
                                             daemon=True)
            self._warming.start()
        if save is not None:
            session, pending = Session.from_save(save, load, replay=options.replay,
                                                 autosave=autosave_for(self.save_dir, save.encounter))
            if session.has_map and session.enc.map:
                check_map_pictures(session.path.parent / session.enc.map)
        elif lesson is None:
            session = Session(path, seed=options.seed, dice=options.dice, pc_sides=options.sides,
                              autosave=autosave_for(self.save_dir, path), enc=enc)
        pygame.key.set_repeat(350, 40)
        self.manager = pygame_gui.UIManager(size, theme.gui_theme(1.0 if size[0] < 1600 else 1.15))
        with warnings.catch_warnings():  # some are already loaded by the theme; preload the rest
            warnings.simplefilter("ignore")
            self.manager.preload_fonts([
                {"name": "noto_sans", "point_size": pt, "style": style, "antialiased": "1"}
                for pt in (12, 13, 14, 15, 16, 17, 18, 21) for style in ("regular", "bold")
            ])
        services = Services(self.save_dir, self.screenshot, self.manager, self.toggle_players)

        self.play: PlayScreen
        if lesson is not None:
            from battlemat.ui.lesson import LessonScreen, LessonSession  # noqa: PLC0415 - optional dependency: pygame

            self.play = LessonScreen(LessonSession(lesson), services, size)
        else:
            self.play = PlayScreen(session, services, size)
        if pending:
            self.play.pending = list(pending)
            self.play._fill_from_replay()
            self.play.refresh_panels()
        if options.gm:
            self.play.command("gm")
        if options.overlay == "teaching":
            self.play.command("teach")
        if options.think_ms is not None:
            self.play.think_ms = options.think_ms
        self.stack: list[Any] = [self.play]
        if bare:
            from battlemat.ui.setup import SetupScreen, draft_of  # noqa: PLC0415 - optional dependency: pygame

            self.stack.append(SetupScreen(self.play, draft_of(self.play.session)))
        self.players: Any = None  # the players' window (players_window.py), while open
        if options.players_window or options.view:
            self.toggle_players()
        self.clock = pygame.time.Clock()
        self.exit_code: int | None = None
        self._ui_clean = False
        self._ui_sig: object = None
        self._pointer_on_panels = 0.0
        self.draws = 0  # frames drawn (an idle window draws none)
        self._look: object = None  # what the last frame showed (App._looks)
        self._ring: object = None  # the selection ring's pulse in the last frame, and its area
        self._last_event = time.monotonic()
        self._drew = True  # the last tick drew: the next one polls instead of waiting for an event

    def _warm_status(self) -> None:
        """While the compiled search is prepared, the status line says so; once it is ready, the words
        go (unless something else has been said since)."""
        thread = self._warming
        if thread is None:
            return
        from battlemat.ui.input import HELP  # noqa: PLC0415 - optional dependency: pygame

        ctx = self.play.ctx
        if thread.is_alive():
            if ctx.status == HELP:
                ctx.set_status(WARMING_WORDS)
            return
        self._warming = None
        if ctx.status == WARMING_WORDS:
            ctx.set_status(HELP)

    # -- the loop ------------------------------------------------------------------------------
    def tick(self, dt: float | None = None) -> int | None:
        """One frame: events, update, and a drawing if anything on screen may have changed.
        Returns an exit code when the app should stop. Without `dt` (the real loop) an idle window
        sleeps until an event comes or `IDLE_WAIT` passes; tests give `dt` and never wait."""
        pygame = self.pygame
        from battlemat.ui.screens import apply  # noqa: PLC0415 - optional dependency: pygame

        if dt is None:
            events = self._wait_events()
            dt = self.clock.tick(60) / 1000.0
        else:
            events = pygame.event.get()
        for event in events:
            if self.players is not None and self.players.takes(event):  # the players' window's own
                continue
            if event.type == pygame.QUIT:
                return 0
            if event.type in (pygame.VIDEORESIZE, pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
                self.resize(self._event_size(event))
                continue
            if event.type in (pygame.MOUSEMOTION, pygame.MOUSEWHEEL, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                pos = getattr(event, "pos", None) or self.play.ctx.mouse
                if not self.play.ctx.frame.board.collidepoint(pos) or event.type == pygame.MOUSEWHEEL:
                    self._pointer_on_panels = time.monotonic()
            consumed = self.manager.process_events(event)
            code = apply(self.stack, self.stack[-1].on_event(event, consumed))
            if code is not None:
                return code
        if self.players is not None and self.players.closed:  # closed by its own window's close button
            self.players = None
            self._players_button()
        self._warm_status()
        self.manager.update(dt)
        for screen in list(self.stack):
            code = apply(self.stack, screen.update(dt))
            if code is not None:
                return code
        now = time.monotonic()
        if events:
            self._last_event = now
        ring = self.play.ring() if now - self._last_event < RING_PULSES else None
        self._drew = bool(events) or self._busy() or self._looks() != self._look
        if self._drew:
            self.draw()
            self._look = self._looks()  # drawing may change what it shows (the status line follows the pointer)
        elif ring is not None and ring != self._ring:  # only the selection ring pulsed: only its square is shown
            self.draw(ring[1])
        self._ring = ring  # (a window left alone for RING_PULSES seconds keeps the ring as it was last drawn)
        return None

    def invalidate(self) -> None:
        """Draw the next frame whatever changed (benchmarks measure frames this way)."""
        self._look = None

    def _busy(self) -> bool:
        """Whether the next frame must be drawn whatever happens: something moves by itself (a turn
        playing, a held pan key, the map's tile animations), a window is over the board, or the
        pointer was over the panels a moment ago (hover effects and tooltips fade in and out)."""
        return (len(self.stack) > 1 or self.play.moving()
                or time.monotonic() - self._pointer_on_panels < PANEL_SETTLE)

    def _looks(self) -> object:
        """What the frame shows, as values: the play screen's own summary (camera, pointer, selection,
        declarations, status, the selection's pulse...) and the widgets' images and places."""
        visible = self.manager.get_sprite_group().visible
        return (self.play.looks(), self.play.ui_epoch, tuple((id(bd[0]), tuple(bd[1])) for bd in visible))

    def _wait_events(self) -> list[Any]:
        """The events of this frame. After a frame that drew (or while something moves), the queue is
        polled and the clock paces the frames; an idle window sleeps until an event arrives, or for
        at most IDLE_WAIT seconds (so a pulse, a tooltip's delay or a tile animation still comes).
        It sleeps in short naps looking at the queue between them: pygame's event.wait(timeout)
        polls every millisecond, which costs more than the whole idle frame."""
        pygame = self.pygame
        if not (self._drew or self._busy()):
            until = time.monotonic() + IDLE_WAIT
            while not pygame.event.peek() and time.monotonic() < until:
                time.sleep(IDLE_NAP)
        return pygame.event.get()

    def _event_size(self, event: Any) -> tuple[int, int]:
        if event.type == self.pygame.VIDEORESIZE:
            w, h = event.size
            return w, h
        return event.x, event.y

    def draw(self, area: Any = None) -> None:
        """Draw a frame and show it: all of it, or only `area` (a Rect) when nothing else changed."""
        self.draws += 1
        for screen in self.stack:
            screen.on_draw(self.screen)
        if self._draw_ui() or area is None:
            self.pygame.display.flip()
        else:
            self.pygame.display.update(area)
        if area is None and self.players is not None:  # it follows the game master's frames
            self.players.draw()

    def toggle_players(self) -> None:
        """Ctrl+P, the Players button, --players-window, --view: open the players' window
        (players_window.py), or close it."""
        from battlemat.ui import theme  # noqa: PLC0415 - optional dependency: pygame
        from battlemat.ui.players_window import PlayersWindow  # noqa: PLC0415 - optional dependency: pygame

        ctx = self.play.ctx
        if self.players is not None and not self.players.closed:
            self.players.close()
            self.players = None
            ctx.set_status("Players' window closed.", theme.TEXT)
        else:
            if self.options.view and self.options.view not in ctx.session.enc.sides:  # (a save's encounter)
                raise BattlematError(view_problem(self.options.view, ctx.session.path, ctx.session.enc.sides))
            self.players = PlayersWindow(ctx, self.options.view, self.size, self.headless)
            ctx.set_status(f"Players' window open: the board as the {self.players.side} know it (F11 in it: full "
                           "screen; drag it to the second screen). Ctrl+P closes it.", theme.TEXT)
        self._players_button()

    def _players_button(self) -> None:
        top = self.play.ctx.top
        if top is not None and "players" in top.buttons:
            top.set_toggle("players", self.players is not None and not self.players.closed)

    def _draw_ui(self) -> bool:
        """The panels change far less often than the board, so their pixels are left on screen
        between frames while nothing could have changed them: only the play screen is up, every
        widget lies inside the panels, the pointer has not been over them lately (hover, scrolling,
        tooltips), none of our own widget changes (ui_epoch) and the widgets' images and places are
        the same as last frame. The board draws only inside its own rectangle, so the old panel
        pixels stay valid. Otherwise the panels are painted and drawn afresh. True if they were."""
        from battlemat.ui.panels import paint_frame  # noqa: PLC0415 - optional dependency: pygame

        f = self.play.ctx.frame
        visible = self.manager.get_sprite_group().visible
        rects = [bd[1] for bd in visible if bd[0].get_width() and bd[0].get_height()]  # containers draw nothing
        sig = (self.play.ui_epoch, tuple((id(bd[0]), tuple(bd[1])) for bd in visible))
        cacheable = (
            len(self.stack) == 1
            and time.monotonic() - self._pointer_on_panels > PANEL_SETTLE
            and all(f.side.contains(r) or f.top.contains(r) for r in rects)
        )
        if cacheable and self._ui_clean and sig == self._ui_sig:
            return False  # the board never draws outside its rectangle: last frame's panels are still there
        paint_frame(self.screen, f)
        self.manager.draw_ui(self.screen)
        self._ui_clean = cacheable
        self._ui_sig = sig
        return True

    def resize(self, size: tuple[int, int]) -> None:
        """A new window size (VIDEORESIZE, WINDOWRESIZED: SDL sends both): the panels are laid out
        again and the camera fits the map into the new board area."""
        size = (max(800, size[0]), max(600, size[1]))
        if size == self.size:
            return  # the second event of the same resize
        self.size = size
        self._ui_clean = False
        if not self.headless:
            self.screen = self.pygame.display.set_mode(size, self.pygame.RESIZABLE)
        self.play.resize(size)
        self._players_button()

    def screenshot(self, path: Path | None = None, surface: Any = None) -> Path:
        """F12: the window as PNG (in the save directory unless a path is given); `surface`: another
        window's (the players')."""
        target = path or self.save_dir / f"screenshot-{time.strftime('%Y%m%d-%H%M%S')}.png"
        with writing(target, "the screenshot", "choose another file with --screenshot") as part:
            self.pygame.image.save(self.screen if surface is None else surface, str(part))  # whole or not at all
        return target

    def run(self) -> int:
        """The loop. A bug in one frame is reported and the game goes on (nothing is lost: the
        match only changes through resolve, and every resolved turn is autosaved); a bug that
        repeats every frame stops the window with exit code 1 instead of spinning."""
        failures = 0
        while True:
            try:
                code = self.tick()
                failures = 0
            except Exception as exc:  # noqa: BLE001 - keep the GM's game alive
                failures += 1
                traceback.print_exc()
                self.play.ctx.set_status(f"Internal error (see the terminal): {exc}", (232, 86, 86))
                self.play.ctx.player = None
                if failures > 30:
                    print("battlemat: the window keeps failing; stopping (your last turn is autosaved)",
                          file=sys.stderr)
                    return 1
                continue
            if code is not None:
                return code

    def close(self) -> None:
        from battlemat.ui import overlays, theme, tokens  # noqa: PLC0415 - optional dependency: pygame

        for proc in self._warm_process:  # the compiling process, when the window closes first
            if proc.poll() is None:
                proc.terminate()
        if self.players is not None:
            self.players.close()

        theme.forget_fonts()
        tokens.forget_sprites()
        overlays.forget_labels()
        self.pygame.quit()


def run(args: argparse.Namespace) -> int:
    """Entry point of `battlemat play`: the window, or a headless screenshot with --screenshot."""
    options = PlayOptions.from_namespace(args)
    try:
        # the compiled reach search, in the background (a screenshot is taken before it would be ready)
        app = App(options, warm=None if options.screenshot else warm_search)
    except WindowClosed:
        import pygame  # noqa: PLC0415 - optional dependency: pygame

        pygame.quit()
        return 0
    try:
        if not options.screenshot:
            return app.run()
        return _screenshot(app, options, options.screenshot)
    finally:
        app.close()


def _screenshot(app: App, options: PlayOptions, shot: str) -> int:
    """--screenshot: the window as the options set it up (a selection, its skill and target, the
    predicted turn), a few frames, then the pointer on what the selection shows; 2 for a bad option."""
    play, select, use, target = app.play, options.select, options.use, options.target
    enc = play.ctx.enc
    if select:
        if select not in enc.by_id:
            print(f"battlemat: --select {select!r}: no such character; use one of "
                  f"{', '.join(enc.by_id)}", file=sys.stderr)
            return 2
        play.ctx.gm_mode = play.ctx.gm_mode or not play.session.is_pc(select)
        play.declaring.select(select)
        if use:
            try:
                half = enc.rules.half(use).name  # "item" is a half of the rules data too
            except BattlematError as exc:  # report the rules' own words
                halves = list(enc.rules.halves)
                print(f"battlemat: --use {use!r}: {exc}. Fix: {did_you_mean(use, halves)}use a skill half: "
                      f"{', '.join(halves)}", file=sys.stderr)
                return 2
            play.declaring.choose_skill(half)
            if target:
                if target not in enc.by_id:
                    print(f"battlemat: --target {target!r}: no such character; use one of "
                          f"{', '.join(enc.by_id)}", file=sys.stderr)
                    return 2
                play.declaring.set_target(target)
    if options.predict:
        play.command("predict")
    for _ in range(options.frames):
        app.tick(1 / 60)
    if select:  # hover the target (its forecast card), or the farthest reachable square (the route)
        _hover_for_screenshot(app, target)
        app.tick(1 / 60)
    view = app.players.surface() if options.view and app.players is not None else None
    app.screenshot(Path(shot), view)  # --view SIDE: that side's view (players_window.py)
    print(f"screenshot saved: {shot}")
    return 0


def _hover_for_screenshot(app: App, target: str | None) -> None:
    play = app.play
    ctx = play.ctx
    sq = play.session.position(target) if target else None
    if sq is None:
        rc = play.declaring.current_reach()
        if rc is None or not rc.costs:
            return
        sq = max(rc.costs, key=lambda s: (rc.costs[s], s))
    sx, sy = ctx.cam.to_screen(*ctx.layout.center(sq))
    ctx.mouse = (round(sx), round(sy))


def main(argv: list[str] | None = None) -> int:
    """`python -m battlemat.ui.app [ENCOUNTER] [options]` for trying the window without the CLI."""
    p = argparse.ArgumentParser(prog="battlemat play")
    p.add_argument("encounter", nargs="?", default=None)
    add_play_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
