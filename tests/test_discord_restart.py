"""Restarts: the bot is stopped mid-game and started again on the same database."""

import asyncio

from tests.discord_world import World, buttons, eventually


async def test_restart_in_the_middle_of_a_turn_keeps_everything(world: World) -> None:
    status = await world.start_game(("ana", "ben", "cy"))
    await world.dm("ana", "513")
    ben_modal = await (await world.users["ben"].click(status, "Choose secretly")).wait()
    await world.restart()
    # a modal opened before the restart still works, and so does the old message's button
    ben = await (await world.users["ben"].submit_modal(ben_modal, {"number": "240"})).wait()
    assert (await world.answer(ben)).startswith("Locked in 240")
    cy = await world.modal("cy", "999", message=status)
    assert "revealing now" in await world.answer(cy)
    reveal = await eventually(lambda: world.reveals(), what="the reveal")
    text = world.fake.visible_text(reveal[0])
    assert "`513` 🔺 Ana" in text and "`240` 🔷 Ben" in text and "`999` 🟢 Cy" in text
    # the turn message found after the restart was closed by the last choice's answer, and told nothing twice
    assert buttons(world.fake.world.messages[status.id]) == [] and len(world.reveals()) == 1


async def test_deadlines_are_honoured_from_the_database_after_a_restart(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.dm("ana", "513")
    await world.restart()
    await world.advance(61)
    reveal = await eventually(lambda: world.reveals(), what="the reveal at the stored deadline")
    assert "Ben ⌛ missing" in world.fake.visible_text(reveal[0])


async def test_a_turn_message_found_after_a_restart_is_closed_with_the_reveal_it_carries(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.play_turn({"ana": "513", "ben": "240"})
    second = await world.wait_status("turn 2 of 5")  # turn 1's reveal at its top
    await world.dm("ana", "678")
    await world.restart()
    await world.advance(61)
    await eventually(lambda: len(world.reveals()) == 2, what="the reveal at the stored deadline")
    closed = world.fake.visible_text(world.fake.world.messages[second.id])
    assert buttons(world.fake.world.messages[second.id]) == []
    assert "turn 1 of 5 · reveal" in closed and "turn 2 of 5 · closed" in closed
    assert "⌛ No number in time: 🔷 Ben" in closed
    assert "Choose secretly" not in closed and world.fake.violations == []


async def test_a_deadline_that_passed_while_the_bot_was_down_reveals_at_start(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.stop_bot()
    world.clock.advance(300)
    await world.start_bot()
    await world.bot.scheduler.fire_due()
    await eventually(lambda: world.reveals(), what="the overdue reveal")


async def test_lobby_buttons_work_after_a_restart(world: World) -> None:
    lobby = await world.open_table(("ana",))
    await world.restart()
    joined = await (await world.users["ben"].click(lobby, "Join")).wait()
    assert joined.response_type == 7 and "Ben" in joined.text()


async def test_commands_are_synced_only_when_they_change(world: World) -> None:
    puts = world.fake.requests_to("PUT", r"/applications/\d+/commands")
    assert len(puts) == 1
    await world.restart()
    assert len(world.fake.requests_to("PUT", r"/applications/\d+/commands")) == 1
    names = {c["name"] for c in puts[0].json}
    from bot.games import GAMES

    # a group per game; /digits: The Number's; /notify: every game's reminders (issue 36); /mygames and /server
    # (its timezone): daily tables (issue 38)
    assert names == {*(g.key for g in GAMES), "score", "board", "digits", "notify", "mygames", "server"}


async def test_a_turn_committed_but_never_announced_is_revealed_once_after_restart(world: World) -> None:
    first = await world.start_game(("ana", "ben"))
    await world.dm("ana", "513")
    # The bot dies right after committing the turn, before posting anything: simulate it.
    done = await world.bot.service.act(1, world.users["ben"].id, text="240")  # the last number commits the turn
    assert [r.step for r in done.reports] == [0]
    await world.restart()
    await eventually(lambda: world.reveals(), what="the reveal posted at start")
    await world.wait_status("turn 2 of 5")
    await world.restart()
    assert len(world.reveals()) == 1
    statuses = [m for m in world.fake.messages(world.general) if "turn 2 of 5" in world.fake.visible_text(m)]
    assert len(statuses) == 1
    # the turn message the crash left open was found in the channel and closed, once
    assert buttons(world.fake.world.messages[first.id]) == []
    assert len(world.fake.requests_to("PATCH", rf"/messages/{first.id}$")) == 1


async def test_a_reveal_resent_after_a_crash_appears_once(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.dm("ana", "513")
    await world.dm("ben", "240")
    await eventually(lambda: world.reveals())
    await world.wait_status("turn 2 of 5")
    # The crash came after the post but before the database heard of it: the same post is sent again.
    await world.bot.store.db.execute("UPDATE games SET announced_phase = -1, status_message_id = NULL")
    await world.restart()
    assert len(world.reveals()) == 1  # Discord refused the duplicate nonce


async def test_a_turn_complete_but_not_resolved_at_the_stop_is_revealed_after_restart(world: World) -> None:
    await world.start_game(("ana", "ben"))
    # Both numbers were committed and acknowledged, then the bot died before resolving the turn: their rows
    # are stored, the turn is not (the service commits a complete turn at once, so write the rows directly).
    for seat, number in ((0, "513"), (1, "240")):
        await world.bot.store.record_choice(1, 0, seat, {"number": number}, world.clock.now())
    await world.restart()
    reveal = await eventually(lambda: world.reveals(), what="the reveal after the restart")
    assert "`513` 🔺 Ana" in world.fake.visible_text(reveal[0])


async def test_a_reveal_resent_after_the_nonce_is_forgotten_still_appears_once(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.play_turn({"ana": "513", "ben": "240"})
    status = await world.wait_status("turn 2 of 5")
    while (await world.bot.store.load_game(1)).status_message_id != status.id:  # recorded just after the post
        await asyncio.sleep(0.01)
    # The crash came after the post but before the database heard of it, and the bot stayed down longer
    # than Discord remembers nonces: the channel itself says the reveal is there.
    await world.bot.store.db.execute("UPDATE games SET announced_phase = -1, status_message_id = NULL")
    await world.stop_bot()
    world.fake.routes.nonces.clear()
    await world.start_bot()  # catching up is part of the start
    assert len(world.reveals()) == 1
    assert world.fake.requests_to("GET", rf"^/channels/{world.general.id}/messages$")
    record = await world.bot.store.load_game(1)
    assert record.announced_phase == 0
    statuses = [m for m in world.fake.messages(world.general) if "turn 2 of 5" in world.fake.visible_text(m)]
    assert len(statuses) == 1
    assert "Game #1" in world.fake.visible_text(world.reveals()[0])
