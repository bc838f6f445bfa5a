"""Binomial through the shared front end (cogs/table) on the real discord.py against the local fake."""

from __future__ import annotations

import copy
import dataclasses
import logging
from typing import Any

import pytest

from bot.core.table import Table
from bot.games.binomial.rules import show
from cogs.seats import marked_name
from tests.binomial_discord import (
    bot_messages,
    buttons,
    every_version,
    finals,
    numerology_messages,
    open_binomial,
    seat_of,
    settled,
    shows_reveal,
    start_binomial,
    step_of,
    stored_result,
    table,
    title,
    unused_numbers,
)
from tests.discord_world import World, eventually

PLAYERS = ("ana", "ben")


class Probe:
    """Looks for any unused number of any sheet where it must not be, until the game's end."""

    def __init__(self, world: World, caplog: pytest.LogCaptureFixture | None = None) -> None:
        self.world, self.caplog, self.checks = world, caplog, 0

    async def check(self, names: tuple[str, ...] = PLAYERS, extra: tuple[str, ...] = ()) -> None:
        world = self.world
        current = await table(world)
        if not current.running:
            return
        secrets = unused_numbers(current)
        everyone = set().union(*secrets.values())
        channel = [text for m in world.fake.messages(world.general) for text in every_version(m)]
        for text in (*channel, *extra):
            leaked = [n for n in everyone if n in text]
            assert not leaked, f"unused numbers {leaked} shown in the channel: {text}"
        for name in names:
            seat = seat_of(world, current, name)
            others = everyone - secrets[seat]
            for message in world.fake.dms(world.users[name]):
                leaked = [n for n in others if n in world.fake.visible_text(message)]
                assert not leaked, f"{name}'s DMs show another player's unused numbers {leaked}"
        if self.caplog is not None:
            plain = {n.strip("`") for n in everyone}
            for record in self.caplog.records:
                if record.levelno >= logging.INFO:
                    text = record.getMessage()
                    leaked = [n for n in plain if f"`{n}`" in text or f"'{n}'" in text or f'"{n}"' in text]
                    assert not leaked, f"a log line shows unused numbers {leaked}: {text}"
        self.checks += 1

    async def public_commands(self, asker: str = "cy") -> list[str]:
        """/score and /board of each player, as someone outside the game (public facts only)."""
        world = self.world
        texts = [(await (await world.users[asker].slash(world.general, "score")).wait()).text()]
        for name in PLAYERS:
            board = await (await world.users[asker].slash(world.general, "board", player=world.users[name])).wait()
            texts.append(board.text())
        mine = await (await world.users["ana"].slash(world.general, "board")).wait()
        texts.append(mine.text())
        return texts


async def place(world: World, message: Any, name: str, cell: str, *, by_dm: bool) -> str:
    if by_dm:
        return await world.dm(name, cell)
    opened = await (await world.users[name].click(message, "Place secretly")).wait()
    assert opened.ephemeral and opened.message is not None, opened.text()
    assert cell in {b.get("label") for b in buttons(opened.message)}
    pressed = await (await world.users[name].click(opened.message, cell)).wait()
    return pressed.content


async def declare(world: World, message: Any, name: str, current: Table, *, fight: bool) -> str:
    seat = seat_of(world, current, name)
    legal = current.game.legal(current.state, seat)
    user = world.users[name]
    if fight:
        opened = await (await user.click(message, "Fight")).wait()
        assert opened.ephemeral, opened.text()
        if len(legal) == 1:
            assert "no number that fits" in opened.text()
            fight = False
        else:  # the private select says what it is for (issue 36: its text was only "Fight")
            assert "Fight for" in opened.text() and "pick one of your numbers that fits" in opened.text()
            picked = await (await user.select(opened.message, "Fight with…", ["1"])).wait()
            assert "You fight with" in picked.content
            return str(legal[1]["number"])
    pressed = await (await user.click(message, "Pass")).wait()
    assert pressed.response_type in (6, 7), pressed.text()
    return ""


