"""Numeri's steps are each told once, and its end is never lost (issue 34, points 2, 4 and 5): a move made by
DM, at the deadline or just before a kill is told once in the living turn message's log (issue 36: one message
per table, edited from move to move), never twice; a final message the channel refused is tried again and the
host told why it waits; /score after the end names the winners. The real discord.py against the local fake Discord."""

from __future__ import annotations

import re
from typing import Any

from bot.games.numeri.game import GAME
from tests.discord_world import World, eventually
from tests.numeri_discord import finals, next_turn, offered, press, start_numeri, turn_step, whose_turn

PLAYERS = ("ana", "ben")


def move_lines(text: str, display: str) -> int:
    return text.count(f"{display} rolled") + text.count(f"Time ran out for 🔺 {display}") + text.count(
        f"Time ran out for 🔷 {display}")


def told(world: World, display: str) -> int:
    """How many times the channel tells a move of ``display`` (a log line, not the current "rolled **x**")."""
    pattern = re.compile(rf"({re.escape(display)} rolled [^*])|(Time ran out for \S+ {re.escape(display)})")
    return sum(len(pattern.findall(text)) for text in world.channel_text())


async def current_turn(world: World, after: int = -1) -> tuple[Any, int, str]:
    message = await next_turn(world, after)
    assert message is not None
    return message, turn_step(message) or 0, whose_turn(world, message, PLAYERS)


async def test_a_dm_move_is_told_in_the_closed_message_only(world: World) -> None:
    await start_numeri(world, PLAYERS, auto_play=False)  # the mover's next move must wait, not be played and told
    message, step, mover = await current_turn(world)
    table = await world.bot.service.table(1)
    moves = table.game.legal(table.state, table.state.current)[0]["moves"]
    assert await world.dm(mover, " ".join(map(str, moves))) == "Done."
    following = await next_turn(world, step)
    display = world.users[mover].user.display_name
    assert following is None or following.id == message.id  # the same message, edited
    await eventually(lambda: told(world, display) == 1, what="the DM move told once")


async def test_a_timed_out_move_is_told_once(world: World) -> None:
    await start_numeri(world, PLAYERS, turn_seconds=60, auto_play=False)  # every turn waits for its deadline
    message, step, mover = await current_turn(world)
    await world.advance(61)
    following = await next_turn(world, step)
    display = world.users[mover].user.display_name
    assert following is not None and following.id == message.id
    await eventually(lambda: told(world, display) == 1, what="the timed-out move told once")
    assert "\n".join(world.channel_text()).count("Time ran out for") == 1


async def test_a_move_pressed_just_before_a_kill_is_not_told_again_after_the_restart(world: World) -> None:
    await start_numeri(world, PLAYERS, auto_play=False)  # the mover's own later moves wait (the forced: their test)
    message, step, mover = await current_turn(world)
    poster = world.bot.get_cog("Table").poster  # type: ignore[union-attr]

    async def killed(*_: Any, **__: Any) -> None:  # the process dies before it tells the next turn
        return None

    poster.announce = killed
    pressed = await (await press(world.users[mover], message)).wait()
    assert pressed.response_type in (6, 7)  # the click answered at once (the kill took the edit it asked)
    display = world.users[mover].user.display_name
    await world.restart()
    await next_turn(world, step)
    await eventually(lambda: told(world, display) == 1, what="the move told once after the restart")
    everything = "\n".join(world.channel_text())
    assert told(world, display) == 1, everything


async def play_to_the_end(world: World, before_last: Any = None) -> None:
    """Press the first button of every turn; ``before_last()`` runs before the move that ends the game."""
    step = -1
    while (message := await next_turn(world, step)) is not None:
        step = turn_step(message) or 0
        table = await world.bot.service.table(1)
        action = table.game.legal(table.state, table.state.current)[0]
        after, _ = GAME.apply(table.state, {table.state.current: action})
        if after.over and before_last is not None:
            await before_last()
        name = whose_turn(world, message, PLAYERS)
        await (await press(world.users[name], message)).wait()
        if after.over:
            return


