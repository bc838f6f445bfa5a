"""Long and hostile display names, Discord's limits, allowed_mentions, and AI players at the table."""

from pathlib import Path

from tests.conftest import FakeClock
from tests.discord_world import World, eventually, make_world
from tests.fakediscord import FakeDiscord

HOSTILE = {
    "ana": "@everyone **bold** " + "A" * 80,
    "ben": "<@&123456789012345678> _x_ `code`" + "B" * 60,
    "cy": "||spoiler|| @here " + "C" * 82,
    "dee": "D" * 100,
    "eve": "~~strike~~ > quote " + "E" * 80,
}


async def test_five_long_hostile_names_fit_discord_limits_and_ping_nobody(
        fake_discord: FakeDiscord, db_path: Path, clock: FakeClock) -> None:
    world = await make_world(fake_discord, db_path, clock, display=HOSTILE)
    try:
        await world.start_game(("ana", "ben", "cy", "dee", "eve"))
        await world.play_turn({"ana": "999", "ben": "888", "cy": "777", "dee": "666", "eve": "555"})
        for turn in range(2, 6):  # the rest of round 1 by timeout: reveals and round-end totals
            await world.wait_status(f"turn {turn} of 5")
            await _timeout_turn(world)
        score = await (await world.users["ana"].slash(world.general, "score", public=True)).wait()
        assert not score.ephemeral
        everything = "\n".join(world.channel_text())
        assert "@everyone" not in everything.replace("@\u200beveryone", "")
        assert "**bold**" not in everything and "\\*\\*bold\\*\\*" in everything
        # every message the bot posted or edited forbids pings
        bodies = [r.json for r in world.fake.requests
                  if r.method in ("POST", "PATCH") and isinstance(r.json, dict) and ("embeds" in r.json
                                                                                      or "content" in r.json)]
        assert bodies
        for body in bodies:
            mentions = body.get("allowed_mentions") or body.get("data", {}).get("allowed_mentions")
            assert mentions is not None and mentions.get("parse") == [], body
        assert world.fake.violations == []
    finally:
        await world.stop_bot()


async def _timeout_turn(world: World) -> None:
    before = len(world.reveals())
    await world.advance(61)
    await eventually(lambda: len(world.reveals()) > before, what="the reveal")


async def test_start_with_ai_players_is_a_full_game_for_one_human(
        fake_discord: FakeDiscord, db_path: Path, clock: FakeClock) -> None:
    world = await make_world(fake_discord, db_path, clock)
    try:
        opened = await (await world.users["ana"].slash(world.general, "thenumber start", ai_players=3,
                                                       ai_level="hard")).wait()
        text = opened.text()
        assert text.count(" 🤖") == 3 and "(AI)" not in text and "Seats (4/5)" in text  # AI marked once
        await (await world.users["ana"].click(opened.message, "Start")).wait()
        status = await world.wait_status("turn 1 of 5")
        status_text = world.fake.visible_text(status)
        assert "⏳ To choose: 🔺 Ana\n" in status_text + "\n"  # AI players choose at once
        for turn in range(10):
            await world.wait_status(f"turn {turn % 5 + 1} of 5")
            table = await world.bot.service.table(1)
            free = sorted(table.state.available("0"))
            number = "".join(str(free[0]) for _ in range(3)) if free else None
            if number is None:
                await _timeout_turn(world)
            else:
                await world.play_turn({"ana": number})
        final = world.fake.visible_text(world.reveals()[-1])
        assert "The Number · game over" in final and "Ada 🤖" in final and "(AI)" not in final
    finally:
        await world.stop_bot()


async def test_host_adds_an_ai_from_the_lobby_select(fake_discord: FakeDiscord, db_path: Path,
                                                     clock: FakeClock) -> None:
    world = await make_world(fake_discord, db_path, clock)
    try:
        lobby = await world.open_table(("ana", "ben"))
        refused = await (await world.users["ben"].select(lobby, "play:thenumber:lobby:ai:1", ["easy"])).wait()
        assert refused.ephemeral and "Only the host can add AI players" in refused.content
        added = await (await world.users["ana"].select(lobby, "play:thenumber:lobby:ai:1", ["easy"])).wait()
        assert added.response_type == 7 and "Ada 🤖" in added.text() and "(AI)" not in added.text()
    finally:
        await world.stop_bot()
