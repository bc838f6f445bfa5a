"""Playing on Discord: DM and modal choices, refusals, reveals, a whole game, /score, /digits, timers."""

import re
from pathlib import Path

import pytest

from tests.conftest import FakeClock
from tests.discord_world import World, buttons, eventually, make_world
from tests.fakediscord import FakeDiscord
from tests.reference_scorer import score_game

pytestmark = pytest.mark.dm_blocked("eve")


async def test_dm_choice_is_acknowledged_changed_and_refused_with_reasons(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    ack = await world.dm("ben", "513")
    assert ack == (f"Locked in 513 for round 1, turn 1 of the game in <#{world.general.id}>; you can change it "
                   "until the reveal.")
    assert (await world.dm("ben", "５１４")).startswith("Changed to 514")
    refused = await world.dm("ben", "51")
    assert refused == "That is not a number you can play: it must be three digits, like 407. " \
                      "Your available digits: 0 1 2 3 4 5 6 7 8 9."
    table = await world.bot.service.table(1)
    assert table.drafts[1] == {"number": "514"}  # the refusal changed nothing


async def test_crossed_off_digit_is_refused_with_the_available_digits(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.play_turn({"ana": "713", "ben": "222"})
    refused = await world.dm("ana", "470")
    assert refused == "You can't play 470: 7 is crossed off; available: 0 2 4 5 6 8 9."
    via_modal = await world.modal("ana", "123")
    assert via_modal.ephemeral and via_modal.content == \
        "You can't play 123: 1 and 3 are crossed off; available: 0 2 4 5 6 8 9."


async def test_modal_choice_and_status_shows_who_not_what(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    result = await world.modal("ana", "408")
    assert (await world.answer(result)).startswith("Locked in 408")
    assert result.response_type == 7  # the answer itself updated the turn message: no REST call of its own
    status_text = world.fake.visible_text(world.status_message())
    assert "⏳ To choose: 🔷 Ben, 🟢 Cy" in status_text and "Ana" not in status_text  # Ana has chosen
    for message in world.fake.messages(world.general):
        assert not re.search(r"(?<!\d)408(?!\d)", world.fake.visible_text(message))
    for name in ("ben", "cy"):
        for message in world.fake.ephemeral_for(world.users[name]) + world.fake.dms(world.users[name]):
            assert not re.search(r"(?<!\d)408(?!\d)", world.fake.visible_text(message))


async def test_dm_from_someone_not_playing_explains_how_to_start(world: World) -> None:
    answer = await world.dm("dee", "123")
    assert "/thenumber start" in answer and "not in a game" in answer


async def test_a_player_who_blocks_dms_plays_through_the_modal(world: World) -> None:
    await world.start_game(("ana", "eve"))
    await world.dm("ana", "513")
    chosen = await world.answer(await world.modal("eve", "220"))
    assert chosen.startswith("Locked in 220") and "revealing now" in chosen
    reveal = await eventually(lambda: world.reveals(), what="the reveal")
    assert "Eve ✅ approved" in world.fake.visible_text(reveal[0])


async def test_full_reveal_tower_boards_and_scores(fake_discord: FakeDiscord, db_path: Path, clock: FakeClock) -> None:
    world = await make_world(fake_discord, db_path, clock)
    try:
        await world.start_game(("ana", "ben", "cy", "dee", "eve"))
        reveal = await world.play_turn({"ana": "761", "ben": "513", "cy": "444", "dee": "444", "eve": "220"})
        text = world.fake.visible_text(reveal)
        lines = [line for line in text.splitlines() if line.startswith("`")]
        assert [line[1:4] for line in lines] == ["761", "513", "444", "444", "220"]  # biggest on top
        assert "Ana ❌ eliminated: shares 1 with 513" in lines[0]
        assert "Ben ✅ approved **+7** (5 + 2 🏆)" in lines[1]
        assert lines[2].endswith("**+4**") and lines[4].endswith("**+2**")  # a plain score said once (issue 36)
        assert "🔷 Ben **7** · 0 2 4 6 7 8 9" in text  # each board's digits left, beside its score
        assert "🔺 Ana" in text and "🔷 Ben" in text and "🟢 Cy" in text and "⭐ Dee" in text and "🟪 Eve" in text
        next_status = await world.wait_status("turn 2 of 5")
        assert "+3" in world.fake.visible_text(next_status)
    finally:
        await world.stop_bot()


SCRIPT = [
    {"ana": "761", "ben": "513", "cy": "444"},
    {"ana": "890", "ben": "207", "cy": "123"},
    {"ana": "123", "ben": "468", "cy": "905"},
    {"ana": "456", "ben": "999", "cy": "678"},
    {"ana": "999", "ben": "666", "cy": "777"},
    {"ana": "102", "ben": "345", "cy": "678"},
    {"ana": "789", "ben": "012", "cy": "333"},
    {"ana": "345", "ben": "678", "cy": "012"},
    {"ana": "666", "ben": "999", "cy": "555"},
    {"ana": "888", "ben": "777", "cy": "999"},
]


async def test_full_two_round_game_ends_with_the_right_winner(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    played: list[dict[str, str]] = []
    for index, turn in enumerate(SCRIPT):
        await world.wait_status(f"round {index // 5 + 1} of 2 · turn {index % 5 + 1} of 5")
        table = await world.bot.service.table(1)
        legal = {}
        for name, number in turn.items():
            seat = ("ana", "ben", "cy").index(name)
            if not set(int(c) for c in number) & table.state.crossed[str(seat)]:
                legal[name] = number
        played.append(legal)
        if len(legal) == 3:
            await world.play_turn(legal)
        else:  # someone would be refused: they miss the turn, the timer reveals it
            before = len(world.reveals())
            for name, number in legal.items():
                await world.dm(name, number)
            await world.advance(61)
            await eventually(lambda n=before: len(world.reveals()) > n, what="the reveal at the deadline")
    expected = score_game(["Ana", "Ben", "Cy"], [[{k.capitalize(): v for k, v in t.items()} for t in played[:5]],
                                                  [{k.capitalize(): v for k, v in t.items()} for t in played[5:]]])
    final = world.fake.visible_text(world.reveals()[-1])
    assert len(world.reveals()) == 10, [world.fake.visible_text(m).splitlines()[0] for m in world.reveals()]
    assert "The Number · game over" in final and "Scores · round 2 over: +1 per crossed digit" in final
    winners = expected["winners"]
    headline = ("Shared win: " if len(winners) > 1 else "Winner: ")
    assert headline in final
    for name in winners:
        assert f"{name} 👑" in final or f"{name}: **{expected['final'][name]}**" in final
    for name, total in expected["final"].items():
        assert f"{name}: **{total}**" in final
    record = await world.bot.store.load_game(1)
    assert record.status == "finished"
    assert len(world.reveals()) == 10


async def test_score_and_digits_at_any_moment(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    await world.play_turn({"ana": "513", "ben": "222", "cy": "999"})
    await world.dm("ana", "406")
    score = await (await world.users["ben"].slash(world.general, "score")).wait()
    assert score.ephemeral
    text = score.text()
    assert "Still to choose:" in text and "Ben" in text.split("Still to choose:")[1]
    assert "406" not in text
    public = await (await world.users["ben"].slash(world.general, "score", public=True)).wait()
    assert not public.ephemeral
    mine = await (await world.users["ana"].slash(world.general, "digits")).wait()
    assert mine.ephemeral and "Available: 0 2 4 6 7 8 9" in mine.text()
    theirs = await (await world.users["ana"].slash(world.general, "digits", player=world.users["cy"])).wait()
    assert "Board of Cy" in theirs.text() and "Available: 0 1 2 3 4 5 6 7 8" in theirs.text()
    # from a DM, /score finds the player's game
    in_dm = await (await world.users["cy"].slash(None, "score")).wait()
    assert "scoreboard" in in_dm.text()


async def test_timer_reminds_then_reveals_with_a_missing_player(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    status = world.status_message()
    await world.modal("ana", "513")
    await world.modal("ben", "240")
    await world.advance(31)  # 29 s left: reminder time
    # one edit of the turn message for everyone awaited, its "To choose" line naming (never pinging) them; and a
    # DM to each awaited player (issue 36: the reminder always comes), nobody else
    reminded = await eventually(lambda: "⏰" in world.fake.visible_text(world.fake.world.messages[status.id])
                                and status)
    # the line is the message's top text display (Components V2: above the turn's container)
    line = next(c["content"] for c in reminded.components if c.get("type") == 10)
    assert line == "⏰ **29 s** left to choose"
    assert "⏳ To choose: 🟢 Cy" in world.fake.visible_text(reminded) and "Ana" not in world.fake.visible_text(reminded)
    assert reminded.mention_ids == []
    reminder_dms = lambda name: [m for m in world.fake.dms(world.users[name]) if "⏰" in m.content]  # noqa: E731
    await eventually(lambda: reminder_dms("cy"), what="cy's reminder DM")
    assert not reminder_dms("ana") and not reminder_dms("ben") and len(reminder_dms("cy")) == 1
    await world.advance(30)
    reveal = await eventually(lambda: world.reveals(), what="the reveal at the deadline")
    text = world.fake.visible_text(reveal[0])
    assert "Cy ⌛ missing: no number in time" in text
    # the turn message is closed by the deadline: no buttons, no reminder, who missed it
    closed = world.fake.world.messages[status.id]
    assert buttons(closed) == [] and closed.content == ""
    closed_text = world.fake.visible_text(closed)
    assert "Time is up" in closed_text and "⌛ No number in time: 🟢 Cy" in closed_text and "Ana" not in closed_text
    table = await world.bot.service.table(1)
    assert table.state.available("2") == frozenset(range(10))


async def test_a_player_missing_twice_is_marked_away_and_can_be_kicked(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    for number in ("100", "234"):
        assert (await world.dm("ana", number)).startswith("Locked in")
        await world.advance(61)
    await world.advance(3)
    status = world.fake.visible_text(world.status_message())
    assert "🔷 Ben · away, 🟢 Cy · away" in status and "Ana · away" not in status
    refused = await (await world.users["ben"].slash(world.general, "thenumber kick", player=world.users["cy"])).wait()
    assert refused.ephemeral and "Only the host" in refused.content
    kicked = await (await world.users["ana"].slash(world.general, "thenumber kick", player=world.users["cy"])).wait()
    assert kicked.ephemeral and "no longer plays" in kicked.content
    await world.dm("ana", "567")
    before = len(world.reveals())
    await world.dm("ben", "899")  # cy is no longer waited for
    await eventually(lambda: len(world.reveals()) > before)


async def test_stale_buttons_answer_privately(world: World) -> None:
    lobby = await world.open_table(("ana", "ben"))
    await (await world.users["ana"].click(lobby, "Start")).wait()
    first_status = await eventually(world._status_or_none, what="the status message")
    assert buttons(world.fake.world.messages[lobby.id]) == []  # the lobby closes when the game starts
    # a turn message is closed once its turn is over; one left open (here its close is refused, like the
    # messages posted before closing existed) answers its old button privately
    world.fake.fail_next("PATCH", rf"/messages/{first_status.id}$", 403, 50013)
    await world.play_turn({"ana": "123", "ben": "456"})
    old = await (await world.users["ana"].click(first_status, "Choose secretly")).wait()
    assert old.ephemeral and "That turn is already over" in old.content
    # the reveal is posted just before the next turn's status message: wait for that one, not the old one
    second = await world.wait_status("turn 2 of 5")
    outsider = await (await world.users["cy"].click(second, "Choose secretly")).wait()
    assert outsider.ephemeral and outsider.content == "You are not playing in this game."
    cancel = await (await world.users["ana"].slash(world.general, "thenumber cancel")).wait()
    assert not cancel.ephemeral and "Cancelled" in cancel.text()
    over = await (await world.users["ana"].click(second, "Choose secretly")).wait()
    assert over.ephemeral and over.content == "That game is over."
