"""Table rules on Discord (hosts, abandoned games, servers and permissions): French."""

MESSAGES = {
    "lobby.host_passed": "{old} a quitté la table : {new} est maintenant l'hôte.",
    "game.abandoned": "La partie est abandonnée : il reste moins de deux joueurs. Elle ne compte dans aucune "
                      "statistique.",
    "reply.left_abandoned": "Vous avez quitté la partie. Avec moins de deux joueurs restants, elle est abandonnée "
                            "et ne compte dans aucune statistique.",
    "reply.kicked_abandoned": "{name} ne joue plus. Avec moins de deux joueurs restants, la partie est abandonnée "
                              "et ne compte dans aucune statistique.",
    "stop.guild_removed": "le bot a été retiré de ce serveur",
    "error.guild_only": "The Number se joue sur un serveur : utilisez cette commande dans un salon de serveur.",
    "error.ai_level": "Ce niveau d'IA n'existe pas ; choisissez parmi : {levels}.",
    "error.missing_permissions": "Je ne peux pas mener une partie dans ce salon : il me manque ici la permission "
                                 "{permissions}. Demandez à un administrateur du serveur de me l'accorder, puis "
                                 "réessayez.",
    "perm.view_channel": "Voir le salon",
    "perm.send_messages": "Envoyer des messages",
    "perm.send_messages_in_threads": "Envoyer des messages dans les fils",
    "perm.embed_links": "Intégrer des liens",
    "perm.attach_files": "Joindre des fichiers",
}
