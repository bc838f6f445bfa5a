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

This file is written by `python -m bench` (about 35 minutes on an idle 2-CPU machine) from the run's
`bench/results.json`; `python -m bench.report` rewrites it from an existing `results.json`. Do not edit the
figures by hand. `python -m bench --quick` is a shorter smoke run that writes neither file unless asked
(`--json PATH`, `--markdown PATH`). The benchmarks need the dev extra (`pip install -e '.[dev]'`): the
full-stack and API figures drive the real bot against the local fake Discord in `tests/fakediscord`.
"""

METHOD = """\
## How each figure is measured

Every figure is a rate or a ratio measured inside one run and repeated (n in the table); the table shows the
median and the min-max spread. Every product figure has a floor measured in the same run, next to it: this
machine's disk swings between a few hundred and several thousand fsyncs per second from minute to minute,
so a durable figure means something only beside the disk's own rate at the same moment.

- **Engine.** 1,000 random legal 5-seat games are generated before the clock starts; `check_turn` runs on
  their (turn, entries) inputs, `play_turn` replays them from `new_game`, `replay_text` parses and replays
  their JSON scripts and builds the result JSON. One core.
- **Disk and SQLite.** Floors: the bare fsync rate (64 bytes rewritten in place and `fdatasync`ed) and the
  bare commit rate (plain `sqlite3`, WAL + `synchronous=FULL`, one INSERT of an `actions` row and its COMMIT
  at a time: one commit per fsync), each measured right before and after the store's figures. The store:
  `SQLiteStore.record_choice` one caller at a time, then 200 games choosing at once (group commit: the
  writes queued during a commit share the next transaction; the mean group size is in the note).
- **Full stack.** 40 games of 5 are opened through the real UI (slash command, Join, Start) on the real
  `NumberBot` (SQLite FULL, system clock). A modal choice is the exact `INTERACTION_CREATE` that
  `SimUser.submit_modal` sends, done when the fake has the ephemeral answer; a DM choice is a DM, done when the
  bot's reply is in the DM channel. Four seats of each game choose again and again, the fifth never, so no
  turn ends during those measurements. Whole turns: fresh tables where all five choose, done when the next
  turn's status message is posted (the reveal comes before it). The driver keeps 32 choices in flight, each
  a coroutine awaiting the fake's own signal (no polling). Latency: one submission every 10 ms whatever
  happens (open loop), from the scheduled moment to the answer. The floor is a bare discord.py bot
  (`bench.stack.FloorBot`) doing the same durable work: one WAL + FULL commit of a `choose` row per choice,
  then a constant answer (and two posts after a turn's fifth choice), on the same fake. Both sides include the
  fake's own work, which shares the event loop; the fake runs without OpenAPI body validation here.
- **Bot process alone (CPU per choice).** `bench/choice_cost.py`: the real `python -m bot` (SQLite) and the
  floor (`python -m bench.floor_bot`: a bare discord.py client that commits the same `choose` row, WAL + FULL,
  and answers once: an ephemeral line, or a DM reply) each run in a process of their own, each against its own
  fake Discord in the harness's process, with the same world (24 tables of 5 over 4 guilds, the product's turn
  message copied into the floor's fake so each submission carries the same message). CPU is the bot process's
  run time over each timed window (every thread's, from `/proc/<pid>/task/*/schedstat`), so neither the fakes
  nor the driver are in it; the windows of product and floor alternate in the same minutes, and the ratio is
  taken per repeat. Three paths: a seat changing its choice by the modal (the exact `INTERACTION_CREATE`
  `SimUser.submit_modal` sends) or by DM, 32 in flight, four seats of each table again and again in its first
  turn; and whole turns, where every seat's choice is its first of the turn (the product answers by updating
  the turn message, type 7, then a private followup; the fifth choice ends the turn: the reveal and the next
  turn message), 8 fresh tables at once, 4 turns each. A third process, the floor answering in the product's
  shape (its message updated with its embeds, then an ephemeral followup: two interaction requests, as the
  product), tells the library's cost of that answer apart from the product's own work. The baseline in the
  ratio's note is the same harness with `--tree` at a `git archive` of the commit named, in a run of its own.
- **API.** A whole game (10 turns) per case with the `tests/discord_world.World` helper, a fake clock and
  60 s turns; 5 players, a reminder 30 s before the deadline. "Within one second": one choice every 0.2 s;
  "spread": at 5, 15, 25, 35, 45 s. A turn's calls run from its first choice to the next turn's status
  message. The targets count the rate-limited calls: interaction callbacks and followups (the modal's
  opening, its answer updating the turn message, the private acknowledgement) are reported apart, as
  Discord's global limit does not apply to them. How many tables a token serves is not derived
  from these counts: see Capacity.
- **Capacity.** `bench/capacity.py`: the real bot (`python -m bot` in a process of its own, SQLite, over
  the fake's gateway; the fake and the simulated players in the harness's process) plays N tables of 5 at
  30 s turns against the fake with Discord's global rate limit on (50 requests per second per token, counted
  in fixed windows; interaction callbacks and `/webhooks/` followups exempt; an excess request gets 429 with
  `"global": true`, `X-RateLimit-Global` and `Via`, which discord.py answers by locking every request and
  retrying, five tries at most). Every player chooses at a random moment of the turn (uniform over 1-27 s,
  or as soon as the turn message appears if it comes later), through the turn message's button and the
  modal, or by DM (one search per path). The token's wait is timed in the bot: each REST call's time from
  its call into discord.py's `HTTPClient.request` to the start of its last HTTP attempt (the global lock and
  the sleeps after 429s). N keeps up when that wait, summed over a table's calls between its turn's last
  choice (or deadline) and the next turn message, is within 1 s for 95 % of the measured turns, and within
  1 s for 95 % of all REST calls (DM replies included), no table stalls, no player misses a turn, and every
  interaction of the measured window gets the right first answer within Discord's 3 s. The whole lag (last
  choice to next turn message) is reported beside it but does not decide: on a busy machine it also holds
  the CPU's and the disk's delays. Tables are opened with the limit off; each table's first turn is a
  warm-up (it also spreads the tables' turns apart). The search starts at the target (twice the baseline),
  doubles while N keeps up (up to 1,200), then bisects, three steps per path; each N is one fresh run. Time can be
  compressed by a factor K (the bot's clock runs K times faster, its timers fire on it, the limit becomes
  50 requests per 1/K s): only waiting scales, work does not, so K multiplies the CPU load. The full run
  uses K = 1 (real 30 s turns) and `--quick` K = 4; each measurement records the bot's CPU time (its
  process and children) over wall time, the share of the time its event loop's thread waited for a CPU
  (/proc schedstat: other work on the machine), its event loop's lag and the harness's CPU, and the note
  says whether the first N that fell behind was CPU-bound. The target is twice the figure of main at
  commit 57413c0 (the baseline recorded in the module, with its date, measured by the same harness with
  `--tree` at a worktree of that commit).
