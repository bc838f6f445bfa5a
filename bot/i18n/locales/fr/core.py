"""Le front commun de tous les jeux (salon, boutons, places, refus, MP, règles de table) : français.

Ne nomme aucun jeu."""

MESSAGES = {
    "core.lobby.title": "{game} : prenez place",
    "core.lobby.seats": "Places ({taken}/{max})",
    "core.lobby.nobody": "personne pour l'instant",
    "core.lobby.host": " (hôte)",
    "core.lobby.started": "La partie a commencé : suivez les messages de tour ci-dessous.",
    "core.lobby.cancelled_by": "Annulée par {name}.",
    "core.lobby.everyone_left": "Tout le monde est parti ; la table est fermée.",
    "core.button.join": "Rejoindre",
    "core.button.leave": "Quitter",
    "core.button.start": "Lancer",
    "core.button.cancel": "Annuler",
    "core.ai.placeholder": "Ajouter une IA (hôte)…",
    "core.ai.option": "Ajouter une IA ({level})",
    "core.ai.level.easy": "facile",
    "core.ai.level.normal": "normale",
    "core.ai.level.hard": "difficile",
    "core.footer": "{game} · partie n° {id}",
    "core.footer.final": "{game} · partie n° {id} · fin",
    "core.done": "C'est fait.",
    "core.dm.lobby": "La partie dans {channel} n'a pas encore commencé.",
    "core.error.turn_over": "Ce tour est terminé. Utilisez le dernier message de tour.",
    "core.error.sent_before": ("Ce message a été envoyé pendant {then}, qui est fini : il ne compte pas. En cours "
                               "maintenant : {now}. Renvoyez votre choix."),
    "core.error.sent_before_step": ("Ce message a été envoyé avant le début de l'étape en cours : il ne compte "
                                    "pas. Renvoyez votre choix."),
    "core.error.not_offered": ("Ce choix ne fait pas partie de ceux que ce tour propose : "
                               "utilisez les boutons du dernier message de tour."),
    "core.error.their_turn": "C'est au tour de {name}, pas au vôtre.",
    "core.error.ai_players": "Ce jeu accepte de 0 à {high} IA au départ.",
    "core.error.try_again": "J'ai répondu trop lentement ; appuyez à nouveau sur le bouton.",
    "core.error.no_board": "Ce jeu montre ses plateaux avec sa propre commande.",
    "core.cmd.board": "plateau",
    "core.cmd.board.desc": "Le plateau d'un joueur dans la partie ici (ou dans la vôtre)",
    "core.cmd.board.player": "Le plateau de qui (par défaut : le vôtre)",
    "core.dm.no_game": ("Vous n'êtes dans aucune partie. Lancez-en une dans un salon avec {start}, ou "
                        "rejoignez-en une avec son bouton **Rejoindre** ; envoyez-moi ensuite vos coups ici."),
    "core.dm.final_waits": ("Votre partie de {game} dans {channel} est terminée, mais je n'ai pas le droit d'y "
                            "publier le résultat. Donnez-moi Voir le salon, Envoyer des messages et Intégrer des "
                            "liens dans ce salon : je le publierai dès que possible. Le résultat est enregistré."),
    "core.dm.away": ("Vous avez laissé passer le temps {misses} tours de suite dans votre partie de {game} dans "
                     "{channel} : vous êtes marqué absent. Le bot joue pour vous quand le temps est écoulé et ne "
                     "vous rappelle plus. Jouez un coup (un bouton du message de tour, ou un MP) pour revenir."),
    "core.dm.stopped": ("Votre partie de {game} dans {channel} a été arrêtée : {why}. Tout ce qui a été joué est "
                        "enregistré."),
    "core.stop.database_lost": ("⚠️ Je ne peux plus enregistrer cette partie : mon fichier de base de données a été "
                                "supprimé ou remplacé. Je m'arrête pour être relancé ; rien de ce qui est envoyé "
                                "désormais n'est pris en compte."),
    "core.stop.channel_deleted": "le salon a été supprimé",
    "core.stop.no_permission": "je n'ai plus le droit d'écrire dans ce salon",
    "core.reply.joined": "Vous avez pris une place. L'hôte lance la partie.",
    "core.reply.left_table": "Vous avez quitté la table.",
    "core.reply.left_game": "Vous avez quitté la partie ; elle continue sans vous.",
    "core.reply.kicked": "{name} ne joue plus dans cette partie.",
    "core.reply.language_set": "Désormais, je parle {language} sur ce serveur.",
    "core.reply.language_auto": "Désormais, je suis la langue Discord de chacun sur ce serveur.",
    "core.language.en": "anglais",
    "core.language.fr": "français",
    "core.error.generic": "Un problème est survenu de mon côté. La partie est enregistrée ; réessayez.",
    "core.error.not_saved": "Je n'ai pas pu enregistrer cela, réessayez dans un instant.",
    "core.error.no_game_here": "Il n'y a pas de partie dans ce salon. Lancez-en une avec {start}.",
    "core.error.not_in_game": "Vous ne jouez pas dans cette partie.",
    "core.error.not_host.start": "Seul l'hôte peut lancer la partie.",
    "core.error.not_host.cancel": ("Seul l'hôte peut annuler la partie (ou un membre avec la permission Gérer le "
                                   "serveur)."),
    "core.error.not_host.add_ai": "Seul l'hôte peut ajouter des IA.",
    "core.error.not_host.kick": "Seul l'hôte peut retirer un joueur.",
    "core.error.not_started": "La partie n'a pas encore commencé.",
    "core.error.over": "Cette partie est terminée.",
    "core.error.cancelled": "Cette partie a été annulée.",
    "core.error.not_running": "Cette partie n'est pas en cours.",
    "core.error.not_enough": "Il faut au moins {count} joueurs pour commencer.",
    "core.error.already_seated": "Vous avez déjà une place dans cette partie.",
    "core.error.already_started": "La partie a déjà commencé.",
    "core.error.kick_in_lobby": "La partie n'a pas commencé ; les joueurs peuvent simplement quitter la table.",
    "core.error.not_playing_name": "{name} ne joue pas dans cette partie.",
    "core.error.no_game_anywhere": "Aucune partie n'est en cours ici, et vous ne jouez dans aucune.",
    "core.error.channel_busy": "Il y a déjà une partie dans ce salon.",
    "core.error.already_playing": "Vous jouez déjà dans {channel}.",
    "core.error.full": "Toutes les places sont prises.",
    "core.error.need_manage": "Seul un membre avec la permission Gérer le serveur peut changer la langue du bot.",
    "core.error.not_your_turn": "Ce n'est pas votre tour : la partie attend quelqu'un d'autre.",
    "core.error.not_finished": "Cette partie n'est pas terminée : elle pourra être exportée à la fin.",
    "core.error.bad_option": "L'option {name} doit valoir {allowed}.",
    "core.error.option_seats": "L'option {name} demande de {low} à {high} joueurs.",
    "core.lobby.host_passed": "{old} a quitté la table : {new} est maintenant l'hôte.",
    "core.game.abandoned": ("La partie est abandonnée : il reste moins de deux joueurs. Elle ne compte dans aucune "
                            "statistique."),
    "core.reply.left_abandoned": ("Vous avez quitté la partie. Avec moins de deux joueurs restants, elle est "
                                  "abandonnée et ne compte dans aucune statistique."),
    "core.reply.kicked_abandoned": ("{name} ne joue plus. Avec moins de deux joueurs restants, la partie est "
                                    "abandonnée et ne compte dans aucune statistique."),
    "core.stop.guild_removed": "le bot a été retiré de ce serveur",
    "core.error.guild_only": "Les parties se jouent sur un serveur : utilisez cette commande dans un salon de serveur.",
    "core.error.ai_level": "Ce niveau d'IA n'existe pas ; choisissez parmi : {levels}.",
    "core.error.missing_permissions": ("Je ne peux pas mener une partie dans ce salon : il me manque ici la "
                                       "permission {permissions}. Demandez à un administrateur du serveur de me "
                                       "l'accorder, puis réessayez."),
    "core.perm.view_channel": "Voir le salon",
    "core.perm.send_messages": "Envoyer des messages",
    "core.perm.send_messages_in_threads": "Envoyer des messages dans les fils",
    "core.perm.embed_links": "Intégrer des liens",
    "core.perm.attach_files": "Joindre des fichiers",
    "core.dm.blocked": "Je ne peux pas vous écrire en privé : jouez avec les boutons des messages de tour.",
    # Issue 36 : mots des MP, /notify, rappels par mention, Rejouer
    "core.dm.help": ("Vous jouez à {game} dans {channel}. Envoyez-moi ici : votre coup ({how}) ; `plateau` pour "
                     "votre plateau ; `score` pour les scores ; `règles` pour les règles ; `quitter` pour quitter la "
                     "partie (vous la perdez)."),
    "core.dm.can_send": "Vous pouvez envoyer : {how}, ou `aide`, `plateau`, `score`, `règles`, `quitter`.",
    "core.dm.quit_confirm": ("Quitter vous fait perdre votre partie de {game} dans {channel} : les autres continuent "
                             "sans vous. Pour quitter maintenant, envoyez `quitter oui`."),
    "core.remind.mention": "⏰ {names} : plus que {seconds} s pour jouer votre tour de {game}.",
    "core.cmd.notify": "notify",
    "core.cmd.notify.desc": "Comment je vous rappelle avant la fin du temps : par MP, ou une mention si MP fermés",
    "core.cmd.notify.dm": "mp",
    "core.cmd.notify.dm.desc": "Rappels par MP (oui ou non)",
    "core.cmd.notify.mention": "mention",
    "core.cmd.notify.mention.desc": "Une mention dans le salon quand aucun MP ne vous parvient (oui ou non)",
    "core.reply.notify": ("Rappels avant la fin du temps, dans toutes les parties : par MP **{dm}** ; une mention dans "
                          "le salon quand aucun MP ne vous parvient **{mention}**."),
    "core.on": "oui",
    "core.off": "non",
    "core.button.again": "Rejouer",
    "core.again.invite": ("{names} : une nouvelle table de {game} est ouverte avec les mêmes options. Appuyez sur "
                          "**Rejoindre** pour rejouer."),
    "core.again.busy": "Une table est déjà ouverte dans ce salon : rejoignez-la ou terminez-la d'abord.",
    "core.again.gone": "Les options de cette partie ne sont plus connues ; ouvrez une table avec {start}.",
}