async def play_to_end(world: World, probe: Probe | None = None, *, dark: bool = False) -> dict[str, int]:
    """Both humans play every step through buttons and DMs until the end; returns counts of what they did."""
    done = {"placed": 0, "declared": 0, "fought": 0}
    while (message := await settled(world)) is not None:
        if probe is not None:
            await probe.check()
        current = await table(world)
        prompt = current.prompt
        assert prompt is not None
        awaited = [n for n in PLAYERS if seat_of(world, current, n) in current.awaited()]
        if prompt.kind == "place":
            digit = current.state.pending
            for i, name in enumerate(awaited):
                cells = current.game.legal(current.state, seat_of(world, current, name))
                cell = cells[-1 if name == "ana" else 0]["cell"]
                answer = await place(world, message, name, cell, by_dm=(len(current.state.rolls) + i) % 3 == 0)
                assert f"{digit} goes in {cell}" in answer, answer
                done["placed"] += 1
        elif prompt.kind == "pick":
            for name in awaited:
                seat = seat_of(world, current, name)
                legal = current.game.legal(current.state, seat)
                opened = await (await world.users[name].click(message, "Declare secretly")).wait()
                assert opened.ephemeral and opened.message is not None
                value = "1" if len(legal) > 1 and current.state.round % 2 else "0"
                # the menu says "Fight with…" only when a number fits (issue 36); with Pass alone it says so
                menu = "Fight with…" if len(legal) > 1 else "No number of yours fits: Pass"
                picked = await (await world.users[name].select(opened.message, menu, [value])).wait()
                assert "You fight with" in picked.content or "You pass" in picked.content
                done["declared"] += 1
        else:
            (name,) = awaited
            other = next(n for n in PLAYERS if n != name)
            refused = await (await world.users[other].click(message, "Fight")).wait()
            display = world.users[name].user.display_name
            assert refused.ephemeral and f"{display}'s turn" in refused.content, refused.content
            number = await declare(world, message, name, current, fight=current.state.round % 3 != 0)
            if probe is not None and number:  # the pick is stored; nothing may show it before the reveal
                await probe.check()
            done["declared"] += 1
            done["fought"] += bool(number)
    return done


