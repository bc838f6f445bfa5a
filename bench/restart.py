"""Restart through the real start-up path: ``python -m bot`` as its own process against the local fake Discord.

The parent runs the fake Discord, spawns the bot on a generated database and times, from the spawn: the
gateway connection, the first interaction answered (``/thenumber start`` in a fresh channel: the bot is
ready and answering), and the end of the background work the start-up begins (the restart sweep over
every running game): the moment the child's CPU time stops growing; also when every open game's deadline
was armed (the restore's log line), and how fast tables opened meanwhile are answered. Resident memory is
read from /proc then. Two databases with the same open games, one with many finished games as well: the
memory of the second divided by the first's is the cost of the finished games (1.0: they are not loaded).
With a PostgreSQL server (BENCH_POSTGRES_URL), the open games' restart on it as well. And a start after a long
downtime: the same open games with every deadline past, each in a channel of the fake, which enforces Discord's
global limit: a table opened once the overdue backlog has begun is timed (dispatch -> answer), as a multiple
of the first answer of the start on time; beside it, the backlog's pace and the requests the limit refused.

``python -m bench.restart [--open 10000] [--finished 90000]`` prints the figures; ``--postgres`` runs the same
start-up (``DATABASE_URL``) on a PostgreSQL copy of the open games (bench.postgres's server, a database of its own).
"""

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from tests.fakediscord import FakeDiscord
from tests.test_bot_process import bot_env

from .common import Figure, summary
from .common import postgres_database as common_postgres_database

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")
# CPU idle this long: the start-up work is over (longer than the 2 s discord.py waits for guilds before on_ready,
# after which the restore begins)
QUIET_SECONDS = 4.0
SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"  # BENCH_POSTGRES_URL's default, as bench.postgres's
PROBES, PROBE_EVERY = 40, 0.25  # tables opened while the start-up work runs, one every PROBE_EVERY seconds


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def memory_mb(pid: int) -> dict[str, float]:
    """Resident memory of ``pid`` in MiB: VmRSS, VmHWM (peak), RssAnon (the heap: what loading games costs) and
    RssFile (pages of mapped files: the statistics connection maps the database file, which the kernel may drop)."""
    found: dict[str, float] = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(("VmRSS:", "VmHWM:", "RssAnon:", "RssFile:")):
                found[line.split(":")[0]] = int(line.split()[1]) / 1024
    return found


RESTORED = "cogs.table.recovery: restored "  # the restore's log line: every open game's deadline is armed


def logged(path: Path, what: str, offset: int = 0) -> float:
    """The time (time.time()) of the last line of the bot's log from byte ``offset`` on containing ``what``
    (logging's asctime: local time, to the millisecond); NaN when there is none."""
    found = float("nan")
    with open(path, "rb") as fh:
        fh.seek(offset)
        text = fh.read().decode("utf-8", errors="replace")
    for line in text.splitlines():
        if what in line:
            found = datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
    return found


async def until(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"restart bench: timed out waiting for {what}")
        await asyncio.sleep(0.005)


def fresh_copy(db: Path, workdir: Path) -> Path:
    """A copy of the generated database as a bot stopped a moment ago left it: every running turn has time left
    (a deadline already past would reveal 10,000 turns at once: another benchmark), and no command sync
    remembered (each run has a new fake Discord, which knows no commands yet)."""
    copy = workdir / "bot.sqlite3"
    for stale in workdir.glob("bot.sqlite3*"):
        stale.unlink()
    source = sqlite3.connect(db)
    target = sqlite3.connect(copy, isolation_level=None)
    try:
        source.backup(target)
        target.execute("UPDATE games SET deadline = ? WHERE status = 'running'", (time.time() + 100,))
        target.execute("DELETE FROM meta WHERE key = 'commands_hash'")
    finally:
        source.close()
        target.close()
    return copy


