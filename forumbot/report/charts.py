"""The report's charts as SVG, drawn on our side with matplotlib (its SVG backend, text kept as text).

Each chart is an ``<svg>`` element put in the page as it is: the page needs no script and no chart library,
so it works offline, from a file. Every chart has a legend saying who (or what) each colour is: the vote
rounds (:func:`forumbot.vote_chart.figure`, the figure the Discuz! PNG shows too), the running scores, the
win index against its threshold, the deaths by cause, the living players per camp and the series' games
played and won. Names are written by matplotlib's SVG writer, which escapes ``<``, ``>`` and ``&``; math
parsing is off (``$x$`` is a name, not a formula). The same data gives the same bytes (each chart's ids are
salted by its element id, so two charts of one page never share an id).
"""

from __future__ import annotations

import functools
import io
import re
import warnings
from collections.abc import Callable
from typing import Any

from forumbot.vote_chart import cjk_font, figure, palette, rc

WIDTH_INCHES = 8.0
#: where the legend goes: right of the plot
_RIGHT = 0.74


def _svg(fig: Any, chart_id: str) -> str:
    """``fig`` as one ``<svg>`` element (no XML prolog: it goes inside the HTML page); its legend's group
    gets the id ``<chart_id>-legend``."""
    for legend in [*fig.legends, *(ax.get_legend() for ax in fig.axes)]:
        if legend is not None:
            legend.set_gid(f"{chart_id}-legend")
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    text = out.getvalue()
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.DOTALL)  # RDF about the file: not needed
    # matplotlib numbers its groups per figure (text_3, patch_7): prefixed, ids stay unique in the page
    return re.sub(r' id="([a-z][a-z0-9_.]*_\d+)"', rf' id="{chart_id}-\1"', text[text.index("<svg"):])


def _draw(chart_id: str, make: Callable[[], Any]) -> str:
    import matplotlib

    settings = rc(cjk_font()) | {"svg.hashsalt": f"forumbot-{chart_id}"}
    with matplotlib.rc_context(settings), warnings.catch_warnings():  # type: ignore[arg-type]  # (keys typed as literals)
        # without a CJK font here the layout is measured in the fallback font; the browser draws the text
        warnings.filterwarnings("ignore", message="Glyph .* missing")
        return _svg(make(), chart_id)


def _figure(height: float = 3.6, bottom: float = 0.18) -> tuple[Any, Any]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH_INCHES, height), dpi=100)
    ax = fig.add_axes((0.08, bottom, _RIGHT - 0.1, 0.9 - bottom))
    ax.spines[["top", "right"]].set_visible(False)
    return fig, ax


def _legend(ax: Any, title: str | None = None, many: bool = False) -> None:
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=9, title=title, title_fontsize=9,
              ncols=2 if many else 1, frameon=False)


