"""A vote round as the report draws it, and as a PNG picture for forums that take images with a post.

:func:`vote_round` is one vote round of the report (:mod:`forumbot.report.data`) from the vote-result
post that showed it; the runtime keeps it with the post when the season attaches vote charts
(``vote_chart_images``) and :func:`vote_png` draws it when the post is sent (Discuz! attachments): one
horizontal bar per player who received votes, split into one segment per voter (named in the segment and
in the legend beside, by colour), in the order of the totals; below, who did not vote and the outcome. The
report page draws the same figure as SVG (:mod:`forumbot.report.charts`). The words are the report's
(``templates/<locale>/report/words.html``), so the picture says what the report page says.

Drawn with matplotlib (Agg, no display) in a CJK font found on the machine (WenQuanYi Micro Hei, Noto
Sans CJK, Source Han Sans, ...). The same round, locale and font give the same bytes: fixed size and
resolution, no timestamp or software name in the PNG. Without a CJK font, a picture whose text needs
one is not made (:class:`ChartUnavailable`): the post goes without it rather than with boxes for names.
This module sits below the runtime and the report (both use it) and imports neither.
"""

from __future__ import annotations

import io
import logging
from functools import cache
from typing import Any

import jinja2

from forumbot.engine.game import Game
from forumbot.engine.types import Post
from forumbot.render import LOCALES, TEMPLATES

log = logging.getLogger("forumbot")


def num(x: Any) -> Any:
    """A number as players write it: 3 rather than 3.0."""
    return int(x) if isinstance(x, float) and x.is_integer() else x


def vote_round(g: Game, phase_id: int, post: Post, alive: list[str], index: int = 0) -> dict[str, Any]:
    """One vote round as the report (and the round post's PNG chart) draws it, from the vote-result
    ``post`` (its data carries ``ballots``) made while phase ``phase_id`` was current; ``alive``: the names
    alive when that phase opened (who did not vote, where the post does not say). Returns ``{index,
    phase_id, phase, round, number, kind, result, chosen, tied, ballots: [{voter, targets, weight, void,
    points}], totals: [{name, value}], missing, hidden, ranked, secret}``. Sunlight ballots name up to two,
    ranked, worth ``params.points`` (rulebook 阳光下的罪恶, 投票与积分); the other rulesets' a weight each."""
    points = list(getattr(g.ruleset.params, "points", ()) or ())
    ranked = g.ruleset.id == "sunlight"  # a sunlight ballot names up to two, ranked, worth params.points
    d = post.data
    ballots = []
    for b in d["ballots"]:
        targets = list(b["choices"]) if "choices" in b else ([b["choice"]] if b.get("choice") else [])
        weight = num(b.get("weight", 1))
        ballot: dict[str, Any] = {"voter": b["voter"], "targets": targets, "weight": weight,
                                  "void": bool(b.get("void") or b.get("blown"))}
        ballot["points"] = [num(x) for x in points[: len(targets)]] if ranked else [weight] * len(targets)
        ballots.append(ballot)
    if "received" in d:
        totals = [{"name": c["name"], "value": num(c["points"])} for c in d["received"]]
    else:
        totals = [{"name": c["name"], "value": num(c["votes"])} for c in d.get("counts", [])]
    voters = {b["voter"] for b in ballots}
    if "missing" in d:
        missing = list(d["missing"])
    elif d.get("kousa"):
        missing = []  # the weather hides who voted
    else:
        missing = [n for n in alive if n not in voters]
    phase = g.phases[phase_id]
    return {
        "index": index, "phase_id": phase_id, "phase": phase.kind, "round": d.get("round", phase.round),
        "number": d.get("number", 1), "kind": d.get("kind") or post.key.split("/")[-1].removesuffix("_result"),
        "result": d.get("result") or ("decided" if d.get("out") else "tied" if d.get("tied") else "none"),
        "chosen": d.get("chosen") or d.get("out"), "tied": list(d.get("tied") or []),
        "ballots": ballots, "totals": totals, "missing": missing, "hidden": bool(d.get("kousa")),
        "ranked": ranked, "secret": False,
    }



