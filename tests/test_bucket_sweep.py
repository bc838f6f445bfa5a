"""The bot's HTTP client drops idle rate-limit buckets without walking every bucket for every new one.

discord.py walks all its buckets each time it makes a new one, once it tracks 256 or more (see
bot/http_buckets.py); the bot installs an amortised walk. Counted in bucket inspections, never in time.
"""

from pathlib import Path

from bot.client import NumberBot
from bot.settings import Settings

NEW_BUCKETS = 3000


def bot(tmp_path: Path) -> NumberBot:
    return NumberBot(Settings(_env_file=None, database_path=tmp_path / "b.sqlite3"))  # type: ignore[call-arg]


async def test_thousands_of_new_buckets_cost_a_bounded_number_of_inspections_each(
        tmp_path: Path, inspections: list[int]) -> None:
    http = bot(tmp_path).http
    for n in range(NEW_BUCKETS):  # as many channels and DM channels getting their first request
        http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{n}")
    assert len(http._buckets) == NEW_BUCKETS  # none idle yet: all kept
    # discord.py alone looks at about 4.5 million buckets here (every one, for each of the last 2,745).
    assert inspections[0] <= 2 * NEW_BUCKETS


async def test_idle_buckets_are_still_dropped(tmp_path: Path, inspections: list[int]) -> None:
    http = bot(tmp_path).http
    for n in range(300):
        http.get_ratelimit(f"old:{n}")
    for bucket in http._buckets.values():
        bucket._last_request -= 301  # idle for longer than discord.py's 300 s, nothing in flight
    for n in range(600):
        http.get_ratelimit(f"new:{n}")
    assert not any(key.startswith("old:") for key in http._buckets)
    assert len(http._buckets) == 600
