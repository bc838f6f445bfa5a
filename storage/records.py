"""Game records from the rows either backend reads: the same columns, assembled the same way.

``sqlite3.Row`` and ``asyncpg.Record`` both read by column name and unpack by position, so one assembly
serves both; each backend keeps only its own queries.
"""

import json
from collections.abc import Iterable, Sequence
from typing import Any

from .base import ActionRecord, GameRecord, SeatRecord

Row = Any  # a sqlite3.Row or an asyncpg.Record


def game_records(rows: Sequence[Row], seat_rows: Iterable[Row] = (),
                 action_rows: Sequence[Row] = ()) -> list[GameRecord]:
    """The games of ``rows`` (``SELECT *`` of games) with their seats (``game_id, seat, user_id, name,
    ai_level, state``) and actions (``game_id, seq, phase, kind, seat, payload, at``), each read in the
    order of game then seat / seq; without seat and action rows, the games' own rows only."""
    seats: dict[int, list[SeatRecord]] = {int(r["id"]): [] for r in rows}
    actions: dict[int, list[ActionRecord]] = {i: [] for i in seats}
    for game_id, seat, user_id, name, ai_level, state in seat_rows:
        seats[int(game_id)].append(SeatRecord(int(seat), user_id, name, ai_level, state))
    # Named columns read by position, and every payload decoded by one json.loads of a single array:
    # loading 10,000 games (300,000 actions) at a restart is dominated by per-row Python overhead.
    payloads = json.loads("[" + ",".join([r[5] for r in action_rows]) + "]") if action_rows else []
    for (game_id, seq, phase, kind, seat, _, at), payload in zip(action_rows, payloads, strict=True):
        actions[int(game_id)].append(ActionRecord(int(seq), int(phase), kind, seat, payload, at))
    # a database not yet migrated has no thread column (keys(): "in" on a sqlite3.Row looks at its values)
    threads = bool(rows) and "thread_id" in rows[0].keys()  # noqa: SIM118
    return [_record(r, tuple(seats[int(r["id"])]), tuple(actions[int(r["id"])]), threads) for r in rows]


def _record(r: Row, seats: tuple[SeatRecord, ...], actions: tuple[ActionRecord, ...], threads: bool) -> GameRecord:
    return GameRecord(
        id=int(r["id"]), kind=r["kind"], guild_id=r["guild_id"], channel_id=int(r["channel_id"]),
        host_id=int(r["host_id"]), status=r["status"], options=json.loads(r["options"]), phase=int(r["phase"]),
        deadline=r["deadline"], lobby_message_id=r["lobby_message_id"], status_message_id=r["status_message_id"],
        announced_phase=int(r["announced_phase"]), end_reason=r["end_reason"], created_at=r["created_at"],
        updated_at=r["updated_at"], seats=seats, actions=actions,
        thread_id=r["thread_id"] if threads else None,
    )
