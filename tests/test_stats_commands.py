"""/thenumber stats, leaderboard, history, game and export against the local fake Discord.

Games are played with scripted (seeded, legal) numbers: most through the game service (fast), one through
Discord DMs (for the final reveal's chart). Expected figures are computed here from the scripts with the
independent reference scorer, never from the bot's own statistics code.
"""

import json
import random
import re
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.core.stats import summarise
from bot.games.thenumber.game import GAME
from bot.games.thenumber.replay import replay_text
from cogs.thenumber.chart import PNG_SIGNATURE
from cogs.thenumber.records import rebuild, unique_names
from tests.backends import Backend
from tests.conftest import FakeClock
from tests.discord_world import World, eventually
from tests.fakediscord import Channel, FakeDiscord, Guild, InteractionResult, SimulationError
from tests.reference_scorer import score_game

DAY = 86_400.0
NAMES = ("ana", "ben", "cy", "dee", "eve")


@dataclass
class Played:
    game_id: int
    guild_id: int
    players: list[int]  # user ids in seat order
    script: list[dict[int, str]]  # user id -> number, one dict per turn
    finished_at: float

    def expected(self) -> dict[str, Any]:
        names = [str(u) for u in self.players]
        turns = [{str(u): n for u, n in turn.items()} for turn in self.script]
        return score_game(names, [turns[:5], turns[5:]])


class StatsWorld(World):
    other_guild: Guild
    other_channel: Channel
    played: list[Played]

    async def play_by_service(self, guild: Guild, channel: Channel, players: list[int], seed: int) -> Played:
        """A whole game through the service with seeded legal numbers (everyone always chooses)."""
        games = self.bot.service
        rng = random.Random(seed)
        record = await games.open_lobby(guild.id, channel.id, players[0], self.name_of(players[0]),
                                        {"turn_seconds": 60})
        for user_id in players[1:]:
            await games.join(record.id, user_id, self.name_of(user_id))
        table = (await games.start(record.id, players[0])).table
        script: list[dict[int, str]] = []
        while table.running:
            turn: dict[int, str] = {}
            reports, state = [], table.state  # the turn's state: the last number moves the table on
            for seat, user_id in enumerate(players):
                free = sorted(state.available(str(seat)))
                if free:
                    turn[user_id] = "".join(str(rng.choice(free)) for _ in range(3))
                    reports += (await games.act(record.id, user_id, text=turn[user_id])).reports
            script.append(turn)
            assert reports  # the last number reveals the turn
            table = await games.table(record.id)
        played = Played(record.id, guild.id, players, script, self.clock.now())
        self.played.append(played)
        return played

    def name_of(self, user_id: int) -> str:
        for name, user in self.users.items():
            if user.id == user_id:
                return name.capitalize()
        return f"P{user_id % 1000}"

    async def run(self, who: str, command: str, channel: Channel | None = None, **options: Any) -> InteractionResult:
        result = await (await self.users[who].slash(channel or self.general, command, **options)).wait(5)
        if result.response_type == 5:  # deferred (a slow machine): the answer replaces "thinking..."
            await result.wait_edits(1)
        assert not result.rejections, result.rejections
        return result


@pytest.fixture
async def world(fake_discord: FakeDiscord, db_path: Path, clock: FakeClock, backend: Backend
                ) -> AsyncIterator[StatsWorld]:
    users = {n: fake_discord.add_user(n, display_name=n.capitalize()) for n in NAMES}
    guild = fake_discord.add_guild("Number Night", members=list(users.values()))
    general = fake_discord.add_channel(guild, "general")
    other = fake_discord.add_guild("Elsewhere", members=[users["ana"], users["ben"]])
    w = StatsWorld(fake_discord, db_path, clock, guild, general, users)
    if backend.postgres:  # the whole bot on PostgreSQL: its store, and its statistics on their own pool
        w.settings_overrides["database_url"] = backend.target
    w.other_guild, w.other_channel, w.played = other, fake_discord.add_channel(other, "elsewhere"), []
    await w.start_bot()
    assert w.bot is not None and (type(w.bot.store).__name__ == "PostgresStore") == backend.postgres
    yield w
    await w.stop_bot()


def uid(world: World, name: str) -> int:
    return world.users[name].id


def fields(result: InteractionResult) -> dict[str, str]:
    message = result.message
    assert message is not None
    return {f["name"]: f["value"] for e in message.embeds for f in e.get("fields", [])}


