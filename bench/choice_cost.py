"""CPU per choice, the bot's process alone (``python -m bench --only cost``, or ``python -m bench.choice_cost``):
the real ``python -m bot`` and the floor (``python -m bench.floor_bot``: a bare discord.py bot that commits the
same ``choose`` row durably and answers once) each run in a process of their own, each against its own local
fake Discord in this process, in the same run, their timed windows interleaved (in a rotating order) so that
each ratio compares the same minutes of the machine.

A choice: a modal submission (the exact INTERACTION_CREATE ``SimUser.submit_modal`` sends for the turn
message's "Choose secretly" modal, the turn message attached, as the product opened it; the floor's fake holds
a copy of that message and gets the same submission) until its ephemeral answer names the number; or a DM
until the bot's reply names it. ``WINDOW`` choices always in flight, four seats of each table choosing again
and again in its first turn (as bench/shards.py does it), so no turn ends while measuring.

CPU: the bot process's run time (every thread's, ``/proc/<pid>/task/*/schedstat``, in nanoseconds) over each
timed window, divided by its choices:
the fakes, the driver and the other bot (idle: heartbeats only) are not in it. The ratio product / floor is the
issue's figure (target <= 1.5x). ``--profile PATH`` runs the product under cProfile (bench/profiled.py: main-thread CPU
time, over the timed windows only; stopped with SIGINT, so
the file is written) for a look at where its CPU goes; its figures are then inflated by the profiler.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import signal
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.fakediscord import Message, SimUser
from tests.test_bot_process import ROOT

from .common import Figure, summary
from .floor_bot import READY, SEATS, TURN_POSTED
from .load import number_for
from .shards import ACK, PATIENCE, WINDOW, BotProcess, Json, Setup, Table, Window, answered, closed_loop, modal_answer

SIDES = ("product", "floor")
# Before this module's optimisations (prompt, view and name caches): the same harness with ``--tree`` at a
# ``git archive`` of the commit named, in one run of its own (each ratio is against its own run's floor).
BASELINE = {
    "modal": "baseline 1.06x (0.948 ms, floor 0.825 ms) at 67f7703, 2026-12-06",
    "dm": "baseline 1.14x (0.783 ms, floor 0.731 ms) at 67f7703, 2026-12-06",
    "turns": "baseline 2.31x (1.99 ms, floor 0.880 ms; the floor in the product's shape 1.36 ms) at 67f7703, "
             "2026-12-06",
}
SHAPED = "floor_shaped"  # the floor answering a first choice in the product's shape (whole turns only)
PATHS = ("modal", "dm", "turns")
TURNS = 4  # whole turns per table and repeat (of its round's five: no round or game ends)



def run_time(pid: int) -> float:
    """The CPU time of every live thread of ``pid`` in seconds, from /proc/<pid>/task/*/schedstat (nanoseconds:
    a window's few hundred milliseconds are measured to far better than utime's 10 ms ticks). The bot's
    threads (the event loop's, the SQLite connection's, the executor's) live as long as the process."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, IndexError, ValueError):  # a thread that just ended
            continue
    return total / 1e9


class Sided(Setup):
    """A side's world: ``games`` tables for repeated choices (``tables``), and ``whole`` fresh tables per repeat
    of whole turns (``whole``: every seat's first choice of a turn, then the turn's end)."""

    def __init__(self, key: str, tmp: Path, settings: dict[str, str], games: int, whole: int) -> None:
        super().__init__(key, tmp, settings, games)
        self.whole_count = whole
        self.whole: list[Table] = []

    async def build(self) -> None:
        await super().build()
        self.turn_tables.clear()  # bench/shards.py's REST turns: not here
        guilds = list(self.fake.world.guilds.values())
        for n in range(self.whole_count):
            guild = guilds[n % len(guilds)]
            players = [self.fake.add_user(f"w{n}-{s}") for s in range(SEATS)]
            for player in players:
                self.fake.add_member(guild, player)
            self.whole.append(Table(0, self.fake.add_channel(guild, f"w{n}"), players))

    async def open_all(self) -> None:
        limit = asyncio.Semaphore(4)

        async def one(table: Table) -> None:
            async with limit:
                await self.open(table)

        await asyncio.gather(*(one(t) for t in [*self.tables, *self.whole]))

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far of each bot process (every thread's, to the nanosecond) and of this process."""
        out = {bot.name: run_time(bot.proc.pid) if bot.proc is not None else 0.0 for bot in self.bots}
        out["bench"] = time.process_time()
        return out

    def turn_done(self, table: Table, turn: int) -> Any:
        """The next turn's message, once the bot has posted it (None until then)."""
        return self.status_of(table, turn + 1)


class FloorSetup(Sided):
    """The floor's world: the same guilds, tables and players on a fake of its own, the product's turn messages
    copied in (so each submission carries the same message), and the floor bot's process instead of the bot's."""

    def __init__(self, tmp: Path, games: int, whole: int, product: Sided, shaped: bool = False) -> None:
        super().__init__("floor_shaped" if shaped else "floor", tmp, {}, games, whole)
        self.product = product
        self.shaped = shaped

    async def build(self) -> None:
        await super().build()
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")} | {
            "DISCORD_TOKEN": self.fake.token, "DISCORD_API_BASE": self.fake.api_base,
            "DISCORD_GATEWAY_URL": self.fake.gateway_url, "FLOOR_DATABASE": str(self.tmp / "floor.sqlite3"),
            "PYTHONPATH": str(ROOT)} | ({"FLOOR_SHAPE": "product"} if self.shaped else {})
        self.bots = [BotProcess(self.key, self.tmp, env, READY, ("-m", "bench.floor_bot"))]

    async def open(self, table: Table) -> None:
        source = (self.product.tables[self.tables.index(table)] if table in self.tables
                  else self.product.whole[self.whole.index(table)])
        assert source.status is not None and source.modal is not None
        table.status = self.fake.routes.new_message(table.channel, {
            "content": source.status.content, "embeds": source.status.embeds,
            "components": source.status.components})
        table.modal = source.modal

    def turn_done(self, table: Table, turn: int) -> Any:
        posted = self.fake.world.by_channel.get(table.channel.id, [])[-3:]
        return any(m.content == f"{TURN_POSTED} {turn + 1}" for m in posted)


@contextlib.asynccontextmanager
async def sides(tmp: Path, games: int, whole: int = 0, profile: Path | None = None,
                tree: Path | None = None) -> AsyncIterator[dict[str, Sided]]:
    """The product (``python -m bot`` on SQLite, its tables open through the real UI) and the floor, ready."""
    product = Sided("sqlite", tmp / "product", {"DATABASE_PATH": str(tmp / "product" / "bot.sqlite3")}, games,
                    whole)
    floor = FloorSetup(tmp / "floor", games, whole, product)
    shaped = FloorSetup(tmp / "floor_shaped", 1, whole, product, shaped=True)
    made: list[Sided] = []
    try:
        for setup in (product, floor, shaped):
            made.append(setup)
            await setup.build()
            if setup is product and tree is not None:  # another checkout's bot (a baseline), same harness
                product.bots[0].env["PYTHONPATH"] = str(tree)
            if setup is product and profile is not None:
                bot = product.bots[0]
                bot.args = ("-m", "bench.profiled", str(profile))
                bot.stop_signal = signal.SIGINT
            await setup.start()
            await setup.open_all()
        yield {"product": product, "floor": floor, "floor_shaped": shaped}
    finally:
        for setup in reversed(made):  # the fakes restore discord.py's globals in reverse order
            await setup.stop()


def first_choice_modal(modal: Json, status: Message | None, step: int) -> Json:
    """The modal of ``step``: the product's custom_id names the step of the turn message's "Choose secretly"
    button (``...:<step>:seal``) when the message has one, else ``step``."""
    for row in (status.components if status is not None else []):
        for item in row.get("components") or []:
            if str(item.get("custom_id", "")).endswith(":seal"):
                return modal | {"custom_id": item["custom_id"].removesuffix(":seal") + ":text"}
    return modal | {"custom_id": re.sub(r":\d+:text$", f":{step}:text", modal["custom_id"])}


async def whole_turns(setup: Sided, tables: list[Table], turns: int) -> Window:
    """Each of ``tables`` plays ``turns`` turns, all at once: in each turn its five seats submit the modal at
    once (each seat's first choice of the turn: the product answers privately, the first of the burst also by
    updating the turn message, which shows the others with the step's close),
    then the next turn's message is awaited (the product's reveal and turn message; the floor's one post)."""
    bad = 0
    latencies: list[float] = []
    product = not isinstance(setup, FloorSetup)

    async def submit(table: Table, user: SimUser, modal: Json, number: str, status: Message | None) -> None:
        nonlocal bad
        began = time.perf_counter()
        result = await user._dispatch(5, table.channel, modal_answer(modal, number), status)
        await result.until(answered, PATIENCE, "an answer")
        if result.response_type in (6, 7):  # the turn message updated: the acknowledgement is a private followup
            await result.until(lambda r: bool(r.followups) or bool(r.rejections), PATIENCE, "the acknowledgement")
        latencies.append((time.perf_counter() - began) * 1000)
        private = result.followups[0] if result.response_type in (6, 7) and result.followups else None
        text = private.content if private is not None else result.content
        bad += bool(result.rejections) or not text.startswith(ACK)

    async def play(table: Table) -> None:
        nonlocal bad
        assert table.modal is not None
        status = table.status
        for turn in range(turns):
            modal = first_choice_modal(table.modal, status if product else None, turn)
            await asyncio.gather(*(submit(table, user, modal, number_for(seat, turn), status)
                                   for seat, user in enumerate(table.players)))
            found = await setup.messages.until(table.channel.id, lambda t=turn: setup.turn_done(table, t), PATIENCE)
            if not found:
                bad += 1
                return
            if product:
                status = found

    cpu = setup.cpu()
    start = time.perf_counter()
    await asyncio.gather(*(play(t) for t in tables))
    seconds = time.perf_counter() - start
    used = {k: v - cpu[k] for k, v in setup.cpu().items()}
    setup.tidy()
    return Window(len(tables) * turns * SEATS / seconds, latencies, bad, used, seconds)


@contextlib.contextmanager
def profiling(setup: Sided | None) -> Iterator[None]:
    """The product's profiler on for a timed window (bench/profiled.py: SIGUSR1 on, SIGUSR2 off)."""
    proc = setup.bots[0].proc if setup is not None else None
    if proc is not None:
        proc.send_signal(signal.SIGUSR1)
    try:
        yield
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGUSR2)


def bot_cpu(window: Window) -> float:
    """The bot process's CPU seconds in a window (the one process that is not this one)."""
    return sum(v for k, v in window.cpu.items() if k != "bench")


@dataclass
class Run:
    games: int
    count: int
    turn_choices: int  # modal choices per repeat of whole turns
    windows: dict[tuple[str, str], list[Window]]
    tracebacks: dict[str, int]
    wrong: dict[str, list[str]]


async def measure(tmp: Path, quick: bool, profile: Path | None = None, paths: Sequence[str] = PATHS,
                  tree: Path | None = None) -> Run:
    games, repeats, count, per_repeat = (8, 2, 150, 4) if quick else (24, 7, 600, 8)
    windows: dict[tuple[str, str], list[Window]] = {(s, p): [] for s in (*SIDES, SHAPED) for p in PATHS}
    async with sides(tmp, games, per_repeat * repeats, profile, tree) as made:
        offset = 0
        for side in (*SIDES, SHAPED):  # warm-up: every path of every bot
            for path in ("modal", "dm") if side in SIDES else ("modal",):
                await closed_loop(made[side], path, 2 * WINDOW, offset)
                offset += 2 * WINDOW
        for n in range(repeats):
            order = SIDES if n % 2 == 0 else SIDES[::-1]
            for path in paths:
                for side in (*order, SHAPED) if path == "turns" else order:
                    with profiling(made[side] if profile is not None and side == "product" else None):
                        if path == "turns":
                            tables = made[side].whole[n * per_repeat:(n + 1) * per_repeat]
                            windows[(side, path)].append(await whole_turns(made[side], tables, TURNS))
                        else:
                            windows[(side, path)].append(await closed_loop(made[side], path, count, offset))
                            offset += count
        tracebacks = {side: sum(b.log().count("Traceback") for b in s.bots) for side, s in made.items()}
        wrong = {side: s.wrong[:5] for side, s in made.items()}
    return Run(games, count, per_repeat * TURNS * SEATS, windows, tracebacks, wrong)


def figures_of(run: Run) -> list[Figure]:
    figures: list[Figure] = []
    for path in [p for p in PATHS if run.windows[("product", p)]]:
        count = run.turn_choices if path == "turns" else run.count
        per = {side: [bot_cpu(w) / count * 1000 for w in run.windows[(side, path)]] for side in SIDES}
        bad = {side: sum(w.bad for w in run.windows[(side, path)]) for side in SIDES}
        ratio = summary([p / f for p, f in zip(per["product"], per["floor"], strict=True)])
        rates = {side: summary([w.rate for w in run.windows[(side, path)]])["median"] for side in SIDES}
        what = {"modal": "a seat changing its choice: modal submission -> ephemeral answer",
                "dm": "a seat changing its choice: DM -> DM reply",
                "turns": "whole turns, each seat's first choice: modal submission -> private answer, the turn "
                         "message updated by a burst's first; the turn's end"}[path]
        name = "modal choice in whole turns" if path == "turns" else f"{path} choice"
        extra = {"games": run.games, "window": WINDOW, "choices_per_repeat": count,
                 "failed_or_wrong_answers": bad, "tracebacks_in_logs": run.tracebacks, "wrong_answers": run.wrong}
        problems = f"; {bad} WRONG OR MISSING ANSWERS" if any(bad.values()) else ""
        figures += [
            Figure(f"cost_{path}_cpu_ms", f"Bot process alone: CPU per {name} ({what}), python -m bot", "ms",
                   summary(per["product"]),
                   note=(f"{run.turn_choices // (TURNS * SEATS)} fresh tables at once, {TURNS} turns each"
                         if path == "turns" else f"{WINDOW} in flight over {run.games} tables")
                   + f"; bot and fake in separate processes; {rates['product']:.0f} choices/s "
                     f"(floor {rates['floor']:.0f}/s){problems}", extra=extra),
            Figure(f"cost_floor_{path}_cpu_ms", f"Bot process alone: CPU per {name}, bare discord.py floor "
                   "(one durable commit, one answer" + ("; one post per turn)" if path == "turns" else ")"), "ms",
                   summary(per["floor"])),
            Figure(f"cost_{path}_vs_floor", f"Bot process alone: CPU per {name} as a multiple of the floor's",
                   "x", ratio, "<= 1.5x", ratio["median"] <= 1.5, note=BASELINE.get(path, "")),
        ]
        shaped = [bot_cpu(w) / count * 1000 for w in run.windows[(SHAPED, path)]]
        if shaped:
            figures += [
                Figure(f"cost_floor_shaped_{path}_cpu_ms", f"Bot process alone: CPU per {name}, the floor answering "
                       "in the product's shape (message updated + private followup)", "ms", summary(shaped),
                       note=f"{sum(w.bad for w in run.windows[(SHAPED, path)])} wrong or missing answers"),
                Figure(f"cost_{path}_vs_floor_shaped", f"Bot process alone: CPU per {name} as a multiple of the "
                       "floor answering in the product's shape", "x",
                       summary([p / f for p, f in zip(per["product"], shaped, strict=True)])),
            ]
    return figures


def run(quick: bool = False, profile: Path | None = None, paths: Sequence[str] = PATHS,
        tree: Path | None = None) -> list[Figure]:
    with tempfile.TemporaryDirectory(prefix="bench-cost-") as tmp:
        result = asyncio.run(measure(Path(tmp), quick, profile, paths, tree))
    return figures_of(result)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.choice_cost", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer tables, repeats and choices")
    parser.add_argument("--profile", type=Path, default=None, help="run the product under cProfile, into PATH")
    parser.add_argument("--tree", type=Path, default=None,
                        help="run the product from another checkout (e.g. a baseline commit's `git archive`)")
    parser.add_argument("--paths", default=",".join(PATHS), help=f"a comma-separated subset of {','.join(PATHS)}")
    args = parser.parse_args(argv)
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if set(paths) - set(PATHS):
        parser.error(f"unknown path(s): {sorted(set(paths) - set(PATHS))}")
    from .__main__ import table

    profile = args.profile.resolve() if args.profile is not None else None
    print(table(run(args.quick, profile, paths, args.tree.resolve() if args.tree is not None else None)))
    if profile is not None:
        print(f"profile of the product's process: {profile} (python -m pstats {profile})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
