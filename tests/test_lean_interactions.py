"""bot/interactions.py: an interaction's message is built only when read, as discord.py builds it; a choice
made through the turn message (issue 37.4: CPU per choice) reads only its id and flags."""

import copy
from typing import Any

import discord
import discord.interactions
import pytest

import bot.interactions as lean_interactions
from bot import http_pacing
from tests.discord_world import World, eventually


def record_interactions(world: World) -> list[dict[str, Any]]:
    """The INTERACTION_CREATE payloads the bot receives from now on (copies, before it parses them)."""
    assert world.bot is not None
    parsers = world.bot._connection.parsers
    parse, seen = parsers["INTERACTION_CREATE"], []

    def recording(data: Any) -> None:
        seen.append(copy.deepcopy(data))
        parse(data)

    parsers["INTERACTION_CREATE"] = recording
    return seen


async def test_a_choice_through_the_turn_message_never_builds_its_message(world: World,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []

    class Counted(discord.Message):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            built.append(self.id)

    await world.start_game(("ana", "ben", "cy"))
    monkeypatch.setattr(lean_interactions, "Message", Counted)
    monkeypatch.setattr(discord.interactions, "Message", Counted)  # where discord.py's own builds it
    answers = []
    for name, number in (("ana", "408"), ("ben", "513")):
        status = world.status_message()
        opened = await (await world.users[name].click(status, "Choose secretly")).wait()
        built.clear()  # (discord.py's view store reads the message of a button's interaction)
        answers.append(await (await world.users[name].submit_modal(opened, {"number": number})).wait())
        assert built == [], name
    assert answers[0].response_type == 7 and (await world.answer(answers[0])).startswith("Locked in 408")
    assert answers[1].response_type == 4  # a burst: its private line alone
    assert built == []


async def test_the_message_read_is_the_one_discord_py_builds(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    seen = record_interactions(world)
    await world.modal("ana", "408")
    submitted = next(d for d in seen if d["type"] == 5)
    state = world.bot._connection
    made = lean_interactions.LeanInteraction(data=copy.deepcopy(submitted), state=state)
    plain = discord.Interaction(data=copy.deepcopy(submitted), state=state)
    assert plain.message is not None
    assert lean_interactions.message_ref(made) == (plain.message.id, plain.message.flags.value)
    message = made.message
    assert message is not None and made.message is message  # built once
    assert (message.id, message.flags.value, message.guild, message.channel.id) == (
        plain.message.id, plain.message.flags.value, plain.message.guild, plain.message.channel.id)
    assert [c.to_dict() for c in message.components] == [c.to_dict() for c in plain.message.components]
    assert (made.user.id, made.guild_id, made.data) == (plain.user.id, plain.guild_id, plain.data)
    made.message = None
    assert made.message is None and lean_interactions.message_ref(made) is None


async def test_interactions_without_a_message_are_discord_pys_own(world: World) -> None:
    seen = record_interactions(world)
    await world.open_table(("ana", "ben"))
    command = next(d for d in seen if d["type"] == 2)
    made = lean_interactions.LeanInteraction(data=copy.deepcopy(command), state=world.bot._connection)
    assert made.message is None and lean_interactions.message_ref(made) is None
    assert isinstance(made, discord.Interaction)


async def test_interaction_answers_skip_the_paces_trace(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord does not count interaction callbacks and followups: they go through the bot's untraced session
    (NumberBot.answer_session, on discord.py's connector), so aiohttp sends the pace's trace signals only for the
    requests the pace counts."""
    assert world.bot is not None and world.bot.http.http_trace is not None  # the pace is on, as by default
    traced: list[str] = []
    counted = http_pacing.counted

    def seen(url: Any) -> bool:  # the trace asks this of every request it sees
        traced.append(str(url))
        return counted(url)

    monkeypatch.setattr(http_pacing, "counted", seen)
    await world.start_game(("ana", "ben", "cy"))
    for name, number in (("ana", "408"), ("ben", "513"), ("cy", "627")):
        assert (await world.answer(await world.modal(name, number))).startswith(f"Locked in {number}")
    await eventually(lambda: world.reveals(), what="the reveal")
    assert any("/channels/" in url for url in traced)  # the reveal's post: counted, traced
    assert not [url for url in traced if "/interactions/" in url or "/webhooks/" in url]
