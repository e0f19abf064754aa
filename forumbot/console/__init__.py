"""The organiser's web console (issue 31): every season of a ``forumbot serve`` directory (or the one season of
``forumbot run FILE --web``) on server-rendered pages, with its phase, the inbound log, the outbox and the report,
and the organiser commands of ``forumbot organiser`` behind a confirmation page. Starlette with Jinja2 templates,
served by uvicorn (:mod:`forumbot.console.server`); logins are :mod:`forumbot.console.auth`'s."""
