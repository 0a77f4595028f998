"""The window: `battlemat play` / `python main.py`. Owns pygame, the GUI manager and the screen stack.

`add_play_arguments(parser)` is importable without pygame (the CLI builds its parser headless);
pygame is imported inside `run` and `App`. `--screenshot FILE` renders a few frames with whatever
video driver is set (the dummy one in CI), saves a PNG and exits 0.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from battlemat.cli import bounded_int, dice_argument, seed_argument
from battlemat.io.limits import MAX_FRAMES, MAX_WINDOW

DEFAULT_SIZE = (1280, 800)


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    """Options of `battlemat play` beyond the encounter (kept free of pygame imports)."""
    p.add_argument("--screenshot", metavar="FILE", default=None,
                   help="render headless, save a PNG to FILE and exit (uses SDL_VIDEODRIVER=dummy if unset)")
    p.add_argument("--frames", type=bounded_int(1, MAX_FRAMES, "frames of a headless render"), default=3, metavar="N",
                   help="frames to render before --screenshot")
    p.add_argument("--select", metavar="ID", default=None, help="select this character (shows its reach)")
    p.add_argument("--use", metavar="SKILL", default=None, help="with --select: the skill half to preview")
    p.add_argument("--target", metavar="ID", default=None, help="with --select/--use: the target")
    p.add_argument("--size", type=_size_argument, default=None, metavar="WxH",
                   help="window size, e.g. 1920x1080 (default 1280x800)")
    p.add_argument("--seed", type=seed_argument, default=None, help="override the encounter's seed")
    p.add_argument("--dice", type=dice_argument, default=None, help="override the encounter's dice engine")
    p.add_argument("--side", action="append", default=None, metavar="SIDE",
                   help="a side the players control (repeatable; default: the first side)")
    p.add_argument("--load", metavar="SAVE", default=None, help="resume a saved game (.json)")
    p.add_argument("--replay", metavar="SAVE", default=None, help="replay a saved game turn by turn")
    p.add_argument("--save-dir", default=None, metavar="DIR",
                   help="where saves, autosaves and screenshots go (default ~/.battlemat)")
    p.add_argument("--gm", action="store_true", help="start in GM mode (NPC intents shown)")


def _size(text: str | None) -> tuple[int, int]:
    if not text:
        return DEFAULT_SIZE
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"battlemat: --size is WIDTHxHEIGHT like 1280x800, not {text!r}") from None
    return max(800, w), max(600, h)


def _size_argument(text: str) -> str:
    """argparse type of --size: WIDTHxHEIGHT, at most MAX_WINDOW (argparse exits 2 otherwise)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not WIDTHxHEIGHT. Fix: write it like 1280x800") from None
    if not (0 < w <= MAX_WINDOW[0] and 0 < h <= MAX_WINDOW[1]):
        raise argparse.ArgumentTypeError(f"{w if w < 10**9 else 'huge'} x {h if h < 10**9 else 'huge'} is no window "
                                         f"size. Fix: use up to {MAX_WINDOW[0]}x{MAX_WINDOW[1]}")
    return text


def _default_encounter() -> Path:
    return Path(__file__).resolve().parents[2] / "maps" / "art_gallery.toml"


