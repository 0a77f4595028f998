"""Resolve asks before leaving player characters idle: "3 of 5 have no intent: resolve anyway?"

Enter or OK resolves; Esc or Cancel goes back to declaring with the idle ones ringed on the board,
named in the status bar and the first of them selected. A recorded turn (a replay, a rewound game)
plays as recorded without asking: its idleness was decided when it was played.
"""

from __future__ import annotations

import html
import math
import time
from typing import Any

import pygame

from battlemat.types import CharId
from battlemat.ui import theme
from battlemat.ui.screens import Action, ConfirmScreen, Push, Question
from battlemat.ui.state import ScreenState


class AskIdle(ScreenState):
    """The play screen's part that asks before resolving with idle player characters."""

    idle: tuple[CharId, ...]
    manager: Any  # the GUI manager (PlayScreen's)

    def resolve_now(self) -> None:  # provided by PlayScreen
        raise NotImplementedError

    def select(self, cid: CharId | None) -> None:  # provided by Declaring
        raise NotImplementedError

    def idle_pcs(self) -> list[CharId]:
        """Player characters still standing (not defeated, not fled) with no intent this turn."""
        s = self.session
        return [c for c in s.active() if s.is_pc(c) and c not in s.declared]

    def ask_or_resolve(self) -> Action | None:
        idle = self.idle_pcs()
        if not idle or self.session.following_record():
            self.resolve_now()
            return None
        s = self.session
        pcs = [c for c in s.active() if s.is_pc(c)]
        names = ", ".join(html.escape(self.enc.by_id[c].name) for c in idle)
        have = "has" if len(idle) == 1 else "have"
        dim = "#{:02x}{:02x}{:02x}".format(*theme.TEXT_DIM[:3])
        question = Question(
            "Resolve with idle characters?",
            f"<b>{len(idle)} of {len(pcs)} {have} no intent</b>: {names}.<br><br>"
            "Resolve anyway? They do nothing this turn.<br>"
            f"<font color='{dim}'>Enter or Resolve plays the turn; "
            "Esc or Cancel goes back to declaring.</font>",
            "Resolve")
        return Push(ConfirmScreen(self.manager, self.frame.board, question,
                                  self.resolve_now, lambda: self.show_idle(idle)))

    def show_idle(self, idle: list[CharId]) -> None:
        """Back to declaring: the first idle one selected, all of them ringed and named."""
        self.idle = tuple(idle)
        self.select(idle[0])
        names = ", ".join(self.enc.by_id[c].name for c in idle)
        self.set_status(f"No intent yet: {names} - Tab goes through your characters; Enter resolves.", theme.ACCENT)

    def draw_idle(self, surface: pygame.Surface) -> None:
        """A pulsing ring around each idle character the player was told about, until it declares."""
        if self.player is not None or not self.idle:
            return
        s = self.session
        pulse = 0.5 + 0.5 * math.sin(time.monotonic() * 5)
        radius = self.layout.cell * self.cam.zoom * (0.55 + 0.06 * pulse)
        clip = surface.get_clip()
        surface.set_clip(self.frame.board)
        for cid in self.idle:
            sq = s.position(cid)
            if cid in s.declared or not s.state[cid].active or sq is None:
                continue
            x, y = self.cam.to_screen(*self.layout.center(sq))
            pygame.draw.circle(surface, theme.ACCENT, (round(x), round(y)), round(radius), 3)
            tag = theme.text("no intent", 12, theme.ACCENT, bold=True)
            surface.blit(tag, tag.get_rect(midbottom=(round(x), round(y - radius - 8))))
        surface.set_clip(clip)