- **Opening tables.** `/thenumber start` in 200 and in 2,000 fresh channels (16 in flight) on the real bot,
  REST over HTTP to the fake; an opening is timed to the end of its handler (the answer, then the opener's
  DM), after 32 untimed openings; cost per table in CPU time of the process (wall time beside it, which
  follows the machine's load), and the ratio of the two sizes (discord.py's bucket walk, amortised by
  `bot/http_buckets.py`, made it grow with the number of tables; `tests/test_opening_scale.py` counts it).
- **Memory.** `GameService.load_open_games()` in a fresh subprocess on a generated database of
  running games (each stopped at a random turn of a legal random game, with its action log and 0-4 pending
  choices); RSS growth divided by the game count.
- **Restart.** `python -m bot` as its own process against the fake (over its gateway), on a generated database
  of 10,000 open games with 90,000 finished ones (their statistics cached, as after an earlier run), and on
  the same open games alone (the floor). Timed from the spawn to the gateway connection, to the first
  interaction answered (`/thenumber start` in a fresh channel), and to the end of the start-up's background
  work (the restart sweep over every running game: the moment the child's CPU time stops growing), when its
  memory is read from /proc: the heap (RssAnon) is compared; mapped database pages (RssFile) are reported.
  When a PostgreSQL server answers, the same start-up with `DATABASE_URL` on a PostgreSQL copy of the open
  games (`python -m bench.restart --postgres`). And a start after a long downtime: the same open games with
  every deadline past, each in a channel of a fake that enforces Discord's global limit; a table opened once
  the overdue backlog has begun is timed from dispatch to answer, and divided by the first answer of the start
  on time (the floor); the backlog's pace and the requests the limit refused are reported beside it.
- **Shard processes.** Real `python -m bot` processes against the fake Discord with sharding (a guild's events
  reach the session of shard `(guild_id >> 22) % 2`, every DM shard 0 only), in three configurations, each with
  its own fake and the same world (24 tables of 5 seats over 4 guilds, half on each shard): (a) SQLite, one
  process, no sharding; (b) PostgreSQL, one process holding shards 0 and 1 of 2; (c) PostgreSQL, two processes,
  shard 0 and shard 1, on one database, where shard 0's process applies the DM choices of shard 1's games. All
  three run at once; the timed windows alternate between them in a rotating order (the idle ones only send
  heartbeats and poll for the shard resync), so each ratio compares the same minutes of the machine. A modal
  choice is the exact `INTERACTION_CREATE` `SimUser.submit_modal` sends, done when the fake has the answer and its
  private acknowledgement; a DM choice is done when the bot's reply is in the DM channel; four seats of each table
  choose again and again in its first turn, so no turn ends. 32 choices in flight, each a coroutine awaiting the
  fake's own signal; latency is each choice's dispatch -> answer in that closed loop (about 32 / the rate, by
  Little's law). CPU per choice is summed over the bot process(es), this process (the three fakes and the driver)
  and the PostgreSQL backends of the configuration's database: on 2 cores they all compete, so (c)'s second
  process adds no core, and the CPU figures are steadier than the rates when other work shares the machine. REST
  calls per turn: tables of their own, one at a time, all five seats choosing by DM, by the modal (button, modal,
  submission), or alternately (a turn ended by a DM, then one ended by a modal), the table's own requests (its
  channel, its players' DM channels, their interactions) from the turn's first choice until the fake has been
  quiet for 0.5 s after the next turn's status message; interaction callbacks are counted apart. The turns of a
  shard-1 table with DM choices, which shard 0's process applies in (c) (and, alternating, ends or finds opened by
  the other process), are compared turn by turn with the same turns in (b) and (a): no extra write, and at most
  the one read with which shard 0's process reads the turn message shard 1 posted, to close it.
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
