"""Rendering engine outputs to forum text with Jinja2 templates.

Templates live in ``forumbot/templates/<locale>/<key>.j2`` (shipped in the package) (locale: zh-Hans, zh-Hant, en); a file
``<key>.<markup>.j2`` (markup: bbcode, markdown) takes precedence over ``<key>.j2`` for that markup. A
season may name an override folder with the same layout, searched first. Markup is written through
filters (``|b``, ``|ul``, ``|table``, ``|names``...), so one template serves both markups; every value
printed with ``{{ }}`` is escaped for the markup unless a markup filter already made it safe, so a
player's name can never inject markup into a post. A ruleset's template may extend a common one: each
``<ruleset>/rejected.j2`` extends ``common/rejected.j2``, the catalogue of refusal reasons two or more rulesets
give, and words only the reasons of its own. Verbs are shown with the ``m.verb`` macro of ``_macros.j2``: the
words of :data:`forumbot.language.vocabulary.VERB_WORDS`, which the parser reads.

For a forum in GBK (``charset="gbk"``: a GBK Discuz! shows characters GBK lacks as raw ``&#NNN;`` codes)
every rendered text is made GBK-safe (✓ → √, ✗ → ×, ♥ → 心, emoji marked □; see
:mod:`forumbot.forums.gbk_text`), and templates can test the global ``gbk`` to pick other symbols there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from forumbot.forums.gbk_text import gbk_safe
from forumbot.language.vocabulary import VERB_WORDS
from forumbot.resources import package_dir

TEMPLATES = package_dir("templates")
LOCALES = ("zh-Hans", "zh-Hant", "en")
MARKUPS = ("bbcode", "markdown")


class Safe(str):
    """Text already in the target markup: printed as is."""


# Characters that can start Markdown (CommonMark, mistune, Discourse) inline markup or HTML;
# backslash-escaping them is valid everywhere and renders as the character itself.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|~&])")


def escape(value: Any, markup: str) -> Safe:
    """``value`` as text that shows literally in ``markup`` (no tag, link or emphasis can start)."""
    if isinstance(value, Safe):
        return value
    text = str(value)
    if markup == "markdown":
        return Safe(_MD_SPECIAL.sub(r"\\\1", text))
    # BBCode has no escape: a zero-width space after "[" stops any tag from being recognised.
    return Safe(text.replace("[", "[\u200b"))


def fmt_points(value: Any) -> str:
    """Points as players write them: 3, -1.5, 0.5 (no trailing .0)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


# Units of |duration per locale: hours, minutes, seconds, and what goes between a number and its unit.
_DURATION_UNITS = {
    "zh-Hans": ("小时", "分钟", "秒", ""),
    "zh-Hant": ("小時", "分鐘", "秒", ""),
    "en": ("h", "min", "s", " "),
}


def duration(seconds: Any, locale: str) -> str:
    """A length of time in ``locale``'s words: 1小时30分钟, 1小時30分鐘, 1 h 30 min (seconds only
    when there are some, or for zero: 45秒, 0 s)."""
    h_unit, m_unit, s_unit, gap = _DURATION_UNITS[locale]
    total = int(seconds)
    h, rest = divmod(total, 3600)
    m, sec = divmod(rest, 60)
    parts = [(n, u) for n, u in ((h, h_unit), (m, m_unit), (sec, s_unit)) if n] or [(0, s_unit)]
    return (" " if gap else "").join(f"{n}{gap}{u}" for n, u in parts)


def _filters(markup: str, tables: bool = True) -> dict[str, Any]:
    md = markup == "markdown"

    def b(v: Any) -> Safe:
        e = escape(v, markup)
        return Safe(f"**{e}**" if md else f"[b]{e}[/b]")

    def ul(items: Iterable[Any]) -> Safe:
        items = [escape(x, markup) for x in items]
        if md:
            return Safe("\n".join(f"- {x}" for x in items))
        return Safe("[list]\n" + "\n".join(f"[*]{x}" for x in items) + "\n[/list]")

    def table(rows: Iterable[Iterable[Any]], header: Iterable[Any] | None = None) -> Safe:
        cells = [[escape(c, markup) for c in r] for r in rows]
        head = [escape(c, markup) for c in header] if header is not None else None
        if md:
            lines = []
            if head is None:
                head = [Safe(" ")] * (len(cells[0]) if cells else 1)
            lines.append("| " + " | ".join(head) + " |")
            lines.append("|" + "---|" * len(head))
            lines += ["| " + " | ".join(r) + " |" for r in cells]
            return Safe("\n" + "\n".join(lines))  # a table must not continue the paragraph before it
        if not tables:  # phpBB has no [table] BBCode: a bold header line and a list of rows
            out = [f"[b]{' · '.join(head)}[/b]"] if head is not None else []
            out += ["[list]", *(f"[*]{' · '.join(r)}" for r in cells), "[/list]"]
            return Safe("\n".join(out))
        out = ["[table]"]
        if head is not None:
            out.append("[tr]" + "".join(f"[td][b]{c}[/b][/td]" for c in head) + "[/tr]")
        out += ["[tr]" + "".join(f"[td]{c}[/td]" for c in r) + "[/tr]" for r in cells]
        out.append("[/table]")
        return Safe("\n".join(out))

    def names(v: Iterable[Any], sep: str = ", ") -> Safe:
        return Safe(sep.join(escape(x, markup) for x in v))

    def pts(v: Any) -> Safe:
        return escape(fmt_points(v), markup)

    def pct(v: float) -> Safe:
        return escape(f"{v * 100:.2f}%", markup)

    def raw(v: Any) -> Safe:
        """Trusted text from the season config (e.g. a rules summary the organiser wrote)."""
        return Safe(str(v))

    def extract(key: Any, container: Any) -> Any:
        return container[key]

    return {"extract": extract, "b": b, "ul": ul, "table": table, "names": names, "pts": pts, "pct": pct, "raw": raw}


