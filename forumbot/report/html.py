"""Writing a report's HTML page (and the series page) with its assets.

The page is ``forumbot/templates/html/<page>.html`` (structure) with the words of
``forumbot/templates/<locale>/report/words.html``, rendered by Jinja2 with HTML autoescaping, so any name a player
chose (``<script>``...) is shown as text. The report data is embedded as JSON
(``<script type="application/json" id="report-data">``, written with Jinja2's ``tojson``, which escapes
``<``, ``>``, ``&`` and ``'``) for anyone who wants the numbers. The charts are SVG drawn on our side by
matplotlib (:mod:`forumbot.report.charts`) and put in the page as they are: no script, no chart library, no
network address; the page and ``assets/report.css`` work offline, from a file.
"""

from __future__ import annotations

import functools
import shutil
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from forumbot.language.vocabulary import VERB_WORDS
from forumbot.render import LOCALES, TEMPLATES
from forumbot.resources import package_dir

ASSETS = package_dir("report/assets")
_LANG = {"zh-Hans": "zh-Hans", "zh-Hant": "zh-Hant", "en": "en"}


def environment(locale: str) -> jinja2.Environment:
    """The Jinja2 environment of report pages in ``locale``; ValueError for an unknown locale."""
    if locale not in LOCALES:
        raise ValueError(f"unknown locale {locale!r}; choose one of {', '.join(LOCALES)}")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(TEMPLATES / locale), str(TEMPLATES / "html")]),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
    )
    env.globals["verb_words"] = VERB_WORDS[locale]  # <locale>/_macros.j2, shared with the posts' templates
    return env


def render_page(page: str, data: dict[str, Any], locale: str) -> str:
    """The HTML text of ``page`` ("report" or "series") for ``data`` in ``locale``, its charts drawn in."""
    from forumbot.report.charts import report_charts, series_charts

    env = environment(locale)
    words = chart_words(env, data.get("meta", {}).get("ruleset"))
    drawn = series_charts(data, words) if page == "series" else report_charts(data, locale, words)
    charts = {cid: Markup(svg) for cid, svg in drawn.items()}  # matplotlib's SVG: names escaped by its writer
    return env.get_template(f"{page}.html").render(data=data, lang=_LANG[locale], charts=charts)


def chart_words(env: jinja2.Environment, ruleset: str | None) -> dict[str, Any]:
    """The charts' words (``report/words.html``'s ``chart_words``) with the camps in ``ruleset``'s own words where it
    has them (《阳光下的罪恶》 says 凶手, not 杀手)."""
    module: Any = env.get_template("report/words.html").module
    words = dict(module.chart_words)
    words["camps"] = {**module.camps, **module.ruleset_words.get(ruleset or "", {})}
    return words


def fact_line(kind: str, data: dict[str, Any], locale: str) -> str:
    """One timeline line (an event as :func:`forumbot.report.data._fact` gives it) in ``locale``, as plain text."""
    return str(_facts(locale).line(kind, data))


@functools.cache
def _facts(locale: str) -> Any:
    return environment(locale).get_template("report/facts.html").module


def write_page(page: str, data: dict[str, Any], locale: str, out_dir: str | Path) -> Path:
    """Write ``index.html`` (``page`` rendered) and ``assets/`` into ``out_dir`` (created if needed);
    returns the page's path. Raises OSError when the folder cannot be written."""
    out = Path(out_dir)
    (out / "assets").mkdir(parents=True, exist_ok=True)
    for asset in ASSETS.iterdir():
        if asset.is_file():
            shutil.copyfile(asset, out / "assets" / asset.name)
    path = out / "index.html"
    path.write_text(render_page(page, data, locale), encoding="utf-8")
    return path
