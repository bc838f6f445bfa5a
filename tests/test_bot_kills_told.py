"""A step told in its own message is told once across kill -9, whatever moment the kill falls on.

Binomial tells a round's reveal by closing the round's message (its thread), then marks the step announced.
A real bot process is SIGKILLed exactly between the two: once after a DM's reveal edit reached Discord, once
after a "Pass" click's answer showed the reveal, and, at the last round, after the reveal edit and again while
the final message's post is on its way. Each restart must neither repeat the reveal at the top of the next
message (it is already in the channel) nor lose the final message."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from bot.core.table import Table
from bot.games.binomial.game import GAME
from tests.binomial_discord import reveal_in_body, shows_reveal
from tests.discord_world import PATIENCE
from tests.fakediscord import FakeDiscord, Message, visible_text
from tests.process_world import ProcessTable, all_versions
from tests.test_bot_kills import SCRIPT, TITLE
from tests.test_bot_kills import Table as NumberTable
from tests.test_bot_kills_binomial import finals

PLAYERS = ("ana", "ben")


async def open_game(t: ProcessTable) -> None:
    opened = await t.answered(await t.users["ana"].slash(t.general, "binomial start", turn_seconds=3600))
    assert opened.message is not None, opened.text()
    lobby = t.fake.world.messages[opened.message.id]
    joined = await t.answered(await t.users["ben"].click(lobby, "Join"))
    assert joined.response_type == 7, joined.text()
    started = await t.answered(await t.users["ana"].click(lobby, "Start"))
    assert started.response_type == 7, started.text()


def ends_round(table: Table, seat: int) -> bool:
    """Whether ``seat``'s choice is the last one of its round (the reveal follows it)."""
    state = table.state
    if state.kind not in ("declare", "pick") or table.awaited() != {seat}:
        return False
    return state.kind == "pick" or len(state.declared) == state.seats - 1


async def current(t: ProcessTable) -> tuple[Table, Message] | None:
    """The step awaiting a player, once its turn message is up; None once the game is over."""
    while True:
        record = await t.record()
        if record.status == "finished":
            return None
        table = Table.load(GAME, record)
        prompt = table.prompt
        if prompt is not None and not prompt.chance and table.awaited():
            message = t.with_inputs_for(record.phase)
            if message is not None:
                return table, message
        await asyncio.sleep(0.02)


async def by_dm(t: ProcessTable, table: Table, seat: int) -> None:
    user = t.users[PLAYERS[seat]]
    legal = GAME.legal(table.state, seat)
    text = str(legal[0]["cell"]) if table.state.kind == "place" else "pass"
    before = len(t.fake.dms(user))
    await user.send_dm(text)
    await t.until(lambda: len(t.fake.dms(user)) > before, f"{PLAYERS[seat]}'s acknowledgement", while_alive=True)


def reveals(t: ProcessTable, rnd: int) -> int:
    """How many channel messages show round ``rnd``'s reveal now."""
    return sum(shows_reveal(t.fake.visible_text(m), rnd) for m in t.bot_messages())


async def test_a_reveal_told_just_before_a_kill_is_not_told_again(fake_discord: FakeDiscord, tmp_path: Path
                                                                  ) -> None:
    t = ProcessTable(fake_discord, tmp_path, PLAYERS)
    channel = rf"^/channels/{t.general.id}/messages"
    moments: list[str] = []
    try:
        await t.start()
        await open_game(t)
        while (now := await current(t)) is not None:
            table, message = now
            seat, state = min(table.awaited()), table.state
            rnd, last = state.round, state.round == len(state.decks[state.game])
            moment = ("last" if last else "dm" if not moments
                      else "button" if "button" not in moments and state.kind == "declare" else None)
            if not ends_round(table, seat) or moment is None:
                await by_dm(t, table, seat)
                continue
            moments.append(moment)
            reveal = reveal_in_body(rnd)
            if moment == "button":  # "Pass" on the turn message: the click is answered with the reveal
                hold = t.fake.hold_next("POST", r"^/interactions/\d+/[^/]+/callback$", applied=True,
                                        body_has=reveal)
                await t.users[PLAYERS[seat]].click(message, "Pass")
            else:  # a DM: the round's message is closed by an edit that shows the reveal
                hold = t.fake.hold_next("PATCH", rf"{channel}/\d+$", applied=True, body_has=reveal)
                await t.users[PLAYERS[seat]].send_dm("pass")
            await asyncio.wait_for(hold.arrived.wait(), PATIENCE)  # a safety net: the reveal shown is the event
            assert reveals(t, rnd) == 1
            final = t.fake.hold_next("POST", rf"{channel}$", body_has="game over") if last else None
            await t.kill()  # Discord showed the reveal; the bot never heard so, nor recorded it told
            hold.release()
            await t.start()
            if final is not None:  # the restart tells the end; the post is lost to a second kill
                await asyncio.wait_for(final.arrived.wait(), PATIENCE)
                await t.kill()
                final.release()  # answered 503 to a dead process: that final message never reached Discord
                await t.start()
                await t.until(lambda: finals(t), "the final message", while_alive=True)
            await current(t)  # the next turn message is up (or the game is over)
            assert reveals(t, rnd) == 1, (moments, t.fake.visible_text(t.bot_messages()[-1]))
        await t.until(lambda: finals(t), "the final message", while_alive=True)
        record = await t.record()
    finally:
        await t.close()
    assert moments[:2] == ["dm", "button"] and moments[-1] == "last", moments
    assert len(finals(t)) == 1
    rounds = len(Table.load(GAME, record).state.history)
    assert [reveals(t, rnd) for rnd in range(1, rounds + 1)] == [1] * rounds
    assert len(t.bot_messages()) == 1 + 1 + rounds + 1  # the lobby, the numerology, one message per round, the end
    assert "Traceback" not in t.log_text(), t.log_text()[-3000:]


