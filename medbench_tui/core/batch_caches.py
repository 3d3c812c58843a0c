"""Caches that serve one batch of play and scoring, and can be let go when it ends.

A run keeps the documents it scored and the patient's spelling dictionary alive in
``lru_cache``s (some 20 MB over a large run); the summary printed after the play would
otherwise need that much again on top. A cache made with :func:`batch_cache` is
registered here, and :func:`release` empties every one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Protocol, TypeVar, cast


class _Clearable(Protocol):
    def cache_clear(self) -> None: ...


_REGISTERED: list[_Clearable] = []
F = TypeVar("F", bound=Callable[..., object])


def batch_cache(maxsize: int) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)``, registered so that :func:`release` empties it."""

    def wrap(function: F) -> F:
        cached = lru_cache(maxsize=maxsize)(function)
        _REGISTERED.append(cached)
        return cast(F, cached)  # the cached function keeps the signature

    return wrap


def release() -> None:
    """Empty every batch cache (they fill again on next use)."""
    for cached in _REGISTERED:
        cached.cache_clear()
