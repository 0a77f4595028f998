"""The NPCs' difficulty in the window (issue 31 item 2; battlemat/ui/difficulty.py): the K key puts the
NPCs on the search AI and back on their scripted tactics, with the status line saying which, and the
NPCs declare the turn again with the new policy. Driven headless by real key presses."""

from __future__ import annotations

from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from test_ui import key, make_app, ticks  # noqa: E402

from battlemat.ui import difficulty  # noqa: E402

pytestmark = pytest.mark.ui

# Bors (the players' side: the first) cannot hurt Anna, an NPC whose script Blocks every turn: her
# tactic does nothing, the search strikes (C1, L4: fragile Bors falls to her blow).
DUEL = """
[encounter]
title = "A guard who only guards"
seed = 1
dice = "none"
[map]
rows = ["......", "......", "......"]
[[character]]
id = "bors"
name = "Bors"
side = "right"
skills = { "Block/Dodge" = 1 }
fragile = true
at = [3, 1]
[[character]]
id = "anna"
name = "Anna"
side = "left"
skills = { "Melee/Press" = 6, "Block/Dodge" = 3 }
at = [2, 1]
ai = "scripted"
script = [ { use = "Block" } ]
"""


def test_the_k_key_puts_the_npcs_on_the_search_and_back(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(DUEL, encoding="utf-8")
    app = make_app(tmp_path, str(path), "--think-ms", "400")
    try:
        ticks(app, 2)
        play = app.play
        assert play.session.declared["anna"].use == "Block"  # her script
        assert not difficulty.searching(play.session)
        key(app, pygame.K_k)
        assert difficulty.searching(play.session)
        assert "NPCs: search AI (up to 400 ms a character)" in play.ctx.status
        anna = play.session.declared["anna"]
        assert anna.use in ("Melee", "Press") and anna.target == "bors"  # decided by the search
        assert play.session.brain.notes["anna"].startswith("search: chose")  # type: ignore[attr-defined]
        key(app, pygame.K_k)
        assert not difficulty.searching(play.session) and "NPCs: scripted tactics" in play.ctx.status
        assert play.session.declared["anna"].use == "Block"
    finally:
        app.close()
