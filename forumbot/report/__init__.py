"""Static HTML reports of a season: one offline page with charts (issue 13).

:mod:`forumbot.report.log` replays a game (a transcript or a stored season) keeping every step;
:mod:`forumbot.report.data` turns that into the report's plain data (everything, or only what the
thread showed: ``public=True``); :mod:`forumbot.report.html` writes the page from the Jinja2 templates
``forumbot/templates/<locale>/report/`` with the charts :mod:`forumbot.report.charts` draws as SVG (matplotlib).
"""