async def test_a_final_message_the_channel_refused_is_posted_once_the_permission_is_back(world: World) -> None:
    await start_numeri(world, PLAYERS, auto_play=False)  # the last move is a press, so the revoke comes before it

    async def revoke() -> None:
        await world.fake.set_bot_permission(world.general, False, "send_messages")

    await play_to_the_end(world, revoke)
    note = await eventually(lambda: [m for m in world.fake.dms(world.users["ana"]) if "is over, but" in m.content],
                            what="the host told why the end waits")
    assert "Send Messages" in note[0].content
    assert not finals(world)
    assert (await world.bot.store.load_game(1)).status == "finished"
    await world.fake.set_bot_permission(world.general, True, "send_messages")
    for _ in range(8):  # the retries back off to a minute
        await world.advance(61)
        if finals(world):
            break
    assert len(finals(world)) == 1
    await world.advance(61)
    assert len(finals(world)) == 1
    assert len([m for m in world.fake.dms(world.users["ana"]) if "is over, but" in m.content]) == 1


async def test_score_after_the_end_names_the_winners(world: World) -> None:
    await start_numeri(world, PLAYERS)
    await play_to_the_end(world)
    await eventually(lambda: finals(world), what="the final message")
    result = GAME.result((await world.bot.service.table(1)).state)
    assert result is not None
    score = await (await world.users["cy"].slash(world.general, "score")).wait()
    text = score.text()
    winners = [world.users[PLAYERS[s]].user.display_name for s in sorted(result.winners)]
    assert "Winner" in text and all(w in text.split("Winner")[1] for w in winners), text


async def test_a_split_whose_first_part_ends_the_game_shows_only_that_move(world: World,
                                                                          monkeypatch: Any) -> None:
    """Issue 34, point 1: seed 1 with the first button pressed each turn meets such splits twice."""
    from bot.games.numeri import engine

    monkeypatch.setattr("bot.core.service.secrets.randbits", lambda bits: 1)
    await start_numeri(world, PLAYERS)
    step, seen = -1, 0
    while (message := await next_turn(world, step)) is not None:
        step = turn_step(message) or 0
        table = await world.bot.service.table(1)
        state = table.state
        labels = dict(offered(message))  # by choice index: the buttons and the split select's options
        for index, choice in enumerate(engine.legal_choices(state.positions, state.seats, state.current,
                                                            state.roll)):
            if len(choice) == 2 and engine.first_part_ends(state, choice):
                seen += 1
                first, partner = choice
                assert labels[index].startswith(f"Token {first}: ") and f"Token {partner}:" not in labels[index]
                assert labels[index].endswith("ends the game"), labels[index]
                # the action behind the button moves that one token, and a DM of it alone is the same move
                assert table.game.legal(state, state.current)[index] == {"moves": [first]}
                assert table.game.parse(state, state.current, str(first)) == {"moves": [first]}
        name = whose_turn(world, message, PLAYERS)
        await (await press(world.users[name], message)).wait()
    assert seen, "the game met no split whose first part ends it: pick another seed"


async def test_an_away_player_is_told_once_and_not_reminded_until_they_act(world: World) -> None:
    """Issue 34, point 14: a game played by the timers reminds each player twice at most, then tells them once
    that they are away; a move brings the reminders back."""
    await start_numeri(world, PLAYERS, turn_seconds=60)
    step = -1
    for _ in range(10):
        message = await next_turn(world, step)
        assert message is not None
        step = turn_step(message) or 0
        await world.advance(31)  # the reminder, 30 s before the deadline
        await world.advance(30)  # the deadline: the bot plays for the seat
    await next_turn(world, step)

    def said(name: str, words: str) -> int:
        return sum(words in m.content for m in world.fake.dms(world.users[name]))

    for name in PLAYERS:
        assert said(name, "left for your Numeri move") <= 2
        assert said(name, "you are marked away") == 1, [m.content for m in world.fake.dms(world.users[name])]
    # coming back: a move, then the reminders again
    message = await next_turn(world, step)
    assert message is not None
    name = whose_turn(world, message, PLAYERS)
    before = said(name, "left for your Numeri move")
    step = turn_step(message) or 0
    await (await press(world.users[name], message)).wait()
    while (message := await next_turn(world, step)) is not None and whose_turn(world, message, PLAYERS) != name:
        step = turn_step(message) or 0
        await world.advance(61)
    assert message is not None
    await world.advance(31)
    await eventually(lambda: said(name, "left for your Numeri move") == before + 1, what="the reminder again")
