"""A table's pace and the reminders of a daily table: pure scheduling, no Discord, no clock of its own.

A table is **live** (15 s to 1 h a step: ``turn_seconds``, today's behaviour) or **daily** (1 h to 72 h a step:
``step_hours``), chosen with the ``pace`` option of ``/<game> start``. Both options are the table's, not the
game's: every game gets them (:data:`TABLE_OPTIONS`, with ``thread``: a table in a thread of its own), and they
never reach a game's ``setup`` (:func:`engine_options`).

A daily table reminds each awaited player at most twice a step: at half time (``half``) and near the deadline
(``near``: 2 h before, or 10 % of the step when that is shorter). Neither falls in the server's quiet hours
(23:00 to 08:00 in its time zone) when the step leaves an allowed moment: a reminder due at night moves to the
nearest allowed moment inside the step (the evening before or the morning after, the earlier on a tie). Every
function takes ``now``, so a restart plans from where it is: a reminder whose moment passed while the bot was
down is due at once (or in the morning), and a half-time reminder the near one has caught up with is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .game import Option

LIVE, DAILY = "live", "daily"
PACE = Option("pace", LIVE, choices=(LIVE, DAILY))
STEP_HOURS = Option("step_hours", 24, min=1, max=72)  # a daily table's step; a live table uses turn_seconds
# A table played in a thread of its own (cogs/table/threads.py); not given: the server's /server threads setting.
THREAD = Option("thread", False)
TABLE_OPTIONS: tuple[Option, ...] = (PACE, STEP_HOURS, THREAD)
TABLE_OPTION_NAMES = frozenset(o.name for o in TABLE_OPTIONS)

HALF, NEAR = "half", "near"
SLOTS = (HALF, NEAR)
NEAR_BEFORE = 2 * 3600.0  # the near reminder: this long before the deadline...
NEAR_SHARE = 0.10  # ...or this share of the step, when that is shorter (a 1 h step: 6 min before)
LAST_NOTICE = 60.0  # a reminder later than this before the deadline would come too late to act on
QUIET_FROM, QUIET_UNTIL = 23, 8  # local hours: no reminder from 23:00 to 08:00 when the step allows
BEFORE_QUIET = 60.0  # a reminder moved before the night comes at 22:59
AWAY_STEP = 3600.0  # a daily step awaiting only players away (two deadlines missed in a row): 1 h, then the AI
UTC = "UTC"
SUMMARY_HOUR = 9  # UTC: the daily summary DM (/notify summary)


@dataclass(frozen=True, slots=True)
class Reminder:
    slot: str  # HALF or NEAR: stored once sent, so a restart never sends it again
    at: float  # epoch seconds


def is_daily(options: Mapping[str, Any]) -> bool:
    return options.get(PACE.name) == DAILY


def step_seconds(options: Mapping[str, Any], live_seconds: int) -> int:
    """How long a step lasts: ``step_hours`` on a daily table, else ``live_seconds`` (turn_seconds)."""
    if is_daily(options):
        return int(options.get(STEP_HOURS.name, STEP_HOURS.default)) * 3600
    return live_seconds


def engine_options(options: Mapping[str, Any]) -> Mapping[str, Any]:
    """The options a game's ``setup`` sees: the table's own (pace) are the front end's business."""
    if not TABLE_OPTION_NAMES & options.keys():
        return options
    return {k: v for k, v in options.items() if k not in TABLE_OPTION_NAMES}


def zone_named(name: str) -> ZoneInfo:
    """The IANA zone ``name`` ("Europe/Paris"); ValueError for a name the tz database does not know."""
    cleaned = name.strip()
    try:
        if not cleaned or cleaned.startswith(("/", ".")) or ".." in cleaned:
            raise ValueError(cleaned)
        return ZoneInfo(cleaned)
    except (ZoneInfoNotFoundError, ValueError, OSError) as error:  # OSError: a directory name ("Europe")
        raise ValueError(f"unknown time zone {name!r}") from error


