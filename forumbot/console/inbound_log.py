"""The inbound log: every private message and thread post the bot read (and every organiser command), how it read
it — a command and its targets, talk, a refusal and why, not understood — and the answers it queued, as a human
judge's audit trail. Organisers' eyes only (it holds private messages).

How a row was read comes from the game replayed input by input (:func:`forumbot.report.log.from_bot`, the steps the
bot's own game made) and from the parser the game reads with (:meth:`forumbot.engine.game.Game.parse`); its answers
are the outbox rows the same input queued (their keys name the input: ``season:seq:i``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from forumbot.console.loaded import inbound, outbox
from forumbot.language.types import ORGANISER_VERBS, Command
from forumbot.language.vocabulary import VERB_WORDS
from forumbot.plain_text import plain
from forumbot.render import LOCALES
from forumbot.runtime.store import aware

#: reply templates that say a command was not taken (the refusal is the template's name)
_REFUSALS = {"common/organiser_refused": "organiser_refused", "common/not_organiser": "not_organiser",
             "common/not_a_player": "not_a_player", "common/organiser_not_player": "organiser_not_player",
             "common/paused": "paused", "common/game_over": "game_over", "common/vote_rule": "vote_rule"}


@dataclass
class Answer:
    """One answer queued for an inbound row: ``recipient`` (None: the thread), its outbox ``status``, its text as
    the forum takes it (``body``, in ``markup``) and as it reads (:attr:`text`)."""

    recipient: str | None
    status: str
    body: str
    markup: str

    @property
    def text(self) -> str:
        return plain(self.body, self.markup)


@dataclass
class LogRow:
    """One inbound row as the log shows it. ``reading``: a key of ``console/words.html``'s ``readings``
    (command, talk, refused, not_understood, organiser, waiting, ask_season, not_counted, last_words, dead_post);
    what goes with it: ``verb`` (a verb of :data:`forumbot.language.vocabulary.VERB_WORDS`), ``code`` (a key of
    ``console/codes.html``: a refusal's reason, why it was not read as a command) and ``args`` ((kind, value)
    pairs: ``name``, ``number``, ``duration`` in seconds, ``reason`` (a code), ``text``), worded by the page in its
    locale; ``detail``: the same in ids, for the search; ``by``: who gave an organiser command from the console
    (None: the command line, or not a command)."""

    id: int
    source: str
    sender: str
    sent_at: Any
    text: str
    reading: str
    detail: str = ""
    by: str | None = None
    answers: list[Answer] = field(default_factory=list)
    search: str = ""  # sender, text and reading, lower-cased: what the search box matches
    verb: str = ""
    code: str = ""
    args: tuple[tuple[str, str], ...] = ()


def log_rows(loaded: Any) -> list[LogRow]:
    """Every inbound row of the season (a :class:`~forumbot.console.loaded.Loaded`), newest first: worked out once
    per change of the database, and each row's reading once (it is fixed once the row is applied)."""
    return list(loaded.derived("inbound_log", _build))


def filtered(rows: list[LogRow], player: str = "", query: str = "", source: str = "") -> list[LogRow]:
    """The rows of ``player`` (sender, exactly; "" any), whose text, sender or reading contains ``query``
    (case-insensitive), from ``source`` (pm, thread, cli; "" any)."""
    q = query.strip().lower()
    return [r for r in rows if (not player or r.sender == player) and (not source or r.source == source)
            and (not q or q in r.search)]


