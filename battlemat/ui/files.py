"""The play screen's files: saving (Ctrl+S, Ctrl+Shift+S), opening an encounter or a save (Ctrl+O),
replaying a save, and where autosaves go.

A part of the play screen holding its context; a file opened is shown by the play screen's own
`load_session`, which keeps the game as it was when the file cannot be read or drawn.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from battlemat.core.errors import BattlematError
from battlemat.core.intents import Intent
from battlemat.io.saves import read_save, write_save
from battlemat.ui import theme
from battlemat.ui.context import PlayContext
from battlemat.ui.screens import Action, FileAsk, FileScreen, Push, SaveAsScreen, Shortcut
from battlemat.ui.session import Session
from battlemat.ui.setup_draft import MAP_SUFFIXES, is_map

Load = Callable[[Session, list[tuple[Intent, ...]] | None], None]


def autosave_for(save_dir: Path, encounter: str | Path) -> Path:
    return save_dir / f"autosave-{Path(encounter).stem}.json"


class Files:
    """Saves and opens files for the play screen; `load` shows a session (the play screen's)."""

    def __init__(self, ctx: PlayContext, load: Load) -> None:
        self.ctx = ctx
        self.load = load
        self.open_map: Callable[[str], Action | None] | None = None  # a map opens in the set-up (ui/setup.py)

    def save_game(self, path: Path | None = None) -> Path | None:
        ctx = self.ctx
        stem = ctx.session.path.stem
        target = path or ctx.services.save_dir / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        try:
            write_save(ctx.session.to_save(), target)
        except (OSError, BattlematError) as exc:  # the writer's refusal (io.outfile) says why and the fix
            ctx.set_status(f"Could not save {target}: {exc}", theme.BAD)
            return None
        ctx.set_status(f"Saved {target}", theme.GOOD)
        return target

    def save(self) -> None:
        self.save_game()

    def open_path(self, path: str, replay: bool = False) -> Action | None:
        ctx = self.ctx
        if self.open_map is not None and is_map(path):
            return self.open_map(path)
        save_dir = ctx.services.save_dir
        autosave = ctx.session.autosave_path
        try:
            if path.endswith(".json"):
                save = read_save(path)
                session, pending = Session.from_save(save, path, replay=replay,
                                                     autosave=autosave_for(save_dir, save.encounter))
                self.load(session, pending)
            else:
                session = Session(path, autosave=autosave_for(save_dir, path) if autosave else None)
                self.load(session, None)
        except (BattlematError, OSError) as exc:
            ctx.set_status(f"Cannot open {path}: {str(exc).splitlines()[0]}", theme.BAD)
            if ctx.side is not None:
                ctx.side.log_text(str(exc), theme.BAD)
            return None
        ctx.refresh()
        if session.note:
            ctx.set_status(f"Opened {path}, but {session.note}.", theme.ACCENT)
        elif not replay:
            ctx.set_status(f"Opened {path}", theme.GOOD)
        return None

    def file_dialog(self, title: str, on_pick: Callable[[str], Action | None], saves: bool = False) -> Action:
        """The file dialog, starting in the save folder (`saves`) or the encounter's, with a button
        for each of them."""
        enc_dir = self.ctx.session.path.parent.resolve()
        save_dir = self.ctx.services.save_dir
        try:
            save_dir.mkdir(parents=True, exist_ok=True)
        except OSError:
            saves = False  # an unwritable save folder: start beside the encounter
        shortcuts = (Shortcut("Saves", save_dir), Shortcut("Encounter's folder", enc_dir))
        suffixes = frozenset({".json"}) if saves else frozenset({".toml", ".json", *MAP_SUFFIXES})
        ask = FileAsk(title, str(save_dir if saves else enc_dir) + "/", shortcuts, suffixes)
        return Push(FileScreen(self.ctx.manager, self.ctx.frame.board, ask, on_pick))

    def open(self) -> Action:
        return self.file_dialog("Open an encounter (.toml), a save (.json) or a map to set up", self.open_path)

    def replay(self) -> Action:
        return self.file_dialog("Replay a save (.json)", lambda p: self.open_path(p, replay=True), saves=True)

    def save_as(self) -> Action:
        """Ctrl+Shift+S: a save under a typed name, in the save folder."""
        def write(target: Path) -> str | None:
            return None if self.save_game(target) else self.ctx.status

        suggested = f"{self.ctx.session.path.stem}-turn{self.ctx.session.turn}"
        return Push(SaveAsScreen(self.ctx.manager, self.ctx.frame.board, self.ctx.services.save_dir, suggested, write))
