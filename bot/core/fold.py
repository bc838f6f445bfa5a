"""The one fold of a game's log, its replay/export envelope, and a pure playout to the end.

Pure like ``bot.core.game`` (no discord, asyncio or sqlite). A step is stored as JSON: each acting seat's
action under its seat number as a string, chance under ``"chance"``::

    {"0": {"number": "513"}, "2": {"number": "087"}}        {"chance": {"die": 4}}

Folding the same steps from the same seats, options and seed always gives the same state: the service,
restart catch-up, stats, replay and export all fold through :func:`fold`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any

from .deadlines import engine_options
from .game import Action, Game, Prompt, RuleError, Seat, Step

FORMAT = 1  # the envelope's format number; a new one is a new contract
CHANCE = "chance"  # a stored step's key for chance
# json.dumps writes a None key as "null": read it as chance too, so a step dumped as it is stays readable
_CHANCE_KEYS = (CHANCE, "null", None)

# One seat's player: its view and its legal actions (None: too many to list) -> an action.
SeatPolicy = Callable[[Any, Sequence[Action] | None, Random], Action]


class EnvelopeError(ValueError):
    """An envelope (or stored step) that cannot be folded; the one-line message says where and why."""


# Steps as stored ---------------------------------------------------------------------------------------
def step_from_json(stored: Mapping[Any, Any]) -> Step:
    """A stored step (seat keys as strings, chance as ``"chance"``) as the protocol's ``Step``."""
    if not isinstance(stored, Mapping):
        raise EnvelopeError(f"a step must be an object of actions, not {type(stored).__name__}")
    step: dict[Seat | None, Action] = {}
    for key, action in stored.items():
        seat = _seat_of(key)
        if seat in step:
            raise EnvelopeError(f"{CHANCE if seat is None else f'seat {seat}'} acts twice in one step")
        if not isinstance(action, Mapping):
            raise EnvelopeError(f"the action of {key!r} must be an object, not {type(action).__name__}")
        step[seat] = action
    return step


def _seat_of(key: Any) -> Seat | None:
    if key in _CHANCE_KEYS:
        return None
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if isinstance(key, str) and key.isascii() and key.isdigit():
        return int(key)
    raise EnvelopeError(f"a step's key must be a seat number or {CHANCE!r}, not {key!r}")


def step_to_json(step: Step) -> dict[str, Action]:
    """A protocol ``Step`` as it is stored (seats in order, chance first)."""
    ordered = sorted(step.items(), key=lambda item: -1 if item[0] is None else item[0])
    return {CHANCE if seat is None else str(seat): dict(action) for seat, action in ordered}


def step_rng(seed: int, step: int, seat: Seat | None = None) -> Random:
    """The generator of step number ``step`` (0-based): chance's draw (seat None) or an AI seat's choice."""
    who = CHANCE if seat is None else f"seat{seat}"
    return Random(f"step:{seed}:{step}:{who}")


# The fold ------------------------------------------------------------------------------------------------
def fold(game: Game[Any, Any, Any], seats: int, options: Mapping[str, Any], seed: int,
         steps: Sequence[Mapping[Any, Any]], upto: int | None = None) -> tuple[Any, list[Any]]:
    """The state after the first ``upto`` stored steps (all of them if None), and each step's event."""
    state = game.setup(seats, engine_options(options), seed)  # the pace is the table's, not the game's
    events: list[Any] = []
    for stored in steps[:upto]:
        state, event = game.apply(state, step_from_json(stored))
        events.append(event)
    return state, events


# The envelope: replay and export ------------------------------------------------------------------------
def envelope(game_key: str, seats: Sequence[str], options: Mapping[str, Any], seed: int,
             steps: Sequence[Mapping[Any, Any]]) -> dict[str, Any]:
    """A game's log as one JSON-able object; ``seats`` names the seats in order (their count matters)."""
    return {"game": game_key, "format": FORMAT, "seats": list(seats), "options": dict(engine_options(options)),
            "seed": seed,
            "steps": [step_to_json(step_from_json(s)) for s in steps]}


def check_options(game: Game[Any, Any, Any], options: Mapping[str, Any], seats: int | None = None
                  ) -> dict[str, Any]:
    """``options`` complete with defaults, checked against ``game.options``; EnvelopeError if wrong."""
    known = {o.name: o for o in game.options}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise EnvelopeError(f"options: {game.key} has no option {unknown[0]!r}")
    checked: dict[str, Any] = {}
    for name, option in known.items():
        value = options.get(name, option.default)
        if type(value) is not type(option.default):
            raise EnvelopeError(f"options: {name} must be {type(option.default).__name__}, not {value!r}")
        if isinstance(value, int) and not isinstance(value, bool) and not (
                (option.min is None or value >= option.min) and (option.max is None or value <= option.max)):
            raise EnvelopeError(f"options: {name} must be {option.min}-{option.max}, not {value}")
        if option.choices and value not in option.choices:
            raise EnvelopeError(f"options: {name} must be one of {', '.join(option.choices)}, not {value!r}")
        if (seats is not None and option.seats is not None and value != option.default
                and seats not in option.seats):
            raise EnvelopeError(f"options: {name} is only for {option.seats.start}-{option.seats.stop - 1} seats")
        checked[name] = value
    return checked


