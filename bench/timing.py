"""Timing helpers shared by the benchmarks (benchmarks may read a clock; tests never do)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def once(fn: Callable[[], object]) -> float:
    """Seconds one call takes."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def median_seconds(fn: Callable[[], object], repeat: int, warm: bool = True) -> float:
    """Median seconds per call over `repeat` calls, after one warm-up call (imports, caches)."""
    if warm:
        fn()
    return statistics.median(once(fn) for _ in range(repeat))


def paired(a: Callable[[], object], b: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """Median seconds of a and of b, and the median of the per-round ratios b/a. The two run in
    alternation, so load from other processes hits both alike (the ratio is what we quote)."""
    ta, tb, ratios = [], [], []
    for _ in range(repeat):
        x, y = once(a), once(b)
        ta.append(x)
        tb.append(y)
        ratios.append(y / x)
    return statistics.median(ta), statistics.median(tb), statistics.median(ratios)
