"""Issue 38 point 4 and 5 on the fake Discord: a daily table over days of a fake clock, with restarts in the
middle of a 2-day deadline; reminders once each, out of the server's quiet hours; the AI playing for a player
away two deadlines in a row; /mygames; /server timezone; /notify summary."""

from __future__ import annotations

import re
from typing import Any

from tests.discord_world import World, eventually

HOUR = 3600
START = 1_800_000_000  # the fake clock's start: 2027-01-15 08:00 UTC


def reminders(world: World, name: str) -> list[str]:
    return [m.content for m in world.fake.dms(world.users[name]) if "⏰" in m.content]


def planned(world: World, game_id: int = 1) -> float | None:
    """When the game's next reminder is planned (None: none)."""
    assert world.bot is not None
    timer = world.bot.scheduler._timers.get(("reminder", game_id))  # what a restart planned
    return timer.when if timer is not None else None


async def a_legal_number(world: World, seat: int) -> str:
    """A number ``seat`` may play now (the easy AI's choice for it: the digits left depend on the turns before)."""
    service = world.bot.service
    move = await service._ai_move(await service.table(1), seat, "easy")
    assert move is not None
    return str(move["number"])


async def run(world: World, name: str, command: str, **options: Any) -> str:
    return (await (await world.users[name].slash(world.general, command, **options)).wait()).content


async def test_a_two_day_table_reminds_once_at_half_time_and_before_the_night_across_restarts(world: World) -> None:
    status = await world.start_game(("ana", "ben", "cy"), pace="daily", step_hours=48)
    deadline = START + 48 * HOUR
    assert (await world.bot.service.table(1)).record.deadline == deadline
    shown = world.fake.visible_text(status)
    assert f"<t:{deadline}:f>" in shown and f"<t:{deadline}:R>" in shown  # Discord timestamps
    await world.modal("ana", "513")
    await world.modal("ben", "240")
    await world.advance(20 * HOUR)
    assert reminders(world, "cy") == []
    await world.restart()  # killed and started again 20 h into the 2-day step
    await eventually(lambda: planned(world) == START + 24 * HOUR, what="the half-time reminder planned again")
    await world.advance(4 * HOUR + 60)
    first = await eventually(lambda: reminders(world, "cy"), what="cy's half-time reminder")
    link = f"https://discord.com/channels/{world.guild.id}/{world.general.id}/{status.id}"
    assert len(first) == 1 and f"<t:{deadline}:f>" in first[0] and link in first[0]
    assert reminders(world, "ana") == [] and reminders(world, "ben") == []  # only the awaited player
    # 2 h before the deadline is 06:00 UTC, in the quiet hours: the reminder comes at 22:59 the evening before
    near = START + 38 * HOUR + 59 * 60
    assert planned(world) == near
    await world.restart()  # the half-time reminder is claimed: the restart plans the near one, sends nothing
    await eventually(lambda: planned(world) == near, what="the near reminder planned again")
    await world.advance(near - 60 - world.clock.now())
    assert len(reminders(world, "cy")) == 1
    await world.advance(60)
    await eventually(lambda: len(reminders(world, "cy")) == 2, what="cy's reminder near the deadline")
    await world.restart()
    await world.advance(HOUR)
    assert len(reminders(world, "cy")) == 2 and planned(world) is None  # each reminder exactly once
    async with world.bot.store.db.execute("SELECT slot FROM reminders_sent ORDER BY slot") as cursor:
        assert [r[0] for r in await cursor.fetchall()] == ["half", "near"]
    await world.advance(deadline - world.clock.now())  # the deadline: the table goes on
    await world.wait_status("turn 2 of 5")
    assert (await world.bot.service.table(1)).record.deadline == deadline + 48 * HOUR


async def test_quiet_hours_follow_the_server_time_zone(world: World) -> None:
    refused = await run(world, "ana", "server timezone", zone="Europe/Paris")
    assert "Manage Server" in refused
    admin = world.fake.add_user("admin", display_name="Admin")
    world.fake.add_member(world.guild, admin, permissions=["manage_guild"])
    world.users["admin"] = admin
    unknown = await run(world, "admin", "server timezone", zone="Mars/Olympus")
    assert "`Mars/Olympus` is not a time zone I know" in unknown
    assert "**UTC**" in await run(world, "ana", "server timezone")  # nothing changed
    assert "**Asia/Tokyo**" in await run(world, "admin", "server timezone", zone="Asia/Tokyo")
    await world.start_game(("ana", "ben"), pace="daily", step_hours=24)
    await world.modal("ana", "513")
    # opened 17:00 in Tokyo: half time is 05:00 there, quiet; 08:00 (3 h later) beats 22:59 (6 h earlier)
    await eventually(lambda: planned(world) == START + 15 * HOUR, what="the half-time reminder after the night")
    await world.advance(12 * HOUR)
    assert reminders(world, "ben") == []
    await world.advance(3 * HOUR)
    await eventually(lambda: reminders(world, "ben"), what="ben's reminder at 08:00 in Tokyo")
    assert planned(world) == START + 22 * HOUR  # 2 h before the deadline: 15:00 in Tokyo, allowed


