"""Numeri sur Discord : français."""

MESSAGES = {
    "numeri.title": "Numeri",
    "numeri.picture.passed": ("Barrière après la case {square} : franchie, 3, 4 et 5 se partagent.   "
        "Fin quand {last} sont toutes prises."),
    "numeri.picture.closed": ("Barrière après la case {square} : pas encore franchie.   "
        "Fin quand {last} sont toutes prises."),
    "numeri.picture.to_play": "à jouer",
    "numeri.picture.points": "{points} {points:plural:point|points}",
    "numeri.picture.off": "hors plateau : {tokens}",
    "numeri.cmd.numeri": "numeri",
    "numeri.cmd.numeri.desc": "Jouer à Numeri, la course des pions numérotés",
    "numeri.cmd.start.desc": "Ouvrir une table de Numeri dans ce salon",
    "numeri.cmd.rules.desc": "Comment jouer à Numeri",
    "numeri.cmd.opt.ai_players.desc": "IA à installer tout de suite (0-3)",
    "numeri.lobby.description": (
        "Faites avancer vos cinq pions numérotés sur la piste : le dé désigne le pion qui avance, et chaque pion "
        "rapporte son numéro fois la valeur de sa case. {min} à {max} joueurs, {per_turn} par tour.\n"
        "Appuyez sur **Rejoindre** pour prendre place ; l'hôte appuie sur **Lancer**."),
    "numeri.time.min_s": "{m} min {s} s",
    "numeri.time.min": "{m} min",
    "numeri.time.s": "{s} s",
    "numeri.star": "★ (n'importe quel pion)",
    "numeri.off": "dehors",
    "numeri.and": " puis ",
    "numeri.move.enter": "le pion {token} entre sur la case {end}",
    "numeri.move.step": "le pion {token} avance de {start} à {end}",
    "numeri.choice.part": "Pion {token} : {start} → {end}",
    "numeri.choice.ends": "{moves} · fin de la partie",
    "numeri.left": " (a quitté la partie)",
    "numeri.choice.split": "Partager le {roll} entre deux pions…",
    "numeri.choice.split.about": "Le {roll} partagé en {first} + {second} : le pion {first} avance d'abord, puis "
                                 "le pion {second}",
    "numeri.choice.placeholder": "Choisissez un coup…",
    "numeri.turn.title": "Numeri · tour {turn} · {name}",
    "numeri.turn.rolled": "🎲 {name} a fait **{roll}** : choisissez un coup avec les boutons ci-dessous.",
    "numeri.turn.timeout": "⏰ Si le temps s'écoule, le bot joue ce coup comme l'IA normale.",
    "numeri.turn.away": "Absents (deux fois hors délai de suite) : {names}",
    "numeri.done.title": "Numeri · coup joué",
    "numeri.event.moved": "{name} a fait {roll} : {moves}.",
    "numeri.event.only": "{name} a fait {roll} : seul coup possible, joué aussitôt : {moves}.",
    "numeri.event.timeout": "⏰ Temps écoulé pour {name} (dé : {roll}) : le bot a joué le coup de l'IA normale : "
                            "{moves}.",
    "numeri.event.passed": "🎲 {name} a fait {roll} : aucun coup possible, le tour passe.",
    "numeri.event.extra": "✨ Nouvelle chaîne de trois : {name} relance.",
    "numeri.board.line": "Plateau : {seats}. {barrier}",
    "numeri.board.seat": "{name} (pions {tokens} ; {score} {score:plural:point|points})",
    "numeri.board.barrier": "Barrière après la case {square}, pas encore franchie.",
    "numeri.board.barrier_passed": "Barrière après la case {square} franchie : 3, 4 et 5 peuvent se partager.",
    "numeri.board.title": "Numeri · les pions de {name}",
    "numeri.board.total": "Total : **{score}** {score:plural:point|points}",
    "numeri.points.on": "Pion {token} : case {square} (valeur {value}) → **{points}**",
    "numeri.points.off": "Pion {token} : jamais entré ({value} chacun) → **{points}**",
    "numeri.final.title": "Numeri · partie terminée",
    "numeri.final.winners": "🏆 Victoire : {names}",
    "numeri.final.seat": "{name} : {score} {score:plural:point|points}",
    "numeri.score.title": "Numeri · scores actuels",
    "numeri.score.line": "**{score}** {score:plural:point|points} · pions {tokens}",
    "numeri.score.away": " (absent)",
    "numeri.score.turn": "À jouer : {name}",
    "numeri.reminder": "⏰ Plus que {seconds} s pour votre coup de Numeri dans {channel} ; ensuite le bot joue "
                       "pour vous.",
    "numeri.rules.title": "Comment jouer à Numeri",
    "numeri.rules.text": (
        "2 à 4 joueurs, cinq pions chacun, numérotés de 1 à 5 et tous hors du plateau au départ. Le plateau est "
        "une reconstitution : les valeurs du plateau imprimé sont inconnues.\n"
        "• Le bot lance le dé pour vous : 1 à 5 désigne le pion qui avance ; une étoile avance le pion de votre "
        "choix.\n"
        "• Un pion va sur la prochaine case libre devant lui (un pion dehors entre sur la première case libre). "
        "Une case porte un seul pion : les cases prises sont sautées.\n"
        "• Dès qu'un pion a dépassé la barrière (après la case 10 à 2 joueurs, 14 à 3, 18 à 4), un 3, 4 ou 5 peut "
        "se partager entre deux pions : 3 = 1+2, 4 = 1+3, 5 = 1+4 ou 2+3, dans l'ordre de votre choix.\n"
        "• Une chaîne nouvelle ou modifiée d'au moins trois de vos pions sur des cases voisines donne un lancer de "
        "plus.\n"
        "• Sans coup possible, le tour passe. La partie s'arrête dès que les cases 35, 36 et 37 sont prises.\n"
        "• Chaque pion rapporte son numéro fois la valeur de sa case ; un pion jamais entré rapporte son numéro "
        "fois -5. Le plus grand total gagne ; les égalités partagent la victoire.\n"
        "Appuyez sur un bouton de coup du message de tour quand c'est à vous."),
    "numeri.error.bad_roll": "Un dé vaut 1 à 5 ou une étoile, pas {face}.",
    "numeri.error.bad_token": "Les pions sont numérotés de 1 à 5, pas {token}.",
    "numeri.error.game_over": "La partie est terminée.",
    "numeri.error.not_your_turn": "Ce n'est pas votre tour.",
    "numeri.error.roll_first": "Le dé n'a pas encore été lancé.",
    "numeri.error.already_rolled": "Le dé montre déjà {face} : avancez un pion.",
    "numeri.error.blocked": "Le pion {token} ne peut pas avancer : toutes les cases devant sont prises.",
    "numeri.error.blocked_after": "Une fois le pion {after} avancé, le pion {token} ne peut plus avancer : toutes "
                                  "les cases devant sont prises.",
    "numeri.error.wrong_token": "Un {face} avance le pion {face}, pas le pion {token}.",
    "numeri.error.barrier_closed": "Aucun pion n'a encore dépassé la barrière après la case {barrier} : un {face} "
                                   "avance le pion {face}.",
    "numeri.error.split_face": "Un partage demande un 3, un 4 ou un 5, pas {face}.",
    "numeri.error.wrong_pair": "Un {face} ne se partage pas en {moves}.",
    "numeri.error.star_one": "Une étoile avance un seul pion de votre choix, jamais deux.",
    "numeri.error.too_many": "Un lancer avance un ou deux pions, pas {count}.",
    "numeri.error.same_token": "Un partage avance deux pions différents, pas deux fois le pion {token}.",
    "numeri.error.move_required": "Un coup est possible, le tour ne peut donc pas passer : {legal}.",
    "numeri.error.no_move": "Aucun coup possible avec un {face} : le tour passe.",
    "numeri.error.split_part": "Un partage avance les deux pions : {first} et {partner}.",
    "numeri.error.ended_mid_split": "L'avancée du pion {first} a terminé la partie : le pion {partner} n'avance pas.",
    "numeri.error.bad_input": "Tapez le pion à avancer, comme 4, ou deux pour un partage, comme 1 3 (pas {text}).",
    "numeri.error.bad_seats": "Numeri se joue de 2 à 4 joueurs, pas {seats}.",
    # Ce que fait chaque niveau d'IA, sous son nom dans le menu du salon (100 caractères au plus).
    "numeri.ai.about.easy": "Débutante : un coup permis au hasard, parfois celui qui rapporte le plus",
    "numeri.ai.about.normal": "Solide : le meilleur gain immédiat, les relances, ne finit que pour gagner",
    "numeri.ai.about.hard": "Pèse les cases à venir, anticipe le dé et joue la fin sur tous les lancers",
    "numeri.dm.how": "le pion à avancer, par exemple `4`, ou deux pions pour partager, par exemple `1 3`",
}
