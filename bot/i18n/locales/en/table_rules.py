"""Table rules on Discord (hosts, abandoned games, servers and permissions): English."""

MESSAGES = {
    "lobby.host_passed": "{old} left the table: {new} is the host now.",
    "game.abandoned": "The game is abandoned: fewer than two players are left. It counts in no statistic.",
    "reply.left_abandoned": "You left the game. With fewer than two players left it is abandoned "
                            "and counts in no statistic.",
    "reply.kicked_abandoned": "{name} no longer plays. With fewer than two players left the game is abandoned "
                              "and counts in no statistic.",
    "stop.guild_removed": "the bot was removed from that server",
    "error.guild_only": "The Number is played in a server: use this command in a server channel.",
    "error.ai_level": "That AI level does not exist; choose one of: {levels}.",
    "error.missing_permissions": "I can't run a game in this channel: I lack the permission {permissions} "
                                 "here. Ask a server admin to grant it to me, then try again.",
    "perm.view_channel": "View Channel",
    "perm.send_messages": "Send Messages",
    "perm.send_messages_in_threads": "Send Messages in Threads",
    "perm.embed_links": "Embed Links",
    "perm.attach_files": "Attach Files",
}
