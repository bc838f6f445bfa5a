"""``python -m bench [--quick] [--check] [--only engine,sqlite,...] [--json PATH]``: every performance figure, one
table.

Sections: engine (rules engine rates), sqlite (durable commits against the disk's bare fsync and commit rates),
stack (the real bot against the local fake Discord, modal and DM choices and whole turns, against a bare discord.py
floor doing the same durable work), cost (bench/choice_cost.py: the CPU per modal and DM choice of the
``python -m bot`` process alone, beside a bare discord.py floor process doing the same durable work and one
answer: the ratio, target <= 1.5x), api (REST calls per turn), opening (opening 200 and 2,000 tables), memory (per
running game), restart (``python -m bot`` on 10,000 open + 90,000 finished games), load (200 concurrent games: the
slowest first answer), pace (160 tables opened against a fake enforcing Discord's sliding-second global limit: its
429s, its busiest second, Start -> first turn message), due (10,000 deadlines due in the same second: the longest
hold of the event loop, answers meanwhile), days (``python -m bot`` restarted on 100,000 open games: the first
answer, the heap per open game), rest (REST calls per Numeri move and Binomial roll and round), capacity
(how many tables of 5 one bot token serves at 30 s turns, simulated against the fake's global 50 requests/s limit),
postgres (bench/postgres.py: the full stack, a restart and a 1,000,000-game leaderboard on PostgreSQL; only when a
server answers) and shards (bench/shards.py: real ``python -m bot`` processes on SQLite, on PostgreSQL holding both
shards of 2, and as two shard processes: choices/s, latency, CPU and REST calls per turn; only when a PostgreSQL
server answers).
Each figure is measured as a rate or ratio inside this run and repeated; the table shows the median and
the min-max spread. The full run writes bench/results.json (one key per figure) and bench/RESULTS.md from it;
``--quick`` is a smoke run with fewer repeats and smaller sizes, and writes nothing unless ``--json`` or
``--markdown`` is given. ``--check`` exits 1 when a figure misses its target, naming each (never part of the test
suite: timings are not tests).
"""

import argparse
import datetime as dt
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .common import Figure, cpu_count, fmt
from .report import RESULTS_MD, write_results

SECTIONS = ("engine", "sqlite", "stack", "cost", "api", "rest", "opening", "memory", "restart", "load", "pace", "due",
            "days", "capacity", "postgres", "shards")
RESULTS = Path(__file__).resolve().parent / "results.json"


