"""Races around a restart and a reveal: the game service's cache never goes back to a turn that is over,
and a choice lands in the turn it was made for (or is refused), never silently in the next one."""

import asyncio
from typing import Any

import pytest

from bot.core.errors import TurnOver
from bot.core.service import GameService
from storage.sqlite import SQLiteStore
from tests.discord_world import World, eventually


class HeldLoad:
    """After :meth:`arm`, the restart sweep's read of its batch of games (``load_games``) is held once it has
    read the database, the way a slow read is overtaken: it is let go when the race it stands for has
    happened (``release_after`` committed). ``first``: the deadline waits until that read is held."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, release_after: str, *, first: bool = False) -> None:
        self.armed = self.holding = False
        self.release, self.held = asyncio.Event(), asyncio.Event()
        load_games, expire = SQLiteStore.load_games, GameService.expire
        committing = getattr(SQLiteStore, release_after)

        async def held_load(store: SQLiteStore, game_ids: Any) -> Any:
            records = await load_games(store, game_ids)
            if self.armed:
                self.armed, self.holding = False, True
                self.held.set()
                await self.release.wait()
            return records

        async def later_expire(service: GameService, game_id: int, phase: int) -> Any:
            await self.held.wait()
            return await expire(service, game_id, phase)

        async def then_release(store: SQLiteStore, *args: Any, **kwargs: Any) -> Any:
            result = await committing(store, *args, **kwargs)
            self.release.set()
            return result

        monkeypatch.setattr(SQLiteStore, "load_games", held_load)
        monkeypatch.setattr(SQLiteStore, release_after, then_release)
        if first:
            monkeypatch.setattr(GameService, "expire", later_expire)

    def arm(self) -> None:
        self.armed = True


async def test_a_deadline_passed_while_down_races_the_restart_sweep(world: World,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    await world.start_game(("ana", "ben"))
    assert (await world.dm("ana", "513")).startswith("Locked in 513")
    await world.stop_bot()
    world.clock.advance(300)
    held = HeldLoad(monkeypatch, release_after="resolve_phase", first=True)
    held.arm()  # the restart sweep's load is overtaken by the overdue deadline's reveal
    await world.start_bot()
    reveal = await eventually(lambda: world.reveals(), what="the overdue reveal")
    assert "Ben ⌛ missing" in world.fake.visible_text(reveal[0])
    await world.wait_status("turn 2 of 5")
    assert held.release.is_set()
    # The next turn takes choices and is revealed.
    assert (await world.dm("ana", "240")).startswith("Locked in 240 for round 1, turn 2")
    assert (await world.dm("ben", "513")).startswith("Locked in 513 for round 1, turn 2")
    reveals = await eventually(lambda: world.reveals()[1:], what="the second turn's reveal")
    text = world.fake.visible_text(reveals[0])
    assert "`240`" in text and "`513`" in text and "missing" not in text


async def test_two_first_choices_right_after_a_restart_are_both_revealed(world: World,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    await world.start_game(("ana", "ben"))
    await world.stop_bot()
    held = HeldLoad(monkeypatch, release_after="record_choice")
    held.arm()  # the restart sweep's load of the game is still on its way when the numbers arrive
    await world.start_bot()
    await eventually(lambda: held.holding, what="the sweep to load the game")
    ana, ben = world.users["ana"], world.users["ben"]
    await asyncio.gather(ana.send_dm("513"), ben.send_dm("240"))
    for user, number in ((ana, "513"), (ben, "240")):
        await eventually(lambda u=user, n=number: any(m.content.startswith(f"Locked in {n}")
                                                      for m in world.fake.dms(u)), what=f"{user.name}'s ack")
    reveal = await eventually(lambda: world.reveals(), what="the reveal of both numbers")
    text = world.fake.visible_text(reveal[0])
    assert "`513` 🔺 Ana" in text and "`240` 🔷 Ben" in text and "missing" not in text
    await world.wait_status("turn 2 of 5")
    await world.play_turn({"ana": "240", "ben": "513"})
    assert len(world.reveals()) == 2


async def test_a_modal_submitted_while_its_turn_is_revealed_is_refused(world: World) -> None:
    status = await world.start_game(("ana", "ben"))
    ben = world.users["ben"]
    opened = await (await ben.click(status, "Choose secretly")).wait()  # ben opens the modal in turn 1
    assert opened.response_type == 9
    await world.dm("ana", "513")
    store, games = world.bot.store, world.bot.service
    submitted = asyncio.Event()
    resolve_phase, act = store.resolve_phase, games.act

    revealing = asyncio.Event()

    async def slow_resolve(*args: Any, **kwargs: Any) -> Any:  # turn 1 is being revealed...
        revealing.set()
        await submitted.wait()  # ... when ben's turn-1 modal arrives
        return await resolve_phase(*args, **kwargs)

    async def noted_act(*args: Any, **kwargs: Any) -> Any:
        if args[1] == ben.id and kwargs.get("text") == "240":
            submitted.set()
        return await act(*args, **kwargs)

    store.resolve_phase = slow_resolve  # type: ignore[method-assign]
    games.act = noted_act  # type: ignore[method-assign]
    await ben.send_dm("123")  # the last number: turn 1 is revealed (and 123 acknowledged once it is)
    await asyncio.wait_for(revealing.wait(), 60)
    answer = await (await ben.submit_modal(opened, {"number": "240"})).wait()
    await eventually(lambda: any(m.content.startswith("Locked in 123") for m in world.fake.dms(ben)),
                     what="ben's acknowledgement")
    await eventually(lambda: world.reveals(), what="turn 1's reveal")
    assert answer.ephemeral
    text = answer.text()
    assert "That turn is over" in text and "round 1, turn 2" in text, text
    assert "turn 2 of 5" in text and "Choose secretly" in text  # the new turn's state, with its button
    record = await store.load_game(1)
    assert [(a.phase, a.payload["number"]) for a in record.actions if a.kind == "choose" and a.seat == 1] == \
        [(0, "123")]  # 240 was stored for no turn


async def test_a_dm_after_a_reveal_names_the_turn_it_counts_for(world: World) -> None:
    await world.start_game(("ana", "ben"))
    await world.play_turn({"ana": "513", "ben": "240"})
    answer = await world.dm("ana", "246")
    assert answer.startswith(f"Locked in 246 for round 1, turn 2 of the game in <#{world.general.id}>")


async def test_the_service_refuses_a_choice_for_a_turn_that_is_over(world: World) -> None:
    await world.start_game(("ana", "ben"))
    games = world.bot.service
    await games.act(1, world.users["ana"].id, text="513", phase=0)
    assert await games.expire(1, 0)
    with pytest.raises(TurnOver, match="That turn is over") as refused:
        await games.act(1, world.users["ben"].id, text="240", phase=0)
    assert refused.value.step == 1  # round 1, turn 2 is the turn open now
    record = await world.bot.store.load_game(1)
    assert [a.seat for a in record.actions if a.kind == "choose"] == [0]
