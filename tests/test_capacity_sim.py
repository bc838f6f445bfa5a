"""The capacity simulation (bench/capacity.py) plays its tables through the rate-limited fake, the bot in a
``python -m bot`` process of its own (bench/capacity_child.py): every measured turn is found, no answer is
wrong or late, no table stalls, and the child reports its token waits, CPU time and loop lag. Correctness
only: whether N keeps up is a timing, the bench's business, never asserted here."""

import math
from pathlib import Path

import pytest

from bench.capacity import CompressedClock, Simulation


@pytest.mark.parametrize("path", ["modal", "dm"])
async def test_two_tables_play_their_measured_turns_against_a_bot_process(path: str, tmp_path: Path) -> None:
    # K = 6: 5 s turns, 50 requests per 1/6 s; two tables never come near the limit.
    result = await Simulation(path, 2, 6.0, 2, tmp_path).measure()
    assert result.error == "" and result.stalled == 0 and result.wrong_answers == 0
    assert result.missed_answers == 0 and result.missed_choices == 0
    assert result.turns_measured == 2  # one measured turn per table after the warm-up
    assert result.answers_measured == (20 if path == "modal" else 0)  # a click and a modal per choice
    # the child's instruments came back: its REST calls' token waits, its CPU share and its loop's lag
    assert not math.isnan(result.token_p95) and not math.isnan(result.call_wait_p95)
    assert result.cpu_share > 0 and not math.isnan(result.loop_lag_p99)


def test_compressed_clock_maps_bot_time_back_to_the_wall() -> None:
    clock = CompressedClock(4.0)
    now = clock.now()
    # 8 s of the bot's time from now is 2 s of the wall's
    assert abs(clock.real(now + 8.0) - clock.real(now) - 2.0) < 1e-9
