"""The CPU-per-choice benchmark's own machinery (bench/choice_cost.py), at its smallest: ``python -m bot``, the
bare floor and the floor answering in the product's shape, each a process against its own fake; a few modal
and DM choices and one whole turn on each. Nothing here is timed: every answer must be right, each window must
have read its bot process's CPU, and no process may log a traceback."""

from pathlib import Path

from bench import choice_cost


async def test_the_choice_cost_bench_gets_every_answer_from_each_process(tmp_path: Path) -> None:
    async with choice_cost.sides(tmp_path, 2, whole=1) as made:
        assert set(made) == {"product", "floor", "floor_shaped"}
        offset = 0
        for side in choice_cost.SIDES:
            for path in ("modal", "dm"):
                window = await choice_cost.closed_loop(made[side], path, 4, offset, window=2)
                offset += 4
                assert window.bad == 0 and len(window.latencies) == 4, (side, path, made[side].wrong)
                assert set(window.cpu) == {made[side].bots[0].name, "bench"}
        for side in (*choice_cost.SIDES, choice_cost.SHAPED):
            window = await choice_cost.whole_turns(made[side], made[side].whole, 1)
            assert window.bad == 0 and len(window.latencies) == 5, (side, made[side].wrong)
        tracebacks = {side: [bot.log().count("Traceback") for bot in s.bots] for side, s in made.items()}
    assert tracebacks == {"product": [0], "floor": [0], "floor_shaped": [0]}