async def fresh_postgres(url: str) -> None:
    """The PostgreSQL copy as :func:`fresh_copy` leaves a SQLite one; and no instance lease (the last run's
    process was killed, its lease would hold the database for a minute)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("UPDATE games SET deadline = $1 WHERE status = 'running'", time.time() + 100)
        await conn.execute("DELETE FROM meta WHERE key = 'commands_hash'")
        await conn.execute("DELETE FROM instance_lease")
    finally:
        await conn.close()


async def probe_while(fake: FakeDiscord, guild: Any, users: list[Any], latencies: list[float]) -> None:
    """Open a table every PROBE_EVERY seconds, one per user of ``users``, noting each answer's latency."""
    for n, user in enumerate(users):
        result = await (await user.slash(fake.add_channel(guild, f"later{n}"), "thenumber start")).wait(120)
        if result.message is not None and result.latency is not None:
            latencies.append(result.latency)
        await asyncio.sleep(PROBE_EVERY)


async def measure(source: Path, workdir: Path, url: str | None = None) -> dict[str, float]:
    """One start: on a fresh copy of ``source``, or on the PostgreSQL database ``url`` (a copy of it)."""
    db = fresh_copy(source, workdir)
    if url is not None:
        await fresh_postgres(url)
    async with FakeDiscord(spec_path=None) as fake:
        probe = fake.add_user("probe")
        later = [fake.add_user(f"later{i}") for i in range(PROBES)]
        guild = fake.add_guild("Restart", members=[probe, *later])
        channel = fake.add_channel(guild, "probe")
        log_path = workdir / "bot.log"
        log_from = log_path.stat().st_size if log_path.exists() else 0
        log = open(log_path, "ab")  # noqa: SIM115 - handed to the child
        env = bot_env(fake, db)
        if url is not None:
            env["DATABASE_URL"] = url
        spawned, spawned_wall = time.monotonic(), time.time()
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=workdir, env=env,
                                                    stdout=subprocess.DEVNULL, stderr=log)
        log.close()
        try:
            await until(lambda: fake.gateway.active and fake.requests_to("PUT", r"/commands$"), 120,
                        "the bot to connect and sync its commands")
            connected = time.monotonic() - spawned
            answered = latency = None
            while answered is None:
                result = await (await probe.slash(channel, "thenumber start")).wait(120)
                if result.message is not None and not result.rejections:
                    answered = result.dispatched_monotonic + (result.latency or 0) - spawned
                    latency = result.latency or 0.0
                elif time.monotonic() - spawned > 120:
                    raise AssertionError(f"restart bench: no answer ({result.rejections})")
            # The background work (the sweep): until the child's CPU time stops growing. Meanwhile a new table
            # is opened every PROBE_EVERY seconds (each by a player of its own, in a channel of its own): how
            # long players wait while the restore and the sweep run.
            latencies: list[float] = []
            last, since = cpu_seconds(proc.pid), time.monotonic()
            probing = asyncio.create_task(probe_while(fake, guild, later, latencies))
            while time.monotonic() - since < QUIET_SECONDS:
                await asyncio.sleep(0.1)
                now_cpu = cpu_seconds(proc.pid)
                if now_cpu - last > 0.02:
                    last, since = now_cpu, time.monotonic()
            probing.cancel()
            settled = since - spawned
            memory = memory_mb(proc.pid)
            return {"connected": connected, "answered": answered, "answer_latency": latency,
                    "armed": logged(log_path, RESTORED, log_from) - spawned_wall, "settled": settled, "cpu": last,
                    "busy_answer_max": max(latencies, default=float("nan")),
                    "busy_answer_median": statistics.median(latencies) if latencies else float("nan"),
                    "rss_mb": memory["VmRSS"], "peak_mb": memory["VmHWM"], "anon_mb": memory["RssAnon"],
                    "file_mb": memory["RssFile"]}
        finally:
            proc.terminate()
            await proc.wait()


GUILDS = 100  # the overdue run's games are spread over this many servers of the fake, a channel each
OVERDUE_PROBES = 20  # tables opened one every PROBE_EVERY seconds while the overdue backlog is worked off
GAME_POST = re.compile(r"^/channels/(\d+)/messages$")


def overdue_copy(db: Path, workdir: Path, channels: list[tuple[int, int]]) -> Path:
    """A copy of the generated database as a bot down for a long while left it: every running turn's deadline
    is past (the restart finds them all due at once), each game in a channel of the fake (``channels``:
    (guild id, channel id) per running game, in id order) so its reveal is posted as in production."""
    copy = fresh_copy(db, workdir)
    target = sqlite3.connect(copy, isolation_level=None)
    try:
        ids = [r[0] for r in target.execute("SELECT id FROM games WHERE status = 'running' ORDER BY id")]
        target.execute("BEGIN")
        target.executemany("UPDATE games SET guild_id = ?, channel_id = ?, deadline = ? WHERE id = ?",
                           [(g, c, time.time() - 600, i) for i, (g, c) in zip(ids, channels, strict=False)])
        target.execute("COMMIT")
    finally:
        target.close()
    return copy


