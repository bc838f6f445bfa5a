"""The REST pace at the wire: 160 tables opened at once against a fake Discord that enforces the global limit as
Discord does (50 requests in any sliding second per token, interaction answers exempt).

Each table is a channel of its own: its host runs ``/thenumber start``, two players join, the host presses
Start, 16 tables going through that at a time until all 160 are open. Every seat taken sends a how-to-play DM
(a DM channel, then the DM: about 960 counted requests), and every Start a first turn message: far more than 50
a second, so the pace is saturated for some 20 s. Measured by the fake, not by the bot: the global 429s it
refused, the busiest sliding second it saw, and, for each table, the time from the Start press to its turn
message's arrival (the first message posted in its channel: the lobby is an interaction answer). The bot runs
in this process, with its default pace (48 requests per second); the fake shares the process, so its receipt
times carry the loop's delays too, which the pace must absorb (a slot counts until the request's answer is
back).
"""

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.client import NumberBot
from bot.settings import Settings
from tests.fakediscord import FakeDiscord

from .common import Figure, summary
from .opening import handlers_done

TABLES = 160
# Tables going through open, join, join, Start at a time: the fake and the bot share this process's CPU, and all
# 160 at once (640 interactions) would measure the CPU, not the pace. Opening ~16 tables a second this way still
# asks the token for ~110 requests a second, more than twice its 48.
IN_FLIGHT = 16
LIMIT = 50  # Discord's global limit, requests per sliding second
FIRST_TURN_TARGET = 2.0  # seconds from Start to the first turn message, every table


async def open_at_once(tables: int, tmp: Path) -> dict[str, Any]:
    async with FakeDiscord(spec_path=None) as fake:
        players = [[fake.add_user(f"p{t}_{s}") for s in range(3)] for t in range(tables)]
        guild = fake.add_guild("Pace", members=[u for seats in players for u in seats])
        channels = [fake.add_channel(guild, f"t{t}") for t in range(tables)]
        bot = NumberBot(Settings(_env_file=None, database_path=tmp / "pace.sqlite3"))  # type: ignore[call-arg]
        await bot.login(fake.token)
        await fake.attach(bot)
        pressed: dict[int, float] = {}
        bad = 0
        try:
            limit = fake.limit_globally(LIMIT, 1.0, sliding=True)

            async def table(t: int) -> None:
                nonlocal bad
                host, *guests = players[t]
                opened = await (await host.slash(channels[t], "thenumber start")).until(
                    lambda r: r.response_type is not None or bool(r.rejections), 60, "the lobby")
                if opened.message is None:
                    bad += 1
                    return
                for guest in guests:
                    joined = await (await guest.click(fake.world.messages[opened.message.id], "Join")).until(
                        lambda r: r.response_type is not None or bool(r.rejections), 60, "a join")
                    bad += bool(joined.rejections)
                lobby = fake.world.messages[opened.message.id]
                pressed[channels[t].id] = time.time()
                started = await (await host.click(lobby, "Start")).until(
                    lambda r: r.response_type is not None or bool(r.rejections), 60, "the start")
                bad += bool(started.rejections)

            began = time.time()
            queue = iter(range(tables))

            async def worker() -> None:
                for t in queue:
                    await table(t)

            await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
            await handlers_done()
            pacer = bot.pacer
            assert pacer is not None
            while pacer.waiting(0) or pacer.waiting(1) or pacer._in_flight:  # the DMs still queued
                await asyncio.sleep(0.05)
            ended = time.time()
            first_post: dict[int, float] = {}
            counted = 0
            for record in fake.requests:
                if record.path.startswith(("/interactions/", "/webhooks/")):
                    continue
                counted += 1
                parts = record.path.split("/")
                if (record.method == "POST" and len(parts) == 4 and parts[1] == "channels"
                        and parts[3] == "messages" and record.status == 200):
                    first_post.setdefault(int(parts[2]), record.time)
            delays = [first_post[c] - at for c, at in pressed.items() if c in first_post]
            missing = len(pressed) - len(delays)
            return {"limited": limit.limited, "busiest": limit.busiest, "accepted": limit.accepted,
                    "counted": counted, "seconds": ended - began, "first_turn_median": statistics.median(delays),
                    "first_turn_max": max(delays), "missing": missing, "bad": bad,
                    "urgent_wait": pacer.longest_wait[0], "background_wait": pacer.longest_wait[1]}
        finally:
            fake.detach(bot)
            await bot.close()


def run(quick: bool = False) -> list[Figure]:
    repeats = 1 if quick else 2
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-pace-") as tmp:
        for n in range(repeats):
            directory = Path(tmp) / str(n)
            directory.mkdir()
            runs.append(asyncio.run(open_at_once(TABLES, directory)))
    limited = summary([r["limited"] for r in runs])
    busiest = summary([r["busiest"] for r in runs])
    worst = summary([r["first_turn_max"] for r in runs])
    rate = statistics.median(r["accepted"] / r["seconds"] for r in runs)
    wrong = sum(r["missing"] + r["bad"] for r in runs)
    last = runs[-1]
    return [
        Figure("pace_global_429", f"Pace: global 429s opening {TABLES} tables at once (sliding-second fake)", "429s",
               limited, "0", limited["max"] == 0,
               note=f"{last['accepted']} counted requests let through in {last['seconds']:.1f} s "
                    f"({rate:.1f}/s, median of the runs); the fake counts {LIMIT} in any sliding second "
                    f"per token, as Discord does"),
        Figure("pace_busiest_second", "Pace: the most requests the fake received in one sliding second", "requests",
               busiest, f"<= {LIMIT}", busiest["max"] <= LIMIT, note="the bot's pace: 48 per second"),
        Figure("pace_first_turn_max", f"Pace: Start -> first turn message, slowest of {TABLES} tables opened at once",
               "s", worst, f"<= {FIRST_TURN_TARGET:.0f} s", worst["max"] <= FIRST_TURN_TARGET and wrong == 0,
               note=f"median {statistics.median(r['first_turn_median'] for r in runs):.2f} s; the turn messages go "
                    f"before the {TABLES * 3} how-to-play DMs queued for the same token (longest wait for the pace: "
                    f"urgent {last['urgent_wait']:.2f} s, background {last['background_wait']:.1f} s; the rest of "
                    f"the delay is the CPU's: bot and fake share this process); {wrong} tables without an answer or "
                    f"a turn message"),
    ]


if __name__ == "__main__":
    from .__main__ import table

    print(table(run(quick=False)))
