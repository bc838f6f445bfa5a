"""Binomial tells what the README promises when it is true (issue 34, points 6 and 9): the first chairman is
announced from the first roll, and a declaration's acknowledgement names the round and card it counts for (a
late DM in the dark variant lands in the next round: the player reads which). Real bot, local fake Discord."""

from __future__ import annotations

from tests.binomial_discord import numerology_messages, settled, start_binomial, table, through_numerology
from tests.discord_world import World, buttons, eventually

PLAYERS = ("ana", "ben")


async def test_the_first_chairman_is_announced_with_the_first_roll(world: World) -> None:
    await start_binomial(world, PLAYERS)
    await settled(world)
    current = await table(world)
    name = world.users[PLAYERS[current.state.chairman]].user.display_name
    text = world.fake.visible_text(numerology_messages(world)[0])
    assert "First chairman (drawn at random): " in text and name in text.split("First chairman")[1].splitlines()[0]


async def test_a_dark_declaration_is_acknowledged_with_its_round_and_card(world: World) -> None:
    await start_binomial(world, PLAYERS, dark=True)
    await settled(world)
    current = await through_numerology(world, "pick")
    answer = await world.dm("ana", "pass")
    assert answer.startswith(f"Round {current.state.round}, "), answer
    assert "You pass" in answer


async def test_an_abandoned_numerology_message_no_longer_says_who_is_awaited(world: World) -> None:
    await start_binomial(world, PLAYERS)
    message = await settled(world)
    assert message is not None
    assert "waiting: Ana, Ben" in world.fake.visible_text(message)
    left = await (await world.users["ben"].slash(world.general, "binomial leave")).wait()
    assert left.ephemeral
    shown = await eventually(lambda: "waiting:" not in world.fake.visible_text(world.fake.world.messages[message.id])
                             and world.fake.world.messages[message.id], what="the numerology message closed")
    assert "abandoned" in world.fake.visible_text(shown).lower() and not buttons(shown)


async def test_when_the_ai_declares_last_the_round_message_shows_the_reveal(world: World, monkeypatch: object
                                                                            ) -> None:
    """Issue 34, point 8: seed 1 makes the human seat the first chairman, so the AI declares last."""
    from tests.binomial_discord import bot_messages, title
    from tests.discord_world import buttons

    monkeypatch.setattr("bot.core.service.secrets.randbits", lambda bits: 1)  # type: ignore[attr-defined]
    await start_binomial(world, ("ana",), ai_players=1, ai_level="easy")
    await settled(world)
    current = await through_numerology(world, "declare")
    assert current.state.chairman == 0
    message = await settled(world)
    assert message is not None
    pressed = await (await world.users["ana"].click(message, buttons(message)[-1]["custom_id"])).wait()  # Pass
    assert pressed.response_type == 7, pressed.text()
    closed = world.fake.visible_text(world.fake.world.messages[message.id])
    assert "Binomial · round 1 of 16 · reveal" in closed, closed
    nxt = await eventually(lambda: [m for m in bot_messages(world) if title(m).startswith("Binomial · round 2")],
                           what="round 2's message")
    assert "reveal" not in world.fake.visible_text(nxt[0]).lower()