def expected_player(world: StatsWorld, user_id: int, guild_id: int) -> dict[str, Any]:
    """A player's figures from the scripts alone (reference scorer)."""
    games = wins = total = played = approved = 0
    best: tuple[int, float, int] | None = None
    digits: Counter[int] = Counter()
    for game in world.played:
        if game.guild_id != guild_id or user_id not in game.players:
            continue
        result = game.expected()
        me = str(user_id)
        games += 1
        wins += me in result["winners"]
        total += result["final"][me]
        candidate = (result["final"][me], game.finished_at, game.game_id)
        best = candidate if best is None or candidate > best else best
        for turn in result["turns"]:
            r = turn["results"][me]
            if r["number"] is not None:
                played += 1
                approved += r["status"] == "approved"
                digits[int(r["number"][0])] += 1
    favourite = max(digits.items(), key=lambda item: (item[1], item[0]))
    return {"games": games, "wins": wins, "average": total / games, "best": best, "played": played,
            "approved": approved, "favourite": favourite}


async def play_history(world: StatsWorld) -> None:
    """Games over several weeks: now is Monday 2027-02-08; week = games C and D, month = B, C, D."""
    ana, ben, cy, dee, eve = (uid(world, n) for n in NAMES)
    await world.play_by_service(world.guild, world.general, [ana, ben, cy], seed=1)  # A, 2027-01-15
    world.clock.advance(20 * DAY)
    await world.play_by_service(world.guild, world.general, [ben, ana, dee, eve], seed=2)  # B, 2027-02-04
    world.clock.advance(4 * DAY)
    await world.play_by_service(world.guild, world.general, [cy, ana], seed=3)  # C, 2027-02-08
    world.clock.advance(60)
    await world.play_by_service(world.guild, world.general, [ana, ben, cy, dee, eve], seed=4)  # D
    await world.play_by_service(world.other_guild, world.other_channel, [ana, ben], seed=5)  # elsewhere


async def test_stats_match_the_scripts_and_stay_in_their_server(world: StatsWorld) -> None:
    nothing = await world.run("dee", "thenumber stats")
    assert "No finished game on this server yet." in nothing.text()
    await play_history(world)
    for name in ("ana", "ben"):
        if name == "ana":
            result = await world.run("ana", "thenumber stats")
            assert result.ephemeral
        else:
            result = await world.run("ana", "thenumber stats", player=world.users["ben"], public=True)
            assert not result.ephemeral
        want = expected_player(world, uid(world, name), world.guild.id)
        got = fields(result)
        assert name.capitalize() in result.text()
        assert got["Games played"] == str(want["games"])
        assert got["Wins"] == str(want["wins"])
        assert got["Win rate"] == f"{100 * want['wins'] / want['games']:.0f}%"
        assert got["Average final score"] == f"{want['average']:.1f}"
        score, _, game_id = want["best"]
        assert got["Best game"].startswith(f"**{score}** points in game #{game_id} ")
        rate = f"{100 * want['approved'] / want['played']:.0f}%"
        assert got["Approved numbers"] == f"{want['approved']} of {want['played']} ({rate})"
        digit, count = want["favourite"]
        assert got["Favourite first digit"] == f"**{digit}** ({count} numbers)"
    # The other server sees only its own game.
    elsewhere = await world.run("ana", "thenumber stats", channel=world.other_channel)
    want = expected_player(world, uid(world, "ana"), world.other_guild.id)
    assert want["games"] == 1 and fields(elsewhere)["Games played"] == "1"


async def test_stats_in_french(world: StatsWorld) -> None:
    await play_history(world)
    world.users["cy"].user.locale = "fr"
    result = await world.run("cy", "thenumber stats")
    got = fields(result)
    want = expected_player(world, uid(world, "cy"), world.guild.id)
    assert "statistiques de Cy" in result.text()
    assert got["Parties jouées"] == str(want["games"])
    assert got["Score final moyen"] == f"{want['average']:.1f}".replace(".", ",")
    assert got["Taux de victoire"].endswith("\u00a0%")


