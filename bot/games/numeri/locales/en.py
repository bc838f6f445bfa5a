"""Numeri on Discord: English."""

MESSAGES = {
    "numeri.title": "Numeri",
    "numeri.picture.passed": ("Barrier after square {square}: passed, 3, 4 and 5 may be split.   "
        "The game ends when {last} are all taken."),
    "numeri.picture.closed": ("Barrier after square {square}: not passed yet.   "
        "The game ends when {last} are all taken."),
    "numeri.picture.to_play": "to play",
    "numeri.picture.points": "{points} {points:plural:point|points}",
    "numeri.picture.off": "off the board: {tokens}",
    "numeri.cmd.numeri": "numeri",
    "numeri.cmd.numeri.desc": "Play Numeri, the race of numbered tokens",
    "numeri.cmd.start.desc": "Open a table of Numeri in this channel",
    "numeri.cmd.rules.desc": "How to play Numeri",
    "numeri.cmd.opt.ai_players.desc": "AI players to seat now (0-3)",
    "numeri.lobby.description": (
        "Race your five numbered tokens along the track: the die names the token that moves, and each token "
        "scores its number times the value of its square. {min}-{max} players, {per_turn} per turn.\n"
        "Press **Join** to take a seat; the host presses **Start**."),
    "numeri.time.min_s": "{m} min {s} s",
    "numeri.time.min": "{m} min",
    "numeri.time.s": "{s} s",
    "numeri.star": "★ (any token)",
    "numeri.off": "off",
    "numeri.and": " then ",
    "numeri.move.enter": "token {token} enters on square {end}",
    "numeri.move.step": "token {token} moves {start} → {end}",
    "numeri.choice.part": "Token {token}: {start} → {end}",
    "numeri.choice.ends": "{moves} · ends the game",
    "numeri.left": " (left the game)",
    "numeri.choice.split": "Split the {roll} over two tokens…",
    "numeri.choice.split.about": "The {roll} split as {first} + {second}: token {first} moves first, then token "
                                 "{second}",
    "numeri.choice.placeholder": "Choose a move…",
    "numeri.turn.title": "Numeri · turn {turn} · {name}",
    "numeri.turn.rolled": "🎲 {name} rolled **{roll}**: choose a move with the buttons below.",
    "numeri.turn.timeout": "⏰ If the time runs out, the bot plays this move as the normal AI would.",
    "numeri.turn.away": "Away (timed out twice in a row): {names}",
    "numeri.done.title": "Numeri · move made",
    "numeri.event.moved": "{name} rolled {roll}: {moves}.",
    "numeri.event.only": "{name} rolled {roll}: the only possible move, played at once: {moves}.",
    "numeri.event.timeout": "⏰ Time ran out for {name} (rolled {roll}): the bot played the normal AI's move: {moves}.",
    "numeri.event.passed": "🎲 {name} rolled {roll}: no move is possible, the turn passes.",
    "numeri.event.extra": "✨ A new chain of three: {name} throws again.",
    "numeri.board.line": "Board: {seats}. {barrier}",
    "numeri.board.seat": "{name} (tokens {tokens}; {score} {score:plural:point|points})",
    "numeri.board.barrier": "Barrier after square {square}, not passed yet.",
    "numeri.board.barrier_passed": "Barrier after square {square} passed: 3, 4 and 5 may be split.",
    "numeri.board.title": "Numeri · {name}'s tokens",
    "numeri.board.total": "Total: **{score}** {score:plural:point|points}",
    "numeri.points.on": "Token {token}: square {square} (value {value}) → **{points}**",
    "numeri.points.off": "Token {token}: never entered ({value} each) → **{points}**",
    "numeri.final.title": "Numeri · game over",
    "numeri.final.winners": "🏆 Winner: {names}",
    "numeri.final.seat": "{name}: {score} {score:plural:point|points}",
    "numeri.score.title": "Numeri · scores so far",
    "numeri.score.line": "**{score}** {score:plural:point|points} · tokens {tokens}",
    "numeri.score.away": " (away)",
    "numeri.score.turn": "Now playing: {name}",
    "numeri.reminder": "⏰ {seconds} s left for your Numeri move in {channel}; then the bot moves for you.",
    "numeri.rules.title": "How to play Numeri",
    "numeri.rules.text": (
        "2 to 4 players, five tokens each, numbered 1 to 5 and all off the board at the start. The board is a "
        "reconstruction: the printed board's values are unknown.\n"
        "• The bot rolls the die for you: 1 to 5 names the token that moves; a star moves any one of your tokens.\n"
        "• A token goes to the next free square ahead (a token off the board enters on the first free square). "
        "A square holds one token: taken squares are jumped over.\n"
        "• Once any token stands beyond the barrier (after square 10 with 2 players, 14 with 3, 18 with 4), "
        "a 3, 4 or 5 may be split over two tokens: 3 = 1+2, 4 = 1+3, 5 = 1+4 or 2+3, in either order.\n"
        "• A new or changed chain of three or more of your tokens on neighbouring squares earns an extra throw.\n"
        "• When no move is possible, the turn passes. The game ends as soon as squares 35, 36 and 37 are taken.\n"
        "• Each token scores its number times its square's value; a token never entered scores its number "
        "times -5. The highest total wins; ties share the win.\n"
        "Press a move button on the turn message when it is your turn."),
    "numeri.error.bad_roll": "A roll is 1 to 5 or a star, not {face}.",
    "numeri.error.bad_token": "Tokens are numbered 1 to 5, not {token}.",
    "numeri.error.game_over": "The game is over.",
    "numeri.error.not_your_turn": "It is not your turn.",
    "numeri.error.roll_first": "The die has not been rolled yet.",
    "numeri.error.already_rolled": "The die already shows {face}: move a token.",
    "numeri.error.blocked": "Token {token} cannot move: every square ahead is taken.",
    "numeri.error.blocked_after": "After token {after} moves, token {token} cannot move: every square ahead is "
                                  "taken.",
    "numeri.error.wrong_token": "A {face} moves token {face}, not token {token}.",
    "numeri.error.barrier_closed": "No token has passed the barrier after square {barrier} yet: a {face} moves "
                                   "token {face}.",
    "numeri.error.split_face": "A split needs a throw of 3, 4 or 5, not {face}.",
    "numeri.error.wrong_pair": "A {face} does not split as {moves}.",
    "numeri.error.star_one": "A star moves one token of your choice, never two.",
    "numeri.error.too_many": "One or two tokens move in a throw, not {count}.",
    "numeri.error.same_token": "A split moves two different tokens, not token {token} twice.",
    "numeri.error.move_required": "A move is possible, so the turn cannot pass: {legal}.",
    "numeri.error.no_move": "No move is possible with a {face}: the turn passes.",
    "numeri.error.split_part": "A split moves both tokens: {first} and {partner}.",
    "numeri.error.ended_mid_split": "Token {first}'s move ended the game, so token {partner} does not move.",
    "numeri.error.bad_input": "Type the token to move, like 4, or two for a split, like 1 3 (not {text}).",
    "numeri.error.bad_seats": "Numeri is for 2 to 4 players, not {seats}.",
    # What each AI level does, under its name in the lobby's select (Discord: at most 100 characters).
    "numeri.ai.about.easy": "A beginner: a random legal move, now and then the one that scores most",
    "numeri.ai.about.normal": "Sound: the best gain now, chains for extra throws, ends the game only to win",
    "numeri.ai.about.hard": "Weighs the squares ahead, looks over the die, plays the end out over the dice",
    "numeri.dm.how": "the token to move, like `4`, or two tokens for a split, like `1 3`",
}
