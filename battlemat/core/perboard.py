"""Values kept per live object (a Board), found by identity and dropped when the object is collected.

A `weakref.WeakKeyDictionary` makes a new weak reference on every look-up; the memo tables of the
movement search and of sight are looked up several times per query, so this keeps a plain dict
keyed by `id()` and lets `weakref.finalize` drop the entry when the object dies (an id is only
reused after its object is gone, and the finalizer runs first)."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class PerBoard(Generic[V]):
    def __init__(self) -> None:
        self.by_id: dict[int, V] = {}  # id(obj) -> value: hot paths read it without a call
        self._watched: set[int] = set()

    def get(self, obj: object) -> V | None:
        return self.by_id.get(id(obj))

    def setdefault(self, obj: object, make: Callable[[], V]) -> V:
        key = id(obj)
        value = self.by_id.get(key)
        if value is None:
            value = self.by_id[key] = make()
            if key not in self._watched:
                self._watched.add(key)
                weakref.finalize(obj, self._drop, key)
        return value

    def pop(self, obj: object) -> None:
        self.by_id.pop(id(obj), None)

    def _drop(self, key: int) -> None:
        self.by_id.pop(key, None)
        self._watched.discard(key)

    def __len__(self) -> int:
        return len(self.by_id)
