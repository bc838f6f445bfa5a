"""The shard-process benchmark's own machinery (bench/shards.py), at its smallest: two ``python -m bot``
processes (shards 0 and 1 of 2) on one new PostgreSQL database, a few modal and DM choices through the
event-driven driver, and one whole turn per table counted from the fake's request log. Nothing here is
timed: the driver must get every answer right, and a DM turn of a shard-1 game (which shard 0's process
applies) must cost the same writes as one of a shard-0 game (its turn message closed all the same), and at most
one read more."""

from pathlib import Path

import pytest

from bench import shards
from tests.backends import server_url, unavailable


def writes(calls: dict[str, int]) -> dict[str, int]:
    """The rate-limited writes of a turn's calls (reads and interaction answers apart)."""
    return {k: v for k, v in calls.items()
            if not k.startswith("GET") and "/interactions/" not in k and "/webhooks/" not in k}


async def test_the_shard_bench_driver_gets_every_answer_and_counts_whole_turns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shards, "SERVER", server_url())  # the tests' server (TEST_POSTGRES_URL), not the bench's
    problem = await shards._problem()
    if problem:
        unavailable(problem)
    async with shards.setups(tmp_path, 2, ["pg_two"]) as made:
        setup = made["pg_two"]
        assert [t.shard for t in setup.tables] == [0, 1]
        offset = 0
        for path in ("modal", "dm"):
            window = await shards.closed_loop(setup, path, 8, offset, window=4)
            offset += 8
            assert window.bad == 0 and len(window.latencies) == 8, (path, window)
            assert set(window.cpu) == {"shard0", "shard1", "bench"}
        turns = await shards.rest_turns(setup, 1)
        tracebacks = [bot.log().count("Traceback") for bot in setup.bots]
    assert tracebacks == [0, 0]
    assert sorted((t["shard"], t["path"]) for t in turns) == [(s, p) for s in (0, 1) for p in ("dm", "mixed", "modal")]
    by = {(t["shard"], t["path"]): t for t in turns}
    for (_, path), turn in by.items():
        assert turn["other"] > 0, turn  # at least the reveal and the next turn's status
        assert (turn["interaction"] > 0) == (path != "dm"), turn  # a DM turn answers no interaction
    for path in ("dm", "mixed"):  # the shard split costs no extra write, and at most the one read with which
        # shard 0's process reads the turn message shard 1 posted (to close it when a DM ends the turn there).
        # Interaction answers apart: how many a modal choice makes depends on when it comes (a burst is
        # answered by private lines and one refresh, tests/test_turn_message_bursts.py).
        split, alone = by[(1, path)]["calls"], by[(0, path)]["calls"]
        assert writes(split) == writes(alone), by
        assert sum(v for k, v in split.items() if k.startswith("GET")) <= 1 + sum(
            v for k, v in alone.items() if k.startswith("GET")), by
