"""The Number on Discord and in the terminal: English."""

MESSAGES = {
    "thenumber.cmd.thenumber": "thenumber",
    "thenumber.cmd.thenumber.desc": "Play The Number, the secret three-digit numbers game",
    "thenumber.cmd.start.desc": "Open a table of The Number in this channel",
    "thenumber.cmd.rules.desc": "How to play The Number",
    "thenumber.cmd.opt.ai_players.desc": "AI players to seat now (0-4)",
    "thenumber.lobby.title": "The Number: join the table",
    "thenumber.lobby.description": ("Everyone secretly picks a three-digit number each turn; a number sharing a "
                                    "digit with any smaller one is eliminated. {min}-{max} players, {rounds} rounds "
                                    "of {turns} turns, {per_turn} per turn.\nPress **Join** to take a seat; the host "
                                    "presses **Start**."),
    "thenumber.lobby.seats": "Seats ({taken}/{max})",
    "thenumber.lobby.nobody": "nobody yet",
    "thenumber.lobby.host": " (host)",
    "thenumber.lobby.two_players": "Two players can play, but {low}-{high} play best.",
    "thenumber.lobby.players": "Players",
    "thenumber.lobby.started": "The game has started: choose your numbers below.",
    "thenumber.lobby.cancelled_by": "Cancelled by {name}.",
    "thenumber.lobby.everyone_left": "Everyone left; the table is closed.",
    "thenumber.time.min_s": "{m} min {s} s",
    "thenumber.time.min": "{m} min",
    "thenumber.time.s": "{s} s",
    "thenumber.button.join": "Join",
    "thenumber.button.leave": "Leave",
    "thenumber.button.start": "Start",
    "thenumber.button.cancel": "Cancel",
    "thenumber.button.choose": "Choose secretly",
    "thenumber.ai.placeholder": "Add an AI player (host)…",
    "thenumber.ai.option": "Add an AI player ({level})",
    "thenumber.ai.level.easy": "easy",
    "thenumber.ai.level.normal": "normal",
    "thenumber.ai.level.hard": "hard",
    "thenumber.modal.title": "Round {round}, turn {turn}: your number",
    "thenumber.modal.label": "Your number (three digits)",
    "thenumber.modal.placeholder": "e.g. 407",
    "thenumber.modal.digit1": "First digit (hundreds)",
    "thenumber.modal.digit2": "Second digit (tens)",
    "thenumber.modal.digit3": "Third digit (units)",
    "thenumber.modal.digit_placeholder": "Only your available digits",
    "thenumber.modal.or_type": "Or type your number",
    "thenumber.turn.title": "The Number · round {round} of {rounds} · turn {turn} of {turns}",
    "thenumber.status.title": "{turn_title}",
    "thenumber.status.bonus": "Biggest approved number: **+{bonus}**.",
    "thenumber.status.double": " First digits count **double**.",
    "thenumber.status.reveal_at": " Reveal {deadline}.",
    "thenumber.status.how": "**Choose secretly** below, or DM me your number.",
    "thenumber.status.left": "left",
    "thenumber.status.kicked": "removed",
    "thenumber.status.sits_out": "no digit left",
    "thenumber.status.choosing": "⏳ To choose: {names}",
    "thenumber.status.away": " · away",
    "thenumber.status.reminder": "⏰ **{seconds} s** left to choose",
    "thenumber.closed.title": "{turn_title} · closed",
    "thenumber.closed.below": "Everyone has chosen: the reveal is below.",
    "thenumber.closed.below_deadline": "Time is up: the reveal is below.",
    "thenumber.closed.missed": "⌛ No number in time: {names}",
    # a reveal's title before issue 36: one posted before the upgrade is still recognised after a restart
    "thenumber.reveal.title": "Round {round} · Turn {turn}: reveal",
    "thenumber.reveal.heading": "{turn_title} · reveal",
    "thenumber.reveal.scores_end": "Scores · round {round} over: +1 per crossed digit",
    "thenumber.reveal.standing": "{name} **{total}** · {left}",
    "thenumber.reveal.standing_end": "{name} **{total}** (+{crossed} crossed)",
    "thenumber.reveal.footer": "Game #{game}",
    "thenumber.reveal.approved": "`{number}` {name} ✅ approved **+{points}** ({parts}{bonus})",
    "thenumber.reveal.approved_plain": "`{number}` {name} ✅ approved **+{points}**",
    "thenumber.reveal.bonus": " + {bonus} 🏆",
    "thenumber.reveal.eliminated": "`{number}` {name} ❌ eliminated: shares {shared} with {blocker}",
    "thenumber.reveal.and": " and ",
    "thenumber.reveal.invalid": "`{number}` {name} 🚫 invalid: uses a crossed-off digit",
    "thenumber.reveal.missing": "`---` {name} ⌛ missing: no number in time",
    "thenumber.reveal.exhausted": "`---` {name} 💤 sits out: no digit left",
    "thenumber.reveal.scores": "Scores · digits left",
    "thenumber.round_end.wiped": "Boards are wiped for round 2.",
    "thenumber.final.title": "The Number · game over",
    "thenumber.final.shared_win": "Shared win: {names}!",
    "thenumber.final.winner": "Winner: {names}!",
    "thenumber.score.title": "The Number: scoreboard",
    "thenumber.score.round_done": "R{round}: {cells} + {crossed} crossed = {total}",
    "thenumber.score.round_open": "R{round}: {cells}",
    "thenumber.score.total": "Total **{total}**",
    "thenumber.score.waiting": "{turn_title}. Still to choose: {names}.",
    "thenumber.score.nobody": "nobody",
    "thenumber.score.final": "Final scores.",
    "thenumber.digits.title": "Board of {name}",
    "thenumber.digits.description": ("{board}\nAvailable: {available} · {crossed} "
                                     "{crossed:plural:digit|digits} crossed off"),
    "thenumber.list.and": " and ",
    "thenumber.digits.none": "none",
    "thenumber.step": "round {round}, turn {turn}",
    "thenumber.ack.locked": ("Locked in {number} for round {round}, turn {turn} of the game in {channel}; you can "
                             "change it until the reveal."),
    "thenumber.ack.changed": ("Changed to {number} for round {round}, turn {turn} of the game in {channel}; you can "
                              "change it until the reveal."),
    "thenumber.ack.complete": " Everyone has chosen: revealing now.",
    "thenumber.dm.join": ("You joined The Number in {channel}. When a turn starts, send me your three-digit number "
                          "here (like 407), or press **Choose secretly** on the turn's message. You can change it "
                          "until the reveal. `/thenumber rules` explains the game."),
    "thenumber.dm.reminder": ("⏰ {seconds} s left to choose your number for turn {turn} of round {round} in "
                              "{channel}. Reply here with three digits."),
    "thenumber.dm.lobby": "The game in {channel} has not started yet; send your number once it has.",
    "thenumber.dm.blocked": ("I can't send you DMs, so use the **Choose secretly** button on each turn's message to "
                             "pick your number (only you will see it)."),
    "thenumber.refuse.malformed": "That is not a number you can play: it must be three digits, like {example}.",
    "thenumber.refuse.available": " Your available digits: {digits}.",
    "thenumber.refuse.unavailable.one": "You can't play {number}: {digit} is crossed off; available: {available}.",
    "thenumber.refuse.unavailable.many": "You can't play {number}: {digits} are crossed off; available: {available}.",
    "thenumber.refuse.sits_out": ("You can't choose now: every digit is crossed off; you sit out the rest of this "
                                  "round."),
    "thenumber.refuse.game_over": "You can't choose now: the game is over.",
    "thenumber.refuse.not_seated": "You are not playing in this game.",
    "thenumber.error.sits_out": "Every digit on your board is crossed off: you sit out until the round ends.",
    "thenumber.error.turn_over": "That turn is already over. Use the newest turn message to choose.",
    "thenumber.error.turn_over_now": ("That turn is over, so that number was not saved. Now it is round {round}, "
                                      "turn {turn}: choose again for this turn."),
    "thenumber.rules.title": "The Number: how to play",
    "thenumber.rules.body": ("**{min}-{max} players, {rounds} rounds of {turns} turns.**\n1. **Choose.** Everyone "
                             "privately picks a number from 000 to 999 using only digits still on their board "
                             "(repeats like 111 are fine).\n2. **Check.** All numbers are shown, biggest on top. A "
                             "number that has a digit in common with any smaller number is eliminated, even if that "
                             "smaller one is eliminated too. Equal numbers never knock each other out.\n3. "
                             "**Score.** An approved number scores its first digit; the biggest approved number also "
                             "takes the turn's bonus (shared if several wrote it). On the last turn of a round the "
                             "first digit counts double before the bonus. Approved numbers cross their digits off "
                             "the board; eliminated ones cost nothing.\n4. **Round end.** Each crossed-off digit is "
                             "worth 1 point. Boards are wiped for round 2.\nNo digit left? You sit out until the "
                             "round ends. No number in time? 0 for that turn.\nThe highest total after two rounds "
                             "wins; ties share the win."),
    "thenumber.rules.bonus_title": "Bonus for the biggest approved number",
    "thenumber.rules.bonus_item": "turn {turn}: +{bonus}",
    # What each AI level does, under its name in the lobby's select (Discord: at most 100 characters).
    "thenumber.ai.about.easy": "A beginner: any legal number, mid values liked; wastes good digits",
    "thenumber.ai.about.normal": "Sound: weighs points, bonus and the digits it keeps against the other boards",
    "thenumber.ai.about.hard": "Learns each player's habits (this game and past ones against it) and mixes its numbers",
    "thenumber.dm.how": "three of your digits, like `407`",
}
