"""What the hard level believes about a player before a game starts, from their finished games (pure).

The game service hands over, for each human at a table with a hard AI, what the whole table saw at the end
of that player's latest finished games against this bot (public views: the numbers revealed, never a
pending one). Each game's beliefs over :data:`ai_beliefs.TYPES` are computed as the hard level computes them
during a game; their mean, shrunk towards :data:`ai_beliefs.DEFAULT_PRIOR` (less so the more games there
are, and never all the way, since people change how they play), is the prior the next game starts from.
The result is stored with the game (JSON), so it is rounded: the stored figures are the ones every later
move, restart or replay uses.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .ai_beliefs import DEFAULT_PRIOR, TYPES, observations, posterior
from .check import SeatResult
from .engine import PublicView

# How much of the past games' beliefs the prior takes: TRUST_MAX * n / (n + TRUST_HALF) for n games that
# showed something. One game of 999, 888, 777 already makes that habit the likeliest; twenty make it nearly
# sure, while a fifth of the weight stays on the default prior for a player who changed.
TRUST_MAX = 0.8
TRUST_HALF = 2.0
DIGITS = 6  # stored rounding: small JSON, and the same figures whatever the float noise of the sums

Priors = dict[str, dict[str, float]]  # player (the engine's name) -> type -> weight


def trust(games: int) -> float:
    """The share of a prior given to ``games`` past games (the rest stays on the default prior)."""
    return TRUST_MAX * games / (games + TRUST_HALF) if games > 0 else 0.0


@dataclass(frozen=True, slots=True)
class _Finished:
    """A finished game's public record, equal to another exactly when the beliefs drawn from it are: the same
    players and the same revealed turns (what :func:`ai_beliefs.observations` reads)."""

    players: tuple[str, ...]
    turns: tuple[tuple[int, int, tuple[tuple[str, SeatResult], ...]], ...]
    view: PublicView = field(compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, view: PublicView) -> "_Finished":
        return cls(tuple(view.players), tuple((o.round, o.turn, tuple(o.results.items())) for o in view.history),
                   view)


# A finished game never changes: the beliefs it gave are kept, so that a group playing again and again
# weighs only its newest game anew at each start (a game's beliefs cost tens of milliseconds of CPU).
@lru_cache(maxsize=4096)
def _belief(game: _Finished, name: str) -> tuple[tuple[str, float], ...] | None:
    if not observations(game.view, name):
        return None  # revealed nothing: says nothing
    return tuple(posterior(game.view, name).items())


def game_belief(view: PublicView, name: str) -> dict[str, float] | None:
    """What one finished game showed of player ``name`` (beliefs over :data:`TYPES`), None if nothing."""
    found = _belief(_Finished.of(view), name)
    return None if found is None else dict(found)


def prior_from_history(games: Sequence[tuple[PublicView, str]]) -> dict[str, float]:
    """Prior weights over :data:`TYPES` for one player: (final public view, their name in it) per past game.

    A game in which the player revealed no number says nothing and is left out; with nothing left, the
    default prior.
    """
    beliefs = [b for b in (game_belief(view, name) for view, name in games) if b is not None]
    if not beliefs:
        return dict(DEFAULT_PRIOR)
    share = trust(len(beliefs))
    mixed = {k: (1 - share) * DEFAULT_PRIOR[k] + share * sum(b[k] for b in beliefs) / len(beliefs) for k in TYPES}
    total = sum(mixed.values())
    return {k: round(w / total, DIGITS) for k, w in mixed.items()}


def checked_priors(priors: object) -> Priors | None:
    """Stored priors in the shape the hard level takes (player -> known type -> weight), anything else dropped.

    They come from the store: a hand-edited or older row must not make the AI fail, only forget."""
    if not isinstance(priors, Mapping):
        return None
    found: Priors = {}
    for name, weights in priors.items():
        if not isinstance(name, str) or not isinstance(weights, Mapping):
            continue
        kept = {k: float(w) for k, w in weights.items()
                if k in TYPES and isinstance(w, int | float) and not isinstance(w, bool) and w >= 0}
        if kept and sum(kept.values()) > 0:
            found[name] = kept
    return found or None


def opening_beliefs(view: PublicView, me: str, priors: Mapping[str, Mapping[str, float]] | None
                    ) -> dict[str, dict[str, float]]:
    """What the hard AI ``me`` believes about each opponent now, starting from ``priors`` (types only)."""
    return {p: posterior(view, p, (priors or {}).get(p)) for p in view.players if p != me}
