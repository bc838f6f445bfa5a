"""The Number sur Discord et dans le terminal : français."""

MESSAGES = {
    "thenumber.cmd.thenumber": "thenumber",
    "thenumber.cmd.thenumber.desc": "Jouer à The Number, le jeu des nombres secrets à trois chiffres",
    "thenumber.cmd.start.desc": "Ouvrir une table de The Number dans ce salon",
    "thenumber.cmd.rules.desc": "Comment jouer à The Number",
    "thenumber.cmd.opt.ai_players.desc": "Nombre d'IA à installer maintenant (0-4)",
    "thenumber.lobby.title": "The Number : prenez place",
    "thenumber.lobby.description": ("À chaque tour, chacun choisit en secret un nombre à trois chiffres ; un nombre "
                                    "qui a un chiffre en commun avec un nombre plus petit est éliminé. {min} à {max} "
                                    "joueurs, {rounds} manches de {turns} tours, {per_turn} par tour.\nAppuyez sur "
                                    "**Rejoindre** pour prendre une place ; l'hôte appuie sur **Lancer**."),
    "thenumber.lobby.seats": "Places ({taken}/{max})",
    "thenumber.lobby.nobody": "personne pour l'instant",
    "thenumber.lobby.host": " (hôte)",
    "thenumber.lobby.two_players": "On peut jouer à deux, mais le jeu est meilleur de {low} à {high}.",
    "thenumber.lobby.players": "Joueurs",
    "thenumber.lobby.started": "La partie a commencé : choisissez vos nombres ci-dessous.",
    "thenumber.lobby.cancelled_by": "Annulée par {name}.",
    "thenumber.lobby.everyone_left": "Tout le monde est parti ; la table est fermée.",
    "thenumber.time.min_s": "{m} min {s} s",
    "thenumber.time.min": "{m} min",
    "thenumber.time.s": "{s} s",
    "thenumber.button.join": "Rejoindre",
    "thenumber.button.leave": "Quitter",
    "thenumber.button.start": "Lancer",
    "thenumber.button.cancel": "Annuler",
    "thenumber.button.choose": "Choisir en secret",
    "thenumber.ai.placeholder": "Ajouter une IA (hôte)…",
    "thenumber.ai.option": "Ajouter une IA ({level})",
    "thenumber.ai.level.easy": "facile",
    "thenumber.ai.level.normal": "normale",
    "thenumber.ai.level.hard": "difficile",
    "thenumber.modal.title": "Manche {round}, tour {turn} : votre nombre",
    "thenumber.modal.label": "Votre nombre (trois chiffres)",
    "thenumber.modal.placeholder": "par ex. 407",
    "thenumber.modal.digit1": "Premier chiffre (centaines)",
    "thenumber.modal.digit2": "Deuxième chiffre (dizaines)",
    "thenumber.modal.digit3": "Troisième chiffre (unités)",
    "thenumber.modal.digit_placeholder": "Seulement vos chiffres disponibles",
    "thenumber.modal.or_type": "Ou tapez votre nombre",
    "thenumber.turn.title": "The Number · manche {round} sur {rounds} · tour {turn} sur {turns}",
    "thenumber.status.title": "{turn_title}",
    "thenumber.status.bonus": "Plus grand nombre validé : **+{bonus}**.",
    "thenumber.status.double": " Premier chiffre **doublé**.",
    "thenumber.status.reveal_at": " Révélation {deadline}.",
    "thenumber.status.how": "**Choisir en secret** ci-dessous, ou envoyez-moi votre nombre en MP.",
    "thenumber.status.left": "a quitté",
    "thenumber.status.kicked": "retiré",
    "thenumber.status.sits_out": "plus de chiffre",
    "thenumber.status.choosing": "⏳ À choisir : {names}",
    "thenumber.status.away": " · absent",
    "thenumber.status.reminder": "⏰ Plus que **{seconds} s** pour choisir",
    "thenumber.closed.title": "{turn_title} · terminé",
    "thenumber.closed.below": "Tout le monde a choisi : la révélation suit.",
    "thenumber.closed.below_deadline": "Le temps est écoulé : la révélation suit.",
    "thenumber.closed.missed": "⌛ Pas de nombre à temps : {names}",
    # a reveal's title before issue 36: one posted before the upgrade is still recognised after a restart
    "thenumber.reveal.title": "Manche {round} · Tour {turn} : révélation",
    "thenumber.reveal.heading": "{turn_title} · révélation",
    "thenumber.reveal.scores_end": "Scores · fin de la manche {round} : +1 par chiffre barré",
    "thenumber.reveal.standing": "{name} **{total}** · {left}",
    "thenumber.reveal.standing_end": "{name} **{total}** (+{crossed} barrés)",
    "thenumber.reveal.footer": "Partie n° {game}",
    "thenumber.reveal.approved": "`{number}` {name} ✅ validé **+{points}** ({parts}{bonus})",
    "thenumber.reveal.approved_plain": "`{number}` {name} ✅ validé **+{points}**",
    "thenumber.reveal.bonus": " + {bonus} 🏆",
    "thenumber.reveal.eliminated": "`{number}` {name} ❌ éliminé : partage le {shared} avec {blocker}",
    "thenumber.reveal.and": " et le ",
    "thenumber.reveal.invalid": "`{number}` {name} 🚫 invalide : utilise un chiffre barré",
    "thenumber.reveal.missing": "`---` {name} ⌛ absent : pas de nombre à temps",
    "thenumber.reveal.exhausted": "`---` {name} 💤 passe son tour : plus de chiffre",
    "thenumber.reveal.scores": "Scores · chiffres restants",
    "thenumber.round_end.wiped": "Les plateaux sont effacés pour la manche 2.",
    "thenumber.final.title": "The Number · fin de la partie",
    "thenumber.final.shared_win": "Victoire partagée : {names} !",
    "thenumber.final.winner": "Victoire : {names} !",
    "thenumber.score.title": "The Number : tableau des scores",
    "thenumber.score.round_done": "M{round} : {cells} + {crossed} barrés = {total}",
    "thenumber.score.round_open": "M{round} : {cells}",
    "thenumber.score.total": "Total **{total}**",
    "thenumber.score.waiting": "{turn_title}. Doivent encore choisir : {names}.",
    "thenumber.score.nobody": "personne",
    "thenumber.score.final": "Scores finaux.",
    "thenumber.digits.title": "Plateau de {name}",
    "thenumber.digits.description": ("{board}\nDisponibles : {available} · {crossed} "
                                     "{crossed:plural:chiffre barré|chiffres barrés}"),
    "thenumber.list.and": " et ",
    "thenumber.digits.none": "aucun",
    "thenumber.step": "la manche {round}, tour {turn}",
    "thenumber.ack.locked": ("{number} enregistré pour la manche {round}, tour {turn} de la partie de {channel} ; "
                             "vous pouvez le changer jusqu'à la révélation."),
    "thenumber.ack.changed": ("Remplacé par {number} pour la manche {round}, tour {turn} de la partie de {channel} ; "
                              "vous pouvez le changer jusqu'à la révélation."),
    "thenumber.ack.complete": " Tout le monde a choisi : révélation immédiate.",
    "thenumber.dm.join": ("Vous avez rejoint The Number dans {channel}. À chaque tour, envoyez-moi ici votre nombre "
                          "à trois chiffres (par exemple 407), ou appuyez sur **Choisir en secret** sous le message "
                          "du tour. Vous pouvez le changer jusqu'à la révélation. `/thenumber rules` explique le jeu."),
    "thenumber.dm.reminder": ("⏰ Plus que {seconds} s pour choisir votre nombre du tour {turn} de la manche {round} "
                              "dans {channel}. Répondez ici avec trois chiffres."),
    "thenumber.dm.lobby": ("La partie de {channel} n'a pas encore commencé ; envoyez votre nombre quand elle aura "
                           "démarré."),
    "thenumber.dm.blocked": ("Je ne peux pas vous envoyer de messages privés : utilisez le bouton **Choisir en "
                             "secret** sous le message de chaque tour pour choisir votre nombre (vous seul le "
                             "verrez)."),
    "thenumber.refuse.malformed": "Ce n'est pas un nombre jouable : il faut trois chiffres, par exemple {example}.",
    "thenumber.refuse.available": " Vos chiffres disponibles : {digits}.",
    "thenumber.refuse.unavailable.one": ("Vous ne pouvez pas jouer {number} : le {digit} est barré ; disponibles : "
                                         "{available}."),
    "thenumber.refuse.unavailable.many": ("Vous ne pouvez pas jouer {number} : les {digits} sont barrés ; "
                                          "disponibles : {available}."),
    "thenumber.refuse.sits_out": ("Vous ne pouvez pas choisir : tous vos chiffres sont barrés, vous passez votre "
                                  "tour jusqu'à la fin de la manche."),
    "thenumber.refuse.game_over": "Vous ne pouvez pas choisir : la partie est terminée.",
    "thenumber.refuse.not_seated": "Vous ne jouez pas dans cette partie.",
    "thenumber.error.sits_out": ("Tous les chiffres de votre plateau sont barrés : vous passez votre tour jusqu'à la "
                                 "fin de la manche."),
    "thenumber.error.turn_over": "Ce tour est déjà terminé. Utilisez le message du tour le plus récent pour choisir.",
    "thenumber.error.turn_over_now": ("Ce tour est terminé, ce nombre n'a donc pas été enregistré. C'est maintenant "
                                      "la manche {round}, tour {turn} : choisissez à nouveau pour ce tour."),
    "thenumber.rules.title": "The Number : comment jouer",
    "thenumber.rules.body": ("**{min} à {max} joueurs, {rounds} manches de {turns} tours.**\n1. **Choisir.** Chacun "
                             "choisit en secret un nombre de 000 à 999 avec les seuls chiffres encore libres sur son "
                             "plateau (111 est permis).\n2. **Vérifier.** On révèle tout, le plus grand en haut. Un "
                             "nombre qui partage un chiffre avec un nombre plus petit est éliminé, même si ce "
                             "dernier l'est aussi. Deux nombres identiques ne s'éliminent jamais.\n3. **Marquer.** "
                             "Un nombre validé rapporte son premier chiffre ; le plus grand nombre validé gagne aussi "
                             "le bonus du tour (partagé si plusieurs l'ont écrit). Au dernier tour d'une manche, le "
                             "premier chiffre compte double avant le bonus. Les chiffres d'un nombre validé sont "
                             "barrés ; un nombre éliminé ne coûte rien.\n4. **Fin de manche.** Chaque chiffre barré "
                             "vaut 1 point, puis les plateaux sont effacés.\nPlus aucun chiffre ? Vous passez "
                             "jusqu'à la fin de manche. Pas de nombre à temps ? 0 pour ce tour.\nLe plus haut total "
                             "après deux manches gagne (égalité : victoire partagée)."),
    "thenumber.rules.bonus_title": "Bonus du plus grand nombre validé",
    "thenumber.rules.bonus_item": "tour {turn} : +{bonus}",
    # Ce que fait chaque niveau d'IA, sous son nom dans le menu du salon (100 caractères au plus).
    "thenumber.ai.about.easy": "Débutante : un nombre permis au hasard, plutôt moyen ; gâche ses bons chiffres",
    "thenumber.ai.about.normal": "Solide : pèse points, bonus et chiffres gardés face aux autres grilles",
    "thenumber.ai.about.hard": "Apprend les habitudes de chacun (cette partie et les passées) et varie ses nombres",
    "thenumber.dm.how": "trois de vos chiffres, par exemple `407`",
}
