"""The compiled reach search (battlemat.core.movement.kernel) gives exactly the reference search's answers:
the same squares in the same order with the same costs (M1, M11), the same routes and tie-breaks
(M7 straightest charge), and the same refusal for every other square within allowance + 2 (M4, M6,
M10, M12). Random boards with levels, stairs, pits and difficult squares, square and hex, and walls
between squares with doors open, closed and locked under each door setting (M1, M4 house)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT, random_board
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemat.core import movement
from battlemat.core.board import Board
from battlemat.core.movement import kernel
from battlemat.core.movement.answers import answer
from battlemat.io.rules_file import load_rules

RULES = load_rules()
GRIDS = [("square", "", ""), ("hex", "y", "odd"), ("hex", "x", "even"), ("hex", "y", "even")]
USES = ["Melee", "Press", "Press", "Exit", "Climb", "Block", "Escape", "Shoot"]

pytestmark = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba is not installed: the reference search is used")


@st.composite
def scenes(draw):
    board, free = random_board(draw, draw(st.sampled_from(GRIDS)), walls=draw(st.booleans()))
    if not free:
        return None
    start = draw(st.sampled_from(free))
    others = draw(st.lists(st.sampled_from(free), max_size=5, unique=True))
    occupants = {sq: movement.Occupant(f"N{i}", draw(st.booleans())) for i, sq in enumerate(others) if sq != start}
    sticky = tuple(movement.StickyFoe(sq, o.name, draw(st.sampled_from(["Melee", "Wrestle"])))
                   for sq, o in occupants.items() if not o.friend and draw(st.booleans()))
    use = draw(st.sampled_from(USES))
    target = draw(st.sampled_from(free)) if use == "Press" else None
    allowance = draw(st.integers(0, 6))
    diagonals = draw(st.sampled_from(["alternating", "chebyshev", "manhattan"]))
    doors = draw(st.sampled_from(["ends_move", "free", "closed"]))  # M4 house: how closed doors open
    mover = movement.Mover("a", "Ada", use, start, allowance, target=target, target_name="Orc" if target else "")
    rules = RULES.with_overrides({"diagonals": diagonals, "door_opening": doors})
    return board, rules, mover, movement.Context(occupants, sticky)


def answers(scene, compiled: bool, monkeypatch) -> tuple:
    board, rules, mover, ctx = scene
    gr = movement.grid(board, str(rules.switch("diagonals")))
    scratch, mid, end = kernel.tables(gr).scratch(mover.allowance)  # as a last call left it:
    scratch[:mid] = 987654321
    scratch[mid:end].view(np.int16)[:] = -3
    scratch[end:].view(np.float64)[:] = 1e300
    with monkeypatch.context() as m:
        if not compiled:  # as where numba is missing
            m.setattr(kernel, "AVAILABLE", False)
        rc = answer(gr, rules, mover, tuple(ctx.occupants.items()), ctx.sticky)
    return (list(rc.costs.items()), {sq: rc.routes[sq] for sq in rc.costs}, dict(rc.refused),
            dict(rc.hazards))


@settings(max_examples=300, deadline=None)
@given(scenes())
def test_compiled_search_matches_the_reference(scene):
    if scene is None:
        return
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert answers(scene, True, monkeypatch) == answers(scene, False, monkeypatch)


def test_the_compiled_search_is_used_for_plain_moves_and_not_for_jumps_or_provoke(monkeypatch):
    board = Board(6, 6)
    calls: list[str] = []
    real = kernel.Tables.search
    monkeypatch.setattr(kernel.Tables, "search", lambda self, q: calls.append("kernel") or real(self, q))
    for use, jump, target in (("Exit", 0, None), ("Press", 0, (4, 4)), ("Acrobatics", 3, None),
                              ("Provoke", 0, (4, 4))):
        movement.forget(board)
        movement.reach(board, RULES, movement.Mover("a", "Ada", use, (1, 1), 3, jump, target, "Orc"))
    assert calls == ["kernel", "kernel"]  # Exit and Press; jumps (M5) and Provoke (M8) use the reference


def test_prepare_compiles_the_search_and_the_walk_back_along_a_route():
    """The play window calls prepare() before it opens, so that no hover waits for numba: both compiled
    functions a reach and its routes use are ready afterwards (M1, M11). In a fresh process, so that
    other tests' searches have not compiled them already."""
    code = ("from battlemat.core import movement; from battlemat.core.movement import kernel; "
            "movement.prepare(); "
            "print(len(kernel.bucket_search.signatures), len(kernel.route_back.signatures))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1", "1"]


def test_the_compiled_code_is_kept_in_the_user_cache_never_in_the_source_tree(tmp_path: Path) -> None:
    """numba's cache (cache=True) goes to the user's cache folder (kernel.user_cache, through
    NUMBA_CACHE_DIR set before numba is imported): compiling in a fresh process with an empty cache
    writes its index files there and writes nothing into battlemat/core/movement."""
    if sys.platform in ("win32", "darwin"):
        pytest.skip("the cache folder is the platform's own there (kernel.user_cache)")
    source = ROOT / "battlemat" / "core" / "movement"

    def cache_files() -> dict[str, int]:
        return {str(p): p.stat().st_mtime_ns for p in source.rglob("*") if p.suffix in (".nbi", ".nbc")}

    before = cache_files()
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    code = "from battlemat.core import movement; movement.prepare()"
    subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True, capture_output=True)
    assert cache_files() == before  # nothing made or rewritten in the source tree
    kept = {p.suffix for p in (tmp_path / "battlemat" / "numba").rglob("*")}
    assert {".nbi", ".nbc"} <= kept


@pytest.mark.parametrize(("platform", "environ", "expected"), [
    ("linux", {"XDG_CACHE_HOME": "/x/cache"}, "/x/cache/battlemat/numba"),
    ("linux", {"XDG_CACHE_HOME": "relative"}, "~/.cache/battlemat/numba"),  # (XDG: a relative path is ignored)
    ("linux", {}, "~/.cache/battlemat/numba"),
    ("darwin", {"XDG_CACHE_HOME": "/x/cache"}, "~/Library/Caches/battlemat/numba"),
])
def test_the_user_cache_folder_by_platform(platform: str, environ: dict[str, str], expected: str) -> None:
    assert kernel.user_cache(environ, platform) == os.path.expanduser(expected)