MISSED = 3.0  # the latency noted for an interaction Discord forgot (not answered within its 3 s)


async def answer_or_miss(result: Any) -> float:
    """The latency of ``result``'s first answer (dispatch -> callback), or MISSED when Discord refused it as too
    late (10062: an answer after 3 s; the user saw "The application did not respond")."""
    await result.until(lambda r: r.response_type is not None or r.rejections, 120, "an answer")
    if result.response_type is None or result.latency is None:
        return MISSED
    return float(result.latency)


async def measure_overdue(source: Path, workdir: Path, games: int) -> dict[str, float]:
    """One start on a copy whose ``games`` running turns are all past their deadline, against a fake that
    enforces Discord's global limit (50 requests/s). Times, from the moment the fake received the first
    reveal of the backlog: the answer to a table opened then (what a player sees while the backlog runs:
    dispatch -> callback), tables opened every PROBE_EVERY seconds after it, how many reveals were posted
    meanwhile (the pace of the backlog) and how many of the bot's requests the limit refused."""
    async with FakeDiscord(spec_path=None) as fake:
        limit = fake.limit_globally()
        probes = [fake.add_user(f"probe{i}") for i in range(OVERDUE_PROBES + 1)]
        guilds = [fake.add_guild(f"Backlog {n}", members=probes if n == 0 else []) for n in range(GUILDS)]
        rooms = [fake.add_channel(guilds[n % GUILDS], f"game{n}") for n in range(games)]
        db = overdue_copy(source, workdir, [(room.guild_id, room.id) for room in rooms])
        game_channels = {room.id for room in rooms}
        log_path = workdir / "bot.log"
        log = open(log_path, "ab")  # noqa: SIM115 - handed to the child
        spawned = time.monotonic()
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=workdir, env=bot_env(fake, db),
                                                    stdout=subprocess.DEVNULL, stderr=log)
        log.close()

        def reveals() -> int:
            return sum(1 for r in fake.requests if r.method == "POST" and r.status == 200
                       and (m := GAME_POST.match(r.path)) is not None and int(m.group(1)) in game_channels)

        try:
            await until(lambda: reveals() > 0, 300, "the first reveal of the overdue backlog")
            began = time.monotonic()
            first = await answer_or_miss(await probes[0].slash(fake.add_channel(guilds[0], "probe"),
                                                               "thenumber start"))
            told_by_first = reveals()
            latencies: list[float] = []
            for n, user in enumerate(probes[1:]):
                latencies.append(await answer_or_miss(await user.slash(fake.add_channel(guilds[0], f"later{n}"),
                                                                       "thenumber start")))
                await asyncio.sleep(PROBE_EVERY)
            missed = sum(1 for x in [first, *latencies] if x == MISSED)
            window = time.monotonic() - began
            told = reveals()
            return {"backlog_began": began - spawned,
                    "overdue_answer": first, "told_by_first_answer": told_by_first, "missed": missed,
                    "overdue_answer_max": max(latencies), "overdue_answer_median": statistics.median(latencies),
                    "told": told, "told_per_s": told / window, "limited": limit.limited, "accepted": limit.accepted,
                    "games": games}
        finally:
            proc.terminate()
            await proc.wait()


def run(databases: dict[str, Path], open_games: int, finished: int, quick: bool = False, *,
        postgres: bool = True) -> list[Figure]:
    """``databases``: "open" (open games only) and "all" (the same open games and ``finished`` more); with
    ``postgres`` and a server answering at BENCH_POSTGRES_URL, the open games' restart on PostgreSQL too."""
    figures = _run_sqlite(databases, open_games, finished, quick)
    if postgres and (problem := postgres_problem()) is None:
        figures += run_postgres(databases["open"], open_games, quick)
    elif postgres:
        print(f"[bench] restart on PostgreSQL skipped: {problem}", file=sys.stderr)
    return figures


