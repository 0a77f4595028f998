"""Resolve asks before leaving player characters idle: "3 of 5 have no intent: resolve anyway?"

Enter or OK resolves; Esc or Cancel goes back to declaring with the idle ones ringed on the board,
named in the status bar and the first of them selected. A recorded turn (a replay, a rewound game)
plays as recorded without asking: its idleness was decided when it was played.
"""

from __future__ import annotations

import html
import math
import time
from collections.abc import Callable

import pygame

from battlemat.core.types import CharId
from battlemat.ui import theme
from battlemat.ui.context import PlayContext
from battlemat.ui.declaring import Declaring
from battlemat.ui.screens import Action, ConfirmScreen, Push, Question


class AskIdle:
    """The play screen's part that asks before resolving with idle player characters (`ctx.idle`:
    the ones it named). `resolve_now` is the play screen's."""

    def __init__(self, ctx: PlayContext, declaring: Declaring, resolve_now: Callable[[], None]) -> None:
        self.ctx = ctx
        self.declaring = declaring
        self.resolve_now = resolve_now

    def idle_pcs(self) -> list[CharId]:
        """Player characters still standing (not defeated, not fled) with no intent this turn, that
        the session asks about (Session.asks_if_idle: a lesson's step never asks about the others)."""
        s = self.ctx.session
        return [c for c in s.active() if s.asks_if_idle(c) and c not in s.declared]

    def ask_or_resolve(self) -> Action | None:
        idle = self.idle_pcs()
        if not idle or self.ctx.session.following_record():
            self.resolve_now()
            return None
        s = self.ctx.session
        pcs = [c for c in s.active() if s.is_pc(c)]
        names = ", ".join(html.escape(self.ctx.enc.by_id[c].name) for c in idle)
        have = "has" if len(idle) == 1 else "have"
        dim = "#{:02x}{:02x}{:02x}".format(*theme.TEXT_DIM[:3])
        question = Question(
            "Resolve with idle characters?",
            f"<b>{len(idle)} of {len(pcs)} {have} no intent</b>: {names}.<br><br>"
            "Resolve anyway? They do nothing this turn.<br>"
            f"<font color='{dim}'>Enter or Resolve plays the turn; "
            "Esc or Cancel goes back to declaring.</font>",
            "Resolve")
        return Push(ConfirmScreen(self.ctx.manager, self.ctx.frame.board, question,
                                  self.resolve_now, lambda: self.show_idle(idle)))

    def show_idle(self, idle: list[CharId]) -> None:
        """Back to declaring: the first idle one selected, all of them ringed and named."""
        self.ctx.idle = tuple(idle)
        self.declaring.select(idle[0])
        names = ", ".join(self.ctx.enc.by_id[c].name for c in idle)
        self.ctx.set_status(f"No intent yet: {names} - Tab goes through your characters; Enter resolves.", theme.ACCENT)

    def draw(self, surface: pygame.Surface) -> None:
        """A pulsing ring around each idle character the player was told about, until it declares."""
        if self.ctx.player is not None or not self.ctx.idle:
            return
        s = self.ctx.session
        pulse = 0.5 + 0.5 * math.sin(time.monotonic() * 5)
        radius = self.ctx.layout.cell * self.ctx.cam.zoom * (0.55 + 0.06 * pulse)
        clip = surface.get_clip()
        surface.set_clip(self.ctx.frame.board)
        for cid in self.ctx.idle:
            sq = s.position(cid)
            if cid in s.declared or not s.state[cid].active or sq is None:
                continue
            x, y = self.ctx.cam.to_screen(*self.ctx.layout.center(sq))
            pygame.draw.circle(surface, theme.ACCENT, (round(x), round(y)), round(radius), 3)
            tag = theme.text("no intent", 12, theme.ACCENT, bold=True)
            surface.blit(tag, tag.get_rect(midbottom=(round(x), round(y - radius - 8))))
        surface.set_clip(clip)
