"""Binomial survives kill -9: a real bot process is SIGKILLed at 14 moments of a three-player game played by
DMs, and started again each time. Moments: while a step waits for its players, right after a placement or
a declaration was acknowledged, while an acknowledgement waits for a retry (the draft already stored),
while the edit that shows a new roll waits for a retry (the roll already stored), while the reveal of a
round waits for a retry, and a few requests into an action. After the game: every acknowledged placement
and declaration is in the stored game, no roll was drawn twice (each acknowledgement and each status line
shows the stored digit), the numerology had one message, each round's reveal was posted once, and the
final scores are those of an independent reading of RULES.md over the game as it was played."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

from bot.core.table import Table, fold, stored_steps
from bot.games.binomial.game import GAME
from bot.games.binomial.rules import CELLS, show
from tests.binomial_discord import shows_reveal
from tests.fakediscord import FakeDiscord, Message, title_of
from tests.process_world import BotDown, ProcessTable, all_versions
from tests.test_binomial_replay_diff import plain_replay

PLAYERS = ("ana", "ben", "cy")
KILLS = 14
MODES = ("after-ack", "roll-held", "waiting", "ack-held", "reveal-held", "requests")
PLAN = {seat: random.Random(seat).sample(list(CELLS), len(CELLS)) for seat in range(len(PLAYERS))}
ROLL_LINE = re.compile(r"Roll (\d+) of 16: (\d) ")


def title(message: Any) -> str:
    return title_of(message)


def finals(t: ProcessTable) -> list[Message]:
    return [m for m in t.bot_messages() if title(m) == "Binomial · game over"]


def declaration(table: Table, seat: int) -> str | None:
    """What ``seat`` declares this round (None: pass); fixed by the round, the seat and its sheet."""
    legal = GAME.legal(table.state, seat)
    rnd = table.state.round
    if (rnd + seat) % 3 == 0 or len(legal) < 2:
        return None
    return str(legal[1 + rnd % (len(legal) - 1)]["number"])


async def open_game(t: ProcessTable) -> None:
    opened = await t.answered(await t.users["ana"].slash(t.general, "binomial start", turn_seconds=3600))
    assert opened.message is not None, opened.text()
    for name in PLAYERS[1:]:
        joined = await t.answered(await t.users[name].click(t.fake.world.messages[opened.message.id], "Join"))
        assert joined.response_type == 7, joined.text()
    started = await t.answered(await t.users["ana"].click(t.fake.world.messages[opened.message.id], "Start"))
    assert started.response_type == 7, started.text()


class Players:
    def __init__(self, t: ProcessTable) -> None:
        self.t = t
        self.rng = random.Random(14)
        self.actions = 0
        self.placed: dict[tuple[int, int], tuple[str, int]] = {}  # (roll, seat) -> (cell, digit) acknowledged
        self.declared: dict[tuple[int, int], str | None] = {}  # (round, seat) -> number or None, acknowledged

    def mode_for(self, table: Table, seat: int) -> str | None:
        """The kill of this action, if it is one: every third action (and
        at each chance of a rarer moment), the least used moment that applies."""
        self.actions += 1
        state = table.state
        applies = {"roll-held": state.kind == "place" and table.awaited() == {seat},
                   "reveal-held": state.kind == "declare" and len(state.declared) == state.seats - 1}
        rare = [m for m, ok in applies.items() if ok and self.t.moments.count(m) < 2]  # the rarer moments first
        budget = KILLS // 2 if state.kind == "place" else KILLS  # half of the kills for the colloquium
        if self.t.kills >= budget or (self.actions % 3 and not rare):
            return None
        usable = rare or [m for m in MODES if applies.get(m, True)]
        return min(usable, key=lambda m: (self.t.moments.count(m), MODES.index(m)))

    async def act(self, table: Table, seat: int) -> None:
        t, name = self.t, PLAYERS[seat]
        user = t.users[name]
        kind = table.state.kind
        if kind == "place":
            roll = len(table.state.rolls)
            cell, digit = PLAN[seat][roll - 1], table.state.pending
            text, wanted = cell, re.compile(rf"({digit} goes in {cell}\.|Changed: {digit} now goes in {cell}\.)")
        else:
            number = declaration(table, seat)
            text = "pass" if number is None else number
            wanted = re.compile("You pass" if number is None else rf"You fight with `{number}`")
        mode = self.mode_for(table, seat)
        if mode == "waiting":
            await t.kill()
            t.moments.append(mode)
            return
        channel = rf"^/channels/{t.general.id}/messages/\d+$"
        if mode == "roll-held":  # this placement completes the roll: the next roll's edit fails once
            t.fake.fail_next("PATCH", channel, 500)
        if mode == "reveal-held":  # this declaration ends the round: the reveal's edit fails once
            t.fake.fail_next("PATCH", channel, 500)
        dm = t.fake.dm_channel(user)
        if mode == "ack-held":  # the draft is stored; its acknowledgement fails once and waits
            t.fake.fail_next("POST", rf"^/channels/{dm.id}/messages$", 500)
        before, mark = len(t.fake.dms(user)), len(t.fake.requests)
        await user.send_dm(text)
        try:
            if mode in ("roll-held", "reveal-held"):
                await t.until(lambda: t.failed("PATCH", channel), "the held edit", while_alive=True)
            elif mode == "ack-held":
                await t.until(lambda: t.failed("POST", rf"^/channels/{dm.id}/messages$"), "the held ack",
                              while_alive=True)
            elif mode == "requests":  # a few requests in, or at the acknowledgement if that comes first
                count = self.rng.randint(1, 3)
                await t.until(lambda: len(t.fake.requests) >= mark + count or any(
                    wanted.search(m.content) for m in t.fake.dms(user)[before:]), "requests", while_alive=True)
            if mode in (None, "after-ack", "roll-held", "reveal-held"):
                answer = await t.until(lambda: [m for m in t.fake.dms(user)[before:] if wanted.search(m.content)],
                                       f"{name}'s acknowledgement", while_alive=True)
                assert len(t.fake.dms(user)) == before + 1, [m.content for m in t.fake.dms(user)[before:]]
                assert answer
                if kind == "place":
                    self.placed[(roll, seat)] = (cell, digit)  # type: ignore[assignment]
                else:
                    self.declared[(table.state.round, seat)] = number
        except BotDown:
            return
        if mode is not None:
            await t.kill()
            t.moments.append(mode)


async def test_fourteen_kills_lose_no_acknowledged_choice(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    t = ProcessTable(fake_discord, tmp_path, PLAYERS)
    players = Players(t)
    try:
        await t.start()
        await open_game(t)
        while True:
            record = await t.record()
            if record.status == "finished":
                await t.until(lambda: finals(t), "the final message", while_alive=True)
                break
            table = Table.load(GAME, record)
            prompt = table.prompt
            if prompt is None or prompt.chance or t.with_inputs_for(record.phase) is None:
                await asyncio.sleep(0.02)  # the step is being drawn or shown: look again
                continue
            # An acknowledged placement is never asked again: the stored draft must carry it.
            for (roll, seat) in players.placed:
                if table.state.kind == "place" and roll == len(table.state.rolls):
                    assert seat in table.drafts, f"roll {roll}: seat {seat}'s acknowledged placement was lost"
            todo = sorted(s for s in table.awaited()
                          if not (table.state.kind == "place" and (len(table.state.rolls), s) in players.placed))
            if not todo:
                await asyncio.sleep(0.02)
                continue
            await players.act(table, todo[0])
            if not t.alive:
                await t.start()
        assert t.kills == KILLS, f"the game ended after {t.kills} kills: {t.moments}, {players.actions} actions"
        assert all(t.moments.count(m) >= 2 for m in MODES), str({m: t.moments.count(m) for m in MODES})
        record = await t.record()
    finally:
        await t.close()

    phases = [a.phase for a in record.actions if a.kind == "resolve"]
    steps = stored_steps(record)
    assert phases == list(range(len(steps))), "a step was stored twice or skipped"
    assert all(s["reason"] in ("chance", "all-chosen", "moved") for s in steps), {s["reason"] for s in steps}
    state, _ = fold(GAME, record)
    rolls = list(state.rolls)
    assert len(rolls) == 16
    # Every acknowledged placement is on the sheet, with the digit its acknowledgement named: the stored roll.
    for (roll, seat), (cell, digit) in players.placed.items():
        assert rolls[roll - 1] == digit, (roll, digit, rolls)
        assert state.sheets[seat].cells[CELLS.index(cell)] == digit
    # Every acknowledged declaration is the one revealed.
    fights = {f.round: f for f in state.history}
    for (rnd, seat), number in players.declared.items():
        fight = fights[rnd]
        assert (seat in fight.passed) if number is None else ((seat, int(number)) in fight.fighters), (rnd, seat)
    # One numerology message, every version of which shows the stored rolls; each reveal posted once.
    numerology = [m for m in t.bot_messages() if title(m).startswith("Binomial · numerology")]
    assert len(numerology) == 1
    for version in all_versions(numerology[0]):
        for roll, digit in ROLL_LINE.findall(t.fake.visible_text(version)):
            assert rolls[int(roll) - 1] == int(digit), (roll, digit, rolls)
    texts = [t.fake.visible_text(m) for m in t.bot_messages()]
    # every version of every message, to read when this test fails
    (tmp_path / "channel.txt").write_text("\n=====\n".join(
        "\n--\n".join(t.fake.visible_text(v) for v in all_versions(m)) for m in t.bot_messages()))
    rounds = len(state.history)
    for rnd in range(1, rounds + 1):
        assert sum(shows_reveal(text, rnd) for text in texts) == 1, rnd
    assert len(texts) == 1 + 1 + rounds + 1  # the lobby, the numerology, one message per round, the final
    # The final scores are an independent reading's of the game as it was played.
    start, _ = fold(GAME, record, upto=0)
    names = [p.capitalize() for p in PLAYERS]
    script = {"players": names, "chairman": names[start.chairman], "rolls": rolls,
              "placements": {names[s]: PLAN[s] for s in range(len(PLAYERS))},
              "deck": [f.card for f in state.history], "options": {},
              "rounds": [{names[s]: show(n) for s, n in f.fighters} for f in state.history]}
    expected = plain_replay(script)["scores"]
    assert [expected[n] for n in names] == list(state.totals)
    (final,) = finals(t)
    text = t.fake.visible_text(final)
    for name in names:
        assert f"{name}: {expected[name]} points" in text, text
    log = t.log_text()
    assert "Traceback" not in log, log[-3000:]