class Renderer:
    """Renders template keys for one locale and markup.

    ``overrides``: a folder searched before ``forumbot/templates/`` (same layout); ``charset`` "gbk" for a forum
    that can store only GBK (None: any Unicode); ``tables`` False for a BBCode forum without ``[table]``
    (phpBB: tables become a bold header line and a list of rows). Raises ValueError for an unknown locale or markup and
    :class:`jinja2.TemplateNotFound` for a key with no template.
    """

    def __init__(self, locale: str = "zh-Hans", markup: str = "markdown", overrides: str | Path | None = None,
                 charset: str | None = None, tables: bool = True) -> None:
        if locale not in LOCALES:
            raise ValueError(f"unknown locale {locale!r}; choose one of {', '.join(LOCALES)}")
        if markup not in MARKUPS:
            raise ValueError(f"unknown markup {markup!r}; choose one of {', '.join(MARKUPS)}")
        self.locale, self.markup = locale, markup
        self.gbk = (charset or "").lower() in ("gbk", "gb2312", "gb18030")
        roots = ([Path(overrides)] if overrides else []) + [TEMPLATES]
        paths = [str(r / locale) for r in roots] + [str(r / "_shared") for r in roots]
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(paths),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=False,
            trim_blocks=True,
            lstrip_blocks=True,
            finalize=lambda v: escape("" if v is None else v, markup),
        )
        self.env.filters.update(_filters(markup, tables))
        self.env.filters["duration"] = lambda seconds: duration(seconds, locale)
        self.env.globals["markup"] = markup
        self.env.globals["gbk"] = self.gbk
        self.env.globals["verb_words"] = VERB_WORDS[locale]
        #: key -> the template file it resolved to (``KEY.<markup>.j2`` or ``KEY.j2``): the search for a markup's
        #: own file is a miss for most keys, and Jinja does not keep misses; a file edited on disk is still
        #: reloaded, a markup's file added after the first render of its key is read after a restart
        self._names: dict[str, str] = {}
        self.env.globals["part"] = self._part

    @jinja2.pass_context
    def _part(self, ctx: jinja2.runtime.Context, key: str, data: dict[str, Any]) -> Safe:
        """Template ``key`` rendered with ``data`` inside another text (a substitute's copy of a private message
        his predecessor was sent), with the outer text's runtime context (the deadline)."""
        template = self._template(key)
        runtime = {k: ctx[k] for k in ("deadline",) if k in ctx}
        return Safe(_BLANK_LINES.sub("\n\n", template.render({**runtime, **data}).strip()))

    def _template(self, key: str) -> jinja2.Template:
        """The template of ``key``: the markup's own ``KEY.<markup>.j2`` if there is one, else ``KEY.j2``; the
        file found is remembered (:attr:`_names`)."""
        name = self._names.get(key)
        if name is None:
            template = self.env.get_or_select_template([f"{key}.{self.markup}.j2", f"{key}.j2"])
            self._names[key] = template.name or f"{key}.j2"
            return template
        return self.env.get_template(name)

    def render(self, key: str, data: dict[str, Any], **context: Any) -> str:
        """The text of template ``key`` with ``data`` (and runtime ``context`` such as deadlines)."""
        template = self._template(key)
        # at most one blank line between paragraphs: a template's optional parts (and a table's own blank line
        # after one) never leave a run of empty lines in a post
        text = _BLANK_LINES.sub("\n\n", template.render({**context, **data}).strip()) + "\n"
        return gbk_safe(text) if self.gbk else text


_BLANK_LINES = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")


@cache
def renderer(locale: str = "zh-Hans", markup: str = "markdown", overrides: str | None = None,
             charset: str | None = None, tables: bool = True) -> Renderer:
    """A :class:`Renderer` shared by every caller with the same arguments: the seasons of one `forumbot
    serve` process share their compiled templates instead of compiling them once a season (a Jinja2
    environment is safe to render from several threads; templates edited on disk are still reloaded)."""
    return Renderer(locale, markup, overrides, charset, tables)