def _integers(ax: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def report_charts(data: dict[str, Any], locale: str, words: dict[str, Any]) -> dict[str, str]:
    """Element id -> ``<svg>`` of every chart of a report page (``data``: :func:`forumbot.report.data.extract`;
    ``words``: the page's chart words, ``report/words.html``'s ``chart_words``, with ``camps`` already in the
    ruleset's own words). Ids: ``vote-chart-<index>``, ``score-chart``, ``index-chart``, ``death-chart``,
    ``camp-chart`` (only those the data has)."""
    charts: dict[str, str] = {}
    # a seat's colour, the same in every chart, under each name it had (a substitute keeps the seat's colour)
    colours = {}
    for p, colour in zip(data["players"], palette(len(data["players"])), strict=True):
        for name in [*p.get("replaced", []), p["name"]]:
            colours[name] = colour
    for v in data["votes"]:
        cid = f"vote-chart-{v['index']}"
        charts[cid] = _draw(cid, functools.partial(figure, v, locale, colours, footer=False))
    if data.get("scores"):
        charts["score-chart"] = _draw("score-chart", lambda: _scores(data["scores"], words, colours))
        charts["index-chart"] = _draw("index-chart", lambda: _win_index(data["scores"], words))
    if data["deaths"]:
        charts["death-chart"] = _draw("death-chart", lambda: _deaths(data["deaths"], words))
    if data.get("camps"):
        charts["camp-chart"] = _draw("camp-chart", lambda: _camps(data["camps"], words))
    return charts


def series_charts(data: dict[str, Any], words: dict[str, Any]) -> dict[str, str]:
    """Element id -> ``<svg>`` of the series page: ``series-chart``, each player's games played and won."""
    if not data["rows"]:
        return {}
    return {"series-chart": _draw("series-chart", lambda: _series(data["rows"], words))}


def _round(words: dict[str, Any], r: Any) -> str:
    return str(words["round"]).replace("{}", str(r))


def _scores(s: dict[str, Any], words: dict[str, Any], colours: dict[str, str]) -> Any:
    fig, ax = _figure(4.2)
    xs = [_round(words, r) for r in s["rounds"]]
    for name, line in s["lines"].items():
        ax.plot(xs, line, marker="o", markersize=3, label=name, color=colours.get(name))
    ax.set_ylabel(words["score"])
    _legend(ax, many=len(s["lines"]) > 12)
    return fig


def _win_index(s: dict[str, Any], words: dict[str, Any]) -> Any:
    fig, ax = _figure(3.2)
    xs = [_round(words, r) for r in s["rounds"]]
    ax.plot(xs, s["win_index"], marker="o", label=words["win_index"], color="#1f77b4")
    ax.axhline(s["threshold"], linestyle="--", color="#d62728", label=f"{words['threshold']} {s['threshold']}")
    ax.set_ylim(0, 1)
    _legend(ax)
    return fig


def _deaths(deaths: list[dict[str, Any]], words: dict[str, Any]) -> Any:
    fig, ax = _figure(3.2)
    rounds = sorted({d["round"] for d in deaths})
    reasons = list(dict.fromkeys(d["reason"] for d in deaths))
    xs = [_round(words, r) for r in rounds]
    bottom = [0] * len(rounds)
    for why, colour in zip(reasons, palette(len(reasons)), strict=True):
        counts = [sum(1 for d in deaths if d["round"] == r and d["reason"] == why) for r in rounds]
        ax.bar(xs, counts, bottom=bottom, label=words["reasons"].get(why, why), color=colour)
        bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    ax.set_ylabel(words["deaths"])
    _integers(ax)
    _legend(ax)
    return fig


def _camps(camps: dict[str, Any], words: dict[str, Any]) -> Any:
    fig, ax = _figure(3.8, bottom=0.3)
    pts = camps["points"]
    xs = [str(words["kinds"].get(p["kind"], p["kind"])) + (f" {_round(words, p['round'])}" if p["round"] else "")
          for p in pts]
    at = list(range(len(pts)))
    for camp, colour in zip(camps["camps"], palette(len(camps["camps"])), strict=True):
        ax.step(at, [p["counts"][camp] for p in pts], where="post", label=words["camps"].get(camp, camp),
                color=colour, linewidth=2)
    ax.set_xticks(at, xs, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel(words["alive"])
    ax.set_ylim(bottom=0)
    _integers(ax)
    _legend(ax)
    return fig


def _series(rows: list[dict[str, Any]], words: dict[str, Any]) -> Any:
    fig, ax = _figure(3.6, bottom=0.3)
    at = list(range(len(rows)))
    ax.bar([x - 0.2 for x in at], [r["played"] for r in rows], width=0.4, label=words["played"], color="#1f77b4")
    ax.bar([x + 0.2 for x in at], [r["won"] for r in rows], width=0.4, label=words["won"], color="#ff7f0e")
    ax.set_xticks(at, [r["name"] for r in rows], rotation=30, ha="right")
    _integers(ax)
    _legend(ax)
    return fig