def near_offset(length: float) -> float:
    return min(NEAR_BEFORE, NEAR_SHARE * length)


def quiet(moment: float, zone: ZoneInfo) -> bool:
    hour = datetime.fromtimestamp(moment, zone).hour
    return hour >= QUIET_FROM or hour < QUIET_UNTIL


def quiet_night(moment: float, zone: ZoneInfo) -> tuple[float, float]:
    """The night around a quiet ``moment``: (its 23:00, its 08:00) as epoch seconds."""
    local = datetime.fromtimestamp(moment, zone)
    evening = local.date() if local.hour >= QUIET_FROM else local.date() - timedelta(days=1)
    start = datetime(evening.year, evening.month, evening.day, QUIET_FROM, tzinfo=zone)
    morning = evening + timedelta(days=1)
    end = datetime(morning.year, morning.month, morning.day, QUIET_UNTIL, tzinfo=zone)
    return start.timestamp(), end.timestamp()


def allowed(ideal: float, low: float, high: float, zone: ZoneInfo) -> float:
    """``ideal`` itself when it is outside the quiet hours; else the nearest allowed moment in [low, high] (22:59
    the evening before, 08:00 the morning after; the earlier on a tie); ``ideal`` when neither fits: the step
    leaves no allowed moment, and a reminder at night beats none."""
    if not quiet(ideal, zone):
        return ideal
    start, end = quiet_night(ideal, zone)
    # 22:59, or ``low`` itself when the step opens (or a restart plans) in that last minute before the night
    before = max(start - BEFORE_QUIET, low)
    options = [m for m in (before, end) if low <= m <= high and not quiet(m, zone)]
    return min(options, key=lambda m: (abs(m - ideal), m)) if options else ideal


def reminder_plan(opened_at: float, deadline: float, zone: ZoneInfo, now: float,
                  sent: frozenset[str] = frozenset()) -> list[Reminder]:
    """The reminders of a daily step still to send, in time order (none already ``sent``)."""
    length = deadline - opened_at
    if length <= 0 or now >= deadline - LAST_NOTICE:
        return []
    low = max(opened_at, now)
    high = deadline - LAST_NOTICE
    near = allowed(max(deadline - near_offset(length), low), low, high, zone)
    plan: list[Reminder] = []
    if HALF not in sent and NEAR not in sent:
        half = allowed(max(opened_at + length / 2, low), low, near, zone)
        # caught up by the near one (a restart late in the step, a night pushing both to one morning): one is enough
        if half < near - near_offset(length) / 2:
            plan.append(Reminder(HALF, half))
    if NEAR not in sent:
        plan.append(Reminder(NEAR, near))
    return plan


def next_reminder(opened_at: float, deadline: float, zone: ZoneInfo, now: float,
                  sent: frozenset[str] = frozenset()) -> Reminder | None:
    plan = reminder_plan(opened_at, deadline, zone, now, sent)
    return plan[0] if plan else None


def next_summary(now: float) -> float:
    """When the next daily summary goes out: the next :data:`SUMMARY_HOUR` o'clock UTC after ``now`` (a player's
    tables may be in servers of several zones: one fixed hour for everyone, the morning in Europe and Africa)."""
    day = datetime.fromtimestamp(now, ZoneInfo(UTC)).replace(hour=SUMMARY_HOUR, minute=0, second=0, microsecond=0)
    moment = day.timestamp()
    return moment if moment > now else moment + 24 * 3600


def summary_day(now: float) -> str:
    """The UTC date a summary sent at ``now`` is the summary of (one a day per player)."""
    return datetime.fromtimestamp(now, ZoneInfo(UTC)).date().isoformat()


def discord_time(moment: float, style: str = "f") -> str:
    """A Discord timestamp: each reader sees it in their own time zone and language (``R``: "in 3 hours")."""
    return f"<t:{int(moment)}:{style}>"
