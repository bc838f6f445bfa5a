"""The Number on Discord and in the terminal: English."""

MESSAGES = {
    # Lobby
    "lobby.title": "The Number: join the table",
    "lobby.description": (
        "Everyone secretly picks a three-digit number each turn; a number sharing a digit with any smaller one "
        "is eliminated. {min}-{max} players, {rounds} rounds of {turns} turns, {per_turn} per turn.\n"
        "Press **Join** to take a seat; the host presses **Start**."),
    "lobby.seats": "Seats ({taken}/{max})",
    "lobby.nobody": "nobody yet",
    "lobby.host": " (host)",
    "lobby.two_players": "Two players can play, but {low}-{high} play best.",
    "lobby.players": "Players",
    "lobby.started": "The game has started: choose your numbers below.",
    "lobby.cancelled_by": "Cancelled by {name}.",
    "lobby.everyone_left": "Everyone left; the table is closed.",
    "time.min_s": "{m} min {s} s",
    "time.min": "{m} min",
    "time.s": "{s} s",
    # Buttons, menus and the form
    "button.join": "Join",
    "button.leave": "Leave",
    "button.start": "Start",
    "button.cancel": "Cancel",
    "button.choose": "Choose secretly",
    "ai.placeholder": "Add an AI player (host)…",
    "ai.option": "Add an AI player ({level})",
    "ai.level.easy": "easy",
    "ai.level.normal": "normal",
    "ai.level.hard": "hard",
    "modal.title": "Round {round}, turn {turn}: your number",
    "modal.label": "Your number (three digits)",
    "modal.placeholder": "e.g. 407",
    # Turn status
    "turn.title": "Round {round} of {rounds} · Turn {turn} of {turns}",
    "status.title": "{turn_title}: choose your number",
    "status.bonus": "Biggest approved number gets **+{bonus}**.",
    "status.double": " First digits count **double** this turn.",
    "status.reveal_at": "Reveal {deadline}, or as soon as everyone has chosen.",
    "status.when_all": "when everyone has chosen",
    "status.how": "Press **Choose secretly** or send me your number in a DM.",
    "status.players": "Players",
    "status.left": "left the game",
    "status.kicked": "removed by the host",
    "status.sits_out": "sits out (no digit left)",
    "status.choosing": "⏳ choosing",
    "status.away": " · away",
    "status.chosen": "✅ has chosen",
    # Reveal
    "reveal.title": "Round {round} · Turn {turn}: reveal",
    "reveal.footer": "Game #{game}",
    "reveal.tower": "Biggest on top:",
    "reveal.approved": "`{number}` {name}: ✅ approved, **{points}** ({parts}{bonus})",
    "reveal.bonus": " + {bonus} bonus 🏆",
    "reveal.eliminated": "`{number}` {name}: ❌ eliminated, shares {shared} with {blocker}",
    "reveal.and": " and ",
    "reveal.invalid": "`{number}` {name}: 🚫 invalid, uses a crossed-off digit",
    "reveal.missing": "`---` {name}: ⌛ missing, no number in time (0, keeps every digit)",
    "reveal.exhausted": "`---` {name}: 💤 sits out, every digit crossed off",
    "reveal.because_deadline": "*Revealed because the timer ran out.*",
    "reveal.because_all": "*Revealed because everyone has chosen.*",
    "reveal.boards": "Boards (crossed digits struck through)",
    "reveal.scores": "Scores",
    "round_end.title": "End of round {round}",
    "round_end.line": "{name}: {turns} from turns + {crossed} crossed digits = **{total}**",
    "round_end.wiped": "Boards are wiped for round 2.",
    "final.title": "Game over",
    "final.shared_win": "Shared win: {names}!",
    "final.winner": "Winner: {names}!",
    # /score and /digits
    "score.title": "The Number: scoreboard",
    "score.round_done": "R{round}: {cells} + {crossed} crossed = {total}",
    "score.round_open": "R{round}: {cells}",
    "score.total": "Total **{total}**",
    "score.waiting": "{turn_title}. Still to choose: {names}.",
    "score.nobody": "nobody",
    "score.final": "Final scores.",
    "digits.title": "Board of {name}",
    "digits.description": "{board}\nAvailable: {available} · crossed off: {crossed}",
    "list.and": " and ",
    "digits.none": "none",
    # Private lines
    "ack.locked": "Locked in {number} for round {round}, turn {turn} of the game in {channel}; you can change it "
                  "until the reveal.",
    "ack.changed": "Changed to {number} for round {round}, turn {turn} of the game in {channel}; you can change it "
                   "until the reveal.",
    "ack.complete": " Everyone has chosen: revealing now.",
    "dm.join": (
        "You joined The Number in {channel}. When a turn starts, send me your three-digit number here (like 407), "
        "or press **Choose secretly** on the turn's message. You can change it until the reveal. "
        "`/thenumber rules` explains the game."),
    "dm.reminder": "⏰ {seconds} s left to choose your number for turn {turn} of round {round} in {channel}. "
                   "Reply here with three digits.",
    "dm.no_game": "You are not in a game of The Number right now. Start one in a server channel with "
                  "`/thenumber start`, or join one with its **Join** button; then send me your numbers here.",
    "dm.lobby": "The game in {channel} has not started yet; send your number once it has.",
    "dm.blocked": "I can't send you DMs, so use the **Choose secretly** button on each turn's message to pick your "
                  "number (only you will see it).",
    "dm.stopped": "Your game of {game} in {channel} was stopped: {why}. Everything played so far is saved.",
    "stop.channel_deleted": "the channel was deleted",
    "stop.no_permission": "I am no longer allowed to post in that channel",
    "reply.joined": "You took a seat. The host starts the game.",
    "reply.left_table": "You left the table.",
    "reply.left_game": "You left the game; it goes on without you.",
    "reply.kicked": "{name} no longer plays in this game.",
    "reply.language_set": "From now on I speak {language} in this server.",
    "reply.language_auto": "From now on I follow each person's Discord language in this server.",
    "language.en": "English",
    "language.fr": "French",
    # Refusals of a number
    "refuse.malformed": "That is not a number you can play: it must be three digits, like {example}.",
    "refuse.available": " Your available digits: {digits}.",
    "refuse.unavailable.one": "You can't play {number}: {digit} is crossed off; available: {available}.",
    "refuse.unavailable.many": "You can't play {number}: {digits} are crossed off; available: {available}.",
    "refuse.sits_out": "You can't choose now: every digit is crossed off; you sit out the rest of this round.",
    "refuse.game_over": "You can't choose now: the game is over.",
    "refuse.not_seated": "You are not playing in this game.",
    # Errors
    "error.generic": "Something went wrong on my side. The game is saved; please try again.",
    "error.not_saved": "I could not save that, try again in a moment.",
    "error.no_game_here": "There is no game in this channel. Start one with `/thenumber start`.",
    "error.not_in_game": "You are not playing in this game.",
    "error.not_host.start": "Only the host can start the game.",
    "error.not_host.cancel": "Only the host can cancel the game (or a member with Manage Server).",
    "error.not_host.add_ai": "Only the host can add AI players.",
    "error.not_host.kick": "Only the host can remove a player.",
    "error.not_started": "The game has not started yet.",
    "error.over": "That game is over.",
    "error.cancelled": "That game was cancelled.",
    "error.not_running": "That game is not running.",
    "error.not_enough": "At least {count} players are needed to start.",
    "error.already_seated": "You already have a seat in this game.",
    "error.already_started": "The game has already started.",
    "error.options": "Turn seconds must be 15-3600 and AI players 0-4.",
    "error.kick_in_lobby": "The game has not started; players can simply leave the lobby.",
    "error.sits_out": "Every digit on your board is crossed off: you sit out until the round ends.",
    "error.turn_over": "That turn is already over. Use the newest turn message to choose.",
    "error.turn_over_now": "That turn is over, so that number was not saved. Now it is round {round}, turn {turn}: "
                           "choose again for this turn.",
    "error.not_playing_name": "{name} is not playing in this game.",
    "error.no_game_anywhere": "No game is being played here, and you are not in one.",
    "error.channel_busy": "There is already a game in this channel.",
    "error.already_playing": "You are already playing in {channel}.",
    "error.full": "Every seat is taken.",
    "error.need_manage": "Only a member with Manage Server can change the bot's language.",
    "error.not_your_turn": "It is not your turn: the game is waiting for someone else.",
    "error.not_finished": "That game is not over yet: it can be exported once it ends.",
    "error.bad_option": "The option {name} must be {allowed}.",
    "error.option_seats": "The option {name} needs {low} to {high} players.",
    # Rules
    "rules.title": "The Number: how to play",
    "rules.body": (
        "**{min}-{max} players, {rounds} rounds of {turns} turns.**\n"
        "1. **Choose.** Everyone privately picks a number from 000 to 999 using only digits still on their board "
        "(repeats like 111 are fine).\n"
        "2. **Check.** All numbers are shown, biggest on top. A number that has a digit in common with any smaller "
        "number is eliminated, even if that smaller one is eliminated too. Equal numbers never knock each other "
        "out.\n"
        "3. **Score.** An approved number scores its first digit; the biggest approved number also takes the "
        "turn's bonus (shared if several wrote it). On the last turn of a round the first digit counts double "
        "before the bonus. Approved numbers cross their digits off the board; eliminated ones cost nothing.\n"
        "4. **Round end.** Each crossed-off digit is worth 1 point. Boards are wiped for round 2.\n"
        "No digit left? You sit out until the round ends. No number in time? 0 for that turn.\n"
        "The highest total after two rounds wins; ties share the win."),
    "rules.bonus_title": "Bonus for the biggest approved number",
    "rules.bonus_item": "turn {turn}: +{bonus}",
}
