"""Refactors prove identical results: the quick subset of the golden outputs (tools/golden.py).

Each case is a command a user runs (`resolve --json`, `reach --json`, `simulate --report`); its
output must match, byte for byte, what tests/golden/ keeps. A change that alters results on purpose
re-records them (`python tools/golden.py record tests/golden`) and says why in its note.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _golden():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("golden", ROOT / "tools" / "golden.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["golden"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_quick_golden_outputs_are_identical() -> None:
    golden = _golden()
    quick = [c for c in golden.cases(ROOT) if c.quick]
    assert len(quick) >= 25  # resolve of every encounter, reach on every map, one simulate report
    assert {c.argv[0] for c in quick} == {"resolve", "reach", "simulate"}
    assert golden.differences(ROOT / "tests" / "golden", ROOT, quick=True) == []


def test_golden_compare_sees_a_changed_byte(tmp_path: Path) -> None:
    """The comparison can fail: one changed character in a kept output is reported by name."""
    golden = _golden()
    name = "resolve-examples-valtor_lore"
    kept = (ROOT / "tests" / "golden" / f"{name}.out").read_text()
    (tmp_path / f"{name}.out").write_text(kept)
    assert golden.differences(tmp_path, ROOT, quick=True, names={name}) == []
    (tmp_path / f"{name}.out").write_text(kept.replace("Lore", "Lora", 1))
    assert [d.split(":")[0] for d in golden.differences(tmp_path, ROOT, quick=True, names={name})] == [f"{name}.out"]
