"""Rendering the console's pages: one Jinja2 environment a locale (HTML autoescaped, so a name or a message a
player wrote is shown as text), the page's locale (``?lang=``, else the season's), and the message page every
error becomes."""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import urlencode

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse

from forumbot.render import LOCALES, TEMPLATES


@functools.cache
def environment(locale: str) -> jinja2.Environment:
    """The console's templates in ``locale``: structure in ``templates/html/console/``, words in
    ``templates/<locale>/console/words.html``."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(TEMPLATES / locale), str(TEMPLATES / "html")]),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
    )
    return env


def page_locale(request: Request, default: str = "en") -> str:
    """The locale asked for with ``?lang=`` (one of :data:`forumbot.render.LOCALES`), else ``default``."""
    lang = request.query_params.get("lang")
    return lang if lang in LOCALES else (default if default in LOCALES else "en")


def link(request: Request, path: str, **params: Any) -> str:
    """``path`` with ``params`` (None values left out) and the page's ``?lang=`` when one was asked for."""
    query = {k: v for k, v in params.items() if v not in (None, "")}
    if request.query_params.get("lang") in LOCALES and "lang" not in query:
        query["lang"] = request.query_params["lang"]
    return path + ("?" + urlencode(query) if query else "")


async def read_form(request: Request) -> Any:
    """The posted form of ``request``, or None when its body cannot be read as one (a broken multipart body, a
    form too big: Starlette's parser raises for it): the page answers "the request could not be read"."""
    try:
        return await request.form(max_part_size=64 * 1024)
    except Exception:  # whatever the parser raises for a body that is not a form
        return None


def render(request: Request, template: str, locale: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """The page ``console/<template>.html`` in ``locale``."""
    env = environment(locale)
    here = request.url.path

    def switch(lang: str) -> str:
        query = dict(request.query_params)
        query["lang"] = lang
        return here + "?" + urlencode(query)

    body = env.get_template(f"console/{template}.html").render(
        locale=locale, locales=LOCALES, switch=switch, link=functools.partial(link, request), **context)
    return HTMLResponse(body, status_code=status_code)


def message(request: Request, locale: str, key: str, status_code: int = 400, *values: Any, detail: str = "",
            refusal: Any = None, back: str | None = None) -> HTMLResponse:
    """The message page: the words ``key`` of ``console/words.html``'s ``messages`` (formatted with ``values``),
    ``detail`` shown as it is, the reason ``refusal`` (a :class:`forumbot.runtime.organiser_checks.OrganiserRefusal`) in
    the words of ``console/refusals.html``, and a link back."""
    home = "/public" if request.url.path.startswith("/public") else "/"
    return render(request, "message", locale, status_code=status_code, key=key, detail=detail,
                  values=[shortened(str(v)) for v in values], refusal=refusal, back=back or link(request, home),
                  home=home)


#: the most of a value from the request (a season's name, a page number) a message page repeats
SHOWN = 80


def shortened(text: str) -> str:
    """``text`` as a message page repeats it: at most :data:`SHOWN` characters (a huge URL is not echoed)."""
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"
