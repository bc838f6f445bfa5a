"""Leaving a running game forfeits it (issue 34, points 3 and 7): the seat no longer plays (Numeri: its tokens
stay where they are), the table shows it has left, it ranks last and wins nothing, and its stats credit no win.
The real bot against the local fake Discord."""

from __future__ import annotations

from bot.core.game import Result, forfeited
from bot.core.stats import summarise
from bot.games.numeri.game import GAME
from tests.discord_world import World, eventually
from tests.numeri_discord import finals, next_turn, press, start_numeri, turn_step, whose_turn

PLAYERS = ("ana", "ben", "cy")


def test_a_seat_that_left_wins_nothing_whatever_its_score() -> None:
    result = Result({0: 63, 1: 126, 2: 90}, frozenset({1}))
    assert forfeited(result, frozenset({1})).winners == {2}
    assert forfeited(result, frozenset({1})).scores == result.scores  # the points stand
    assert forfeited(result, frozenset()).winners == {1}


async def test_a_numeri_player_who_left_no_longer_moves_and_ranks_last(world: World) -> None:
    await start_numeri(world, PLAYERS)
    first = await next_turn(world)
    assert first is not None
    left = await (await world.users["ben"].slash(world.general, "numeri leave")).wait()
    assert left.ephemeral, left.text()
    table = await world.bot.service.table(1)
    ben = table.record.seats[1]
    assert ben.state == "left"
    squares = table.state.positions[1]
    step, stale_seen = -1, False
    while (message := await next_turn(world, step)) is not None:
        step = turn_step(message) or 0
        name = whose_turn(world, message, PLAYERS)
        if name == "ben" and not stale_seen:
            # the living message still shows ben's first turn, which his leave just passed: it is edited on
            await eventually(lambda m=message, s=step: turn_step(m) != s, what="ben's turn passed")
            stale_seen = True
            continue
        assert name != "ben"
        await (await press(world.users[name], message)).wait()
    table = await world.bot.service.table(1)
    assert table.state.positions[1] == squares  # ben's tokens stayed where they were
    record = await world.bot.store.load_game(1)
    assert any(p.payload["step"].get("1") == {"left": True} for p in record.actions if p.kind == "resolve")
    text = "\n".join(world.channel_text())
    assert "🔷 Ben rolled" not in text.split("(left the game)", 1)[-1]  # never told as if ben moved
    final = world.fake.visible_text(finals(world)[0])
    assert "Ben (left the game)" in final
    assert "Ben" not in final.split("Winner")[1].splitlines()[0]
    scores = final.split("Ratings on this server")[0]  # the table of scores, not the rating changes under it
    assert scores.rindex("Ben (left the game)") > max(scores.rindex("Ana:"), scores.rindex("Cy:"))  # ranked last
    rows = {row.seat: row for row in summarise(GAME, record)}
    assert not rows[1].won
    score = await (await world.users["ana"].slash(world.general, "score")).wait()
    assert "Ben (left the game)" in score.text()


async def test_a_binomial_player_who_left_is_marked_not_shown_passing(world: World) -> None:
    from tests.binomial_discord import bot_messages, settled, start_binomial, title

    await start_binomial(world, PLAYERS)
    await settled(world)
    left = await (await world.users["ben"].slash(world.general, "binomial leave")).wait()
    assert left.ephemeral, left.text()
    def rounds() -> list[str]:
        return [world.fake.visible_text(m) for m in bot_messages(world)
                if title(m).startswith(("Binomial · round", "Binomial · reveal of round"))]

    for _ in range(80):  # the numerology and the first declarations, played by the timers
        if any(mark in text for text in rounds() for mark in ("🔷 Ben has left", "🔷 Ben (left", "🔷 Ben passes")):
            break
        await world.advance(31)
    texts = rounds()
    assert texts
    everything = "\n".join(texts)
    assert "🔷 Ben passes" not in everything
    # marked wherever the round names him (his declaration, or the passers once the chair moved on past him)
    assert "🔷 Ben has left the game" in everything or "🔷 Ben (left the game)" in everything