async def test_leaderboard_pages_periods_and_who_may_flip(world: StatsWorld) -> None:
    await play_history(world)
    # Twelve more players, in three games of four, so the all-time board needs two pages.
    for n in range(3):
        await world.play_by_service(world.guild, world.general, [9_000 + 4 * n + k for k in range(4)], seed=10 + n)
    board = await world.run("ana", "thenumber leaderboard")
    assert board.ephemeral
    text = board.text()
    assert "leaderboard by wins" in text and "All time" in text and "page 1 of 2" in text
    # Every player of this server, ranked by wins: check the top line against the scripts.
    wins: Counter[int] = Counter()
    games: Counter[int] = Counter()
    for game in world.played:
        if game.guild_id == world.guild.id:
            result = game.expected()
            for user_id in game.players:
                games[user_id] += 1
                wins[user_id] += str(user_id) in result["winners"]
    assert len(games) == 17
    top = max(wins.values())
    first = [line for line in text.splitlines() if line.startswith("**1.**")]
    assert first and all(f"**{top}** wins" in line for line in first)
    message = board.message
    assert message is not None
    custom_ids = [c["custom_id"] for row in message.components for c in row["components"]]
    assert all(len(c) <= 100 for c in custom_ids)
    # The asker flips in place.
    flipped = await (await world.users["ana"].click(message, "Next")).wait()
    assert flipped.response_type == 7
    page2 = world.fake.visible_text(world.fake.world.messages[message.id])
    assert "page 2 of 2" in page2
    # Equal wins share a rank (1, 2, 2, 4...).
    ordered = sorted(wins.values(), reverse=True)
    expected_ranks = [1 + sum(w > v for w in ordered) for v in ordered]
    ranks = [int(m) for m in re.findall(r"^\*\*(\d+)\.\*\*", page2, re.M)]
    assert ranks == expected_ranks[10:]
    page1_ranks = [int(m) for m in re.findall(r"^\*\*(\d+)\.\*\*", text, re.M)]
    assert page1_ranks == expected_ranks[:10]
    # Someone else presses a button of a public board: they get the page privately, the board stays.
    public = await world.run("ana", "thenumber leaderboard", public=True)
    assert public.message is not None and not public.ephemeral
    other = await (await world.users["ben"].click(public.message, "Next")).wait()
    assert other.response_type == 4 and other.ephemeral
    assert "page 2 of 2" in other.text() and "just for you" in other.text()
    assert "page 1 of 2" in world.fake.visible_text(world.fake.world.messages[public.message.id])
    # Periods: this week has games C and D only (ana, ben, cy, dee, eve); this month adds B.
    week = await world.run("ana", "thenumber leaderboard", period="week", by="rate")
    week_text = week.text()
    assert "This week" in week_text and "at least 3 games to qualify" in week_text
    assert "Nobody qualifies yet" in week_text  # nobody played 3 games this week
    month = await world.run("ana", "thenumber leaderboard", period="month", by="average")
    month_lines = re.findall(r"^\*\*\d+\.\*\* (\w+):", month.text(), re.M)
    assert month_lines == ["Ana"]  # only ana played B, C and D
    expected_avg = sum(g.expected()["final"][str(uid(world, "ana"))] for g in world.played[1:4]) / 3
    assert f"**{expected_avg:.1f}** points on average (3 games)" in month.text()
    # The other server's board knows only its own game.
    there = await world.run("ben", "thenumber leaderboard", channel=world.other_channel)
    assert set(re.findall(r"^\*\*\d+\.\*\* (\w+):", there.text(), re.M)) == {"Ana", "Ben"}