async def test_two_missed_deadlines_hand_the_seat_to_the_ai_and_tell_the_player(world: World) -> None:
    await world.start_game(("ana", "ben"), pace="daily", step_hours=1)
    await world.modal("ana", "513")
    await world.advance(HOUR)  # ben's first miss: the rules' default, no message about being away
    await world.wait_status("turn 2 of 5")
    assert not [m for m in world.fake.dms(world.users["ben"]) if "AI" in m.content]
    await world.modal("ana", "620")
    await world.advance(HOUR)  # the second in a row: the AI plays for ben, and ben is told
    told = await eventually(lambda: [m.content for m in world.fake.dms(world.users["ben"])
                                     if "missed 2 deadlines in a row" in m.content], what="ben told")
    assert "the AI now plays your turns" in told[0] and "to come back" in told[0]
    await world.wait_status("turn 3 of 5")
    table = await world.bot.service.table(1)
    assert table.away(1)
    # turn 3: once ana has chosen, the table does not wait for ben (away): the AI plays for him at once
    await world.modal("ana", await a_legal_number(world, 0))
    await world.wait_status("turn 4 of 5")
    table = await world.bot.service.table(1)
    assert table.away(1) and table.steps[-1]["reason"] == "away"
    # ben comes back by acting: his own choice counts and he is no longer away
    await world.modal("ben", await a_legal_number(world, 1))
    await world.modal("ana", await a_legal_number(world, 0))
    await world.wait_status("turn 5 of 5")
    assert not (await world.bot.service.table(1)).away(1)


async def test_mygames_lists_the_tables_waiting_for_you_with_links(world: World) -> None:
    assert "No table is waiting for you" in await run(world, "ana", "mygames")
    status = await world.start_game(("ana", "ben"), pace="daily", step_hours=12)
    shown = await (await world.users["ana"].slash(world.general, "mygames")).wait()
    assert shown.ephemeral
    link = f"https://discord.com/channels/{world.guild.id}/{world.general.id}/{status.id}"
    assert "1 table is waiting for you" in shown.content and link in shown.content
    assert "The Number" in shown.content and f"<t:{START + 12 * HOUR}:R>" in shown.content
    await world.modal("ana", "513")  # ana has chosen: the table waits for ben only
    assert "No table is waiting for you" in await run(world, "ana", "mygames")
    assert link in await run(world, "ben", "mygames")


def test_mygames_is_cut_to_discords_limit_with_a_count() -> None:
    from cogs.table.mygames import Waiting, waiting_text

    tables = [Waiting("The Number", 10**17 + i, START + i, True, f"https://discord.com/channels/1/2/{i}")
              for i in range(60)]
    text = waiting_text(tables, "en")
    assert len(text) <= 2000 and text.startswith("60 tables are waiting for you")
    shown = len(re.findall(r"https://discord.com/channels/1/2/\d+", text))
    assert 0 < shown < 60 and text.endswith(f"…and {60 - shown} more.")


async def test_notify_summary_switch(world: World) -> None:
    shown = await run(world, "cy", "notify")
    assert "listing the tables waiting for you **on**" in shown
    off = await run(world, "cy", "notify", summary=False)
    assert "listing the tables waiting for you **off**" in off and "by DM **on**" in off
    assert await world.bot.store.get_summary(world.users["cy"].id) is False
    await world.restart()
    assert "waiting for you **off**" in await run(world, "cy", "notify")


def summaries(world: World, name: str) -> list[str]:
    return [m.content for m in world.fake.dms(world.users[name]) if "daily summary" in m.content]


async def test_one_summary_a_day_for_each_player_a_daily_table_waits_for(world: World) -> None:
    status = await world.start_game(("ana", "ben", "cy"), pace="daily", step_hours=72)
    await world.modal("ana", "513")  # ana has chosen: nothing waits for her
    await run(world, "ben", "notify", summary=False)  # ben turned it off
    await world.advance(HOUR)  # 09:00 UTC
    sent = await eventually(lambda: summaries(world, "cy"), what="cy's daily summary")
    link = f"https://discord.com/channels/{world.guild.id}/{world.general.id}/{status.id}"
    assert "1 table is waiting for you" in sent[0] and link in sent[0]
    assert summaries(world, "ana") == [] and summaries(world, "ben") == []
    await world.restart()
    await world.bot.get_cog("DailyTables").send_summaries()  # a second round the same day (another process, say)
    assert len(summaries(world, "cy")) == 1
    await world.advance(24 * HOUR)  # the next morning
    await eventually(lambda: len(summaries(world, "cy")) == 2, what="the next day's summary")
    assert summaries(world, "ben") == []


async def test_a_daily_numeri_table_shows_its_deadline_and_reminds_by_dm(world: World) -> None:
    from tests.numeri_discord import start_numeri, turn_messages, whose_turn

    await start_numeri(world, ("ana", "ben"), pace="daily", step_hours=10)
    message = await eventually(lambda: turn_messages(world) and turn_messages(world)[-1], what="a Numeri turn")
    deadline = START + 10 * HOUR
    shown = world.fake.visible_text(message)
    assert f"<t:{deadline}:f>" in shown and f"<t:{deadline}:R>" in shown
    name = whose_turn(world, message, ("ana", "ben"))
    await world.advance(5 * HOUR)  # half time: 13:00 UTC
    sent = await eventually(lambda: reminders(world, name), what="the half-time reminder")
    assert len(sent) == 1 and f"<t:{deadline}:R>" in sent[0] and "Numeri" in sent[0]
