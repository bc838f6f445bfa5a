"""English messages of skill ratings: the final message's changes, /<game> stats, the leaderboard by rating and
the seasons (area ``ratings``)."""

MESSAGES: dict[str, str] = {
    "ratings.number": "{value}",
    "ratings.provisional_mark": "{value}?",
    # the final message
    "ratings.final.title": "Ratings on this server",
    "ratings.final.line": "{who}: {change} → **{rating}**",
    "ratings.final.footer": "? provisional: fewer than {count} rated games. AI players are not rated.",
    # /<game> stats
    "ratings.stats.server": "Rating on this server",
    "ratings.stats.global": "Rating across servers",
    "ratings.stats.season": "Season {season}",
    "ratings.stats.value": "**{rating}** ({games} rated {games:plural:game|games})",
    "ratings.stats.provisional": "**{rating}** (provisional: {games} of {count} games)",
    # /<game> leaderboard by: rating, season:
    "ratings.lb.title": "{game}: leaderboard by rating",
    "ratings.lb.title.season": "{game}: season {season} by rating",
    "ratings.lb.row": "**{rank}.** {name}: **{rating}** ({games} {games:plural:game|games})",
    "ratings.lb.empty": "Nobody has {count} rated games here yet.",
    "ratings.lb.footer": "All time on this server · at least {count} rated games (fewer: provisional)",
    "ratings.lb.footer.season": "{start} to {end} (UTC) · at least {count} rated games",
    "ratings.lb.period_ignored": "ratings count every game: choose a season for a shorter span",
    "ratings.podium.title": "{game}: podiums of past seasons",
    "ratings.podium.season": "Season {season}",
    "ratings.podium.none": "Nobody reached {count} rated games.",
    "ratings.podium.empty": "No past season on this server yet.",
    "ratings.podium.footer": "Each season starts from scratch: {length}.",
    "ratings.length.month": "a season is a calendar month (UTC)",
    "ratings.length.quarter": "a season is a calendar quarter (UTC)",
    # /<game> seasons
    "ratings.seasons.set": "From now on, {length}. Games already rated keep the season they counted in.",
    "ratings.seasons.shown": "On this server, {length}. Members with Manage Server can change it.",
    "ratings.seasons.not_allowed": "Only members with Manage Server can change the season length.",
    # slash commands
    "ratings.cmd.seasons": "seasons",
    "ratings.cmd.seasons.desc": "How long a rating season lasts on this server (month or quarter)",
    "ratings.opt.length": "length",
    "ratings.opt.length.desc": "A month or a quarter (Manage Server); empty: show the current one",
    "ratings.opt.season": "season",
    "ratings.opt.season.desc": "Rating seasons: this season's board, or the podiums of past ones",
    "ratings.choice.rating": "Rating",
    "ratings.choice.current": "This season",
    "ratings.choice.past": "Past seasons (podiums)",
    "ratings.choice.month": "A month",
    "ratings.choice.quarter": "A quarter",
}
