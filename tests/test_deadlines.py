"""The pure planning of a daily table's reminders (bot/core/deadlines.py): properties over any step, zone and
moment, and the cases the issue names (half time, 2 h before, quiet hours moved into the allowed window)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.deadlines import (
    DAILY,
    HALF,
    LAST_NOTICE,
    NEAR,
    allowed,
    engine_options,
    next_summary,
    quiet,
    reminder_plan,
    step_seconds,
    summary_day,
    zone_named,
)

ZONES = ("UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Pacific/Auckland", "America/St_Johns")
START = 1_800_000_000.0  # 2027-01-15 08:00 UTC, the tests' fake clock
HOUR = 3600.0


def at(text: str, zone: str = "UTC") -> float:
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone)).timestamp()


def has_allowed_moment(low: float, high: float, zone: ZoneInfo) -> bool:
    """Whether some minute of [low, high] is outside the quiet hours (checked minute by minute)."""
    moment = low
    while moment <= high:
        if not quiet(moment, zone):
            return True
        moment += 60
    return not quiet(high, zone)


@settings(max_examples=300, deadline=None)
@given(opened=st.floats(START, START + 400 * 24 * HOUR), hours=st.integers(1, 72),
       into=st.floats(0, 1), zone_name=st.sampled_from(ZONES),
       sent=st.sets(st.sampled_from((HALF, NEAR))))
def test_a_plan_is_in_the_step_ordered_once_per_slot_and_outside_the_night_when_it_can_be(
        opened: float, hours: int, into: float, zone_name: str, sent: set[str]) -> None:
    zone = ZoneInfo(zone_name)
    deadline = opened + hours * HOUR
    now = opened + into * hours * HOUR
    plan = reminder_plan(opened, deadline, zone, now, frozenset(sent))
    assert [r.slot for r in plan] in ([], [HALF], [NEAR], [HALF, NEAR])
    assert not {r.slot for r in plan} & sent  # a slot sent is never planned again
    assert NEAR not in sent or plan == []
    assert all(now <= r.at <= deadline - LAST_NOTICE for r in plan)
    assert [r.at for r in plan] == sorted(r.at for r in plan)
    for reminder in plan:
        if quiet(reminder.at, zone):  # only when the whole window it could move in is night
            assert not has_allowed_moment(max(opened, now), deadline - LAST_NOTICE, zone)


@settings(max_examples=200, deadline=None)
@given(opened=st.floats(START, START + 400 * 24 * HOUR), hours=st.integers(1, 72), zone_name=st.sampled_from(ZONES))
def test_a_restart_replans_the_same_moments(opened: float, hours: int, zone_name: str) -> None:
    """Planned again later in the step (a restart) with the half-time reminder sent, the near one keeps its
    moment; planned again before anything is due, nothing moves."""
    zone = ZoneInfo(zone_name)
    deadline = opened + hours * HOUR
    first = reminder_plan(opened, deadline, zone, opened)
    if not first:
        return
    assert reminder_plan(opened, deadline, zone, first[0].at - 1) == first
    if first[0].slot == HALF:
        again = reminder_plan(opened, deadline, zone, first[0].at + 1, frozenset({HALF}))
        assert again == first[1:]


def test_a_day_long_step_reminds_at_half_time_and_two_hours_before() -> None:
    opened = at("2027-01-15T10:00")
    plan = reminder_plan(opened, opened + 24 * HOUR, ZoneInfo("UTC"), opened)
    assert [(r.slot, r.at) for r in plan] == [(HALF, at("2027-01-15T22:00")), (NEAR, at("2027-01-16T08:00"))]
    # opened an hour earlier, 2 h before the deadline is 07:00, quiet: 08:00 is nearer than 22:59
    plan = reminder_plan(opened - HOUR, opened + 23 * HOUR, ZoneInfo("UTC"), opened - HOUR)
    assert [(r.slot, r.at) for r in plan] == [(HALF, at("2027-01-15T21:00")), (NEAR, at("2027-01-16T08:00"))]


def test_a_reminder_due_at_night_moves_into_the_allowed_window() -> None:
    """Opened at 14:00 Paris for 24 h: half time 02:00 moves to 22:59 the evening before (nearer than 08:00);
    2 h before the deadline is 12:00, allowed."""
    opened = at("2027-01-15T14:00", "Europe/Paris")
    plan = reminder_plan(opened, opened + 24 * HOUR, ZoneInfo("Europe/Paris"), opened)
    assert [(r.slot, r.at) for r in plan] == [(HALF, at("2027-01-15T22:59", "Europe/Paris")),
                                              (NEAR, at("2027-01-16T12:00", "Europe/Paris"))]
    # the same step in New York (opened 08:00 there): half time 20:00 is allowed; 2 h before the deadline is 06:00,
    # quiet, and 08:00 is the deadline itself: 22:59 the evening before
    plan = reminder_plan(opened, opened + 24 * HOUR, ZoneInfo("America/New_York"), opened)
    assert [r.at for r in plan] == [at("2027-01-15T20:00", "America/New_York"),
                                    at("2027-01-15T22:59", "America/New_York")]


def test_a_near_reminder_at_night_comes_the_evening_before_or_the_morning_after() -> None:
    zone = ZoneInfo("UTC")
    # deadline 04:00: 2 h before is 02:00; 22:59 (3 h 1 min away) beats 08:00 (after the deadline anyway)
    opened = at("2027-01-14T04:00")
    assert reminder_plan(opened, at("2027-01-15T04:00"), zone, opened)[-1].at == at("2027-01-14T22:59")
    # deadline 09:30: 07:30 is quiet; 08:00 (30 min later) beats 22:59 the evening before
    opened = at("2027-01-14T09:30")
    assert reminder_plan(opened, at("2027-01-15T09:30"), zone, opened)[-1].at == at("2027-01-15T08:00")


def test_a_short_step_all_at_night_still_reminds_and_its_near_reminder_is_ten_percent_before() -> None:
    opened = at("2027-01-15T01:00")
    plan = reminder_plan(opened, opened + HOUR, ZoneInfo("UTC"), opened)
    assert [(r.slot, r.at) for r in plan] == [(HALF, opened + HOUR / 2), (NEAR, opened + HOUR - 360)]


def test_after_a_long_downtime_only_the_near_reminder_is_left_and_comes_now() -> None:
    opened = at("2027-01-15T10:00")
    now = at("2027-01-16T07:30")  # half time passed while the bot was down, half an hour before the near one
    plan = reminder_plan(opened, opened + 24 * HOUR, ZoneInfo("UTC"), now)
    assert [(r.slot, r.at) for r in plan] == [(NEAR, at("2027-01-16T08:00"))]
    now = at("2027-01-16T08:30")  # ...past the near moment too: due at once
    assert [(r.slot, r.at) for r in reminder_plan(opened, opened + 24 * HOUR, ZoneInfo("UTC"), now)] == [
        (NEAR, now)]
    assert reminder_plan(opened, opened + 24 * HOUR, ZoneInfo("UTC"), opened + 24 * HOUR) == []


def test_allowed_keeps_a_day_moment_and_prefers_the_earlier_on_a_tie() -> None:
    zone = ZoneInfo("UTC")
    assert allowed(at("2027-01-15T12:00"), 0, 1e12, zone) == at("2027-01-15T12:00")
    middle = (at("2027-01-15T22:59") + at("2027-01-16T08:00")) / 2
    assert allowed(middle, 0, 1e12, zone) == at("2027-01-15T22:59")


def test_zones_by_iana_name_and_unknown_names_refused() -> None:
    assert zone_named(" Europe/Paris ").key == "Europe/Paris"
    for wrong in ("Mars/Olympus", "", "Europe", "../etc/passwd", "/etc/localtime"):
        with pytest.raises(ValueError):
            zone_named(wrong)


def test_the_pace_sets_the_step_and_never_reaches_a_game() -> None:
    assert step_seconds({}, 120) == 120
    assert step_seconds({"pace": DAILY}, 120) == 24 * 3600
    assert step_seconds({"pace": DAILY, "step_hours": 3}, 120) == 3 * 3600
    assert engine_options({"pace": DAILY, "step_hours": 3, "dark": True}) == {"dark": True}


def test_the_daily_summary_goes_out_at_nine_utc_once_a_day() -> None:
    assert next_summary(at("2027-01-15T08:00")) == at("2027-01-15T09:00")
    assert next_summary(at("2027-01-15T09:00")) == at("2027-01-16T09:00")
    assert summary_day(at("2027-01-15T23:59")) == "2027-01-15"


async def test_every_game_opens_a_daily_table_and_refuses_a_bad_pace(tmp_path: object) -> None:
    """The pace is every game's (none lists it): the step lasts ``step_hours``, the game never sees the option, a
    wrong value changes nothing."""
    from pathlib import Path

    from bot.core.errors import BadOption
    from bot.core.service import GameService
    from bot.games import GAMES
    from storage.sqlite import SQLiteStore
    from tests.conftest import FakeClock

    clock = FakeClock()
    async with SQLiteStore(Path(str(tmp_path)) / "daily.db") as store:
        service = GameService(store, GAMES, clock)
        for channel, game in enumerate(GAMES, start=1):
            with pytest.raises(BadOption):
                await service.open_lobby(1, channel, 100, "Ana", {"pace": "weekly"}, kind=game.key)
            with pytest.raises(BadOption):
                await service.open_lobby(1, channel, 100, "Ana", {"pace": DAILY, "step_hours": 73}, kind=game.key)
            record = await service.open_lobby(1, channel, 100 + 10 * channel, "Ana", {"pace": DAILY, "step_hours": 5},
                                              kind=game.key)
            for seat in range(1, game.seats.start):
                await service.join(record.id, 100 + 10 * channel + seat, f"P{seat}")
            table = (await service.start(record.id, 100 + 10 * channel)).table
            assert table.running and table.record.options["pace"] == DAILY, game.key
            # the first human step (chance and AI steps are settled at once) ends 5 h after the start
            assert table.record.deadline == clock.now() + 5 * HOUR, game.key


async def test_an_open_step_game_goes_on_at_an_hour_a_step_for_a_player_away(tmp_path: object) -> None:
    """Numeri (one player a step): ben never plays a 24-hour daily table. His first missed deadline gets the rules'
    default; from the second the AI plays for him, and a step that waits only for him lasts an hour, so ana's
    table goes on."""
    from pathlib import Path

    from bot.core.service import GameService
    from bot.games import GAMES
    from storage.sqlite import SQLiteStore
    from tests.conftest import FakeClock

    clock = FakeClock()
    async with SQLiteStore(Path(str(tmp_path)) / "away.db") as store:
        service = GameService(store, GAMES, clock)
        record = await service.open_lobby(1, 1, 100, "Ana", {"pace": DAILY}, kind="numeri")
        await service.join(record.id, 101, "Ben")
        table = (await service.start(record.id, 100)).table
        ben_steps: list[float] = []
        for _ in range(40):
            if not table.running:
                break
            (seat,) = table.awaited()
            if table.seat(seat).user_id == 100:  # ana plays at once
                move = await service._ai_move(table, seat, "easy")
                table = (await service.act(table.id, 100, action=move)).table
                continue
            assert table.record.deadline is not None
            ben_steps.append(table.record.deadline - clock.now())
            clock.t = table.record.deadline
            await service.expire(table.id, table.step)
            table = await service.table(table.id)
        assert ben_steps[:2] == [24 * HOUR, 24 * HOUR]  # not away yet: the whole day
        assert len(ben_steps) > 2 and set(ben_steps[2:]) == {HOUR}  # away: an hour a step, then the AI


def test_a_reminder_due_at_night_comes_in_the_last_minute_before_it_when_that_is_all_the_step_allows() -> None:
    """Planned at 22:59:30 (a step opened, or a restart) for a step ending before 08:00: the only allowed moments
    left are the seconds before 23:00, and the reminders come then, not at night (found by hypothesis)."""
    zone = ZoneInfo("Pacific/Auckland")
    opened = at("2027-05-28T17:07:55", "Pacific/Auckland")
    now = at("2027-05-28T22:59:30", "Pacific/Auckland")
    plan = reminder_plan(opened, opened + 14 * HOUR, zone, now)
    assert plan and all(not quiet(r.at, zone) and now <= r.at < at("2027-05-28T23:00", "Pacific/Auckland")
                        for r in plan), plan