def postgres_problem() -> str | None:
    """Why no PostgreSQL restart can be measured here (None: a server answers at BENCH_POSTGRES_URL)."""
    import asyncpg

    async def probe() -> str | None:
        try:
            conn = await asyncpg.connect(os.environ.get("BENCH_POSTGRES_URL", SERVER), timeout=5)
        except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
            return f"{type(exc).__name__}: {exc}"
        await conn.close()
        return None

    return asyncio.run(probe())


def _run_sqlite(databases: dict[str, Path], open_games: int, finished: int, quick: bool) -> list[Figure]:
    runs: dict[str, list[dict[str, float]]] = {"open": [], "all": []}
    overdue: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="bench-restart-") as tmp:
        for _ in range(1 if quick else 3):
            for name, db in databases.items():
                work = Path(tmp) / name
                work.mkdir(exist_ok=True)
                runs[name].append(asyncio.run(measure(db, work)))
            work = Path(tmp) / "overdue"
            work.mkdir(exist_ok=True)
            overdue.append(asyncio.run(measure_overdue(databases["open"], work, open_games)))
    answered = summary([r["answered"] for r in runs["all"]])
    ratio = summary([a["anon_mb"] / o["anon_mb"] for a, o in zip(runs["all"], runs["open"], strict=True)])
    floor = summary([r["answered"] for r in runs["open"]])
    sizes = f"{open_games:,} open + {finished:,} finished games"
    med = {k: summary([r[k] for r in runs["all"]])["median"] for k in runs["all"][0]}
    omed = {k: summary([r[k] for r in runs["open"]])["median"] for k in runs["open"][0]}
    return [
        Figure("restart_answering_s", f"Restart ({sizes}): spawn -> first interaction answered", "s", answered,
               "< 3 s", answered["median"] < 3.0,
               f"python -m bot against the fake; connected {med['connected']:.2f} s; every open game's deadline "
               f"armed at {med['armed']:.2f} s; start-up work (restart sweep) over at {med['settled']:.1f} s, "
               f"{med['cpu']:.1f} s CPU; tables opened meanwhile answered in {med['busy_answer_median'] * 1000:.0f} "
               f"ms (median), {med['busy_answer_max'] * 1000:.0f} ms at most", {"runs": runs}),
        Figure("restart_answering_vs_open_only", "Restart: first answer, as a multiple of the same open games "
               "without finished ones", "x", summary([a["answered"] / o["answered"] for a, o in
                                                       zip(runs["all"], runs["open"], strict=True)]),
               note=f"floor: {floor['median']:.2f} s with {open_games:,} open games only"),
        Figure("restart_heap_vs_open_only", "Restart: resident heap (RssAnon) after the sweep, as a multiple of "
               "the same open games without finished ones", "x", ratio, "<= 1.1x", ratio["median"] <= 1.1,
               f"heap {med['anon_mb']:.0f} vs {omed['anon_mb']:.0f} MiB; mapped file pages {med['file_mb']:.0f} vs "
               f"{omed['file_mb']:.0f} MiB; VmRSS {med['rss_mb']:.0f} (peak {med['peak_mb']:.0f}) vs "
               f"{omed['rss_mb']:.0f} (peak {omed['peak_mb']:.0f})"),
        *overdue_figures(overdue, [r["answer_latency"] for r in runs["open"]], open_games),
    ]