class App:
    """The window and its loop. Tests drive it one frame at a time with `tick()`."""

    def __init__(self, args: argparse.Namespace) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep the terminal for our messages
        import pygame
        import pygame_gui

        from battlemat.io.saves import read_save
        from battlemat.ui import theme
        from battlemat.ui.play import PlayScreen, Services, autosave_for
        from battlemat.ui.session import Session

        self.pygame = pygame
        # The encounter (or save) is read before any window opens: a bad file gives its message
        # (LoadError, exit 2 from the CLI) without a window flashing up.
        self.save_dir = Path(getattr(args, "save_dir", None) or Path.home() / ".battlemat")
        load = getattr(args, "load", None) or getattr(args, "replay", None)
        encounter = getattr(args, "encounter", None)
        if encounter and str(encounter).endswith(".json"):
            load = encounter
        pending: list[Any] = []
        sides = tuple(getattr(args, "side", None) or ())
        if load:
            save = read_save(load)
            session, pending = Session.from_save(save, load, replay=bool(getattr(args, "replay", None)),
                                                 autosave=autosave_for(self.save_dir, save.encounter))
        else:
            path = Path(encounter) if encounter else _default_encounter()
            session = Session(path, seed=getattr(args, "seed", None), dice=getattr(args, "dice", None),
                              pc_sides=sides, autosave=autosave_for(self.save_dir, path))
        self.headless = bool(getattr(args, "screenshot", None))
        if self.headless:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        pygame.display.init()
        pygame.font.init()
        size = _size(getattr(args, "size", None))
        flags = 0 if self.headless else pygame.RESIZABLE
        self.screen = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("battlemat")
        pygame.key.set_repeat(350, 40)
        self.manager = pygame_gui.UIManager(size, theme.gui_theme(1.0 if size[0] < 1600 else 1.15))
        with warnings.catch_warnings():  # some are already loaded by the theme; preload the rest
            warnings.simplefilter("ignore")
            self.manager.preload_fonts([
                {"name": "noto_sans", "point_size": pt, "style": style, "antialiased": "1"}
                for pt in (12, 13, 14, 15, 16, 17, 18, 21) for style in ("regular", "bold")
            ])
        services = Services(self.save_dir, self.screenshot, self.manager)

        self.play = PlayScreen(session, services, size)
        if pending:
            self.play.pending = list(pending)
            self.play._fill_from_replay()
            self.play.refresh_panels()
        if getattr(args, "gm", False):
            self.play.command("gm")
        self.stack: list[Any] = [self.play]
        self.clock = pygame.time.Clock()
        self.exit_code: int | None = None
        self._ui_clean = False
        self._ui_sig: object = None
        self._pointer_on_panels = 0.0

    # -- the loop ------------------------------------------------------------------------------
    def tick(self, dt: float | None = None) -> int | None:
        """One frame: events, update, draw. Returns an exit code when the app should stop."""
        pygame = self.pygame
        from battlemat.ui.screens import apply

        dt = self.clock.tick(60) / 1000.0 if dt is None else dt
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return 0
            if event.type == pygame.VIDEORESIZE:
                self.resize(event.size)
                continue
            if event.type in (pygame.MOUSEMOTION, pygame.MOUSEWHEEL, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                pos = getattr(event, "pos", None) or self.play.mouse
                if not self.play.frame.board.collidepoint(pos) or event.type == pygame.MOUSEWHEEL:
                    self._pointer_on_panels = time.monotonic()
            consumed = self.manager.process_events(event)
            code = apply(self.stack, self.stack[-1].on_event(event, consumed))
            if code is not None:
                return code
        self.manager.update(dt)
        for screen in list(self.stack):
            code = apply(self.stack, screen.update(dt))
            if code is not None:
                return code
        self.draw()
        return None

    def draw(self) -> None:
        for screen in self.stack:
            screen.on_draw(self.screen)
        self._draw_ui()
        self.pygame.display.flip()

    def _draw_ui(self) -> None:
        """The panels change far less often than the board, so their pixels are left on screen
        between frames while nothing could have changed them: only the play screen is up, every
        widget lies inside the panels, the pointer has not been over them lately (hover, scrolling,
        tooltips), none of our own widget changes (ui_epoch) and the widgets' images and places are
        the same as last frame. The board draws only inside its own rectangle, so the old panel
        pixels stay valid. Otherwise the panels are painted and drawn afresh."""
        from battlemat.ui.panels import paint_frame

        f = self.play.frame
        visible = self.manager.get_sprite_group().visible
        rects = [bd[1] for bd in visible if bd[0].get_width() and bd[0].get_height()]  # containers draw nothing
        sig = (self.play.ui_epoch, tuple((id(bd[0]), tuple(bd[1])) for bd in visible))
        cacheable = (
            len(self.stack) == 1
            and time.monotonic() - self._pointer_on_panels > 0.6
            and all(f.side.contains(r) or f.top.contains(r) for r in rects)
        )
        if cacheable and self._ui_clean and sig == self._ui_sig:
            return  # the board never draws outside its rectangle: last frame's panels are still there
        paint_frame(self.screen, f)
        self.manager.draw_ui(self.screen)
        self._ui_clean = cacheable
        self._ui_sig = sig

    def resize(self, size: tuple[int, int]) -> None:
        size = (max(800, size[0]), max(600, size[1]))
        self._ui_clean = False
        if not self.headless:
            self.screen = self.pygame.display.set_mode(size, self.pygame.RESIZABLE)
        self.play.resize(size)

    def screenshot(self, path: Path | None = None) -> Path:
        """F12: the window as PNG (in the save directory unless a path is given)."""
        target = path or self.save_dir / f"screenshot-{time.strftime('%Y%m%d-%H%M%S')}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        self.pygame.image.save(self.screen, str(target))
        return target

    def run(self) -> int:
        """The loop. A bug in one frame is reported and the game goes on (nothing is lost: the
        match only changes through resolve, and every resolved turn is autosaved); a bug that
        repeats every frame stops the window with exit code 1 instead of spinning."""
        import traceback

        failures = 0
        while True:
            try:
                code = self.tick()
                failures = 0
            except Exception as exc:  # noqa: BLE001 - keep the GM's game alive
                failures += 1
                traceback.print_exc()
                self.play.set_status(f"Internal error (see the terminal): {exc}", (232, 86, 86))
                self.play.player = None
                if failures > 30:
                    print("battlemat: the window keeps failing; stopping (your last turn is autosaved)",
                          file=sys.stderr)
                    return 1
                continue
            if code is not None:
                return code

    def close(self) -> None:
        from battlemat.ui import theme

        theme.forget_fonts()
        self.pygame.quit()


def run(args: argparse.Namespace) -> int:
    """Entry point of `battlemat play`: the window, or a headless screenshot with --screenshot."""
    from battlemat.core import movement

    movement.prepare()  # the compiled reach search, before the window opens
    app = App(args)
    try:
        shot = getattr(args, "screenshot", None)
        if not shot:
            return app.run()
        select, use = getattr(args, "select", None), getattr(args, "use", None)
        if select:
            if select not in app.play.enc.by_id:
                print(f"battlemat: --select {select!r}: no such character; use one of "
                      f"{', '.join(app.play.enc.by_id)}", file=sys.stderr)
                return 2
            app.play.gm_mode = app.play.gm_mode or not app.play.session.is_pc(select)
            app.play.select(select)
            if use:
                try:
                    half = app.play.enc.rules.half(use).name  # "item" is a half of the rules data too
                except Exception as exc:  # noqa: BLE001 - report the rules' own words
                    from battlemat.io.names import did_you_mean

                    halves = list(app.play.enc.rules.halves)
                    print(f"battlemat: --use {use!r}: {exc}. Fix: {did_you_mean(use, halves)}use a skill half: "
                          f"{', '.join(halves)}", file=sys.stderr)
                    return 2
                app.play.choose_skill(half)
                target = getattr(args, "target", None)
                if target:
                    if target not in app.play.enc.by_id:
                        print(f"battlemat: --target {target!r}: no such character; use one of "
                              f"{', '.join(app.play.enc.by_id)}", file=sys.stderr)
                        return 2
                    app.play.set_target(target)
        for _ in range(max(1, int(getattr(args, "frames", 3) or 1))):
            app.tick(1 / 60)
        if select:  # hover the farthest reachable square so the route shows in the picture
            rc = app.play.current_reach()
            if rc is not None and rc.costs:
                far = max(rc.costs, key=lambda sq: (rc.costs[sq], sq))
                sx, sy = app.play.cam.to_screen(*app.play.layout.center(far))
                app.play.mouse = (round(sx), round(sy))
            app.tick(1 / 60)
        app.screenshot(Path(shot))
        print(f"screenshot saved: {shot}")
        return 0
    finally:
        app.close()


def main(argv: list[str] | None = None) -> int:
    """`python -m battlemat.ui.app [ENCOUNTER] [options]` for trying the window without the CLI."""
    p = argparse.ArgumentParser(prog="battlemat play")
    p.add_argument("encounter", nargs="?", default=None)
    add_play_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