def fold_envelope(data: Any, games: Sequence[Game[Any, Any, Any]]) -> Any:
    """The final state of an envelope's game, folded by the game named in it; EnvelopeError if bad."""
    if not isinstance(data, Mapping):
        raise EnvelopeError("an envelope must be a JSON object with game, format, seats, options, seed, steps")
    missing = [k for k in ("game", "format", "seats", "options", "seed", "steps") if k not in data]
    if missing:
        raise EnvelopeError(f"the envelope has no {missing[0]!r}")
    if data["format"] != FORMAT or isinstance(data["format"], bool):
        raise EnvelopeError(f"format: only format {FORMAT} is known, not {data['format']!r}")
    game = next((g for g in games if g.key == data["game"]), None)
    if game is None:
        raise EnvelopeError(f"game: {data['game']!r} is not one of {', '.join(g.key for g in games)}")
    seats = data["seats"]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise EnvelopeError("seats: must be a list of seat names")
    if len(seats) not in game.seats:
        raise EnvelopeError(f"seats: {game.key} is for {game.seats.start} to {game.seats.stop - 1} seats, "
                            f"not {len(seats)}")
    if not isinstance(data["options"], Mapping):
        raise EnvelopeError("options: must be an object")
    options = check_options(game, data["options"], len(seats))
    seed = data["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise EnvelopeError(f"seed: must be a whole number, not {seed!r}")
    steps = data["steps"]
    if not isinstance(steps, list):
        raise EnvelopeError("steps: must be a list")
    state = game.setup(len(seats), options, seed)
    for number, stored in enumerate(steps, start=1):
        try:
            step = step_from_json(stored)
            _check_turn(game.prompt(state), step, len(seats))
            state, _ = game.apply(state, step)
        except (EnvelopeError, RuleError) as error:
            raise EnvelopeError(f"step {number}: {_one_line(error)}") from None
    return state


def _check_turn(prompt: Prompt | None, step: Step, seats: int) -> None:
    """A stored step must be the one its game asked for: chance when chance, else awaited seats only."""
    if prompt is None:
        raise EnvelopeError("the game is already over")
    acting = {seat for seat in step if seat is not None}
    if any(not 0 <= seat < seats for seat in acting):
        raise EnvelopeError(f"there are only {seats} seats")
    if prompt.chance != (None in step) or (prompt.chance and acting):
        raise EnvelopeError("a chance step was expected" if prompt.chance else "no chance step was expected")
    if not acting <= prompt.seats:
        raise EnvelopeError(f"seat {min(acting - prompt.seats)} may not act now")
    if not prompt.sealed and len(acting) > 1:
        raise EnvelopeError("only one seat acts in this step")


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())


# Playing a game to the end ----------------------------------------------------------------------------
def ai_policy(game: Game[Any, Any, Any], seat: Seat, level: str) -> SeatPolicy:
    """A seat played by the game's AI at ``level``."""
    return lambda view, legal, rng: game.ai(view, seat, level, rng)


def playout(game: Game[Any, Any, Any], seats: int, options: Mapping[str, Any], seed: int,
            policy: Sequence[SeatPolicy], rng: Random, *, max_steps: int = 100_000
            ) -> tuple[list[dict[str, Action]], Any]:
    """Play a game to the end: the stored steps and the final state.

    ``policy[seat]`` chooses for each seat from its own view; a sealed step collects every awaited seat's
    action, an open one takes the lowest awaited seat's; chance draws from :func:`step_rng`. Each action
    goes through ``game.check`` first, as the service does.
    """
    state = game.setup(seats, options, seed)
    steps: list[dict[str, Action]] = []
    while (prompt := game.prompt(state)) is not None:
        if len(steps) >= max_steps:
            raise RuntimeError(f"{game.key} is not over after {max_steps} steps")
        step: dict[Seat | None, Action] = {}
        if prompt.chance:
            step[None] = game.chance(state, step_rng(seed, len(steps)))
        else:
            for seat in sorted(prompt.seats):
                action = policy[seat](game.view(state, seat), game.legal(state, seat), rng)
                step[seat] = game.check(state, seat, action)
                if not prompt.sealed:
                    break
        state, _ = game.apply(state, step)
        steps.append(step_to_json(step))
    return steps, state
