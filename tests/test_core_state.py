"""No hidden state in the core (DESIGN: what a match remembers lives in one memory object owned by the
match; per-board caches in the board's own cache): nothing at module level in battlemat.core can
change, two matches never share what they remember, and a value type's copy keeps every field."""

from __future__ import annotations

import dataclasses
import importlib
import json
import pkgutil
import re
import types
import typing
from types import MappingProxyType

import pytest
from conftest import ROOT

import battlemat.core
from battlemat.ai import Brain
from battlemat.core.match import Match
from battlemat.core.memory import MatchMemory
from battlemat.core.state import CharacterState
from battlemat.io.encounter import load_encounter

_PLAIN = (str, int, float, bool, bytes, type(None), type, types.FunctionType, types.BuiltinFunctionType,
          types.ModuleType, re.Pattern)


def _frozen(value: object, depth: int = 0) -> bool:
    """Whether `value` can never change: plain values, immutable containers of them, frozen value types."""
    if depth > 4 or isinstance(value, _PLAIN) or type(value).__module__ in ("typing", "__future__", "dataclasses"):
        return True  # (typing's aliases, `annotations`, dataclasses' KW_ONLY marker: names, not state)
    if isinstance(value, (typing.TypeVar,)) or value is typing.Any:
        return True
    if isinstance(value, (tuple, frozenset)):
        return all(_frozen(v, depth + 1) for v in value)
    if isinstance(value, MappingProxyType):
        return all(_frozen(k, depth + 1) and _frozen(v, depth + 1) for k, v in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = getattr(type(value), "__dataclass_params__", None)
        return bool(params and params.frozen)
    if type(value).__module__.startswith("numba"):  # a compiled function (its own compile cache aside)
        return True
    if hasattr(value, "flags") and hasattr(value, "dtype"):  # a numpy array
        return not value.flags.writeable  # type: ignore[attr-defined]
    return False


def test_no_module_level_state_that_can_change_in_the_core() -> None:
    changeable = []
    for info in pkgutil.walk_packages(battlemat.core.__path__, "battlemat.core."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if name.startswith("__") or getattr(value, "__module__", None) not in (None, info.name) and callable(value):
                continue
            if not _frozen(value):
                changeable.append(f"{info.name}.{name}: {type(value).__name__}")
    assert changeable == []


def test_no_global_statements_in_the_core() -> None:
    """A module-level name rebound by a function (`global`) is state the value check cannot see."""
    import ast

    found = [f"{path.relative_to(ROOT)}:{node.lineno}" for path in sorted((ROOT / "battlemat" / "core").rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, (ast.Global, ast.Nonlocal))]
    assert found == []


def test_the_state_check_sees_a_module_level_table() -> None:
    """The check above can fail: a dict, a list or a non-frozen object at module level is caught."""
    assert not _frozen({}) and not _frozen([]) and not _frozen(MatchMemory.__new__(MatchMemory))
    assert _frozen(MappingProxyType({"N": 1})) and _frozen(((1, 2), "x"))


def _log(match: Match) -> list[str]:
    return [json.dumps(e.to_dict(), sort_keys=True) for e in match.log]


def _play(matches: list[tuple[Match, Brain]], turns: int) -> None:
    """One turn of each match in turn, `turns` times (the AI declares for every side)."""
    for _ in range(turns):
        for match, brain in matches:
            if not match.outcome().over:
                match.play(brain.decide(match.state, match.rng))


@pytest.mark.parametrize(("seeds", "dice"), [((3, 4), "d6"), ((5, 5), "none")])
def test_two_matches_interleaved_give_the_logs_each_gives_alone(seeds: tuple[int, int], dice: str) -> None:
    """Two matches of one encounter (sharing its board and that board's caches) and one of another,
    played a turn each in turn in one process, log exactly what each logs played alone on freshly
    loaded encounters: nothing one match remembers leaks into another."""
    gallery, forest = ROOT / "maps" / "art_gallery.toml", ROOT / "maps" / "forest_ambush.toml"
    shared = load_encounter(gallery)
    together = [Match(shared, seed=seeds[0], dice=dice), Match(shared, seed=seeds[1], dice=dice),
                Match(load_encounter(forest), seed=seeds[0], dice=dice)]
    _play([(m, Brain(m.encounter, m.memory)) for m in together], turns=6)
    for match, path, seed in zip(together, (gallery, gallery, forest), (seeds[0], seeds[1], seeds[0]), strict=True):
        alone = Match(load_encounter(path), seed=seed, dice=dice)
        _play([(alone, Brain(alone.encounter, alone.memory))], turns=6)
        assert _log(match) == _log(alone) and len(_log(alone)) > 50


def test_with_keeps_a_field_added_later() -> None:
    """CharacterState.with_ is derived from the dataclass fields: a field added later (here by a
    subclass) survives a copy that changes another field, and `active` follows the new values (L3)."""

    @dataclasses.dataclass(frozen=True)
    class Stunned(CharacterState):
        stunned: bool = False
        minor_penalty: int = 0

    s = Stunned(minor=1, stunned=True, minor_penalty=2)
    copy = s.with_(minor=2)
    assert (type(copy), copy.minor, copy.stunned, copy.minor_penalty) == (Stunned, 2, True, 2)
    assert copy.with_(stunned=False).stunned is False
    assert copy.active and not copy.with_(defeated=True).active
    with pytest.raises(TypeError):
        s.with_(no_such_field=1)
