"""Plays a pool's games, in forked worker processes when asked, with a progress line (every game's pool)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import get_context
from typing import TextIO, TypeVar

J = TypeVar("J")
R = TypeVar("R")


def _results(job: Callable[[J], R], jobs: Sequence[J], workers: int) -> Iterator[R]:
    if workers <= 1:
        yield from map(job, jobs)
        return
    with get_context("fork").Pool(workers) as pool:
        yield from pool.imap_unordered(job, jobs, chunksize=10)


def played(job: Callable[[J], R], jobs: Sequence[J], workers: int,
           progress: TextIO | None = sys.stderr) -> Iterator[R]:
    """``job(j)`` for every job (in completion order with workers; ``job`` must be a module-level function),
    writing how far the run is to ``progress`` about 200 times."""
    started = time.monotonic()
    step = max(1, len(jobs) // 200)
    try:
        for done, result in enumerate(_results(job, jobs, workers), start=1):
            yield result
            if progress is not None and (done % step == 0 or done == len(jobs)):
                elapsed = time.monotonic() - started
                progress.write(f"\r{done}/{len(jobs)} games, {elapsed:.0f} s, "
                               f"about {elapsed / done * (len(jobs) - done):.0f} s left   ")
                progress.flush()
    finally:
        if progress is not None:
            progress.write("\n")
