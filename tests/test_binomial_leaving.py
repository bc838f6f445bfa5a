"""A Binomial seat that left (or was kicked) cannot chair (issue 34, point 7): the engine learns it from the forfeit
marked in the log and passes the chairmanship to the next seat in declaring order still playing; logs written
before the mark fold as they did. The table and /score show a chairman still playing (real bot, fake Discord)."""

from __future__ import annotations

from bot.core.fold import step_from_json, step_to_json
from bot.games.binomial import engine
from bot.games.binomial.game import GAME
from tests.binomial_discord import bot_messages, settled, start_binomial, table, title
from tests.discord_world import World, eventually

PLAYERS = ("ana", "ben", "cy")


def numerology_done(seats: int, chairman: int, *, dark: bool = False) -> engine.State:
    state = engine.new_game(seats, engine.Variants(dark=dark), chairman=chairman)
    for _ in range(16):
        state, _ = engine.roll(state, 5)
        state, _ = engine.place(state, {})
    return state


def test_a_chairman_who_leaves_during_the_numerology_passes_it_to_the_next_seat_still_playing() -> None:
    state = GAME.setup(4, {}, seed=7)
    state, _ = GAME.apply(state, {None: {"digit": 3}})
    chairman = state.chairman
    after, _ = GAME.apply(state, {**GAME.timeout(state, frozenset({0, 1, 2, 3} - {chairman})),
                                  **GAME.forfeit(state, frozenset({chairman}))})
    assert after.gone == {chairman} and after.chairman == (chairman + 1) % 4
    # the next one left too: the one after
    state, _ = GAME.apply(after, {None: {"digit": 4}})
    nxt = (chairman + 1) % 4
    after, _ = GAME.apply(state, {**GAME.timeout(state, frozenset({0, 1, 2, 3} - {nxt, chairman})),
                                  **GAME.forfeit(state, frozenset({nxt, chairman}))})
    assert after.chairman == (chairman + 2) % 4


def test_a_chairman_who_leaves_mid_round_keeps_the_rounds_order_and_loses_the_chair() -> None:
    state = numerology_done(3, chairman=0)
    # seat 0 (the chairman) declares first: it has left, so its forfeit passes, and the chair goes to seat 1
    state, _ = GAME.apply(state, {0: GAME.forfeit(state, frozenset({0}))[0]})
    assert state.chairman == 1 and state.to_act == {1}  # the round goes on in its order: 1 then 2
    state, _ = GAME.apply(state, {1: {"fight": False}})
    assert state.to_act == {2}
    state, fight = GAME.apply(state, {2: {"fight": False}})
    assert isinstance(fight, engine.Fight) and fight.winner is None and fight.chairman == 1
    assert state.order() == (1, 2, 0)  # the next round starts from the new chairman


def test_in_the_dark_a_forfeit_takes_the_seat_out_after_its_round() -> None:
    state = numerology_done(2, chairman=1, dark=True)
    state, fight = GAME.apply(state, {0: {"fight": False}, **GAME.forfeit(state, frozenset({1}))})
    assert fight.chairman == 1 and state.chairman == 0 and state.gone == {1}


def test_old_logs_fold_as_before_and_the_forfeit_mark_survives_the_log() -> None:
    state = numerology_done(3, chairman=2)
    # a timeout pass (no mark) changes nothing about who plays: logs before the mark fold as they did
    same, _ = GAME.apply(state, {2: step_from_json(step_to_json(GAME.timeout(state, frozenset({2}))))[2]})
    assert same.gone == frozenset() and same.chairman == 2
    stored = step_from_json(step_to_json(GAME.forfeit(state, frozenset({2}))))
    gone, _ = GAME.apply(state, stored)
    assert gone.gone == {2} and gone.chairman == 0


async def test_the_table_and_score_show_a_chairman_still_playing(world: World) -> None:
    await start_binomial(world, PLAYERS)
    await settled(world)
    current = await table(world)
    chairman = PLAYERS[current.state.chairman]
    left = await (await world.users[chairman].slash(world.general, "binomial leave")).wait()
    assert left.ephemeral, left.text()
    gone_name = world.users[chairman].user.display_name

    def rounds() -> list[str]:
        return [world.fake.visible_text(m) for m in bot_messages(world) if title(m).startswith("Binomial · round")]

    for _ in range(40):  # the numerology played by the timers
        if rounds():
            break
        await world.advance(31)
    text = await eventually(lambda: rounds() and rounds()[0], what="round 1's message")
    shown = next(line for line in text.splitlines() if line.startswith("Chairman: "))
    assert gone_name not in shown, text
    current = await table(world)
    assert PLAYERS[current.state.chairman] != chairman
    asker = next(p for p in PLAYERS if p != chairman)
    score = (await (await world.users[asker].slash(world.general, "score")).wait()).text()
    line = next(x for x in score.splitlines() if "Chairman: " in x)
    assert gone_name not in line and world.users[PLAYERS[current.state.chairman]].user.display_name in line, score
