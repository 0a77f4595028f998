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
        self._data: dict[int, V] = {}
        self._watched: set[int] = set()

    def get(self, obj: object) -> V | None:
        return self._data.get(id(obj))

    def setdefault(self, obj: object, make: Callable[[], V]) -> V:
        key = id(obj)
        value = self._data.get(key)
        if value is None:
            value = self._data[key] = make()
            if key not in self._watched:
                self._watched.add(key)
                weakref.finalize(obj, self._drop, key)
        return value

    def pop(self, obj: object) -> None:
        self._data.pop(id(obj), None)

    def _drop(self, key: int) -> None:
        self._data.pop(key, None)
        self._watched.discard(key)

    def __len__(self) -> int:
        return len(self._data)
