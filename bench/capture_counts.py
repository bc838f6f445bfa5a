"""The counts of a captured game (bench/capture.py), from the fake's journal and request log.

Channel: messages posted (an interaction's public answer included), edits, files uploaded and their bytes, the
longest message, the readable characters of each turn message (a channel message carrying the step's controls,
at its longest such version). Private: per player, DMs and private (ephemeral) answers, also split by what the
step asked (the prompt's kind: Binomial's rolls are "place"), and the forms (modals) opened. Clicks: per human,
presses, picks and form submissions, in all and per step acted (also by the step's kind), and the presses of a
step's only move button (a forced move that waited for a press). Secrets: a seat's secret (``secrets()`` of its
own view, e.g. a pending number) found in a channel message, an alt text or another player's private message.
REST: the requests counted against Discord's global rate limit, and the interaction callbacks and webhooks,
which are not.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from tests.fakediscord.state import MESSAGE_FLAG_EPHEMERAL

from .capture_render import readable_text, walk

Json = dict[str, Any]
INTERACTION_PATH = re.compile(r"^/(interactions|webhooks)/")


def spread(values: Sequence[int]) -> Json:
    if not values:
        return {"n": 0, "max": 0, "median": 0, "total": 0}
    return {"n": len(values), "max": max(values), "median": statistics.median(values), "total": sum(values)}


def secrets_in(version: Json, ctx: Json) -> list[tuple[str, str]]:
    """The seats' secrets at that moment (``ctx["secrets"]``: user id -> strings) found in what the message shows,
    its alt texts included: (owner, secret) pairs."""
    known = ctx.get("secrets") or {}
    if not known:
        return []
    alts = [str(c.get("description") or "") for c in walk(version.get("components") or [])]
    alts += [str(item.get("description") or "") for c in walk(version.get("components") or [])
             for item in c.get("items") or []]
    text = "\n".join([readable_text(version), *alts])
    return [(owner, secret) for owner, values in known.items() for secret in values if secret and secret in text]


def reminders(reminded: dict[tuple[Any, tuple[int, ...]], Json], players: dict[int, str]) -> Json:
    """What the reminder timer did, each time it ran: how many humans it found awaited, how many of them got a
    DM, how many a channel message told (an edit or a post: by name for all, a ping for those mentioned)."""
    awaited = sum(len(who) for _, who in reminded)
    by_dm = sum(len(set(who) & said["dm"]) for (_, who), said in reminded.items())
    pinged = sum(len(set(who) & said["mentioned"]) for (_, who), said in reminded.items())
    in_channel = sum(len(who) for (_, who), said in reminded.items() if said["channel"])
    missed = sorted({players.get(u, str(u)) for (_, who), said in reminded.items() for u in who
                     if u not in said["dm"] and not said["channel"]})
    return {"times": len(reminded), "awaited_humans": awaited, "by_dm": by_dm, "in_channel": in_channel,
            "pinged": pinged, "told_nothing": missed}


def tag(entry: Json) -> str:
    return f"journal entry {entry['seq']} ({entry['kind']} of message {entry.get('message')})"


def by_step_kind(counted: dict[tuple[str, str], Counter[int]], players: dict[int, str]) -> Json:
    """Private messages per player by the kind of step they came in: DMs, private answers, both."""
    out: Json = {}
    for kind in sorted({k for k, _ in counted}):
        dm, eph = counted.get((kind, "dm"), Counter()), counted.get((kind, "ephemeral"), Counter())
        out[kind] = {"dm": spread([dm[u] for u in players]), "ephemeral": spread([eph[u] for u in players]),
                     "all": spread([dm[u] + eph[u] for u in players])}
    return out


def count(played: Any) -> Json:
    """Every figure of one captured game (``played``: bench.capture_play.Played)."""
    world, journal = played.fake.world, played.fake.world.journal or []
    humans = {world_user.id: name for name, world_user in
              ((n, played.world.users[n].user) for n in played.humans)}
    players = {u: played.names.get(u, str(u)) for u in humans}
    step_ids = re.compile(rf"^play:{played.key}:{played.game_id}:\d+:")

    posts = edits = uploads = upload_bytes = private_uploads = 0
    dms: Counter[int] = Counter()
    dm_edits: Counter[int] = Counter()
    ephemeral: Counter[int] = Counter()
    private_by_kind: dict[tuple[str, str], Counter[int]] = defaultdict(Counter)  # (step kind, "dm"/"ephemeral")
    modals: Counter[int] = Counter()
    longest = longest_private = 0
    turn_chars: dict[int, int] = {}  # a turn message -> its longest version's readable characters
    turn_lines: dict[int, int] = {}  # ... and lines
    clicks: Counter[int] = Counter()
    per_step: dict[tuple[int, Any, str], int] = Counter()  # (user, step, the step's kind) -> clicks
    slash = forced = 0
    leaks: list[str] = []
    # Each time the reminder timer ran: (step, the humans it found awaited) -> what it said to whom.
    reminded: dict[tuple[Any, tuple[int, ...]], Json] = {}
    shown: dict[int, Json] = {}  # message -> its version on screen
    for entry in journal:
        kind, ctx = entry["kind"], entry.get("context") or {}
        if kind in ("post", "edit"):
            message = world.messages[entry["message"]]
            version = shown[message.id] = message.history[entry["version"]]
            channel = world.channels[message.channel_id]
            files = entry.get("uploads") or []
            chars = len(readable_text(version))
            private = bool(version.get("flags", 0) & MESSAGE_FLAG_EPHEMERAL) or channel.is_dm
            reader = (message.ephemeral_user_id if message.ephemeral else channel.recipient_id) if private else None
            if "reminder" in ctx.get("timers", ()):
                said = reminded.setdefault((ctx.get("step"), tuple(ctx.get("awaited") or ())),
                                           {"dm": set(), "channel": 0, "mentioned": set()})
                if private:
                    said["dm"].add(reader)
                else:
                    said["channel"] += 1
                    said["mentioned"] |= set(message.mention_ids)
            leaks += [f"{tag(entry)}: {secret!r} of {owner or 'an AI seat'} shown to "
                      f"{players.get(reader or 0, reader) if private else 'the channel'}"
                      for owner, secret in secrets_in(version, ctx) if not private or owner != str(reader)]
            if not private:
                posts += kind == "post"
                edits += kind == "edit"
                uploads += len(files)
                upload_bytes += sum(b for _, b in files)
                longest = max(longest, chars)
                if any(step_ids.match(str(c.get("custom_id", "")))
                                            for c in walk(version.get("components") or [])):
                    turn_chars[message.id] = max(turn_chars.get(message.id, 0), chars)
                    turn_lines[message.id] = max(turn_lines.get(message.id, 0), readable_text(version).count("\n") + 1)
                continue
            private_uploads += len(files)
            longest_private = max(longest_private, chars)
            who = message.ephemeral_user_id if message.ephemeral else channel.recipient_id
            if kind == "edit":
                dm_edits[who] += channel.is_dm
                continue
            (ephemeral if message.ephemeral else dms)[who] += 1
            private_by_kind[(str(ctx.get("kind")), "ephemeral" if message.ephemeral else "dm")][who] += 1
        elif kind == "timer" and "reminder" in ctx.get("timers", ()):
            reminded.setdefault((ctx.get("step"), tuple(ctx.get("awaited") or ())),
                                {"dm": set(), "channel": 0, "mentioned": set()})
        elif kind == "modal":
            modals[entry["user"]] += 1
        elif kind == "interaction" and entry["user"] in humans:
            if entry["type"] == 2:
                slash += 1
                continue
            clicks[entry["user"]] += 1
            offered = [c for c in walk((shown.get(entry.get("message") or 0) or {}).get("components") or [])
                       if step_ids.match(str(c.get("custom_id", ""))) and not c.get("disabled")]
            # one button, a move (not the "choose secretly" opener of a sealed step): a press it had to make
            forced += (len(offered) == 1 and offered[0].get("type") == 2
                       and not str(offered[0].get("custom_id")).endswith(":seal"))
            per_step[(entry["user"], ctx.get("step"), str(ctx.get("kind")))] += 1

    by_kind: dict[str, list[int]] = defaultdict(list)
    for (_, _, kind), n in per_step.items():
        by_kind[kind].append(n)
    requests = played.fake.requests[played.first_request:]
    limited = sum(not INTERACTION_PATH.match(r.path) for r in requests)
    # Rate-limited calls from each human action (a press, a pick, a form, a DM) to the next one (whatever the
    # bot did meanwhile: the AI's moves, the next turn message, reminders), the lobby left out.
    marks = [e["requests_before"] for e in journal if e["kind"] in ("interaction", "user_message")
             and e["user"] in humans and (e.get("context") or {}).get("kind") not in ("lobby", None)
             and e.get("type") != 2]
    bounds = [*marks, len(played.fake.requests)]
    between = [sum(not INTERACTION_PATH.match(r.path) for r in played.fake.requests[a:b])
               for a, b in itertools.pairwise(bounds)]
    return {
        "game": played.key, "seats": played.seats, "humans": len(played.humans), "seed": played.seed,
        "steps": played.record.phase, "status": played.record.status,
        "channel": {"posts": posts, "edits": edits, "uploads": uploads, "upload_bytes": upload_bytes,
                    "longest_chars": longest, "turn_messages": spread(sorted(turn_chars.values())),
                    "turn_message_lines": spread(sorted(turn_lines.values()))},
        "private": {
            "dms": {players.get(u, str(u)): n for u, n in sorted(dms.items())},
            "dms_per_player": spread([dms[u] for u in players]),
            "dm_edits": sum(dm_edits.values()),
            "ephemeral": {players.get(u, str(u)): n for u, n in sorted(ephemeral.items())},
            "ephemeral_total": sum(ephemeral.values()),
            "per_player_by_kind": by_step_kind(private_by_kind, players),
            "uploads": private_uploads, "longest_chars": longest_private,
        },
        "modals": {players.get(u, str(u)): n for u, n in sorted(modals.items())},
        "modals_total": sum(modals.values()),
        "clicks": {players[u]: clicks[u] for u in players},
        "clicks_per_step": {k: spread(v) for k, v in sorted(by_kind.items())},
        "presses_of_a_lone_button": forced,
        "slash_commands": slash,
        "reminders": reminders(reminded, players),
        "secrets_seen": leaks,
        "rest": {"rate_limited": limited, "interaction_answers": len(requests) - limited},
        "rest_per_human_action": spread(between),
    }


def table(counts: Json) -> str:
    """The counts as an aligned two-column table."""
    ch, pv, rest = counts["channel"], counts["private"], counts["rest"]
    turn = ch["turn_messages"]
    rows = [
        ("game", f"{counts['game']}, {counts['seats']} seats ({counts['humans']} human), seed {counts['seed']}, "
                 f"{counts['steps']} steps, {counts['status']}"),
        ("channel messages posted", ch["posts"]),
        ("channel edits", ch["edits"]),
        ("channel uploads", f"{ch['uploads']} ({ch['upload_bytes']:,} bytes)"),
        ("longest channel message", f"{ch['longest_chars']} chars"),
        ("turn messages", f"{turn['n']}: readable chars max {turn['max']}, median {turn['median']}; lines max "
                          f"{ch['turn_message_lines']['max']}, median {ch['turn_message_lines']['median']}"),
        ("DMs per player", f"max {pv['dms_per_player']['max']}, total {pv['dms_per_player']['total']} "
                           f"{pv['dms']}"),
        ("private answers (ephemeral)", f"{pv['ephemeral_total']} {pv['ephemeral']}"),
        ("modals opened", f"{counts['modals_total']} {counts['modals']}"),
        ("clicks per human", counts["clicks"]),
        ("presses of the step's only button", counts["presses_of_a_lone_button"]),
        ("secrets seen where they must not be", len(counts["secrets_seen"])),
        ("reminders", "{times} times, {awaited_humans} awaited humans: {by_dm} by DM, {in_channel} by a channel "
                      "message ({pinged} pinged)".format(**counts["reminders"])),
        ("REST rate-limited / interaction", f"{rest['rate_limited']} / {rest['interaction_answers']}"),
        ("rate-limited calls per human action", f"median {counts['rest_per_human_action']['median']}, max "
                                                 f"{counts['rest_per_human_action']['max']} (to the next action)"),
    ]
    for kind, s in counts["private"]["per_player_by_kind"].items():
        rows.append((f"private msgs per player, {kind} steps",
                     f"max {s['all']['max']} (private answers max {s['ephemeral']['max']}, DMs max "
                     f"{s['dm']['max']}), total {s['all']['total']}"))
    for kind, s in counts["clicks_per_step"].items():
        rows.append((f"clicks per human step, {kind}", f"{s['n']} steps: max {s['max']}, median {s['median']}"))
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name.ljust(width)}  {value}" for name, value in rows)
