"""Binomial in French through Discord, and a player with closed DMs playing Binomial by buttons."""

from __future__ import annotations

import re

import pytest

from tests.binomial_discord import bot_messages, buttons, every_version, seat_of, settled, start_binomial, table
from tests.discord_world import World, eventually

PLAYERS = ("ana", "ben")
# Words of the English messages that must not show in a French game (whole words, case-sensitive).
ENGLISH = ("Roll", "placed", "waiting", "Fight", "Pass", "Reveal", "Winner", "Chairman", "round", "game over",
           "Your sheet", "goes in", "You fight", "You pass", "turn", "Unused", "nobody", "Nobody",
           "join the table", "Seats", "host", "Did not fit", "Cancelled")


def no_english(text: str) -> None:
    for word in ENGLISH:
        assert not re.search(rf"\b{re.escape(word)}\b", text), (word, text)


async def play_to_end(world: World, *, place: str, fight: str, passing: str) -> None:
    """Both players place by the private buttons and declare by the public ones (labels in French)."""
    while (current := await table(world)).running:
        message = await settled(world)  # the current step's message (settled waits for an English end)
        kind, step = current.state.kind, current.step
        awaited = [n for n in PLAYERS if seat_of(world, current, n) in current.awaited()]
        for name in awaited:
            user = world.users[name]
            if kind == "place":
                opened = await (await user.click(message, place)).wait()
                assert opened.ephemeral and opened.message is not None, opened.text()
                no_english(opened.text())
                cell = buttons(opened.message)[0]["label"]
                pressed = await (await user.click(opened.message, cell)).wait()
                assert f"va en {cell}" in pressed.content, pressed.content
                no_english(pressed.content)
            else:
                legal = current.game.legal(current.state, seat_of(world, current, name))
                if len(legal) > 1 and name == "ana":
                    opened = await (await user.click(message, fight)).wait()
                    assert opened.ephemeral, opened.text()
                    no_english(opened.text())
                    picked = await (await user.select(opened.message, opened.message.components[0]["components"][0]
                                                      ["placeholder"], ["1"])).wait()
                    no_english(picked.content)
                else:
                    pressed = await (await user.click(message, passing)).wait()
                    assert pressed.response_type in (6, 7), pressed.text()
        await eventually(lambda s=step: world.bot.service._tables.get(1) is None or
                         world.bot.service._tables[1].step > s, what="the next step")


async def test_a_whole_game_of_binomial_in_french(world: World) -> None:
    world.speak("fr")
    opened = await (await world.users["ana"].slash(world.general, "binomial start")).wait()
    assert "Binomial : prenez place" in opened.text() and "Rejoindre" in opened.text()
    no_english(opened.text())
    await (await world.users["ben"].click(opened.message, "Rejoindre")).wait()
    await (await world.users["ana"].click(opened.message, "Lancer")).wait()
    first = await settled(world)
    assert first is not None
    text = world.fake.visible_text(first)
    assert "Lancer 1 sur 16" in text and "en attente : Ana, Ben" in text and "Placer en secret" in text
    sheet = await (await world.users["ben"].slash(world.general, "binomial sheet")).wait()
    no_english(sheet.text())
    await play_to_end(world, place="Placer en secret", fight="Combattre", passing="Passer")
    await eventually(lambda: any("Binomial · partie terminée" in world.fake.visible_text(m)
                                 for m in bot_messages(world)), what="the French final message")
    texts = [v for m in bot_messages(world) for v in every_version(m)]
    joined = "\n".join(texts)
    assert "Binomial · numérologie" in joined and "manche 1 sur 16 · révélation" in joined and "Président" in joined
    assert "Binomial · partie terminée" in joined
    for text in texts:  # every version of every message a player saw in the channel
        no_english(text)
    score = await (await world.users["ana"].slash(world.general, "score")).wait()
    no_english(score.text())


@pytest.mark.dm_blocked("ben")
async def test_a_player_with_closed_dms_plays_binomial_normally(world: World) -> None:
    await start_binomial(world, PLAYERS, turn_seconds=15)
    message = await settled(world)
    assert message is not None
    opened = await (await world.users["ben"].click(message, "Place secretly")).wait()
    assert opened.ephemeral and opened.message is not None
    pressed = await (await world.users["ben"].click(opened.message, "2a")).wait()
    assert "goes in 2a" in pressed.content
    step = (await table(world)).step
    await world.advance(16)  # ana never places: the timer places for her and DMs her; ben needs no DM
    await eventually(lambda: world.bot.service._tables[1].step > step, what="the next roll")
    current = await table(world)
    assert current.state.sheets[1].cells[2] is not None  # ben's 2a kept
    before = (await table(world)).step
    for _ in range(3):  # ben places by buttons; the timers place for ana, their DMs to her arrive
        message = await settled(world)
        opened = await (await world.users["ben"].click(message, "Place secretly")).wait()
        cell = buttons(opened.message)[0]["label"]
        await (await world.users["ben"].click(opened.message, cell)).wait()
        step = (await table(world)).step
        await world.advance(16)
        await eventually(lambda s=step: world.bot.service._tables[1].step > s, what="the next roll")
    assert (await table(world)).step > before
    assert not world.fake.dms(world.users["ben"])  # nothing reached ben's closed DMs, and nothing failed
