"""The Number sur Discord et dans le terminal : français."""

MESSAGES = {
    # Salon d'attente
    "lobby.title": "The Number : prenez place",
    "lobby.description": (
        "À chaque tour, chacun choisit en secret un nombre à trois chiffres ; un nombre qui a un chiffre en commun "
        "avec un nombre plus petit est éliminé. {min} à {max} joueurs, {rounds} manches de {turns} tours, "
        "{per_turn} par tour.\nAppuyez sur **Rejoindre** pour prendre une place ; l'hôte appuie sur **Lancer**."),
    "lobby.seats": "Places ({taken}/{max})",
    "lobby.nobody": "personne pour l'instant",
    "lobby.host": " (hôte)",
    "lobby.two_players": "On peut jouer à deux, mais le jeu est meilleur de {low} à {high}.",
    "lobby.players": "Joueurs",
    "lobby.started": "La partie a commencé : choisissez vos nombres ci-dessous.",
    "lobby.cancelled_by": "Annulée par {name}.",
    "lobby.everyone_left": "Tout le monde est parti ; la table est fermée.",
    "time.min_s": "{m} min {s} s",
    "time.min": "{m} min",
    "time.s": "{s} s",
    # Boutons, menus et formulaire
    "button.join": "Rejoindre",
    "button.leave": "Quitter",
    "button.start": "Lancer",
    "button.cancel": "Annuler",
    "button.choose": "Choisir en secret",
    "ai.placeholder": "Ajouter une IA (hôte)…",
    "ai.option": "Ajouter une IA ({level})",
    "ai.level.easy": "facile",
    "ai.level.normal": "normale",
    "ai.level.hard": "difficile",
    "modal.title": "Manche {round}, tour {turn} : votre nombre",
    "modal.label": "Votre nombre (trois chiffres)",
    "modal.placeholder": "par ex. 407",
    # Statut du tour
    "turn.title": "Manche {round} sur {rounds} · Tour {turn} sur {turns}",
    "status.title": "{turn_title} : choisissez votre nombre",
    "status.bonus": "Le plus grand nombre validé gagne **+{bonus}**.",
    "status.double": " Le premier chiffre compte **double** à ce tour.",
    "status.reveal_at": "Révélation {deadline}, ou dès que tout le monde a choisi.",
    "status.when_all": "quand tout le monde aura choisi",
    "status.how": "Appuyez sur **Choisir en secret** ou envoyez-moi votre nombre en message privé.",
    "status.players": "Joueurs",
    "status.left": "a quitté la partie",
    "status.kicked": "retiré par l'hôte",
    "status.sits_out": "passe son tour (plus aucun chiffre)",
    "status.choosing": "⏳ réfléchit",
    "status.away": " · absent",
    "status.chosen": "✅ a choisi",
    # Révélation
    "reveal.title": "Manche {round} · Tour {turn} : révélation",
    "reveal.footer": "Partie n° {game}",
    "reveal.tower": "Du plus grand au plus petit :",
    "reveal.approved": "`{number}` {name} : ✅ validé, **{points}** ({parts}{bonus})",
    "reveal.bonus": " + {bonus} de bonus 🏆",
    "reveal.eliminated": "`{number}` {name} : ❌ éliminé, partage le {shared} avec {blocker}",
    "reveal.and": " et le ",
    "reveal.invalid": "`{number}` {name} : 🚫 invalide, utilise un chiffre barré",
    "reveal.missing": "`---` {name} : ⌛ absent, pas de nombre à temps (0, garde tous ses chiffres)",
    "reveal.exhausted": "`---` {name} : 💤 passe son tour, tous ses chiffres sont barrés",
    "reveal.because_deadline": "*Révélé car le temps est écoulé.*",
    "reveal.because_all": "*Révélé car tout le monde a choisi.*",
    "reveal.boards": "Plateaux (chiffres barrés)",
    "reveal.scores": "Scores",
    "round_end.title": "Fin de la manche {round}",
    "round_end.line": "{name} : {turns} des tours + {crossed} chiffres barrés = **{total}**",
    "round_end.wiped": "Les plateaux sont effacés pour la manche 2.",
    "final.title": "Fin de la partie",
    "final.shared_win": "Victoire partagée : {names} !",
    "final.winner": "Victoire : {names} !",
    # /score et /digits
    "score.title": "The Number : tableau des scores",
    "score.round_done": "M{round} : {cells} + {crossed} barrés = {total}",
    "score.round_open": "M{round} : {cells}",
    "score.total": "Total **{total}**",
    "score.waiting": "{turn_title}. Doivent encore choisir : {names}.",
    "score.nobody": "personne",
    "score.final": "Scores finaux.",
    "digits.title": "Plateau de {name}",
    "digits.description": "{board}\nDisponibles : {available} · barrés : {crossed}",
    "list.and": " et ",
    "digits.none": "aucun",
    # Messages privés
    "ack.locked": "{number} enregistré pour la manche {round}, tour {turn} de la partie de {channel} ; vous pouvez "
                  "le changer jusqu'à la révélation.",
    "ack.changed": "Remplacé par {number} pour la manche {round}, tour {turn} de la partie de {channel} ; vous "
                   "pouvez le changer jusqu'à la révélation.",
    "ack.complete": " Tout le monde a choisi : révélation immédiate.",
    "dm.join": (
        "Vous avez rejoint The Number dans {channel}. À chaque tour, envoyez-moi ici votre nombre à trois chiffres "
        "(par exemple 407), ou appuyez sur **Choisir en secret** sous le message du tour. Vous pouvez le changer "
        "jusqu'à la révélation. `/thenumber rules` explique le jeu."),
    "dm.reminder": "⏰ Plus que {seconds} s pour choisir votre nombre du tour {turn} de la manche {round} dans "
                   "{channel}. Répondez ici avec trois chiffres.",
    "dm.no_game": "Vous n'êtes dans aucune partie de The Number. Lancez-en une dans un salon avec "
                  "`/thenumber start`, ou rejoignez-en une avec son bouton **Rejoindre** ; envoyez-moi ensuite vos "
                  "nombres ici.",
    "dm.lobby": "La partie de {channel} n'a pas encore commencé ; envoyez votre nombre quand elle aura démarré.",
    "dm.blocked": "Je ne peux pas vous envoyer de messages privés : utilisez le bouton **Choisir en secret** sous "
                  "le message de chaque tour pour choisir votre nombre (vous seul le verrez).",
    "dm.stopped": "Votre partie de {game} dans {channel} a été arrêtée : {why}. Tout ce qui a été joué est "
                  "enregistré.",
    "stop.channel_deleted": "le salon a été supprimé",
    "stop.no_permission": "je n'ai plus le droit d'écrire dans ce salon",
    "reply.joined": "Vous avez pris une place. L'hôte lance la partie.",
    "reply.left_table": "Vous avez quitté la table.",
    "reply.left_game": "Vous avez quitté la partie ; elle continue sans vous.",
    "reply.kicked": "{name} ne joue plus dans cette partie.",
    "reply.language_set": "Désormais, je parle {language} sur ce serveur.",
    "reply.language_auto": "Désormais, je suis la langue Discord de chacun sur ce serveur.",
    "language.en": "anglais",
    "language.fr": "français",
    # Refus d'un nombre
    "refuse.malformed": "Ce n'est pas un nombre jouable : il faut trois chiffres, par exemple {example}.",
    "refuse.available": " Vos chiffres disponibles : {digits}.",
    "refuse.unavailable.one": "Vous ne pouvez pas jouer {number} : le {digit} est barré ; disponibles : "
                              "{available}.",
    "refuse.unavailable.many": "Vous ne pouvez pas jouer {number} : les {digits} sont barrés ; disponibles : "
                               "{available}.",
    "refuse.sits_out": "Vous ne pouvez pas choisir : tous vos chiffres sont barrés, vous passez votre tour "
                       "jusqu'à la fin de la manche.",
    "refuse.game_over": "Vous ne pouvez pas choisir : la partie est terminée.",
    "refuse.not_seated": "Vous ne jouez pas dans cette partie.",
    # Erreurs
    "error.generic": "Un problème est survenu de mon côté. La partie est enregistrée ; réessayez.",
    "error.not_saved": "Je n'ai pas pu enregistrer cela, réessayez dans un instant.",
    "error.no_game_here": "Il n'y a pas de partie dans ce salon. Lancez-en une avec `/thenumber start`.",
    "error.not_in_game": "Vous ne jouez pas dans cette partie.",
    "error.not_host.start": "Seul l'hôte peut lancer la partie.",
    "error.not_host.cancel": "Seul l'hôte peut annuler la partie (ou un membre avec la permission Gérer le "
                             "serveur).",
    "error.not_host.add_ai": "Seul l'hôte peut ajouter des IA.",
    "error.not_host.kick": "Seul l'hôte peut retirer un joueur.",
    "error.not_started": "La partie n'a pas encore commencé.",
    "error.over": "Cette partie est terminée.",
    "error.cancelled": "Cette partie a été annulée.",
    "error.not_running": "Cette partie n'est pas en cours.",
    "error.not_enough": "Il faut au moins {count} joueurs pour commencer.",
    "error.already_seated": "Vous avez déjà une place dans cette partie.",
    "error.already_started": "La partie a déjà commencé.",
    "error.options": "La durée d'un tour doit être de 15 à 3600 secondes et le nombre d'IA de 0 à 4.",
    "error.kick_in_lobby": "La partie n'a pas commencé ; les joueurs peuvent simplement quitter la table.",
    "error.sits_out": "Tous les chiffres de votre plateau sont barrés : vous passez votre tour jusqu'à la fin de "
                      "la manche.",
    "error.turn_over": "Ce tour est déjà terminé. Utilisez le message du tour le plus récent pour choisir.",
    "error.turn_over_now": "Ce tour est terminé, ce nombre n'a donc pas été enregistré. C'est maintenant la manche "
                           "{round}, tour {turn} : choisissez à nouveau pour ce tour.",
    "error.not_playing_name": "{name} ne joue pas dans cette partie.",
    "error.no_game_anywhere": "Aucune partie n'est en cours ici, et vous ne jouez dans aucune.",
    "error.channel_busy": "Il y a déjà une partie dans ce salon.",
    "error.already_playing": "Vous jouez déjà dans {channel}.",
    "error.full": "Toutes les places sont prises.",
    "error.need_manage": "Seul un membre avec la permission Gérer le serveur peut changer la langue du bot.",
    "error.not_your_turn": "Ce n'est pas votre tour : la partie attend quelqu'un d'autre.",
    "error.not_finished": "Cette partie n'est pas terminée : elle pourra être exportée à la fin.",
    "error.bad_option": "L'option {name} doit valoir {allowed}.",
    "error.option_seats": "L'option {name} demande de {low} à {high} joueurs.",
    # Règles
    "rules.title": "The Number : comment jouer",
    "rules.body": (
        "**{min} à {max} joueurs, {rounds} manches de {turns} tours.**\n"
        "1. **Choisir.** Chacun choisit en secret un nombre de 000 à 999 avec les seuls chiffres encore libres sur "
        "son plateau (les répétitions comme 111 sont permises).\n"
        "2. **Vérifier.** Tous les nombres sont montrés, le plus grand en haut. Un nombre qui a un chiffre en "
        "commun avec un nombre plus petit est éliminé, même si ce plus petit est lui-même éliminé. Deux nombres "
        "identiques ne s'éliminent jamais.\n"
        "3. **Marquer.** Un nombre validé rapporte son premier chiffre ; le plus grand nombre validé gagne aussi "
        "le bonus du tour (partagé si plusieurs l'ont écrit). Au dernier tour d'une manche, le premier chiffre "
        "compte double avant le bonus. Les chiffres d'un nombre validé sont barrés ; un nombre éliminé ne coûte "
        "rien.\n"
        "4. **Fin de manche.** Chaque chiffre barré vaut 1 point. Les plateaux sont effacés pour la manche 2.\n"
        "Plus aucun chiffre ? Vous passez jusqu'à la fin de la manche. Pas de nombre à temps ? 0 pour ce tour.\n"
        "Le plus haut total après deux manches gagne ; les égalités partagent la victoire."),
    "rules.bonus_title": "Bonus du plus grand nombre validé",
    "rules.bonus_item": "tour {turn} : +{bonus}",
}