async def test_history_game_and_export(world: StatsWorld) -> None:
    await play_history(world)
    history = await world.run("ben", "thenumber history")
    text = history.text()
    ids = [int(i) for i in re.findall(r"\*\*Game #(\d+)\*\*", text)]
    here = [g.game_id for g in world.played if g.guild_id == world.guild.id]
    assert ids == sorted(here, key=lambda i: -i)  # newest first, only this server's
    game = world.played[3]  # five players
    shown = await world.run("ben", "thenumber game", id=game.game_id)
    message = shown.message
    assert message is not None
    shown_text = world.fake.visible_text(message)
    expected = game.expected()
    record = await world.bot.store.load_game(game.game_id)
    seat_names = unique_names(record.seats)
    # Every reveal: each turn's numbers, statuses and points.
    for index, turn in enumerate(expected["turns"]):
        embed = message.embeds[index // 5]
        value = embed["fields"][index % 5]["value"]
        for seat, user_id in enumerate(game.players):
            r = turn["results"][str(user_id)]
            line = next(line for line in value.splitlines() if seat_names[seat] in line)
            assert line.startswith(f"`{r['number'] or '---'}`")
            marker = {"approved": "✅", "eliminated": "❌", "invalid": "🚫", "missing": "⌛",
                      "exhausted": "💤"}[r["status"]]
            assert marker in line
            if r["status"] == "approved":
                assert f"**{r['points']}**" in line
    assert "final standings" in shown_text
    for seat, user_id in enumerate(game.players):
        crown = " 👑" if str(user_id) in expected["winners"] else ""
        assert re.search(rf"{seat_names[seat]}: \*\*{expected['final'][str(user_id)]}\*\* \(\d+ \+ \d+\){crown}",
                         shown_text)
    assert len(message.attachments) == 1 and message.attachments[0].data.startswith(PNG_SIGNATURE)
    assert message.embeds[-1]["image"]["url"] == f"attachment://{message.attachments[0].filename}"
    # Export: the attachment replays to exactly the stored game's result.
    exported = await world.run("ben", "thenumber export", id=game.game_id)
    assert exported.ephemeral and exported.message is not None
    (attachment,) = exported.message.attachments
    assert attachment.filename == f"thenumber-game-{game.game_id}.json"
    replayed = replay_text(attachment.data.decode())
    state = rebuild(record)
    assert replayed["final"] == {seat_names[int(k)]: v for k, v in state.final_scores().items()}
    assert replayed["winners"] == sorted(seat_names[int(k)] for k in state.winners())
    assert replayed["final"] == {seat_names[s]: expected["final"][str(u)] for s, u in enumerate(game.players)}
    assert json.loads(attachment.data)["players"] == [seat_names[s.seat] for s in record.seats]
    # Games of another server are invisible here (and the other way round).
    theirs = world.played[4]
    assert theirs.guild_id == world.other_guild.id
    for command in ("thenumber game", "thenumber export"):
        refused = await world.run("ana", command, id=theirs.game_id)
        assert refused.ephemeral and f"There is no game #{theirs.game_id} on this server." in refused.text()
        assert not refused.message or not refused.message.attachments
    missing = await world.run("ana", "thenumber game", id=999)
    assert "There is no game #999" in missing.text()


async def test_unfinished_games_are_not_shown_or_exported(world: StatsWorld) -> None:
    await world.start_game(("ana", "ben"))
    for command in ("thenumber game", "thenumber export"):
        refused = await world.run("cy", command, id=1)
        assert "is not finished yet" in refused.text()


async def test_commands_need_a_server(world: StatsWorld) -> None:
    with pytest.raises(SimulationError):  # not offered in DMs at all
        await world.users["ana"].slash(None, "thenumber stats")
    result = await (await world.users["ana"].slash(None, "thenumber stats", forged=True)).wait()
    assert result.ephemeral and "use this command in a server channel" in result.text()


async def test_final_reveal_carries_the_score_race(world: StatsWorld) -> None:
    await world.start_game(("ana", "ben", "cy"))
    world.bot.get_cog("Table").poster.retry_delays = (0.05,)  # type: ignore[union-attr]
    rng = random.Random(7)
    for turn in range(10):
        if turn == 9:  # the final reveal is refused once (503): the retry must upload the whole chart again
            await world.wait_status("round 2 of 2 · turn 5 of 5")
            world.fake.fail_next("POST", rf"/channels/{world.general.id}/messages", 503, times=1)
        table = await world.bot.service.table(1)
        numbers = {}
        for seat, name in enumerate(("ana", "ben", "cy")):
            free = sorted(table.state.available(str(seat)))
            if free:
                numbers[name] = "".join(str(rng.choice(free)) for _ in range(3))
        await world.play_turn(numbers)
    final = await eventually(lambda: [m for m in world.reveals()
                                      if "The Number · game over" in world.fake.visible_text(m)],
                             what="the final reveal")
    (attachment,) = final[0].attachments
    assert attachment.filename == "score-race-1.png" and attachment.data.startswith(PNG_SIGNATURE)
    assert all(not m.attachments for m in world.reveals()[:-1])
    uploads = [r.files for r in world.fake.requests_to("POST", rf"/channels/{world.general.id}/messages") if r.files]
    assert len(uploads) == 2 and uploads[0] == uploads[1] == [("score-race-1.png", len(attachment.data))]


async def test_cached_results_equal_a_recomputation_from_the_actions(world: StatsWorld) -> None:
    await play_history(world)
    stats = world.bot.get_cog("TableStats").stats  # type: ignore[union-attr]
    await stats.refresh(every_guild=True)
    cached = await stats.all_results()
    assert {r.game_id for r in cached} == {g.game_id for g in world.played}
    for game in world.played:
        record = await world.bot.store.load_game(game.game_id)
        state = rebuild(record)  # the service's own fold
        rows = [r for r in cached if r.game_id == game.game_id]
        assert rows == summarise(GAME, record)
        assert {str(r.seat): r.final_score for r in rows} == state.final_scores()
        assert {str(r.seat) for r in rows if r.won} == set(state.winners())
    assert await stats.rebuild() == len(world.played)
    assert await stats.all_results() == cached


async def test_subcommands_join_the_thenumber_group_with_french_names(world: StatsWorld) -> None:
    synced = {c["name"]: c for c in world.fake.world.commands[None]}
    subs = {o["name"]: o for o in synced["thenumber"]["options"]}
    assert {"stats", "leaderboard", "history", "game", "export", "start"} <= set(subs)
    assert subs["stats"]["name_localizations"]["fr"] == "statistiques"
    assert subs["leaderboard"]["description_localizations"]["fr"] == "Les meilleurs joueurs de ce serveur"
    period = next(o for o in subs["leaderboard"]["options"] if o["name"] == "period")
    assert {c["name_localizations"]["fr"] for c in period["choices"]} == {
        "Depuis toujours", "Ce mois-ci", "Cette semaine"}
