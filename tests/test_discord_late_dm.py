"""A choice lands in the step it was made for (issue 34, point 6): a DM sent during a step and read only after that
step ended (a gateway backlog, a slow connection, the bot busy) is refused, naming the step it was sent in and
the step open now, never counted for the next step; a select of a past step's private view is refused too.
Real bot, local fake Discord, whose message ids carry the test clock's time."""

from __future__ import annotations

from tests.binomial_discord import settled, start_binomial, table, through_numerology
from tests.discord_world import World, eventually

PLAYERS = ("ana", "ben")


async def to_colloquium(world: World) -> None:
    await start_binomial(world, PLAYERS, dark=True)
    await settled(world)
    await through_numerology(world, "pick")


async def expire(world: World) -> None:
    """Time runs out for the current step (its timer fires)."""
    deadline = (await table(world)).record.deadline
    assert deadline is not None
    await world.advance(deadline - world.clock.now() + 1)


async def late_dm(world: World, name: str, text: str, sent_at: float) -> str:
    """``name`` wrote ``text`` at ``sent_at``; the gateway delivers it only now. The bot's answer."""
    user = world.users[name]
    before = len(world.fake.dms(user))
    await user.send_dm(text, sent_at=sent_at)
    replies = await eventually(lambda: world.fake.dms(user)[before:], what=f"the bot's answer to {name}")
    return world.fake.visible_text(replies[-1])


async def test_a_dark_dm_read_after_its_round_ended_is_refused_not_counted_for_the_next(world: World) -> None:
    await to_colloquium(world)
    first = await table(world)
    ana = first.record.seat_of(world.users["ana"].id)
    assert ana is not None
    fits = first.game.legal(first.state, ana.seat)[-1]  # a fight with a number that fits round 1's card
    typed, step_one = str(fits.get("number", "pass")), first.step  # (the cached table moves on: keep the number)
    written = world.clock.now()  # ana writes during round 1 ...
    await expire(world)  # ... round 1 ends by its timer, round 2 opens ...
    second = await table(world)
    assert second.state.round == 2 and second.step > step_one
    answer = await late_dm(world, "ana", typed, written)  # ... and only then is her DM read
    assert "sent during round 1 (" in answer and "round 2 (" in answer and "send your choice again" in answer, answer
    now = await table(world)
    assert now.step == second.step and ana.seat not in now.drafts  # round 2 has no choice from her
    record = await world.bot.store.load_game(1)
    assert not [a for a in record.actions if a.kind == "choose" and a.phase == second.step]
    # a DM written now counts for round 2, and says so
    assert (await world.dm("ana", "pass")).startswith("Round 2, ")


async def test_a_select_of_a_past_round_is_refused_not_shifted(world: World) -> None:
    await to_colloquium(world)
    message = await settled(world)
    assert message is not None
    opened = await (await world.users["ana"].click(message, "Declare secretly")).wait()
    assert opened.ephemeral and opened.message is not None
    step_one = (await table(world)).step
    await expire(world)  # round 1 ends while her private select is open
    second = await table(world)
    assert second.step > step_one
    # the menu says "Fight with…" only when a number of hers fits the card; with Pass alone it says so
    alone = "No number of yours fits: Pass"
    menu = alone if alone in str(opened.message.components) else "Fight with…"
    picked = await (await world.users["ana"].select(opened.message, menu, ["0"])).wait()
    assert "You pass" not in picked.text() and "over" in picked.text().lower(), picked.text()
    ana = second.record.seat_of(world.users["ana"].id)
    assert ana is not None and ana.seat not in (await table(world)).drafts


async def test_every_game_refuses_a_dm_read_after_its_turn_ended(world: World) -> None:
    """The Number, through the same DM router: its steps are named by round and turn."""
    await world.start_game(("ana", "ben", "cy"))
    written = world.clock.now()
    await world.advance(61)  # turn 1 ends by its timer
    current = await world.bot.service.table(1)
    assert current.step == 1
    answer = await late_dm(world, "ana", "123", written)
    assert "sent during round 1, turn 1, which is over" in answer and "round 1, turn 2 is open now" in answer, answer
    assert not (await world.bot.service.table(1)).drafts


async def test_a_declaration_sent_before_ones_turn_in_the_same_round_is_refused(world: World) -> None:
    """Open declarations: a DM written while the seat before was declaring, read once it is this seat's turn, is
    refused (the shared line: both steps are the same round and card)."""
    await start_binomial(world, PLAYERS)
    await settled(world)
    current = await through_numerology(world, "declare")
    first = PLAYERS[next(iter(current.state.to_act))]
    second = next(p for p in PLAYERS if p != first)
    written = world.clock.now()
    await world.advance(1)
    assert (await world.dm(first, "pass")).startswith("Round 1, ")
    assert (await table(world)).state.to_act == {PLAYERS.index(second)}
    answer = await late_dm(world, second, "pass", written)
    assert "sent before the step open now began" in answer, answer
    assert (await table(world)).state.to_act == {PLAYERS.index(second)}  # still awaited: nothing was counted