#: CJK fonts looked for, best first (Debian: fonts-wqy-microhei, fonts-noto-cjk, fonts-wqy-zenhei, ...)
CJK_FONTS = ("WenQuanYi Micro Hei", "Noto Sans CJK SC", "Noto Sans CJK TC", "Noto Sans CJK JP", "Source Han Sans SC",
             "Source Han Sans CN", "WenQuanYi Zen Hei", "Droid Sans Fallback", "AR PL UMing CN", "AR PL UKai CN")
WIDTH_INCHES = 8.0
DPI = 100


class ChartUnavailable(RuntimeError):
    """The picture cannot be made here: matplotlib is not installed, or the text needs a CJK font and
    the machine has none. The message says which and what to install."""


@cache
def cjk_font() -> str | None:
    """The name of the first CJK font of :data:`CJK_FONTS` matplotlib finds on the machine, or None."""
    try:
        from matplotlib import font_manager
    except ImportError:
        return None
    have = {f.name for f in font_manager.fontManager.ttflist}
    return next((name for name in CJK_FONTS if name in have), None)


@cache
def _words(locale: str) -> tuple[dict[str, str], dict[str, str]]:
    """(words, phase kinds) of the report in ``locale`` (``templates/<locale>/report/words.html``)."""
    if locale not in LOCALES:
        raise ValueError(f"unknown locale {locale!r}; choose one of {', '.join(LOCALES)}")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES / locale)), autoescape=True)
    module = env.get_template("report/words.html").module
    return dict(module.words), dict(module.kinds)  # type: ignore[attr-defined]


def title(vote: dict[str, Any], locale: str) -> str:
    """The picture's title: the phase (and the kind of vote when it differs), the round, the vote number."""
    words, kinds = _words(locale)
    text = f"{kinds.get(vote['phase'], vote['phase'])} · {words['round_n'].format(vote['round'])}"
    if vote.get("number", 1) > 1:
        text += f" · {words['vote_n'].format(vote['number'])}"
    kind = vote.get("kind")
    if kind and kind not in (vote["phase"], "vote"):
        text += f" ({kinds.get(kind, kind)})"
    return text


def lines(vote: dict[str, Any], locale: str) -> list[str]:
    """The lines under the bars: totals, who did not vote, the outcome (as on the report page)."""
    words, _ = _words(locale)
    totals = ", ".join(f"{t['name']} {t['value']}" for t in vote["totals"]) or "–"
    missing = ", ".join(vote["missing"]) or "–"
    if vote.get("chosen"):
        outcome = words["chosen"].format(vote["chosen"])
    elif vote.get("tied"):
        outcome = words["tied"].format(", ".join(vote["tied"]))
    else:
        outcome = words["nobody"]
    out = [f"{words['totals']}: {totals}", f"{words['missing']}: {missing}", outcome]
    if vote.get("hidden"):
        out.insert(0, words["hidden_ballots"])
    return out


def segments(vote: dict[str, Any]) -> list[tuple[str, list[tuple[str, float]]]]:
    """(target, [(voter, value), ...]) per bar, in the order of the totals, then any other target in the
    order ballots name it. Void ballots add nothing; a hidden round (the weather) has totals only."""
    bars: dict[str, list[tuple[str, float]]] = {t["name"]: [] for t in vote["totals"]}
    if vote.get("hidden"):
        return [(t["name"], [("", float(t["value"]))]) for t in vote["totals"]]
    for b in vote["ballots"]:
        if b.get("void"):
            continue
        for target, value in zip(b["targets"], b["points"], strict=False):
            bars.setdefault(target, []).append((b["voter"], float(value)))
    return list(bars.items())


def _needs_cjk(texts: list[str]) -> bool:
    return any(ord(ch) > 0x2E7F for text in texts for ch in text)


def palette(n: int) -> list[str]:
    """``n`` distinct colours (matplotlib's tab20, repeated past 20): a voter's colour in a vote chart and a
    player's line in the report's score chart."""
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    cmap = colormaps["tab20"]
    order = [*range(0, 20, 2), *range(1, 20, 2)]  # the ten strong colours first, then their light pairs
    return [to_hex(cmap(order[i % 20])) for i in range(n)]


def rc(font: str | None) -> dict[str, Any]:
    """matplotlib settings of every forumbot chart: the CJK ``font`` (else DejaVu Sans), text written as text
    (a name such as ``$x$`` is not math), no software name or date in the file."""
    return {"font.family": [font, "DejaVu Sans"] if font else ["DejaVu Sans"], "svg.hashsalt": "forumbot",
            "axes.unicode_minus": False, "text.parse_math": False, "svg.fonttype": "none"}


