"""bench/RESULTS.md, written from a run's results (never by hand, so its figures cannot contradict each other).

``python -m bench`` writes it after a full run; ``python -m bench.report`` rewrites it from bench/results.json.
Every number in the file comes from the results; the prose around the table explains how each is measured.
"""

import json
import sys
from pathlib import Path
from typing import Any

from .common import fmt

HERE = Path(__file__).resolve().parent
RESULTS_JSON = HERE / "results.json"
RESULTS_MD = HERE / "RESULTS.md"

INTRO = """\
# Benchmark results

This file is written by `python -m bench` (about 2 minutes on an idle 2-CPU machine) from the run's
`bench/results.json`; `python -m bench.report` rewrites it from an existing `results.json`. Do not edit the
figures by hand. `python -m bench --quick` is a shorter smoke run that writes neither file unless asked
(`--json PATH`, `--markdown PATH`). The benchmarks need the dev extra (`pip install -e '.[dev]'`): the
full-stack and API figures drive the real bot against the local fake Discord in `tests/fakediscord`.
"""

METHOD = """\
## How each figure is measured

Every figure is a rate or a ratio measured inside one run and repeated (n in the table); the table shows the
median and the min-max spread. On a shared, noisy virtual machine the spread matters as much as the median:
the floor of the full-stack comparison moves most from run to run, so the cost ratio is the least stable
figure, and a short `--quick` window can catch a single stall that a full run averages out.

- **Engine.** 1,000 random legal 5-seat games are generated before the clock starts; `check_turn` runs on
  their (turn, entries) inputs, `play_turn` replays them from `new_game`, `replay_text` parses and replays
  their JSON scripts and builds the result JSON. One core.
- **SQLite.** `SQLiteStore.record_choice` one call at a time (and 20 concurrent callers) on 20 running
  games, `synchronous=FULL` and `OFF` interleaved in the same run.
- **Full stack.** 40 games of 5 are opened through the real UI (slash command, Join, Start) on the real
  `NumberBot` (SQLite FULL, system clock). Each choice is the exact `INTERACTION_CREATE` that
  `SimUser.submit_modal` sends, dispatched by the fake into discord.py's parsers; it is done when the fake
  has received the ephemeral callback. Four seats of each game choose again and again, the fifth never, so
  no turn ends during a measurement. Throughput: 32 in flight (closed loop). Latency: one submission every
  10 ms whatever happens (open loop), measured from the scheduled moment to the acknowledgement. The floor
  is a bare discord.py bot (`bench.stack.FloorBot`) answering a constant ephemeral reply on the same fake;
  both sides include the fake's own work, which shares the event loop. The fake runs without OpenAPI body
  validation here (a test-only cost).
- **API.** A whole game (10 turns) per case with the `tests/discord_world.World` helper, a fake clock and
  60 s turns; 5 players, a reminder 30 s before the deadline. "Within one second": one choice every 0.2 s;
  "spread": at 5, 15, 25, 35, 45 s. A turn's calls run from its first choice to the next turn's status
  message. For the modal path the button -> modal callbacks are Discord's protocol, not messages: they are
  reported but not counted against the target.
- **Concurrent games under Discord's global 50 requests/s** (interaction endpoints are exempt): 50 x turn
  seconds / the worst turn's non-interaction calls.
- **Memory.** `TheNumberService.load_open_games(warm=True)` in a fresh subprocess on a generated database of
  running games (each stopped at a random turn of a legal random game, with its action log and 0-4 pending
  choices); RSS growth divided by the game count.
- **Restart.** A fresh interpreter, timed from the parent's spawn to every running game's deadline and
  reminder armed (a game is rebuilt from its action log the first time someone acts in it). Discord login
  and the gateway READY are not included.
"""


def _machine(payload: dict[str, Any]) -> str:
    m = payload.get("machine", {})
    kind = " A `--quick` smoke run: read its figures as a smoke test only." if payload.get("quick") else ""
    seconds = payload.get("seconds", {})
    took = f" The run took {sum(seconds.values()):.0f} s." if seconds else ""
    load = ""
    if "load_average_1m_start" in m and "load_average_1m_end" in m:
        busiest = max(m["load_average_1m_start"], m["load_average_1m_end"])
        busy = " (above the CPU count: other work slowed every figure)" if busiest > m.get("nproc", 1) else ""
        load = (f" One-minute load average {m['load_average_1m_start']} at the start, {m['load_average_1m_end']}"
                f" at the end{busy}.")
    return (f"**Machine:** {m.get('cpu_model', 'unknown')}, {m.get('nproc', '?')} CPUs "
            f"({m.get('usable_cpus', '?')} usable), Python {m.get('python', '?')}, {m.get('platform', '?')}. "
            f"**Date:** {m.get('date', '?')}.{took}{load}{kind}\n")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _table(figures: dict[str, dict[str, Any]]) -> str:
    rows = ["| figure | median | min-max (n) | unit | target | |", "| --- | ---: | ---: | --- | --- | --- |"]
    for f in figures.values():
        spread = f"{fmt(f['min'])}-{fmt(f['max'])} ({f['repeats']})"
        met = "" if "met" not in f else ("met" if f["met"] else "**missed**")
        rows.append(f"| {_cell(f['label'])} | {fmt(f['median'])} | {spread} | {f['unit']} | "
                    f"{_cell(f.get('target', ''))} | {met} |")
    notes = [f"- {f['label']}: {f['note']}" for f in figures.values() if f.get("note")]
    return "\n".join(rows) + ("\n\nNotes from the run:\n\n" + "\n".join(notes) if notes else "") + "\n"


def results_markdown(payload: dict[str, Any]) -> str:
    return "\n".join([INTRO, _machine(payload), _table(payload.get("figures", {})), METHOD])


def write_results(payload: dict[str, Any], path: Path = RESULTS_MD) -> Path:
    path.write_text(results_markdown(payload), encoding="utf-8")
    return path


def main() -> int:
    if not RESULTS_JSON.exists():
        print(f"no {RESULTS_JSON.name}: run python -m bench first", file=sys.stderr)
        return 2
    print(f"wrote {write_results(json.loads(RESULTS_JSON.read_text(encoding='utf-8'))).name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
