"""A burst of choices through the turn message (issue 37.4): the first choice updates the message in its own
answer; choices within STATUS_EDIT_DELAY of that are answered by their private line alone and shown together by
one refresh when the delay is over (or by the close, when the burst ends the step). The refresh edits the message
through the webhook of the choice that updated it (its original response): not a paid call, so a game reminded
in the channel keeps its reminder edit."""

from cogs.table.poster import STATUS_EDIT_DELAY
from tests.discord_world import World, eventually
from tests.fakediscord import Message


def to_choose(world: World, message: Message) -> str:
    """The turn message's "To choose" line."""
    text = world.fake.visible_text(world.fake.world.messages[message.id])
    return next(line for line in text.splitlines() if "To choose" in line)


def edits_of(world: World, message: Message) -> int:
    """Paid edits of ``message`` (the channel's endpoint, under the global rate limit)."""
    return len(world.fake.requests_to("PATCH", rf"/channels/\d+/messages/{message.id}$"))


def webhook_edits(world: World) -> int:
    """Edits of an interaction's original response (its webhook: not under the global rate limit)."""
    return len(world.fake.requests_to("PATCH", r"/webhooks/\d+/[^/]+/messages/@original$"))


async def test_a_burst_of_modal_choices_changes_the_turn_message_once(world: World) -> None:
    await world.start_game(("ana", "ben", "cy", "dee"))
    status = world.status_message()
    first = await world.modal("ana", "408")
    assert first.response_type == 7 and "Ana" not in to_choose(world, status)  # updated in its own answer
    assert (await world.answer(first)).startswith("Locked in 408")
    edits = edits_of(world, status)
    for name, number in (("ben", "513"), ("cy", "627")):
        result = await world.modal(name, number)
        assert result.response_type == 4 and result.ephemeral, result.text()  # its private line alone
        assert result.content.startswith(f"Locked in {number}")
    assert "Ben" in to_choose(world, status) and "Cy" in to_choose(world, status)  # not yet shown
    await world.advance(STATUS_EDIT_DELAY)
    await eventually(lambda: "Ben" not in to_choose(world, status), what="the burst's refresh")
    line = to_choose(world, status)
    assert "Cy" not in line and "Dee" in line
    # one refresh for the burst, through Ana's answer: no paid call
    assert webhook_edits(world) == 1 and edits_of(world, status) == edits
    await world.advance(STATUS_EDIT_DELAY)
    assert webhook_edits(world) == 1
    # after the delay, a choice updates the message in its own answer again: here it ends the step
    last = await world.modal("dee", "159")
    assert last.response_type == 7 and "revealing now" in await world.answer(last)
    await eventually(lambda: world.reveals(), what="the reveal")
    assert edits_of(world, status) == edits and webhook_edits(world) == 1  # the close was the last answer


async def test_a_burst_that_ends_the_step_costs_no_refresh(world: World) -> None:
    await world.start_game(("ana", "ben", "cy"))
    status = world.status_message()
    edits = edits_of(world, status)
    answers = [await world.modal(name, number) for name, number in (("ana", "408"), ("ben", "513"), ("cy", "627"))]
    assert [a.response_type for a in answers] == [7, 4, 7]  # the last one closes the message in its answer
    await eventually(lambda: world.reveals(), what="the reveal")
    await world.advance(STATUS_EDIT_DELAY * 2)
    assert edits_of(world, status) == edits and webhook_edits(world) == 0  # the planned refresh went with the step


async def test_the_reminder_still_comes_after_a_bursts_refresh(world: World) -> None:
    await world.start_game(("ana", "ben", "cy", "dee"))
    status = world.status_message()
    await world.modal("ana", "408")
    assert (await world.modal("ben", "513")).response_type == 4
    await world.advance(STATUS_EDIT_DELAY)
    await eventually(lambda: "Ben" not in to_choose(world, status), what="the burst's refresh")
    await world.advance(29)
    await eventually(lambda: "⏰" in world.fake.visible_text(world.fake.world.messages[status.id]),
                     what="the reminder line on the turn message")


async def test_a_refresh_the_webhook_refuses_is_a_paid_edit(world: World) -> None:
    await world.start_game(("ana", "ben", "cy", "dee"))
    status = world.status_message()
    await world.modal("ana", "408")
    assert (await world.modal("ben", "513")).response_type == 4
    edits = edits_of(world, status)
    world.fake.fail_next("PATCH", r"/messages/@original$", 404, 10015)  # Ana's interaction is gone
    await world.advance(STATUS_EDIT_DELAY)
    await eventually(lambda: "Ben" not in to_choose(world, status), what="the burst's refresh")
    assert edits_of(world, status) == edits + 1
