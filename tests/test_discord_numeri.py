"""Numeri through the shared front end (cogs/table) on the real discord.py against the local fake."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import re
from typing import Any

import pytest

from bot.core.table import fold
from bot.games import GAMES
from bot.games.numeri.engine import Moved, Passed
from bot.games.numeri.game import GAME
from tests.discord_world import World, eventually
from tests.fakediscord import title_of
from tests.fakediscord.state import BOT_USER_ID
from tests.numeri_discord import (
    buttons,
    finals,
    next_turn,
    open_numeri,
    press,
    start_numeri,
    stored_result,
    turn_messages,
    turn_step,
    whose_turn,
)

pytestmark = pytest.mark.dm_blocked("ben")  # a player with closed DMs plays normally
PLAYERS = ("ana", "ben")
INTERACTION_PATHS = re.compile(r"/(interactions|webhooks)/")


async def test_a_whole_game_of_two_humans_by_buttons(world: World) -> None:
    await start_numeri(world, PLAYERS, turn_seconds=120)
    step, moves, outside = -1, 0, []
    while (message := await next_turn(world, step)) is not None:
        step = turn_step(message)
        assert step is not None
        name = whose_turn(world, message, PLAYERS)
        assert message.attachments and message.attachments[0].filename.endswith(".png")
        # the picture's facts are its alt text, not a text copy in the message
        assert "Board:" in (message.attachments[0].description or "")
        assert "Board:" not in world.fake.visible_text(message)
        before = len(world.fake.requests)
        pressed = await (await press(world.users[name], message)).wait()
        assert pressed.response_type == 7, pressed.text()  # the turn message itself is edited
        await next_turn(world, step)
        outside.append([r for r in world.fake.requests[before:] if not INTERACTION_PATHS.search(r.path)])
        moves += 1
    assert moves > 10
    assert max(len(calls) for calls in outside) <= 2, max(outside, key=len)
    result = await stored_result(world)
    final = world.fake.visible_text(finals(world)[0])
    for seat, name in enumerate(PLAYERS):
        display = world.users[name].user.display_name
        assert f"{display}: {result.scores[seat]} points" in final
    winners = [world.users[PLAYERS[s]].user.display_name for s in sorted(result.winners)]
    assert all(w in final.split("Winner")[1] for w in winners)
    # one living turn message, edited from move to move; the end was announced once
    bot_messages = [m for m in world.fake.messages(world.general) if m.author_id == BOT_USER_ID]
    assert len(bot_messages) == 3  # the lobby, the living turn message, the final message
    assert not finals(world)[0].attachments  # the end board is on the living message, not uploaded again
    assert len(finals(world)) == 1
    # passes and extra throws that happened are told in the channel (in some version of the living message)
    record = await world.bot.store.load_game(1)
    _, events = fold(GAME, record)
    said = "\n".join(str(version) for m in bot_messages for version in m.history)
    if any(isinstance(e, Passed) for e in events):
        assert "no move is possible, the turn passes" in said
    if any(isinstance(e, Moved) and e.extra_turn for e in events):
        assert "throws again" in said


async def test_another_player_pressing_a_move_is_told_whose_turn_it_is(world: World) -> None:
    await start_numeri(world, PLAYERS)
    message = await next_turn(world)
    assert message is not None
    mover = whose_turn(world, message, PLAYERS)
    other = next(n for n in (*PLAYERS, "cy") if n != mover)
    refused = await (await press(world.users[other], message)).wait()
    display = world.users[mover].user.display_name
    assert (refused.ephemeral and f"It is 🔺 {display}'s turn" in refused.content) or \
        f"{display}'s turn" in refused.content, refused.content
    # someone not seated is told they are not at this table, not whose turn it is (issue 34, point 15)
    stranger = await (await press(world.users["cy"], message)).wait()
    assert stranger.ephemeral and "not playing in this game" in stranger.content, stranger.content
    assert turn_step(world.fake.world.messages[message.id]) == turn_step(message)  # nothing moved


async def test_a_stale_button_answers_privately(world: World) -> None:
    await start_numeri(world, PLAYERS)
    first = await next_turn(world)
    assert first is not None
    step = turn_step(first)
    name = whose_turn(world, first, PLAYERS)
    old_id = buttons(first)[0]["custom_id"]
    shown = copy.deepcopy(first.components)
    await (await world.users[name].click(first, old_id)).wait()
    await next_turn(world, step)  # type: ignore[arg-type]
    # The old message lost its buttons; a client that still shows them (a stale screen) gets a private line.
    stale = dataclasses.replace(world.fake.world.messages[first.id], components=shown)
    again = await world.users[name]._dispatch(3, world.general, {"custom_id": old_id, "component_type": 2}, stale)
    await again.wait()
    assert again.ephemeral and "That turn is over" in again.content


async def test_ai_seats_play_and_the_game_ends(world: World) -> None:
    await start_numeri(world, ("ana",), ai_players=2, ai_level="hard")
    step = -1
    while (message := await next_turn(world, step)) is not None:
        step = turn_step(message)  # type: ignore[assignment]
        pressed = await (await press(world.users["ana"], message, -1)).wait()
        assert pressed.response_type == 7
    final = world.fake.visible_text(finals(world)[0])
    assert "Ada 🤖" in final and "Blaise 🤖" in final and "(AI)" not in final and "Winner" in final
    result = await stored_result(world)
    assert f"Ana: {result.scores[0]} points" in final


async def test_the_timer_plays_the_normal_ai_move_and_two_timeouts_mark_away(world: World) -> None:
    await start_numeri(world, PLAYERS, turn_seconds=60)
    timed_out: dict[str, int] = {}
    step = -1
    for _ in range(16):
        message = await next_turn(world, step)
        assert message is not None
        step = turn_step(message)  # type: ignore[assignment]
        name = whose_turn(world, message, PLAYERS)
        if name == "ana":
            await world.advance(61)  # ana never moves: the deadline plays for her
            edited = await eventually(lambda m=message, s=step: turn_step(m) != s and m, what="the next turn")
            assert "Time ran out for" in world.fake.visible_text(edited)
            assert "normal AI" in world.fake.visible_text(edited)
            timed_out["ana"] = timed_out.get("ana", 0) + 1
        else:
            await (await press(world.users[name], message)).wait()
        table = await world.bot.service.table(1)
        if timed_out.get("ana", 0) >= 2 and table.running:
            assert table.away(0)
            score = await (await world.users["ben"].slash(world.general, "score")).wait()
            assert "(away)" in score.text()
            return
    pytest.fail("ana was not on turn twice in sixteen turns")


async def test_a_restart_mid_game_rolls_nothing_twice_and_posts_each_turn_once(world: World) -> None:
    await start_numeri(world, PLAYERS)
    step = -1
    for _ in range(3):
        message = await next_turn(world, step)
        assert message is not None
        step = turn_step(message)  # type: ignore[assignment]
        await (await press(world.users[whose_turn(world, message, PLAYERS)], message)).wait()
    message = await next_turn(world, step)
    assert message is not None
    rolls_before = [a for a in (await world.bot.store.load_game(1)).actions if a.kind == "resolve"]
    posted = len(turn_messages(world))
    await world.restart()
    record = await world.bot.store.load_game(1)
    assert [a for a in record.actions if a.kind == "resolve"] == rolls_before  # nothing rolled again
    assert len(turn_messages(world)) == posted  # the turn message was found, not posted again
    step = turn_step(message)  # type: ignore[assignment]
    pressed = await (await press(world.users[whose_turn(world, message, PLAYERS)],
                                 message)).wait()  # the old buttons work after the restart
    assert pressed.response_type == 7, pressed.text()
    await next_turn(world, step)


async def test_score_and_board_at_any_moment(world: World) -> None:
    lobby = await open_numeri(world, PLAYERS)
    early = await (await world.users["ana"].slash(world.general, "score")).wait()
    assert early.ephemeral and "No game is being played here" in early.content
    await (await world.users["ana"].click(lobby, "Start")).wait()
    await next_turn(world)
    score = await (await world.users["cy"].slash(world.general, "score")).wait()
    assert score.ephemeral and "Numeri · scores so far" in score.text() and "Ana" in score.text()
    board = await (await world.users["ana"].slash(world.general, "board", player=world.users["ben"])).wait()
    # each of his tokens, entered or not: forced moves play on without anyone (on this game's dice all five may
    # be on the board by the first turn a human answers)
    tokens = [line for line in board.text().splitlines() if line.startswith("Token ")]
    assert board.ephemeral and "Ben's tokens" in board.text() and len(tokens) == 5, board.text()
    assert all(re.search(r"^Token \d: (square \d+ \(value -?\d+\)|never entered \(-?\d+ each\)) → \*\*-?\d+\*\*$", line)
               for line in tokens), tokens
    assert board.message is not None and board.message.attachments
    mine = await (await world.users["ben"].slash(world.general, "board")).wait()
    assert "Total:" in mine.text()


async def test_every_game_the_table_serves_has_a_presenter_and_its_group(world: World) -> None:
    assert world.bot is not None
    kinds = set(world.bot.service.by_key)
    assert kinds == {g.key for g in GAMES}  # The Number too, since it moved onto the shared front end
    assert kinds <= set(world.bot.presenters.by_key)
    synced = {c["name"]: c for c in world.fake.world.commands[None]}
    for kind in kinds:
        subcommands = {o["name"] for o in synced[kind]["options"]}
        assert {"start", "rules", "join", "leave", "cancel", "kick"} <= subcommands


async def test_a_move_committed_but_never_posted_is_told_once_after_restart(world: World) -> None:
    await start_numeri(world, PLAYERS, auto_play=False)  # the mover's later moves wait (a forced one: its own test)
    message = await next_turn(world)
    assert message is not None
    step = turn_step(message)
    mover = whose_turn(world, message, PLAYERS)
    table = await world.bot.service.table(1)
    (seat,) = table.prompt.seats  # type: ignore[union-attr]
    # The bot dies right after committing the move, before telling anyone: simulate it.
    await world.bot.service.act(1, world.users[mover].id, action=table.game.legal(table.state, seat)[0], phase=step)
    posted = len([m for m in world.fake.messages(world.general) if m.author_id == BOT_USER_ID])
    await world.restart()
    following = await next_turn(world, step)  # type: ignore[arg-type]
    display = world.users[mover].user.display_name
    # the missed move is told once: in the living message's log, edited after the restart
    assert following is None or following.id == message.id
    assert moved_lines(world, display) == 1
    await world.restart()
    after = [m for m in world.fake.messages(world.general) if m.author_id == BOT_USER_ID]
    assert len(after) == posted  # no new message, whatever the restarts (the end aside)
    assert moved_lines(world, display) == 1


def moved_lines(world: World, display: str) -> int:
    """How many times the channel tells a move of ``display`` (not the current turn's "rolled **x**")."""
    pattern = re.compile(rf"{re.escape(display)} rolled [^*]")
    return sum(len(pattern.findall(text)) for text in world.channel_text())


async def test_a_turn_message_posted_but_not_recorded_is_found_not_posted_again(world: World) -> None:
    await start_numeri(world, PLAYERS)
    message = await next_turn(world)
    assert message is not None
    while (await world.bot.store.load_game(1)).status_message_id != message.id:  # recorded just after the post
        await asyncio.sleep(0.01)
    await world.bot.store.db.execute("UPDATE games SET announced_phase = -1, status_message_id = NULL")
    await world.bot.store.db.commit()
    await world.restart()
    record = await eventually_record(world, lambda r: r.status_message_id == message.id)
    assert record.announced_phase == turn_step(message) - 1  # type: ignore[operator]
    assert len(turn_messages(world)) == 1


async def eventually_record(world: World, wanted: Any) -> Any:
    """The game's row once it is ``wanted`` (the restore records what it found)."""
    for _ in range(300):
        record = await world.bot.store.load_game(1)
        if wanted(record):
            return record
        await asyncio.sleep(0.01)
    raise AssertionError("the record never reached the wanted state")


async def test_a_dm_move_is_answered_once_and_dms_outside_a_game_stay_with_the_number(world: World) -> None:
    lobby = await open_numeri(world, PLAYERS)
    assert "has not started yet" in await world.dm("ana", "2")
    await (await world.users["ana"].click(lobby, "Start")).wait()
    message = await next_turn(world)
    assert message is not None
    step = turn_step(message)
    mover = whose_turn(world, message, PLAYERS)
    if mover == "ana":
        table = await world.bot.service.table(1)
        moves = table.game.legal(table.state, 0)[0]["moves"]
        before = len(world.fake.dms(world.users["ana"]))
        answer = await world.dm("ana", " ".join(map(str, moves)))
        assert answer == "Done."
        await next_turn(world, step)  # type: ignore[arg-type]
        assert len(world.fake.dms(world.users["ana"])) == before + 1  # one answer, not two
    else:
        answer = await world.dm("ana", "1")
        assert "It is" in answer and "Ben" in answer
    assert "/thenumber start" in await world.dm("cy", "123")  # not in a game: The Number's cog answers


async def test_reminders_and_a_deadline_cost_at_most_two_calls_and_closed_dms_are_fine(world: World) -> None:
    await start_numeri(world, PLAYERS, turn_seconds=60)
    message = await next_turn(world)
    assert message is not None
    step = turn_step(message)
    mover = whose_turn(world, message, PLAYERS)
    dms_before = len(world.fake.dms(world.users[mover]))
    await world.advance(31)  # the reminder (30 s before the deadline)
    if mover == "ana":
        reminder = await eventually(lambda: world.fake.dms(world.users["ana"])[dms_before:], what="a reminder")
        assert "left for your Numeri move" in world.fake.visible_text(reminder[0])
    before = len(world.fake.requests)
    await world.advance(30)
    await next_turn(world, step)  # type: ignore[arg-type]
    calls = [r for r in world.fake.requests[before:] if not INTERACTION_PATHS.search(r.path)]
    assert len(calls) <= 2, calls  # the edit of the turn message and the next turn message


async def test_a_deadline_passed_while_the_bot_was_down_plays_at_start(world: World) -> None:
    await start_numeri(world, PLAYERS, turn_seconds=60)
    message = await next_turn(world)
    assert message is not None
    step = turn_step(message)
    await world.stop_bot()
    world.clock.advance(300)
    await world.start_bot()
    await world.tables_restored()
    await world.bot.scheduler.fire_due()
    await next_turn(world, step)  # type: ignore[arg-type]
    record = await world.bot.store.load_game(1)
    assert record.phase > step  # type: ignore[operator]


async def test_the_number_commands_leave_a_numeri_table_alone(world: World) -> None:
    await open_numeri(world, PLAYERS)
    joined = await (await world.users["cy"].slash(world.general, "thenumber join")).wait()
    assert joined.ephemeral and "There is no game in this channel" in joined.content
    joined = await (await world.users["cy"].slash(world.general, "numeri join")).wait()
    assert joined.ephemeral and "You took a seat" in joined.content


async def test_numeri_in_french(world: World) -> None:
    world.speak("fr")
    opened = await (await world.users["ana"].slash(world.general, "numeri start")).wait()
    assert "Numeri : prenez place" in opened.text() and "Rejoindre" in opened.text()
    await (await world.users["ben"].click(opened.message, "Rejoindre")).wait()
    await (await world.users["ana"].click(opened.message, "Lancer")).wait()
    turn = await eventually(lambda: next((m for m in world.fake.messages(world.general)
                                          if "Numeri · tour " in title_of(m)), None),
                            what="the French turn message")
    text = world.fake.visible_text(turn)
    assert "a fait" in text and "Pion" in text and "Plateau :" in (turn.attachments[0].description or "")
    mover = next(n for n in PLAYERS if world.users[n].user.display_name in title_of(turn))
    other = next(n for n in PLAYERS if n != mover)
    refused = await (await press(world.users[other], turn)).wait()
    assert refused.ephemeral and "C'est au tour de" in refused.content


async def test_a_turn_message_recorded_but_not_marked_keeps_its_timer_after_restart(world: World) -> None:
    await start_numeri(world, PLAYERS, turn_seconds=60)
    message = await next_turn(world)
    assert message is not None
    step = turn_step(message)
    while (await world.bot.store.load_game(1)).status_message_id != message.id:
        await asyncio.sleep(0.01)
    await world.bot.store.db.execute("UPDATE games SET announced_phase = -1")
    await world.bot.store.db.commit()
    await world.restart()
    assert (await world.bot.store.load_game(1)).announced_phase == step - 1  # type: ignore[operator]
    await world.advance(61)  # the deadline was armed again
    await next_turn(world, step)  # type: ignore[arg-type]
    assert len(turn_messages(world)) == 1  # the next one; the first became the record of the move