async def test_a_click_ending_a_round_before_the_last_step_is_marked_is_told_once(fake_discord: FakeDiscord,
                                                                                  tmp_path: Path) -> None:
    """A DM takes a round's first declaration; the edit of the round's message into the next one reaches
    Discord, and at once the other player clicks "Pass" on it: the click's answer shows the reveal while the
    bot has not yet heard back from that edit (so neither step is marked told). Killed there, the restart
    must recognise the message closed with the reveal of a step two past the last mark."""
    t = ProcessTable(fake_discord, tmp_path, PLAYERS)
    channel = rf"^/channels/{t.general.id}/messages"
    try:
        await t.start()
        await open_game(t)
        while True:
            now = await current(t)
            assert now is not None, "the game ended before a round was declared"
            table, _ = now
            seat = min(table.awaited())
            if table.state.kind == "declare" and not ends_round(table, seat):
                break
            await by_dm(t, table, seat)
        record, rnd = table.record, table.state.round
        step = record.phase + 1  # the round's second declaration, edited into the same message
        inputs = f"play:{record.kind}:{record.id}:{step}:"
        edit = t.fake.hold_next("PATCH", rf"{channel}/\d+$", applied=True, body_has=inputs)
        await t.users[PLAYERS[seat]].send_dm("pass")
        await asyncio.wait_for(edit.arrived.wait(), PATIENCE)  # Discord shows it; the bot waits for its answer
        message = t.with_inputs_for(step)
        assert message is not None
        reveal = reveal_in_body(rnd)
        click = t.fake.hold_next("POST", r"^/interactions/\d+/[^/]+/callback$", applied=True, body_has=reveal)
        await t.users[PLAYERS[1 - seat]].click(message, "Pass")
        await asyncio.wait_for(click.arrived.wait(), PATIENCE)
        assert (await t.record()).announced_phase < step - 1  # the kill falls before either mark
        await t.kill()
        edit.release()
        click.release()
        await t.start()
        await current(t)  # the next round's message is up
        assert reveals(t, rnd) == 1, t.fake.visible_text(t.bot_messages()[-1])
    finally:
        await t.close()
    assert "Traceback" not in t.log_text(), t.log_text()[-3000:]


async def test_a_number_reveal_posted_just_before_a_kill_is_not_posted_again(fake_discord: FakeDiscord,
                                                                            tmp_path: Path) -> None:
    """The Number tells each turn in a report of its own (the next turn's message below it when both fit in
    one): killed once that post reached Discord, once the close of the turn message did (the report not yet
    posted), and once the last report (the end) did, each before the bot recorded it. Every turn is revealed
    once, every turn's choosing message is posted once."""
    table = NumberTable(fake_discord, tmp_path)
    channel = rf"^/channels/{table.general.id}/messages"
    # turn -> what the kill after its last DM waits for: the report's post, or the close of the turn message
    # (as a request's JSON body writes them: "·" is escaped there)
    holds = {0: ("POST", f"{channel}$", json.dumps("turn 1 of 5 · reveal")[1:-1]),
             1: ("PATCH", rf"{channel}/\d+$", None),
             9: ("POST", f"{channel}$", json.dumps("The Number · game over")[1:-1])}
    try:
        await table.start()
        await table.open_game()
        for turn, script in enumerate(SCRIPT):
            await table.until(lambda t=turn: table.current_turn() == t, PATIENCE, f"turn {turn}'s message")
            *first, (last, number) = script.items()
            for name, chosen in first:
                await number_dm(table, name, chosen)
            if turn not in holds:
                await number_dm(table, last, number)
                continue
            method, path, body_has = holds[turn]
            hold = fake_discord.hold_next(method, path, applied=True, body_has=body_has)
            await number_dm(table, last, number)
            await asyncio.wait_for(hold.arrived.wait(), PATIENCE)  # a safety net: the applied request is the event
            await table.kill()
            hold.release()
            await table.start()
        await table.until(lambda: "The Number · game over" in "\n".join(table.reveals()), PATIENCE, "the end")
        await table.settle()
    finally:
        if table.proc is not None and table.proc.returncode is None:
            table.proc.kill()
            await table.proc.wait()
    titles = [text.splitlines()[0] for text in table.reveals()]
    assert titles == [f"The Number · round {i // 5 + 1} of 2 · turn {i % 5 + 1} of 5 · reveal"
                      for i in range(10)], titles
    choosing = [title for message in fake_discord.messages(table.general) for title in choosing_titles(message)]
    assert len(choosing) == len(set(choosing)) == 10, choosing  # each turn's message posted once
    assert "Traceback" not in (tmp_path / "bot.log").read_text(errors="replace")


async def number_dm(table: NumberTable, name: str, number: str) -> None:
    user = table.users[name]
    before = table.acks_for(user, number)
    await user.send_dm(number)
    await table.until(lambda: table.acks_for(user, number) > before, PATIENCE, f"{name}'s acknowledgement")


def choosing_titles(message: Message) -> set[str]:
    """The turns whose choosing title any version of ``message`` showed."""
    found = (TITLE.search(visible_text(v)) for v in all_versions(message))
    return {m[0] for m in found if m is not None}