def machine() -> dict[str, Any]:
    model = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            model = next((line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")), model)
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "usable_cpus": cpu_count(), "cpu_model": model,
            "python": platform.python_version(), "platform": platform.platform(),
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "load_average_1m_end": round(os.getloadavg()[0], 2)}


def table(figures: Sequence[Figure]) -> str:
    rows = [("figure", "median", "spread (min-max)", "unit", "target", "")]
    for f in figures:
        spread = f"{fmt(f.stats['min'])}-{fmt(f.stats['max'])} (n={f.stats['repeats']})"
        met = "" if f.met is None else ("met" if f.met else "MISSED")
        rows.append((f.label, fmt(f.stats["median"]), spread, f.unit, f.target, met))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, r in enumerate(rows):
        lines.append("  ".join(cell.ljust(w) if i in (0, 3, 4) else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(r, widths, strict=True))).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    notes = [f"- {f.label}: {f.note}" for f in figures if f.note]
    return "\n".join(lines) + ("\n\nNotes:\n" + "\n".join(notes) if notes else "")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a short smoke run (fewer repeats, smaller sizes)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a figure misses its target")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated subset of {','.join(SECTIONS)}")
    parser.add_argument("--json", type=Path, default=None,
                        help="where to write the figures (default: bench/results.json for a full run)")
    parser.add_argument("--markdown", type=Path, default=None,
                        help="where to write the results page (default: bench/RESULTS.md for a full run)")
    args = parser.parse_args(argv)
    wanted = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(wanted) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s): {sorted(unknown)}")
    out_path = args.json if args.json is not None else (None if args.quick else RESULTS)
    md_path = args.markdown if args.markdown is not None else (None if args.quick else RESULTS_MD)
    quick = args.quick
    figures: list[Figure] = []
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    load_at_start = round(os.getloadavg()[0], 2)

    with tempfile.TemporaryDirectory(prefix="bench-db-") as tmp:
        sizes = (200, 1000) if quick else (1000, 10_000)
        dbs: dict[int, Path] = {}

        def databases() -> dict[int, Path]:
            if not dbs:
                from .dbgen import generate

                for games in sizes:
                    dbs[games] = generate(Path(tmp) / f"games-{games}.sqlite3", games)
            return dbs

        def memory() -> list[Figure]:
            from . import memory as mod

            return mod.run(databases(), quick)

        def restart() -> list[Figure]:
            from . import restart as mod

            open_games, finished = (2000, 18_000) if quick else (10_000, 90_000)
            return mod.run(mod.generate_pair(Path(tmp), open_games, finished), open_games, finished, quick)

        def postgres() -> list[Figure]:
            from . import postgres as mod

            if (problem := mod.problem()) is not None:
                print(f"[bench] postgres skipped: no server at {mod.SERVER} ({problem})", file=sys.stderr)
                return []
            return mod.run(databases()[sizes[-1]], sizes[-1], quick)

        def shards() -> list[Figure]:
            from . import shards as mod

            if (problem := mod.problem()) is not None:
                print(f"[bench] shards skipped: no PostgreSQL server at {mod.SERVER} ({problem})", file=sys.stderr)
                return []
            return mod.run(quick)

        def lazy(module: str) -> Callable[[], list[Figure]]:
            def go() -> list[Figure]:
                mod = __import__(f"bench.{module}", fromlist=["run"])
                result: list[Figure] = mod.run(quick)
                return result
            return go

        runners: dict[str, Callable[[], list[Figure]]] = {
            "engine": lazy("engine"), "sqlite": lazy("sqlite_commits"), "stack": lazy("stack"),
            "cost": lazy("choice_cost"),
            "api": lazy("api_economy"), "rest": lazy("rest_per_move"), "opening": lazy("opening"), "memory": memory,
            "restart": restart, "load": lazy("load"), "pace": lazy("pace"), "due": lazy("due_together"),
            "days": lazy("open_games"),
            "capacity": lazy("capacity"), "postgres": postgres,
            "shards": shards,
        }
        for section in SECTIONS:
            if section not in wanted:
                continue
            print(f"[bench] {section}...", file=sys.stderr, flush=True)
            t0 = time.perf_counter()
            figures.extend(runners[section]())
            seconds[section] = round(time.perf_counter() - t0, 1)
            print(f"[bench] {section} done in {seconds[section]:.1f} s", file=sys.stderr, flush=True)

    info = {**machine(), "load_average_1m_start": load_at_start}
    print(f"\nThe Number bot benchmarks{' (quick)' if quick else ''}: {info['cpu_model']}, {info['nproc']} CPUs, "
          f"Python {info['python']}, {info['date']}\n")
    print(table(figures))
    total = time.perf_counter() - started
    print(f"\nTotal {total:.0f} s ({', '.join(f'{k} {v:.0f} s' for k, v in seconds.items())})")
    payload = {"machine": info, "quick": quick, "seconds": seconds,
               "figures": {f.key: f.as_json() for f in figures}}
    if out_path is not None:
        out_path.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
        print(f"wrote {out_path}")
    if md_path is not None:
        print(f"wrote {write_results(json.loads(json.dumps(payload, default=str)), md_path)}")
    if args.check:
        missed = [f for f in figures if f.met is False]
        for f in missed:
            print(f"MISSED: {f.label}: {fmt(f.stats['median'])} {f.unit}, target {f.target}", file=sys.stderr)
        if missed:
            return 1
        print(f"every target met ({sum(f.met is True for f in figures)} figures with a target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