def overdue_figures(runs: list[dict[str, float]], floors: list[float], open_games: int) -> list[Figure]:
    """The overdue start's first answer (dispatch -> callback), and as a multiple of the floor: the first answer
    of the start with the same open games on time, measured in the same run."""
    answer = summary([r["overdue_answer"] for r in runs])
    med = {k: summary([r[k] for r in runs])["median"] for k in runs[0]}
    floor = summary(floors)
    note = (f"{open_games:,} open games all past their deadline, python -m bot against the fake with Discord's "
            f"global limit; backlog's first reveal at {med['backlog_began']:.1f} s; {med['told_by_first_answer']:.0f}"
            f" reveals told by then; tables opened after it answered in {med['overdue_answer_median'] * 1000:.0f} "
            f"ms (median), {med['overdue_answer_max'] * 1000:.0f} ms at most, {med['missed']:.0f} of "
            f"{OVERDUE_PROBES + 1} not answered within 3 s; the backlog told {med['told_per_s']:.1f} reveals/s, "
            f"{med['limited']:.0f} requests refused by the global limit ({med['accepted']:.0f} let through)")
    return [
        Figure("restart_overdue_answer_s", "Restart with every deadline past: a table opened once the backlog runs, "
               "dispatch -> answer", "s", answer, "< 3 s", answer["median"] < 3.0 and med["missed"] == 0, note,
               {"runs": runs}),
        Figure("restart_overdue_answer_vs_floor", "Restart with every deadline past: that answer, as a multiple of "
               "the first answer of the same start on time", "x",
               summary([r["overdue_answer"] / f for r, f in zip(runs, floors, strict=True)]),
               note=f"floor: {floor['median'] * 1000:.0f} ms, the first answer with {open_games:,} open games on time"),
    ]


def postgres_database() -> contextlib.AbstractAsyncContextManager[str]:
    """An empty database of its own (``bench_restart_<random>``) on BENCH_POSTGRES_URL's server, dropped after."""
    return common_postgres_database(os.environ.get("BENCH_POSTGRES_URL", SERVER), "bench_restart")


def run_postgres(db: Path, open_games: int, quick: bool = False) -> list[Figure]:
    """The start-up of ``python -m bot`` with DATABASE_URL on a PostgreSQL copy of ``db`` (open games only)."""
    from storage.copy import copy_sqlite_to_postgres

    async def go(work: Path) -> list[dict[str, float]]:
        async with postgres_database() as url:
            await copy_sqlite_to_postgres(fresh_copy(db, work), url)
            return [await measure(db, work, url) for _ in range(1 if quick else 3)]

    with tempfile.TemporaryDirectory(prefix="bench-restart-pg-") as tmp:
        runs = asyncio.run(go(Path(tmp)))
    answered = summary([r["answered"] for r in runs])
    med = {k: summary([r[k] for r in runs])["median"] for k in runs[0]}
    return [Figure(f"pg_restart_answering_s_{open_games}", f"PostgreSQL restart ({open_games:,} open games): spawn "
                   "-> first interaction answered", "s", answered, "< 3 s", answered["median"] < 3.0,
                   f"python -m bot with DATABASE_URL against the fake; connected {med['connected']:.2f} s; every "
                   f"deadline armed at {med['armed']:.2f} s; start-up work over at {med['settled']:.1f} s, "
                   f"{med['cpu']:.1f} s CPU; heap {med['anon_mb']:.0f} MiB; tables opened meanwhile answered in "
                   f"{med['busy_answer_median'] * 1000:.0f} ms (median), {med['busy_answer_max'] * 1000:.0f} ms "
                   "at most",
                   {"runs": runs})]


def generate_open(tmp: Path, open_games: int) -> Path:
    from .dbgen import generate

    path = tmp / f"open-{open_games}.sqlite3"
    if not path.exists():
        generate(path, open_games)
    return path


def generate_pair(tmp: Path, open_games: int, finished: int) -> dict[str, Path]:
    from .dbgen import generate

    found = {"open": tmp / f"open-{open_games}.sqlite3", "all": tmp / f"all-{open_games}-{finished}.sqlite3"}
    for name, path in found.items():  # kept from an earlier run (--keep): generating 100,000 games takes minutes
        if not path.exists():
            generate(path, open_games, finished=finished if name == "all" else 0)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.restart", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--open", type=int, default=10_000)
    parser.add_argument("--finished", type=int, default=90_000)
    parser.add_argument("--keep", type=Path, default=None, help="reuse/keep the generated databases here")
    parser.add_argument("--postgres", action="store_true", help="the open games on PostgreSQL instead")
    args = parser.parse_args(argv)
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="bench-restart-db-"))
    tmp.mkdir(parents=True, exist_ok=True)
    try:
        if args.postgres:
            figures = run_postgres(generate_open(tmp, args.open), args.open, quick=True)
        else:
            figures = run(generate_pair(tmp, args.open, args.finished), args.open, args.finished, quick=True,
                          postgres=False)
        for figure in figures:
            print(f"{figure.label}: {figure.stats['median']:.3f} {figure.unit}  {figure.note}")
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