def _build(loaded: Any) -> list[LogRow]:
    bot = loaded.bot
    sid = bot.store.season_id
    rows = inbound(loaded)
    records = loaded.log.records  # one an input, in the order of their seq (0, 1, ...)
    answers = _answers(outbox(loaded), sid)
    markup = bot.config.effective_markup
    codes = [code_words(locale) for locale in LOCALES]
    out = []
    for r in rows:
        known = loaded.readings.get(r.id)
        if known is None:
            seq = r.input_seq
            step = records[seq].step if seq is not None and 0 <= seq < len(records) else None
            known = _reading(bot, r, step, answers.get(seq, []) if seq is not None else [])
            if seq is not None:
                loaded.readings[r.id] = known
        reading, verb, code, args = known
        detail = " · ".join(x for x in (verb, code, " ".join(v for _, v in args)) if x)
        if r.input_seq == -1:
            mine = answers.get(f"which:{r.forum_id}", [])
        else:
            mine = answers.get(r.input_seq, []) if r.input_seq is not None else []
        # "console ORGANISER TOKEN" (forumbot.console.steer.give): a forum name may hold spaces, the token none
        by = r.subject.removeprefix("console ").rsplit(" ", 1)[0] if r.source == "cli" and r.subject.startswith("console ") else None
        row = LogRow(r.id, r.source, r.sender, aware(r.sent_at), r.text, reading, detail, by,
                     [Answer(o.recipient, o.status, o.body, markup) for o in mine], verb=verb, code=code, args=args)
        # the search finds a reading by its words in any locale, as by its ids
        row.search = "\n".join([r.sender, r.text, detail, *(w.get(verb, "") for w in VERB_WORDS.values()),
                                *(words.get(code, "") for words in codes)]).lower()
        out.append(row)
    return out


def _answers(outbox: list[Any], sid: int) -> dict[Any, list[Any]]:
    """Outbox rows by the input that queued them (its seq), and the "which season?" asks by ``which:forum_id``."""
    out: dict[Any, list[Any]] = {}
    for o in outbox:
        parts = o.key.split(":")
        if len(parts) == 3 and parts[0] == str(sid):
            if parts[1] == "which":
                out.setdefault(f"which:{parts[2]}", []).append(o)
            elif parts[1].isdigit():
                out.setdefault(int(parts[1]), []).append(o)
    return out


Reading = tuple[str, str, str, tuple[tuple[str, str], ...]]


def code_words(locale: str) -> dict[str, str]:
    """The words of every code (``console/codes.html``) in ``locale``."""
    from forumbot.console.pages import environment

    return dict(environment(locale).get_template("console/codes.html").module.codes)  # type: ignore[attr-defined]


def _reading(bot: Any, r: Any, step: Any, answers: list[Any]) -> Reading:
    """How the game read ``r`` (see :class:`LogRow`): (reading, verb, code, args)."""
    if r.input_seq is None:
        return "waiting", "", "", ()
    if r.input_seq == -1:
        return "ask_season", "", "", ()
    g = bot.game
    events = step.events if step is not None else []
    kinds = {e.kind for e in events}
    rejected = next((e for e in events if e.kind == "rejected"), None)
    if rejected is not None:
        return "refused", rejected.data.get("verb") or "", rejected.data.get("reason") or "", ()
    refusal = next((_REFUSALS[a.template] for a in answers if a.template in _REFUSALS), None)
    if refusal is not None:
        return "refused", "", refusal, ()
    if "command_in_thread" in kinds:
        return "not_counted", "", "", ()
    if "last_words" in kinds:
        return "last_words", "", "", ()
    if "dead_player_post" in kinds:
        return "dead_post", "", "", ()
    seat = g.seat_of(r.sender)
    if r.source == "thread":
        parsed = g.read_thread(seat, r.text) if seat is not None else None
        if not isinstance(parsed, Command):
            return "talk", "", "", ()
    else:
        parsed = g.parse(r.text, seat)
    if isinstance(parsed, Command):
        args = [("name", n) for n in g.names(t for t in parsed.targets if t)]
        if parsed.number is not None:
            args.append(("duration" if parsed.verb == "extend" else "number", str(parsed.number)))
        if parsed.text:
            args.append(("reason" if parsed.verb == "penalty" else "text", parsed.text))
        return ("organiser" if parsed.verb in ORGANISER_VERBS else "command"), parsed.verb, "", tuple(args)
    return "not_understood", "", parsed.code, (("text", parsed.written),) if parsed.written else ()
