"""The bounded reach search of `movement`, compiled with numba (rules M4, M6, M7, M10, M11, M12).

`movement._search` is the reference: this is the same bucket search, step for step and in the same
order, over flat numpy arrays, for the movers without jumps or Provoke (M5 and M8 stay in Python).
Both give the same costs, routes, tie-breaks and refusals; `tests/test_kernel.py` compares them on
random boards. Without numba, `ready()` is False and `movement` uses the reference.

The search works in a window of radius allowance + 1 around the mover (a step moves at most one
square each way, on hex maps too), so its arrays are sized by the allowance, never by the map.
A state is one int: local square << 3 | diagonal parity << 2 | ends code (1 difficult, 2 Climb step).

Refusal codes in the log: 0 needs stairs or Climb (M12), 1 one level at a time (M12), 2 + f the
f-th sticky foe (M6). numba keeps its compiled code in a cache of its own (cache=True); nothing here
reads or writes a file.
"""

from __future__ import annotations

from typing import Any

import numpy as np

LEVEL, LEVEL_CLIMB, STICKY = 0, 1, 2
# The compiled search (numba's dispatcher of _bucket_search), once ready() has compiled or loaded it:
# called directly, as bucket_search(flags, centre, ip, fp, scratch), with no wrapper between.
bucket_search: Any = None
route_back: Any = None  # the compiled _route_back, likewise
_tried = False


def ready() -> bool:
    """True when the compiled search can be used: numba (a well-kept JIT for loops over arrays) is
    imported on first use, so commands that never search don't pay for it."""
    global bucket_search, route_back, _tried
    if not _tried:
        _tried = True
        try:
            import numba
        except ImportError:  # pragma: no cover - only where numba cannot be installed
            return False
        bucket_search = numba.njit(cache=True)(_bucket_search)
        route_back = numba.njit(cache=True)(_route_back)
    return bucket_search is not None


