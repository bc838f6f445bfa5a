"""Choosing a mix that a reader answers: the hard level as a leader whose distribution is public (pure).

A reader runs the hard level's code, so it knows our distribution (never our draw) and answers it: it
undercuts the numbers we favour with a smaller one sharing a digit, or copies them to share the bonus.
Whatever distribution we publish is the one it answers, so each option is scored against the reply to
that very option (a Stackelberg leader), not against a reply to some earlier guess of ours. The options
are the plain softmax, flatter ones (harder to undercut), and the softmax of the values once the readers
answer the plain one (which steps aside from their reply), alone and blended with the plain one.
"""

from collections.abc import Callable, Sequence

from .ai_model import Dist, blend, softmax_dist

LEAD_THRESHOLD = 0.2  # an opponent this likely to be a reader is answered as one
LEAD_SOFTENING = (1.0, 2.0, 4.0)  # temperatures of the options, as multiples of the plain one
STEP_ASIDE_SHARE = 0.5  # the blended option: this share of the step-aside mix, the rest plain

Answered = Callable[[Dist], Sequence[float]]


def expected(option: Dist, candidates: Sequence[int], values: Sequence[float]) -> float:
    """What ``option`` is worth when each candidate is worth ``values`` (same order as ``candidates``)."""
    worth = dict(zip(candidates, values, strict=True))
    return sum(p * worth[x] for x, _, p in option)


def lead(candidates: Sequence[int], values: Sequence[float], temperature: float, answered: Answered,
         floor: float) -> Dist:
    """The option worth most once the readers answer it. ``answered(option)`` gives every candidate's
    value when the readers reply to ``option``; ``values`` are the values against the plain prediction."""
    plain = softmax_dist(candidates, values, temperature, floor=floor)
    options = [plain, *(softmax_dist(candidates, values, temperature * k, floor=floor)
                        for k in LEAD_SOFTENING if k != 1.0)]
    against_plain = answered(plain)
    aside = softmax_dist(candidates, against_plain, temperature, floor=floor)
    options += [aside, blend(plain, aside, STEP_ASIDE_SHARE)]
    scores = [expected(plain, candidates, against_plain),
              *(expected(o, candidates, answered(o)) for o in options[1:])]
    return options[max(range(len(options)), key=scores.__getitem__)]
