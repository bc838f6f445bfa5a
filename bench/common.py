"""Small helpers shared by the benchmarks: summaries over repeats, percentiles, RSS, the figures table."""

import contextlib
import os
import statistics
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by linear interpolation; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def summary(values: Sequence[float]) -> dict[str, Any]:
    """Median and spread of repeated measurements (each repeat is one value)."""
    vals = [float(v) for v in values]
    return {
        "median": statistics.median(vals),
        "min": min(vals),
        "max": max(vals),
        "q1": percentile(vals, 25),
        "q3": percentile(vals, 75),
        "repeats": len(vals),
        "values": vals,
    }


def rss_kb() -> int:
    """Resident set size of this process in KiB (Linux /proc)."""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("VmRSS not found in /proc/self/status")


@dataclass
class Figure:
    """One line of the results table (and one key of results.json)."""

    key: str
    label: str
    unit: str
    stats: dict[str, Any]
    target: str = ""
    met: bool | None = None  # None: no target
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label, "unit": self.unit, **self.stats}
        if self.target:
            out["target"] = self.target
            out["met"] = self.met
        if self.note:
            out["note"] = self.note
        out.update(self.extra)
        return out


def fmt(value: float) -> str:
    if value != value:  # NaN
        return "n/a"
    magnitude = abs(value)
    if magnitude >= 10_000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def cpu_count() -> int:
    return len(os.sched_getaffinity(0))


@contextlib.asynccontextmanager
async def postgres_database(server: str, prefix: str = "bench") -> AsyncIterator[str]:
    """A new empty database (``<prefix>_<random>``) on ``server``, dropped (forced) after use."""
    import asyncpg
    import yarl

    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    try:
        yield str(yarl.URL(server).with_path("/" + name))
    finally:
        conn = await asyncpg.connect(server)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()
