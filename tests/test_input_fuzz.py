"""Bad input, fuzzed through the real DM and modal paths: a clear refusal or the normalised number, and the
stored state changes only on a valid choice."""

import re
import unicodedata
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import FakeClock
from tests.discord_world import World, make_world
from tests.fakediscord import FakeDiscord

CROSSED = {1, 3, 7}  # ana's board after the first turn
NASTY = [
    "", " ", "５１３", "５２４", "٥٢٤", "४५६", "5\u200b24", "\u200b524", "5 24", " 524 ", "+24", "-24", "2e4", "0x2",
    "0b1", "524.", "5,24", "five", "@everyone", "<@&123>", "**524**", "`524`", "||524||", "524\n", "\t024\t",
    "9" * 2000, "💯", "\u0000", "ⅰⅱⅲ", "²⁴⁵", "⑤②④", "0⁰0", "𝟓𝟐𝟒",
]
inputs = st.one_of(st.sampled_from(NASTY), st.text(max_size=12), st.from_regex(r"\A[0-9]{3}\Z"),
                   st.from_regex(r"\A\s*[0-9０-９]{2,4}\s*\Z"))


def expected(text: str) -> str | None:
    """The rules, written again: NFKC, trim, three ASCII digits, none of them crossed off."""
    normal = unicodedata.normalize("NFKC", text).strip()
    if not re.fullmatch(r"[0-9]{3}", normal, flags=re.ASCII):
        return None
    return None if {int(c) for c in normal} & CROSSED else normal


@pytest.fixture
async def world(fake_discord: FakeDiscord, db_path: Path, clock: FakeClock) -> AsyncIterator[World]:
    w = await make_world(fake_discord, db_path, clock)
    await w.start_game(("ana", "ben", "cy"))
    await w.play_turn({"ana": "713", "ben": "222", "cy": "999"})
    await w.wait_status("turn 2 of 5")
    yield w
    await w.stop_bot()


async def stored_choices(world: World) -> list[str]:
    record = await world.bot.store.load_game(1)
    return [a.payload["number"] for a in record.actions if a.kind == "choose" and a.seat == 0 and a.phase == 1]


def check_answer(answer: str, text: str, want: str | None) -> None:
    if want is None:
        assert answer.startswith(("That is not a number you can play", "You can't play")), (text, answer)
        assert "available" in answer.lower()
    else:
        assert re.match(rf"(Locked in|Changed to) {want} for round \d, turn \d of the game", answer), (text, answer)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=inputs)
async def test_dm_input(world: World, text: str) -> None:
    if not text.strip() or "\x00" in text:
        text = text + "x"  # Discord has no empty messages
    before = await stored_choices(world)
    answer = await world.dm("ana", text)
    want = expected(text)
    check_answer(answer, text, want)
    after = await stored_choices(world)
    assert after == ([*before, want] if want else before)
    table = await world.bot.service.table(1)
    assert table.record.phase == 1  # nothing was revealed by a refused number


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.sampled_from([t for t in NASTY if len(t) == 3]), st.text(min_size=3, max_size=3)))
async def test_modal_input(world: World, text: str) -> None:
    before = await stored_choices(world)
    answer = await world.answer(await world.modal("ana", text))  # private, whatever it says
    want = expected(text)
    check_answer(answer, text, want)
    assert await stored_choices(world) == ([*before, want] if want else before)
