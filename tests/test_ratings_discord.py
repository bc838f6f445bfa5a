"""Ratings as players see them, on the local fake Discord (both backends): the change under the final message,
``/thenumber stats``, ``/thenumber leaderboard by: rating``, ``season:`` (this season's board, past podiums) and
``/thenumber seasons``.

Expected numbers are computed here from the reference scorer's final scores with the OpenSkill library itself
(its Bradley-Terry full-pairing model, fed with the scores), never with the bot's rating code.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from openskill.models import BradleyTerryFull

from tests.backends import Backend
from tests.conftest import FakeClock
from tests.discord_world import eventually
from tests.fakediscord import FakeDiscord
from tests.test_stats_commands import NAMES, Played, StatsWorld, fields, uid

MODEL = BradleyTerryFull()


@pytest.fixture
async def world(fake_discord: FakeDiscord, db_path: Path, clock: FakeClock, backend: Backend
                ) -> AsyncIterator[StatsWorld]:
    """The stats tests' world: ana..eve in one server, the bot on either backend."""
    users = {n: fake_discord.add_user(n, display_name=n.capitalize()) for n in NAMES}
    guild = fake_discord.add_guild("Number Night", members=list(users.values()))
    w = StatsWorld(fake_discord, db_path, clock, guild, fake_discord.add_channel(guild, "general"), users)
    if backend.postgres:
        w.settings_overrides["database_url"] = backend.target
    w.played = []
    await w.start_bot()
    yield w
    await w.stop_bot()


def shown(mu: float) -> int:
    return round(1500 + 48 * (mu - 25))


def expected_ratings(world: StatsWorld, guild_id: int) -> dict[int, tuple[float, float, int]]:
    """Every player's rating on ``guild_id`` after the games played there, in order, from the scores alone."""
    ratings: dict[int, tuple[float, float, int]] = {}
    for game in world.played:
        if game.guild_id != guild_id:
            continue
        final = game.expected()["final"]
        players = sorted(game.players)
        teams = [[MODEL.rating(mu=ratings[u][0], sigma=ratings[u][1]) if u in ratings else MODEL.rating()]
                 for u in players]
        rated = MODEL.rate(teams, scores=[final[str(u)] for u in players])
        for u, team in zip(players, rated, strict=True):
            ratings[u] = (team[0].mu, team[0].sigma, ratings.get(u, (0, 0, 0))[2] + 1)
    return ratings


async def test_the_final_message_shows_each_change_and_stats_show_the_rating(world: StatsWorld) -> None:
    await world.start_game(("ana", "ben", "cy"))
    rng = random.Random(5)
    script = []
    for _ in range(10):
        table = await world.bot.service.table(1)
        numbers = {}
        for seat, name in enumerate(("ana", "ben", "cy")):
            free = sorted(table.state.available(str(seat)))
            if free:
                numbers[name] = "".join(str(rng.choice(free)) for _ in range(3))
        script.append({uid(world, n): v for n, v in numbers.items()})
        await world.play_turn(numbers)
    final = await eventually(lambda: [m for m in world.reveals()
                                      if "The Number · game over" in world.fake.visible_text(m)],
                             what="the final reveal")
    text = world.fake.visible_text(final[0])
    assert "Ratings on this server" in text
    world.played.append(Played(1, world.guild.id, [uid(world, n) for n in ("ana", "ben", "cy")], script, 0))
    want = expected_ratings(world, world.guild.id)
    for name in ("ana", "ben", "cy"):
        after = shown(want[uid(world, name)][0])
        delta = after - 1500
        sign = f"+{delta}" if delta >= 0 else f"−{-delta}"
        assert re.search(rf"{name.capitalize()}: {re.escape(sign)} → \*\*{after:,}\?\*\*", text, re.I), text
    got = fields(await world.run("ana", "thenumber stats"))
    assert got["Rating on this server"] == f"**{shown(want[uid(world, 'ana')][0]):,}** (provisional: 1 of 5 games)"
    assert got["Rating across servers"] == got["Rating on this server"]


async def test_leaderboard_by_rating_seasons_and_podiums(world: StatsWorld) -> None:
    users = [uid(world, n) for n in ("ana", "ben", "cy", "dee")]
    for seed in range(5):
        await world.play_by_service(world.guild, world.general, users, seed)
    await world.play_by_service(world.guild, world.general, users[:2], 99)  # cy and dee stay at 5 games
    want = expected_ratings(world, world.guild.id)
    board = await world.run("ana", "thenumber leaderboard", by="rating")
    text = world.fake.visible_text(board.message)
    order = sorted(users, key=lambda u: -want[u][0])
    lines = [line for line in text.splitlines() if re.match(r"\*\*\d+\.\*\*", line)]
    assert [re.sub(r"\*\*\d+\.\*\* (\w+):.*", r"\1", line).lower() for line in lines] == [
        world.name_of(u).lower() for u in order]
    for line, user in zip(lines, order, strict=True):
        assert f"**{shown(want[user][0]):,}**" in line
    assert "at least 5 rated games" in text
    # the current season holds every game so far: the same board
    season = world.fake.visible_text((await world.run("ana", "thenumber leaderboard", season="current")).message)
    assert lines == [line for line in season.splitlines() if re.match(r"\*\*\d+\.\*\*", line)]
    # a month later: a new season, empty; last month's podium is the board's top three
    world.clock.advance(32 * 86_400)
    empty = world.fake.visible_text((await world.run("ana", "thenumber leaderboard", season="current")).message)
    assert "Nobody has 5 rated games here yet." in empty
    podium = world.fake.visible_text((await world.run("ana", "thenumber leaderboard", season="past")).message)
    medals = [line for line in podium.splitlines() if line[:1] in "🥇🥈🥉"]
    assert [re.sub(r".\s(\w+):.*", r"\1", line).lower() for line in medals] == [
        world.name_of(u).lower() for u in order[:3]]


async def test_the_season_length_is_the_servers_choice(world: StatsWorld) -> None:
    refused = await world.run("ana", "thenumber seasons", length="quarter")
    assert "Only members with Manage Server" in (refused.content or "")
    admin = world.fake.add_user("admin", display_name="Admin")
    world.fake.add_member(world.guild, admin, permissions=["manage_guild"])
    world.users["admin"] = admin
    done = await world.run("admin", "thenumber seasons", length="quarter")
    assert "calendar quarter" in (done.content or "")
    users = [uid(world, n) for n in ("ana", "ben")]
    played = await world.play_by_service(world.guild, world.general, users, 1)
    changes = await world.bot.store.rating_changes(played.game_id)
    assert {c.scope for c in changes if c.scope.startswith("season:")} == {f"season:{world.guild.id}:2027-Q1"}
    shown_now = await world.run("ana", "thenumber seasons")
    assert "calendar quarter" in (shown_now.content or "")
