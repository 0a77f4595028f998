"""Walking distances' search as a plain loop over flat arrays: one definition, run as Python or
compiled by numba (kernel.walk_lengths compiles this function; walks.walk_field calls the compiled
one, or this one while the compiled search is still being prepared: movement.search.warming).
No numba here: importing this module is cheap."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # names for mypy only
    import numpy.typing as npt


def walk_lengths(nbr: npt.NDArray[np.int32], rev: npt.NDArray[np.int8], goal: int, far: int) -> npt.NDArray[np.int32]:
    """walks.walk_field's search: Dijkstra's from `goal` over the reversed steps (`walks.weights`, each
    1 to 3), the length of the shortest walk from every node to the goal (int32), `far` where none
    leads there. The queue is a bucket per length, four in a ring (a step adds at most 3): a node
    is queued only when its length improves, so a bucket never holds a node twice."""
    n, slots = nbr.shape
    dist = np.full(n, far, np.int32)
    buckets = np.empty((4, n), np.int32)
    blen = np.zeros(4, np.int64)
    dist[goal] = 0
    buckets[0, 0] = goal
    blen[0] = 1
    queued = 1
    d = 0
    while queued > 0:
        b = d & 3
        i = 0
        while i < blen[b]:  # (nothing joins the bucket being walked: every step costs at least 1)
            j = buckets[b, i]
            i += 1
            if dist[j] != d:
                continue  # walked more cheaply since
            for k in range(slots):
                w = rev[j, k]
                if w == 0:
                    continue
                u = nbr[j, k]
                nd = d + w
                if nd < dist[u]:
                    dist[u] = nd
                    bb = nd & 3
                    buckets[bb, blen[bb]] = u
                    blen[bb] += 1
                    queued += 1
        queued -= blen[b]
        blen[b] = 0
        d += 1
    return dist
