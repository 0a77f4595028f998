"""The shape of the code, read from the code itself (ast): what must hold for every module of a layer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import ROOT

CORE = ROOT / "battlemat" / "core"

# No module-level mutable state in core (DESIGN: what a match remembers lives in its memory object,
# what a board's terrain gives in the board's cache). The rule, read from the source:
# - every assignment at module level, and in a class body (a class attribute is shared the same way),
#   is checked, whatever its name: UPPER_CASE constants included (but `__all__`, the names a package
#   exports, a list by convention and read by tools, never by the code);
# - a value is mutable when it is a list, dict or set display or comprehension, or a call to one of
#   MUTABLE_CALLS (by its name, plain or dotted: `collections.deque()` as `deque()`), or a tuple with a
#   mutable item;
# - FROZEN_CALLS make a value that cannot change (tuple, frozenset, MappingProxyType): a display passed
#   to them is fine, but not a mutable item inside it (`MappingProxyType({"a": []})`);
# - `if TYPE_CHECKING:` blocks never run; functions' bodies are not module state.
MUTABLE_CALLS = frozenset((
    "list", "dict", "set", "bytearray", "defaultdict", "deque", "OrderedDict", "Counter", "ChainMap",
    "SimpleNamespace", "WeakKeyDictionary", "WeakValueDictionary", "WeakSet", "array",
    "zeros", "ones", "empty", "full", "arange",  # numpy arrays are writeable
))
FROZEN_CALLS = frozenset(("tuple", "frozenset", "MappingProxyType"))
_DISPLAYS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


def _called(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _items(node: ast.expr) -> list[ast.expr]:
    """The items a display holds (a dict's keys and values; a comprehension's element)."""
    if isinstance(node, ast.Dict):
        return [k for k in node.keys if k is not None] + node.values
    if isinstance(node, (ast.List, ast.Set, ast.Tuple)):
        return node.elts
    if isinstance(node, ast.DictComp):
        return [node.key, node.value]
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        return [node.elt]
    return []


def _mutable(node: ast.expr) -> bool:
    if isinstance(node, _DISPLAYS):
        return True
    if isinstance(node, ast.Tuple):
        return any(_mutable(e) for e in node.elts)
    if isinstance(node, ast.Call):
        name = _called(node)
        if name in MUTABLE_CALLS:
            return True
        if name in FROZEN_CALLS:
            return any(_mutable(item) for arg in node.args for item in _items(arg))
    return False


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """Statements that run at module level (or in a class body at module level): inside if, try and with
    blocks too, but not under `if TYPE_CHECKING:`, nor in functions."""
    out: list[ast.stmt] = []
    for st in body:
        if isinstance(st, ast.If):
            if not (isinstance(st.test, ast.Name) and st.test.id == "TYPE_CHECKING"):
                out += _statements(st.body)
            out += _statements(st.orelse)
        elif isinstance(st, ast.Try):
            out += _statements(st.body + st.orelse + st.finalbody)
            for handler in st.handlers:
                out += _statements(handler.body)
        elif isinstance(st, ast.With):
            out += _statements(st.body)
        elif isinstance(st, ast.ClassDef):
            out += _statements(st.body)
        else:
            out.append(st)
    return out


def module_state(source: str, name: str = "<source>") -> list[str]:
    """Each module-level (or class-level) assignment of a mutable value in `source`: 'name:line target'."""
    found = []
    for st in _statements(ast.parse(source).body):
        if isinstance(st, ast.Assign):
            targets, value = st.targets, st.value
        elif isinstance(st, ast.AnnAssign) and st.value is not None:
            targets, value = [st.target], st.value
        elif isinstance(st, ast.AugAssign):
            targets, value = [st.target], st.value  # (`X += [...]` grows a module-level value)
        else:
            continue
        if [ast.unparse(t) for t in targets] == ["__all__"]:
            continue
        if _mutable(value) or isinstance(st, ast.AugAssign):
            found.append(f"{name}:{st.lineno} {', '.join(ast.unparse(t) for t in targets)}")
    return found


def _core_modules() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


def test_core_keeps_no_module_state() -> None:
    """No module of battlemat.core assigns a mutable value at module level or in a class body (the rule
    above); tests/test_core_state.py checks the imported values too."""
    assert len(_core_modules()) > 40
    found = [hit for path in _core_modules()
             for hit in module_state(path.read_text(), str(path.relative_to(ROOT)))]
    assert found == []


@pytest.mark.parametrize("bad", [
    "CACHE = {}",
    "seen = set()",
    "BY_NAME: dict[str, int] = dict()",
    "import collections\nQUEUE = collections.deque()",
    "ORDER = [1, 2]",
    "SQUARES = {x for x in range(3)}",
    "TABLE = MappingProxyType({'a': []})",
    "PAIR = (1, [])",
    "BUF = bytearray(8)",
    "WORK = np.zeros(8)",
    "class Shared:\n    found = []",
    "try:\n    import numba\nexcept ImportError:\n    FALLBACK = {}",
    "NAMES = ('a',)\nNAMES += ('b',)",
])
def test_the_module_state_rule_finds_a_mutable_value(bad: str) -> None:
    assert len(module_state(bad)) == 1


@pytest.mark.parametrize("good", [
    "NAMES = ('a', 'b')",
    "TABLE = MappingProxyType({'a': 1, 'b': (2, 3)})",
    "KINDS = frozenset({'x', 'y'})",
    "LIMIT = 100_000",
    "def f():\n    cache = {}\n    return cache",
    "if TYPE_CHECKING:\n    Alias = list[int]",
    "@dataclass\nclass Turn:\n    events: list[int] = field(default_factory=list)",
    "class Answer:\n    __slots__ = ('nodes', 'costs')",
    "__all__ = ['Grid', 'reach']",
])
def test_the_module_state_rule_passes_a_frozen_value(good: str) -> None:
    assert module_state(good) == []
