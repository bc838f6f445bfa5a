"""What the hard level believes about a player before a game starts, from their finished games (pure).

The game service hands over, for each human at a table with a hard AI, what the whole table saw at the end
of that player's latest finished games against this bot (public views: the numbers revealed, never a
pending one). Each game's beliefs over :data:`ai_beliefs.TYPES` are computed as the hard level computes them
during a game; their mean, shrunk towards :data:`ai_beliefs.DEFAULT_PRIOR` (less so the more games there
are, and never all the way, since people change how they play), is the prior the next game starts from.
The result is stored with the game (JSON), so it is rounded: the stored figures are the ones every later
move, restart or replay uses.
"""

import hashlib
import threading
from collections.abc import Mapping, Sequence

from .ai_beliefs import DEFAULT_PRIOR, TYPES, observations, posterior
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


# A finished game never changes: the beliefs it gave are kept, so that a group playing again and again
# weighs only its newest game anew at each start (one game's beliefs cost tens of milliseconds of CPU). Kept
# by a digest of what they depend on (the players and the revealed turns), never the view itself: a few
# hundred bytes an entry. Worker threads share it (the service computes priors off the event loop).
BELIEF_CACHE = 10_000  # entries (player, game): 500 players' 20 games
_beliefs: dict[tuple[bytes, str], tuple[float, ...] | None] = {}
_lock = threading.Lock()


def _digest(view: PublicView) -> bytes:
    """Equal for two views exactly when :func:`ai_beliefs.observations` reads the same from them."""
    turns = tuple((o.round, o.turn, tuple(o.results.items())) for o in view.history)
    return hashlib.blake2b(repr((tuple(view.players), turns)).encode(), digest_size=16).digest()


def game_belief(view: PublicView, name: str) -> dict[str, float] | None:
    """What one finished game showed of player ``name`` (beliefs over :data:`TYPES`), None if nothing."""
    key = (_digest(view), name)
    with _lock:
        known = key in _beliefs
        found = _beliefs.get(key)
    if not known:
        if observations(view, name):
            belief = posterior(view, name)
            found = tuple(belief[k] for k in TYPES)
        with _lock:
            while len(_beliefs) >= BELIEF_CACHE:
                del _beliefs[next(iter(_beliefs))]  # the oldest first
            _beliefs[key] = found
    return None if found is None else dict(zip(TYPES, found, strict=True))


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