async def test_a_whole_game_of_two_humans_and_an_ai(world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    probe = Probe(world, caplog)
    await start_binomial(world, PLAYERS, ai_players=1)
    done = await play_to_end(world, probe)
    assert done["placed"] == 32 and done["declared"] > 0
    assert probe.checks > 40
    result = await stored_result(world)  # the stored log folded through the engine
    final = world.fake.visible_text(finals(world)[0])
    current = await table(world)
    for seat in range(3):
        seated = current.seat(seat)
        display = marked_name(seated.name, seated.is_ai)
        assert f"{display}: {result.scores[seat]} points" in final, final
    assert "Ada 🤖" in final and "(AI)" not in final  # an AI marked once (issue 36)
    # every sheet is revealed at the end
    record = await world.bot.store.load_game(1)
    current = await table(world)
    assert not current.running and record.status == "finished"
    for sheet in current.state.sheets:
        for n in sheet.numbers:
            assert f"`{show(n)}`" in final
    # ONE numerology message, edited per roll; one message per round; the lobby and the final message
    (numerology,) = numerology_messages(world)
    assert len(numerology.history) >= 16
    rounds = len(current.state.history)
    assert len(bot_messages(world)) == 1 + 1 + rounds + 1
    for r in range(1, rounds + 1):  # each reveal shown once
        assert sum(shows_reveal(world.fake.visible_text(m), r) for m in bot_messages(world)) == 1, r


async def test_numerology_status_says_who_placed_and_other_presses_are_private(world: World) -> None:
    await start_binomial(world, PLAYERS)
    message = await settled(world)
    assert message is not None
    current = await table(world)
    digit = current.state.pending
    text = world.fake.visible_text(message)
    assert f"Roll 1 of 16: {digit} - placed: nobody; waiting: Ana, Ben" in text
    stranger = await (await world.users["cy"].click(message, "Place secretly")).wait()
    assert stranger.ephemeral and "not playing in this game" in stranger.content  # not at this table
    opened = await (await world.users["ana"].click(message, "Place secretly")).wait()
    assert opened.ephemeral and opened.message is not None
    labels = [b.get("label") for b in buttons(opened.message)]
    assert labels == [f"{k}{p}" for k in range(1, 9) for p in "ab"]
    assert len(opened.message.components) <= 4  # 16 cells: up to 4 rows of 5 buttons
    shown = copy.deepcopy(opened.message.components)
    old_id = next(b["custom_id"] for b in buttons(opened.message) if b.get("label") == "4a")
    first = await (await world.users["ana"].click(opened.message, "3b")).wait()
    assert first.content.startswith(f"{digit} goes in 3b")
    again = await world.dm("ana", "5a")  # changeable until everyone has placed
    assert f"Changed: {digit} now goes in 5a" in again
    await eventually(lambda: "placed: Ana; waiting: Ben" in world.fake.visible_text(
        world.fake.world.messages[message.id]), what="the status line after ana placed")
    bad = await world.dm("ben", "9z")
    assert "is not a cell" in bad
    await world.dm("ben", "1a")
    await eventually(lambda: "Roll 2 of 16" in world.fake.visible_text(world.fake.world.messages[message.id]),
                     what="roll 2 in the same message")
    current = await table(world)
    assert current.state.sheets[0].cells[CELL_5A] == digit
    assert len(numerology_messages(world)) == 1
    # the old private view is stale: a private line, nothing changes
    screen = dataclasses.replace(world.fake.world.messages[opened.message.id], components=shown)
    stale = await (await world.users["ana"]._dispatch(3, world.general, {"custom_id": old_id, "component_type": 2},
                                                       screen)).wait()
    assert stale.ephemeral and "That turn is over" in stale.content
    sheet = await (await world.users["ana"].slash(world.general, "binomial sheet")).wait()
    assert sheet.ephemeral and "Your sheet" in sheet.text() and "5a " + str(digit) in sheet.text()
    outsider = await (await world.users["cy"].slash(world.general, "binomial sheet")).wait()
    assert outsider.ephemeral and "not playing" in outsider.text()
    rules = await (await world.users["cy"].slash(world.general, "binomial rules")).wait()
    assert rules.ephemeral and "How to play Binomial" in rules.text() and "Closest to 50" in rules.text()


CELL_5A = 8


async def test_timers_place_automatically_pass_and_mark_away(world: World) -> None:
    await start_binomial(world, PLAYERS, turn_seconds=30)
    message = await settled(world)
    current = await table(world)
    digit = current.state.pending
    await world.dm("ana", "8b")
    before = len(world.fake.dms(world.users["ben"]))
    await world.advance(31)
    dm = await eventually(lambda: world.fake.dms(world.users["ben"])[before:], what="ben's private auto placement")
    assert f"your {digit} went in 1a" in world.fake.visible_text(dm[-1])
    await eventually(lambda: "placed automatically for Ben" in world.fake.visible_text(
        world.fake.world.messages[message.id]), what="the auto placement told in the status")
    current = await table(world)
    assert current.state.sheets[1].cells[0] == digit and current.state.sheets[0].cells[15] == digit
    for _ in range(15):  # nobody places: every roll's timer places for both
        step = (await table(world)).step
        await world.advance(31)
        await eventually(lambda s=step: world.bot.service._tables.get(1) is None or
                         world.bot.service._tables[1].step > s, what="the next roll")
    current = await table(world)
    assert current.state.kind == "declare"
    assert current.away(0) and current.away(1)
    # the numerology's closed message tells the phase's outcome, no line about a roll it closed (issue 36)
    closed = await eventually(lambda: "over" in title(world.fake.world.messages[message.id])
                              and world.fake.world.messages[message.id], what="the numerology closed")
    assert "placed automatically" not in world.fake.visible_text(closed) and "The 16 rolls" in world.fake.visible_text(
        closed)
    score = await (await world.users["cy"].slash(world.general, "score")).wait()
    assert "(away)" in score.text()
    message = await settled(world)
    assert message is not None and "Fight" in {b.get("label") for b in buttons(message)}
    step, (declaring,) = current.step, current.prompt.seats
    await world.advance(31)  # the declaration is a pass
    await eventually(lambda: world.bot.service._tables.get(1) is None or world.bot.service._tables[1].step > step,
                     what="the pass by timer")
    after = await table(world)
    assert after.steps[-1]["reason"] == "deadline" and after.steps[-1]["step"] == {
        str(declaring): {"fight": False}}


async def test_a_restart_mid_numerology_and_mid_colloquium(world: World) -> None:
    await start_binomial(world, PLAYERS)
    for _ in range(3):
        message = await settled(world)
        await world.dm("ana", "1a" if _ == 0 else (await table(world)).game.legal(
            (await table(world)).state, 0)[0]["cell"])
        current = await table(world)
        await world.dm("ben", current.game.legal(current.state, 1)[0]["cell"])
    message = await settled(world)
    current = await table(world)
    await world.dm("ana", current.game.legal(current.state, 0)[0]["cell"])  # a draft, then the crash
    resolves = [a.payload for a in (await world.bot.store.load_game(1)).actions if a.kind == "resolve"]
    posted = len(bot_messages(world))
    await world.restart()
    assert [a.payload for a in (await world.bot.store.load_game(1)).actions if a.kind == "resolve"] == resolves
    assert len(bot_messages(world)) == posted
    current = await table(world)
    assert 0 in current.drafts  # ana's acknowledged placement survived
    await world.dm("ben", current.game.legal(current.state, 1)[0]["cell"])
    await eventually(lambda: "Roll 5 of 16" in world.fake.visible_text(world.fake.world.messages[message.id]),
                     what="roll 5 edited into the same message after the restart")
    assert len(numerology_messages(world)) == 1
    while (await table(world)).state.kind == "place":
        await settled(world)
        current = await table(world)
        step, awaited = current.step, current.awaited()
        for name in PLAYERS:
            seat = seat_of(world, current, name)
            if seat in awaited:
                await world.dm(name, current.game.legal(current.state, seat)[0]["cell"])
        await eventually(lambda s=step: world.bot.service._tables[1].step > s, what="the next roll")
    # the colloquium: play one round, restart after its reveal, then one declaration and restart again
    current = await table(world)
    rounds = len(current.state.history)
    while len((await table(world)).state.history) == rounds:
        message = await settled(world)
        current = await table(world)
        (seat,) = current.prompt.seats
        name = next(n for n in PLAYERS if seat_of(world, current, n) == seat)
        await world.dm(name, "pass")
    await settled(world)
    posted = len(bot_messages(world))
    await world.restart()
    await settled(world)
    assert len(bot_messages(world)) == posted
    message = await settled(world)
    current = await table(world)
    (seat,) = current.prompt.seats
    name = next(n for n in PLAYERS if seat_of(world, current, n) == seat)
    await (await world.users[name].click(message, "Pass")).wait()  # an old button after the restart works
    await world.restart()
    await settled(world)
    assert len(bot_messages(world)) == posted  # the round goes on in its own message
    texts = "\n".join(world.fake.visible_text(m) for m in bot_messages(world))
    assert texts.count("round 1 of 16 · reveal") + texts.count("Reveal of round 1**") == 1


async def test_dark_variant_everybody_declares_at_once(world: World) -> None:
    await start_binomial(world, PLAYERS, dark=True)
    done = await play_to_end(world, Probe(world), dark=True)
    assert done["declared"] >= 2
    result = await stored_result(world)
    final = world.fake.visible_text(finals(world)[0])
    assert f"Ana: {result.scores[0]} points" in final and f"Ben: {result.scores[1]} points" in final


async def test_same_boat_is_refused_under_six_seats(world: World) -> None:
    lobby = await open_binomial(world, PLAYERS, same_boat=True)
    assert "6 or 7 players" in world.fake.visible_text(lobby)
    started = await (await world.users["ana"].click(lobby, "Start")).wait()
    assert started.ephemeral and "same_boat needs 6 to 7 players" in started.text(), started.text()
    assert (await world.bot.store.load_game(1)).status == "lobby"


async def test_public_commands_and_sheets_keep_the_secrets(world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    probe = Probe(world, caplog)
    await start_binomial(world, PLAYERS)
    while (current := await table(world)).state.kind == "place":
        await settled(world)
        step = current.step
        for name in PLAYERS:
            seat = seat_of(world, current, name)
            await world.dm(name, current.game.legal(current.state, seat)[-1 if seat else 0]["cell"])
        await eventually(lambda s=step: world.bot.service._tables[1].step > s, what="the next roll")
    message = await settled(world)
    current = await table(world)
    (seat,) = current.prompt.seats
    name = next(n for n in PLAYERS if seat_of(world, current, n) == seat)
    number = await declare(world, message, name, current, fight=True)
    texts = await probe.public_commands()
    await probe.check(extra=tuple(texts))
    assert any("Unused numbers left: 8" in t for t in texts)
    sheet = await (await world.users[name].slash(world.general, "binomial sheet")).wait()
    own = unused_numbers(await table(world))[seat]
    assert sheet.ephemeral and all(n in sheet.text() for n in own)
    if number:
        assert f"Your declared number this round: `{number}`" in sheet.text()


async def test_a_stale_declaration_button_answers_privately(world: World) -> None:
    await start_binomial(world, PLAYERS, turn_seconds=15)
    await numerology_by_timer(world, 15)
    message = await settled(world)
    assert message is not None
    shown, shown_step = copy.deepcopy(message.components), step_of(message)
    old_id = next(b["custom_id"] for b in buttons(message) if b.get("label") == "Pass")
    current = await table(world)
    (seat,) = current.prompt.seats
    name = next(n for n in PLAYERS if seat_of(world, current, n) == seat)
    await (await world.users[name].click(message, "Pass")).wait()
    await eventually(lambda: step_of(world.fake.world.messages[message.id]) != shown_step or
                     finals(world), what="the next declaration")
    stale = dataclasses.replace(world.fake.world.messages[message.id], components=shown)
    again = await world.users[name]._dispatch(3, world.general, {"custom_id": old_id, "component_type": 2}, stale)
    await again.wait()
    assert again.ephemeral and "That turn is over" in again.content
    assert title(message).startswith("Binomial · round 1")



async def numerology_by_timer(world: World, seconds: int) -> None:
    """Nobody places: every roll's timer writes the digit in each first free cell."""
    while (current := await table(world)).state.kind == "place":
        step = current.step
        await world.advance(seconds + 1)
        await eventually(lambda s=step: world.bot.service._tables[1].step > s, what="the next roll")
        await settled(world)  # the next roll's timer is armed once its message is up: advance only then


async def test_fight_without_a_fitting_number_is_answered_privately(world: World,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # The game's seed is drawn in secret; this one deals a card that a declaring seat cannot fit.
    monkeypatch.setattr("bot.core.service.secrets.randbits", lambda bits: 1)
    await start_binomial(world, PLAYERS, turn_seconds=15)
    await numerology_by_timer(world, 15)
    while (message := await settled(world)) is not None:
        current = await table(world)
        (seat,) = current.prompt.seats
        name = next(n for n in PLAYERS if seat_of(world, current, n) == seat)
        step = current.step
        if len(current.game.legal(current.state, seat)) == 1:
            assert "Fight" in {b.get("label") for b in buttons(message)}  # public buttons reveal nothing
            refused = await (await world.users[name].click(message, "Fight")).wait()
            assert refused.ephemeral and "You have no number that fits" in refused.content
            assert (await table(world)).step == step  # nothing changed
            return
        await (await world.users[name].click(message, "Pass")).wait()
    raise AssertionError("seed 1 no longer deals a card without a fitting number: pick another seed")


async def test_a_round_committed_but_never_told_is_revealed_once_after_restarts(world: World) -> None:
    await start_binomial(world, PLAYERS, turn_seconds=15)
    await numerology_by_timer(world, 15)
    await settled(world)
    # The bot dies after committing every declaration of round 1, before telling anyone: simulate it.
    while len((current := await table(world)).state.history) == 0:
        (seat,) = current.prompt.seats
        user_id = current.seat(seat).user_id
        assert user_id is not None
        await world.bot.service.act(1, user_id, action={"fight": False}, phase=current.step)
    posted = len(bot_messages(world))
    await world.restart()
    await settled(world)
    await world.restart()
    await settled(world)
    texts = [world.fake.visible_text(m) for m in bot_messages(world)]
    assert sum(shows_reveal(text, 1) for text in texts) == 1
    assert len(texts) == posted + 1  # round 2's message, telling round 1's reveal, once whatever the restarts


async def test_a_match_of_three_games_adds_the_points_up(world: World) -> None:
    await start_binomial(world, ("ana",), ai_players=2, match=True, turn_seconds=15)
    while (current := await table(world)).running:  # ana never plays: every timer acts for her
        step = current.step
        await world.advance(16)
        await eventually(lambda s=step: world.bot.service._tables.get(1) is None or
                         world.bot.service._tables[1].step > s, what="the next step")
        await settled(world)  # the next step's timer is armed once its message is up: advance only then
    result = await stored_result(world)
    (final,) = finals(world)
    text = world.fake.visible_text(final)
    current = await table(world)
    assert len(current.state.finished) == 3
    for seat in range(3):
        games = " + ".join(str(g.scores[seat]) for g in current.state.finished)
        seated = current.seat(seat)
        assert f"{marked_name(seated.name, seated.is_ai)}: {result.scores[seat]} points" in text
        assert f"Games: {games}" in text
    assert len(numerology_messages(world)) == 3  # one per game


async def test_a_roll_committed_but_never_told_goes_on_in_the_same_message_after_a_restart(world: World) -> None:
    await start_binomial(world, PLAYERS)
    message = await settled(world)
    assert message is not None
    step = (await table(world)).step
    for name in PLAYERS:  # the bot dies right after storing both placements, before telling anyone
        await world.bot.service.act(1, world.users[name].id, action={"cell": "1a"}, phase=step)
    assert len((await table(world)).state.rolls) == 2
    posted = len(bot_messages(world))
    await world.restart()
    await eventually(lambda: "Roll 2 of 16" in world.fake.visible_text(world.fake.world.messages[message.id]),
                     what="roll 2 edited into the numerology message")
    await world.restart()
    assert len(bot_messages(world)) == posted and len(numerology_messages(world)) == 1