def _bucket_search(flags, centre, ip, fp, scratch):  # type: ignore[no-untyped-def]
    """The search of `movement._search` (see there for the rules of one step).

    flags[node, slot] (int16) describes the step to the neighbour in that slot: diagonal (1),
    difficult to enter (2), enterable (4), stairs at either end (8), the step's dx + 1 (<< 4) and
    dy + 1 (<< 6), a neighbour is there (256), and the level change, clamped to -2..2 (<< 9); it is
    0 where the slot has no neighbour. The neighbour is node + dy * width + dx. centre[node] is the
    square's centre (x, y) for a Press line.
    ip = (map width, x0, y0, allowance, Climb?, alternating diagonals?, Press?, hex map?, number of
    occupants, number of sticky foes, where the scratch space's int16 part starts, where its float64
    part starts) followed by
    each occupant's node and kind (1 ally, 2 enemy: M10) and each sticky foe's node (M6, in order);
    fp = the Press line (ax, ay, bx, by, length).
    scratch is int64 scratch space of `scratch_layout(allowance, slots)`, reused between calls, with
    an int16 and a float64 part (one array: numba checks each argument's type on every call). Every
    result is copied out of it, and the GIL is held throughout. Only what a call writes is read
    back, so only the cost table is cleared: the search touches little memory besides the squares
    it visits.

    Returns one int64 array: [ne, nr, nl, nre], the squares that can end a move in the order found
    (ne nodes, costs, states, deviations as float64 bits), the refusal log (nr nodes, codes), the
    ended log (nl nodes, codes), and the nre states reached with their links ((parent state + 1)
    << 8 | cost << 1 | diagonal)."""
    width, x0, y0, A, climb, alternating, press = ip[0], ip[1], ip[2], ip[3], ip[4], ip[5], ip[6]
    hexmap, n_occ, F, mid, end = ip[7], ip[8], ip[9], ip[10], ip[11]
    work, small, fwork = scratch[:mid], scratch[mid:end].view(np.int16), scratch[end:].view(np.float64)
    ax, ay, bx, by, length = fp[0], fp[1], fp[2], fp[3], fp[4]
    R = A + 1
    W = 2 * R + 1
    WW = W * W
    S = WW * 8
    slots = flags.shape[1]
    ox, oy = x0 - R, y0 - R
    height = flags.shape[0] // width
    occ = small[S + WW:S + 2 * WW]  # per local square: 0 free, 1 ally, 2 enemy
    occ[:] = 0
    for i in range(n_occ):
        j, kind = ip[12 + 2 * i], ip[13 + 2 * i]
        x, y = j % width - ox, j // width - oy
        if 0 <= x < W and 0 <= y < W:
            occ[y * W + x] = kind
    zones = np.zeros((F, WW), np.bool_)  # zones[f, local]: next to the f-th sticky foe (M6)
    for f in range(F):
        at = ip[12 + 2 * n_occ + f]
        fx, fy = at % width, at // width
        if hexmap:
            for k in range(slots):
                fl = flags[at, k]
                if not fl & 256:
                    continue
                x, y = fx + ((fl >> 4) & 3) - 1 - ox, fy + ((fl >> 6) & 3) - 1 - oy
                if 0 <= x < W and 0 <= y < W:
                    zones[f, y * W + x] = True
        else:
            for dy in range(-1, 2):
                for dx in range(-1, 2):
                    x, y = fx + dx, fy + dy
                    if (dx or dy) and 0 <= x < width and 0 <= y < height and 0 <= x - ox < W and 0 <= y - oy < W:
                        zones[f, (y - oy) * W + x - ox] = True
    # Expanded states have ends 0, so at most 2 per square: that bounds both logs.
    cost, ended = small[:S], small[S:S + WW]
    link, work = work[:S], work[S:]
    reached, work = work[:S], work[S:]
    blen, work = work[:A + 1], work[A + 1:]
    buckets = work[:(A + 1) * S].reshape((A + 1, S))
    work = work[(A + 1) * S:]
    e_node, work = work[:WW], work[WW:]
    e_cost, work = work[:WW], work[WW:]
    e_state, work = work[:WW], work[WW:]
    gnode, work = work[:WW], work[WW:]  # gnode[local square] = its node on the map, written when first reached
    r_node, work = work[:2 * WW * slots], work[2 * WW * slots:]
    r_code, work = work[:2 * WW * slots], work[2 * WW * slots:]
    l_node, l_ends = work[:4 * WW], work[4 * WW:8 * WW]
    dev, e_dev = fwork[:S], fwork[S:S + WW]
    cost[:] = A + 1
    blen[:] = 0
    ended[:] = 0
    ne = nr = nl = nre = 0
    st0 = (R * W + R) << 3
    cost[st0] = 0
    dev[st0] = 0.0  # the scratch space holds the last call's numbers: every state read is written first
    buckets[0, 0] = st0
    blen[0] = 1
    gnode[R * W + R] = y0 * width + x0
    for c in range(A + 1):
        n = blen[c]
        if press:  # straightest first, a stable insertion sort (M7)
            for i in range(1, n):
                v = buckets[c, i]
                dv = dev[v]
                k = i - 1
                while k >= 0 and dev[buckets[c, k]] > dv:
                    buckets[c, k + 1] = buckets[c, k]
                    k -= 1
                buckets[c, k + 1] = v
        for i in range(n):
            st = buckets[c, i]
            if cost[st] < c:
                continue
            lu = st >> 3
            par = (st >> 2) & 1
            ends = st & 3
            u = gnode[lu]
            if occ[lu] == 0 and not ended[lu]:
                ended[lu] = 1
                e_node[ne] = u
                e_cost[ne] = c
                e_dev[ne] = dev[st] if press else 0.0
                e_state[ne] = st
                ne += 1
            if ends:
                l_node[nl] = u
                l_ends[nl] = ends
                nl += 1
                continue
            inzone = False
            for f in range(F):
                if zones[f, lu]:
                    inzone = True
                    break
            last = c == A and not inzone  # no step fits any more: only a refused level change is left to log
            for k in range(slots):
                fl = flags[u, k]
                if not fl & 4:
                    continue  # no neighbour there, or not one to enter
                dl = fl >> 9
                if last and dl == 0:
                    continue
                dx, dy = ((fl >> 4) & 3) - 1, ((fl >> 6) & 3) - 1
                lj = lu + dy * W + dx
                if occ[lj] == 2:
                    continue
                j = u + dy * width + dx
                nends = 1 if fl & 2 else 0
                if dl != 0:
                    if (dl == 1 or dl == -1) and fl & 8:
                        pass
                    elif (dl == 1 or dl == -1) and climb:
                        nends = 2
                    else:
                        r_node[nr] = j
                        r_code[nr] = LEVEL_CLIMB if climb else LEVEL
                        nr += 1
                        continue
                if inzone:
                    bad = -1
                    for f in range(F):
                        if zones[f, lu] and not zones[f, lj]:
                            bad = f
                            break
                    if bad >= 0:
                        r_node[nr] = j
                        r_code[nr] = STICKY + bad
                        nr += 1
                        continue
                diag = fl & 1
                if diag and alternating:
                    if par == 0:
                        sc, npar = 1, 1
                    else:
                        sc, npar = 2, 0
                else:
                    sc, npar = 1, par
                nc = c + sc
                if nc > A:
                    continue
                ns = (lj << 3) | (npar << 2) | nends
                if press:
                    d = dev[st] + abs((bx - ax) * (ay - centre[j, 1]) - (ax - centre[j, 0]) * (by - ay)) / length
                    old = cost[ns]
                    if nc < old:
                        if old > A:
                            reached[nre] = ns
                            nre += 1
                        cost[ns] = nc
                        dev[ns] = d
                        link[ns] = (st + 1) << 8 | nc << 1 | diag
                        gnode[lj] = j
                        buckets[nc, blen[nc]] = ns
                        blen[nc] += 1
                    elif nc == old and d < dev[ns]:
                        dev[ns] = d
                        link[ns] = (st + 1) << 8 | nc << 1 | diag
                elif nc < cost[ns] and not (npar == 1 and nc >= cost[ns ^ 4]):
                    if cost[ns] > A:
                        reached[nre] = ns
                        nre += 1
                    cost[ns] = nc
                    link[ns] = (st + 1) << 8 | nc << 1 | diag
                    gnode[lj] = j
                    buckets[nc, blen[nc]] = ns
                    blen[nc] += 1
    out = np.empty(4 + 4 * ne + 2 * nr + 2 * nl + 2 * nre, np.int64)
    out[0], out[1], out[2], out[3] = ne, nr, nl, nre
    for i in range(nre):
        out[4 + 4 * ne + 2 * nr + 2 * nl + nre + i] = link[reached[i]]
    p = 4
    bits = e_dev[:ne].view(np.int64)
    for arr, m in ((e_node, ne), (e_cost, ne), (e_state, ne), (bits, ne), (r_node, nr), (r_code, nr),
                   (l_node, nl), (l_ends, nl), (reached, nre)):
        out[p:p + m] = arr[:m]
        p += m
    return out