def figure(vote: dict[str, Any], locale: str, colours: dict[str, str] | None = None, footer: bool = True) -> Any:
    """The matplotlib Figure of one vote round (a dict of :func:`vote_round`) in ``locale``: the bars, each
    voter's segment in his colour (``colours``: name -> colour; else one of :func:`palette` in ballot order),
    a legend naming each voter by his colour, the title and (``footer``) the lines under the bars (the report
    page writes them in HTML under its chart). Call inside
    ``matplotlib.rc_context(rc(...))``."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    bars = segments(vote)
    head, foot = title(vote, locale), lines(vote, locale) if footer else []
    voters = list(dict.fromkeys(v for _, segs in bars for v, _ in segs if v))
    given = palette(len(voters))
    colour = {v: (colours or {}).get(v, given[i]) for i, v in enumerate(voters)}
    rows = max(1, len(bars))
    legend_rows = -(-len(voters) // 2) if len(voters) > 12 else len(voters)
    height = max(1.4 + 0.45 * rows, 1.1 + 0.2 * legend_rows) + 0.3 * len(foot)
    fig = Figure(figsize=(WIDTH_INCHES, height), dpi=DPI)
    bottom = (0.3 * len(foot) + 0.25) / height
    right = 0.70 if len(voters) > 12 else 0.80 if voters else 0.96
    ax = fig.add_axes((0.16, bottom, right - 0.16, 1 - bottom - 0.7 / height))
    for row, (_target, segs) in enumerate(bars):
        left = 0.0
        for voter, value in segs:
            ax.barh(row, value, left=left, height=0.6, color=colour.get(voter, "#888888"), edgecolor="white")
            if voter:
                ax.text(left + value / 2, row, voter, ha="center", va="center", fontsize=8, clip_on=True)
            left += value
        ax.text(left, row, f" {_show(left)}", ha="left", va="center", fontsize=9)
    ax.set_yticks(range(len(bars)), [name for name, _ in bars])
    ax.set_ylim(max(1, len(bars)) - 0.5, -0.5)  # the most voted on top
    most = max((sum(v for _, v in segs) for _, segs in bars), default=0.0)
    ax.set_xlim(0, max(1.0, most * 1.12))
    ax.spines[["top", "right"]].set_visible(False)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if voters:  # who is who: each voter's colour (the bars' segments)
        words, _ = _words(locale)
        fig.legend(handles=[Patch(color=colour[v], label=v) for v in voters], title=words["voter"],
                   loc="upper left", bbox_to_anchor=(right + 0.01, 1 - 0.7 / height), fontsize=9,
                   title_fontsize=9, ncols=2 if len(voters) > 12 else 1, frameon=False)
    fig.suptitle(head, fontsize=12, y=1 - 0.25 / height)
    for i, text in enumerate(foot):
        fig.text(0.03, (0.3 * (len(foot) - i) - 0.1) / height, text, fontsize=9, ha="left", va="center")
    return fig


def vote_png(vote: dict[str, Any], locale: str) -> bytes:
    """The PNG bytes of one vote round (a dict of :func:`forumbot.report.data.vote_round`) in ``locale``
    (zh-Hans, zh-Hant, en): :func:`figure`. Deterministic for the same round, locale, font and matplotlib.
    Raises :class:`ChartUnavailable` (no matplotlib; no CJK font for a text that needs one)."""
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
    except ImportError:
        raise ChartUnavailable("matplotlib is not installed: pip install forumbot") from None
    bars = segments(vote)
    names = [name for name, _ in bars] + [v for _, segs in bars for v, _ in segs]
    font = cjk_font()
    if font is None and _needs_cjk([title(vote, locale), *lines(vote, locale), *names, _words(locale)[0]["voter"]]):
        raise ChartUnavailable("no CJK font on this machine (install e.g. fonts-wqy-microhei or fonts-noto-cjk)")
    with matplotlib.rc_context(rc(font)):  # type: ignore[arg-type]  # (matplotlib types the keys as literals)
        fig = figure(vote, locale)
        out = io.BytesIO()
        fig.savefig(out, format="png", dpi=DPI, metadata={"Software": None})
    return out.getvalue()


def _show(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
