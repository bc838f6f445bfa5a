"""Daily tables (issue 38): deadlines, reminders, /mygames, /server timezone, the /notify summary: English."""

MESSAGES = {
    "daily.deadline": "⏳ Deadline {when} ({left})",
    "daily.remind": ("⏰ Your turn in {game} in {channel} is waiting: the deadline is {when} ({left}); then the bot "
                     "plays for you. {link}"),
    "daily.mention": "⏰ {names}: your turn in {game} is waiting; deadline {left}.",
    "daily.dm.away": ("You missed {misses} deadlines in a row in your game of {game} in {channel}: the AI now plays "
                      "your turns so that the table goes on (a turn waiting only for you lasts an hour, and you are "
                      "not reminded). Make a move (a button on the turn message, or a DM) to come back."),
    "daily.pace.live": "live",
    "daily.pace.daily": "daily",
    "daily.cmd.mygames": "mygames",
    "daily.cmd.mygames.desc": "Every table waiting for you, in every server",
    "daily.cmd.server": "server",
    "daily.cmd.server.desc": "This server's settings for the bot",
    "daily.cmd.timezone": "timezone",
    "daily.cmd.timezone.desc": "The time zone of the daily tables' quiet hours (Manage Server)",
    "daily.cmd.timezone.zone": "zone",
    "daily.cmd.timezone.zone.desc": "An IANA time zone, such as Europe/Paris (empty: show the current one)",
    "daily.cmd.notify.summary": "summary",
    "daily.cmd.notify.summary.desc": "A daily DM listing the tables waiting for you (on or off)",
    "daily.reply.summary": "A daily DM listing the tables waiting for you **{summary}**.",
    "daily.mygames.none": "No table is waiting for you right now.",
    "daily.mygames.head": "{count} {count:plural:table is|tables are} waiting for you:",
    "daily.mygames.line": "• **{game}** in {channel} ({pace}), deadline {left}: {link}",
    "daily.mygames.more": "…and {count} more.",
    "daily.summary": "Your daily summary of the tables waiting for you (turn it off with `/notify summary:False`):",
    "daily.timezone.shown": "This server's daily tables keep quiet from 23:00 to 08:00 in **{zone}**.",
    "daily.timezone.set": "From now on this server's daily tables keep quiet from 23:00 to 08:00 in **{zone}**.",
    "daily.timezone.unknown": ("`{zone}` is not a time zone I know. Give an IANA name such as `Europe/Paris`, "
                               "`America/New_York` or `UTC`."),
    "daily.timezone.not_allowed": "Only members with Manage Server can change the server's time zone.",
}