def _route_back(found, q, nre, st):  # type: ignore[no-untyped-def]
    """The route to search state `st`, end first, from bucket_search's answer: the states reached
    are found[q:q + nre] and their links found[q + nre:q + 2 * nre]. Each step is packed as local
    square << 8 | cost << 1 | diagonal; the walk stops at the start (a link without a parent)."""
    out = np.empty(nre + 1, np.int64)
    n = 0
    while True:
        at = -1
        for i in range(nre):
            if found[q + i] == st:
                at = i
                break
        if at < 0:
            break
        ln = found[q + nre + at]
        if (ln >> 8) == 0:
            break
        out[n] = ((st >> 3) << 8) | (ln & 255)
        n += 1
        st = (ln >> 8) - 1
    return out[:n]


def scratch_layout(A: int, slots: int) -> tuple[int, int, int]:
    """bucket_search's scratch space for allowance A: its length in int64 words, and where its int16
    part and its float64 part start (ip[10] and ip[11])."""
    WW = (2 * A + 3) ** 2
    S = 8 * WW
    words, shorts, floats = 2 * S + (A + 1) * (S + 1) + 4 * WW + 4 * WW * slots + 8 * WW, S + 2 * WW, S + WW
    end = words + (shorts + 3) // 4
    return end + floats, words, end
