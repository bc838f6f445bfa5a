"""API economy: the REST calls the real bot makes per turn, counted from the fake Discord's request log.

Two timings for 5 players, each a whole game (10 turns), driven like tests/test_discord_play.py (the
World helper, a fake clock and ``scheduler.fire_due``): all five choose within one second, or they are
spread over the 60 s timer (one every 10 s, from 5 s on; the 30 s reminder falls between). Two choice
paths: a DM (answered with a DM) and the modal (button -> modal, submit -> the turn message updated by the
interaction's response, the acknowledgement an ephemeral followup). Interaction callbacks and followups are
counted apart: Discord's global 50 requests/s limit does not apply to them. Targets, on the other calls (a
turn: from its first choice to the next turn's message): at most 2 with the modal, at most N + 2 by DM
(the N acknowledgements, the reveal posted with the next turn message, the previous message closed).
How many tables one token serves under that limit is measured by bench/capacity.py (a simulation
against the rate-limited fake), not derived from these counts.
"""

import asyncio
import random
import re
import tempfile
from pathlib import Path
from typing import Any

from tests.conftest import FakeClock
from tests.discord_world import World, buttons, eventually, make_world
from tests.fakediscord import FakeDiscord

from .common import Figure, summary

PLAYERS = ("ana", "ben", "cy", "dee", "eve")
TURN_SECONDS = 60
INTERACTION = re.compile(r"^/(interactions|webhooks)/")


def limit_for(path: str) -> int:
    """The target per turn: 2 rate-limited calls with the modal; by DM, the N acknowledgements + 2."""
    return len(PLAYERS) + 2 if path == "dm" else 2


def _category(path: str, body: Any) -> str:
    """Interaction callbacks and followups; the reminders (one DM, or one mention, per awaited player: issue 36
    asks that every awaited player be reminded whatever path the others used, so they are counted apart and
    bounded by the awaited players); the other rate-limited calls, which the per-turn targets bound."""
    if INTERACTION.match(path):
        return "interaction"
    if isinstance(body, dict) and str(body.get("nonce", "")).startswith("remind"):
        return "reminder"
    return "other"


async def _legal(world: World, name: str, rng: random.Random) -> str | None:
    assert world.bot is not None
    table = await world.bot.service.table(1)
    seat = next(s for s in table.record.seats if s.user_id == world.users[name].id)
    digits = sorted(table.state.available(str(seat.seat)))
    return "".join(str(rng.choice(digits)) for _ in range(3)) if digits else None


async def _choose(world: World, name: str, number: str, path: str) -> None:
    if path == "dm":
        await world.dm(name, number)
    else:
        result = await world.modal(name, number)
        answer = await world.answer(result)
        assert answer.startswith(("Locked in", "Changed to")), answer


async def game_turns(path: str, spread: bool, tmp: Path, rng: random.Random
                     ) -> tuple[list[dict[str, int]], list[str]]:
    """One whole game of 5 players choosing by ``path`` ("dm" or "modal"): per turn the calls by category
    ("interaction", "other" = rate-limited, "modal_open"), and the fake's OpenAPI violations."""
    fake = FakeDiscord()  # with OpenAPI validation: the counted calls are also checked
    await fake.start()
    try:
        world = await make_world(fake, tmp / f"{path}-{spread}.sqlite3", FakeClock(), names=PLAYERS)
        world.settings_overrides.update(turn_seconds=TURN_SECONDS, reminder_seconds=30)
        await world.restart()  # pick up the 60 s timer
        try:
            await world.start_game(PLAYERS)
            await asyncio.sleep(0.2)
            turns: list[dict[str, int]] = []
            for index in range(10):
                reveals = len(world.reveals())
                turn_message = world.status_message().id
                mark = len(fake.requests)
                elapsed = 0.0
                for i, name in enumerate(PLAYERS):
                    at = 5.0 + 10.0 * i if spread else 0.2 * i  # seconds into the turn
                    await world.advance(at - elapsed)
                    elapsed = at
                    number = await _legal(world, name, rng)
                    if number is not None:  # an exhausted player sits out
                        await _choose(world, name, number, path)
                if len(world.reveals()) == reveals:  # someone sat out: nothing more to wait for but time
                    await world.advance(3)
                await eventually(lambda n=reveals: len(world.reveals()) > n, what="the reveal")
                if index < 9:  # the next turn's status message ends this turn's calls
                    await world.wait_status(f"turn {(index + 1) % 5 + 1} of 5")
                # The turn's last call closes its message (by the last choice's interaction or one edit): waiting
                # for it, not for a time, keeps a late close out of the next turn's count on a busy machine.
                await eventually(lambda m=turn_message: not buttons(fake.world.messages[m]),
                                 what="the turn message closed")
                counts = {"interaction": 0, "other": 0, "reminder": 0, "modal_open": 0}
                for request in fake.requests[mark:]:
                    counts[_category(request.path, request.json)] += 1
                    counts["modal_open"] += isinstance(request.json, dict) and request.json.get("type") == 9
                counts["total"] = counts["interaction"] + counts["other"] + counts["reminder"]
                turns.append(counts)
            return turns, list(fake.violations)
        finally:
            await world.stop_bot()
    finally:
        await fake.stop()


async def _run(quick: bool) -> tuple[list[Figure], dict[str, Any]]:
    rng = random.Random(11)
    figures: list[Figure] = []
    details: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-api-") as tmp:
        for path in ("dm", "modal"):
            for spread in (False, True):
                turns, violations = await game_turns(path, spread, Path(tmp), rng)
                name = f"{path}_{'spread' if spread else 'burst'}"
                details[name] = {"per_turn": turns, "fake_violations": violations[:5]}
                # The targets count the rate-limited calls (Discord's global limit): interaction callbacks and
                # followups (the modal's openings, its answers) are reported apart.
                others = [t["other"] for t in turns]
                inter = [t["interaction"] for t in turns]
                limit = limit_for(path)
                worst = max(others)
                what = "spread over the 60 s timer" if spread else "all within one second"
                figures.append(Figure(
                    f"api_calls_per_turn_{name}", f"API: rate-limited REST calls per turn, {path} choices, {what}",
                    "calls", summary(others), f"<= {limit} (max over turns)", worst <= limit,
                    f"{len(turns)} turns; worst {worst}; interaction callbacks and followups"
                    f" {summary(inter)['median']:.0f} per turn (median; modal openings {turns[1]['modal_open']})",
                    {"interaction_callbacks": summary(inter), "other_rest": summary(others)}))
    return figures, details


def run(quick: bool = False) -> list[Figure]:
    figures, details = asyncio.run(_run(quick))
    figures[0].extra["turns"] = details
    return figures
