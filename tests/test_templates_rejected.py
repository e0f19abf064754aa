"""The ``rejected`` catalogue (issue 11, Templates): every reason a ruleset can refuse a command for has a
text in every locale and markup, and a reason two or more rulesets give is worded once
(``common/rejected.j2``), so it reads the same in each of them.

The reasons are read from the code: every ``refuse(seat, cmd, REASON, out, **data)`` call under
``forumbot/`` (REASON a string, a conditional between strings, or a name assigned strings in the same
function), with the names of the data it passes, and every refusal a ruleset declares with its actions
(:mod:`forumbot.engine.actions`: ``Refusal(REASON, {data})``, the reasons of the target rules ``Count``,
``Each``, ``Distinct``, ``living``, ``named``, ``not_self`` with the data they carry, and an action's
``who_reason``/``phase_reason``/``thread_reason``). A call outside ``forumbot/rulesets/`` (a shared
mechanic of the engine) counts for every ruleset.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from forumbot.engine.ruleset import get_ruleset, ruleset_ids
from forumbot.language.vocabulary import VERB_WORDS
from forumbot.render import LOCALES, MARKUPS, TEMPLATES, Renderer

PACKAGE = Path(__file__).parents[1] / "forumbot"

#: A value for each datum a refusal may carry (names in CJK so that a zh text with a Latin letter
#: shows an id or an English word left in it).
SAMPLES = {
    "target": "王五", "targets": ["王五"], "count": 3, "by": "李四", "is_killer": True, "is_police": False,
    "candidates": ["张三", "李四"], "ballot": ["张三"], "void": False, "most": 2, "criminal": False,
    "converting": False, "sucks": ["张三", "李四", "王五"], "sucked": ["张三"], "limit": 2, "dying": ["张三"],
    "allowed": ["张三"], "what": "kill", "potion": "save", "victim": "张三", "options": [1, 2], "number": 9, "expected": "vote",
}


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _owner(path: Path) -> str | None:
    """The ruleset id a module under forumbot/rulesets/ belongs to (None: shared code)."""
    parts = path.relative_to(PACKAGE).parts
    if parts[0] != "rulesets" or (parts[-1] == "__init__.py" and len(parts) == 2):
        return None
    return parts[1].removesuffix(".py")


def _keys(node: ast.AST | None, functions: dict[str, ast.FunctionDef]) -> set[str]:
    """The data names a refusal's data carries: the string keys of a dict literal, of a lambda's dict, or
    of the dicts a function of the module returns."""
    if isinstance(node, ast.Lambda):
        node = node.body
    if isinstance(node, ast.Name) and node.id in functions:
        return {k for r in ast.walk(functions[node.id]) if isinstance(r, ast.Return) for k in _keys(r.value, functions)}
    if isinstance(node, ast.Dict):
        return {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return set()


def _arg(call: ast.Call, index: int, name: str) -> ast.AST | None:
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == name), None)


#: target rules (forumbot.engine.actions): callee -> (the reason's position, its default, the data's position)
_RULES = {"Count": (2, "one_target", 3), "Each": (1, None, 2), "Distinct": (0, "repeat_target", 1),
          "not_self": (0, None, None), "living": (0, "dead_target", None), "named": (0, None, None)}


def _declared(call: ast.Call, functions: dict[str, ast.FunctionDef], in_ruleset: bool) -> list[tuple[set[str], set[str]]]:
    """(reasons, data names) of the refusals a declaration makes (see the module docstring); the defaults of
    an action's gate count only in a ruleset's module (``in_ruleset``), where actions are declared."""
    callee = call.func.id if isinstance(call.func, ast.Name) else call.func.attr if isinstance(call.func, ast.Attribute) else None
    found: list[tuple[set[str], set[str]]] = []
    if callee == "Refusal" and call.args:
        found.append((_strings(call.args[0]), _keys(_arg(call, 1, "data"), functions)))
    elif callee in _RULES:
        at, default, data_at = _RULES[callee]
        arg = _arg(call, at, "reason")
        reasons = _strings(arg) if arg is not None else {default} if default else set()
        if callee == "Count":
            keys = _keys(_arg(call, data_at, "data"), functions) if _arg(call, data_at, "data") is not None else {"count"}
        elif callee == "living":
            shape = _arg(call, 1, "shape")
            keys = {"targets"} if shape is not None and "targets" in _strings(shape) else {"target"}
        elif callee == "named":
            keys = {"target"} | {k.arg for k in call.keywords if k.arg}
        else:
            keys = _keys(_arg(call, data_at, "data"), functions) if data_at is not None else set()
        found.append((reasons, keys))
    words = {k.arg: k.value for k in call.keywords if k.arg}
    # an action's gate: its reasons given, or the defaults of the steps it declares (phases, a channel)
    defaults = {"who_reason": ("who", "not_your_role"), "phase_reason": ("phases", "wrong_phase"),
                "thread_reason": ("channel", "vote_in_thread")}
    for field, data in (("who_reason", "who_data"), ("phase_reason", "phase_data"), ("thread_reason", None)):
        step, default = defaults[field]
        if field in words or (in_ruleset and (step in words or (data is not None and data in words))):
            reasons = _strings(words[field]) if field in words else {default}
            found.append((reasons, _keys(words.get(data) if data else None, functions)))
    return [(r, k) for r, k in found if r]


@cache
def emitted() -> dict[str, dict[str, set[str]]]:
    """ruleset id -> reason -> the names of the data passed with it, from every refuse call and declared
    refusal."""
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        owner = _owner(path)
        functions = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
        for call in ast.walk(tree):
            if isinstance(call, ast.Call):
                for reasons, keys in _declared(call, functions, owner is not None):
                    for rid in [owner] if owner else ruleset_ids():
                        for reason in reasons:
                            found[rid][reason] |= keys
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            assigned: dict[str, set[str]] = defaultdict(set)
            for node in ast.walk(func):
                if isinstance(node, ast.Assign):
                    for t in node.targets:
                        if isinstance(t, ast.Name):
                            assigned[t.id] |= _strings(node.value)
            for node in ast.walk(func):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "refuse" and len(node.args) >= 3):
                    continue
                arg = node.args[2]
                if isinstance(arg, ast.Attribute) and arg.attr == "reason":
                    continue  # the engine's one refusal of a declared check (read above)
                reasons = assigned[arg.id] if isinstance(arg, ast.Name) else _strings(arg)
                assert reasons, f"{path}:{node.lineno}: cannot tell the reason of this refuse call"
                keys = {k.arg for k in node.keywords if k.arg}
                for rid in [owner] if owner else ruleset_ids():
                    for reason in reasons:
                        found[rid][reason] |= keys
    return found


def shared_reasons() -> set[str]:
    """Reasons given by two or more rulesets."""
    counts: dict[str, int] = defaultdict(int)
    for reasons in emitted().values():
        for reason in reasons:
            counts[reason] += 1
    return {r for r, n in counts.items() if n >= 2}


def _data(rid: str, reason: str, keys: set[str], verb: str = "kill") -> dict:
    missing = keys - SAMPLES.keys() - {"role"}
    assert not missing, f"{rid}: {reason} carries {missing}: add a sample value to SAMPLES"
    phase = next(k for k in sorted(get_ruleset(rid).phase_kinds) if k != "prologue")
    data = {"verb": verb, "reason": reason, "phase": phase, "round": 2}
    data |= {k: SAMPLES[k] for k in keys if k != "role"}
    if "role" in keys:
        data["role"] = sorted(get_ruleset(rid).roles)[0]
    return data


def _fallback(text: str, reason: str) -> bool:
    """Whether ``text`` is the catalogue's last resort: the bare reason id."""
    return text.strip().splitlines()[-1].replace("\\", "") in (f"{reason}.", f"{reason}。")


def test_the_scan_finds_the_refusals() -> None:
    for markup in MARKUPS:  # and the last resort is recognised
        assert _fallback(Renderer("en", markup).render("sunlight/rejected", {"verb": "vote", "reason": "no_such_reason"}),
                         "no_such_reason")
    found = emitted()
    assert set(found) == set(ruleset_ids())
    assert {"wrong_phase", "dead_target", "you_are_out", "not_your_role", "not_in_game"} <= shared_reasons()
    assert "role" in found["killer_club"]["not_your_role"] and "targets" in found["sunlight"]["dead_target"]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_every_reason_has_a_text(locale: str, markup: str) -> None:
    renderer = Renderer(locale, markup)
    for rid, reasons in emitted().items():
        for reason, keys in reasons.items():
            text = renderer.render(f"{rid}/rejected", _data(rid, reason, keys))
            assert not _fallback(text, reason), f"{locale}/{rid}/rejected has no text for {reason!r}"
            if locale != "en":  # no reason id, role id or English verb left in a Chinese reply
                assert not re.search(r"[A-Za-z]", text), (rid, reason, text)


@pytest.mark.parametrize("locale", ["zh-Hans", "zh-Hant"])
def test_every_role_and_verb_is_named_in_chinese(locale: str) -> None:
    renderer = Renderer(locale, "bbcode")
    for rid in ruleset_ids():
        for role in get_ruleset(rid).roles:
            for verb in VERB_WORDS[locale]:
                text = renderer.render(f"{rid}/rejected", {"verb": verb, "reason": "not_your_role", "role": role,
                                                           "phase": "prologue", "round": 0})
                assert not re.search(r"[A-Za-z]", text), (rid, role, verb, text)


def test_shared_reasons_are_worded_once() -> None:
    """No ruleset's template words a shared reason itself: it leaves it to common/rejected.j2."""
    shared = shared_reasons()
    for locale in LOCALES:
        common = (TEMPLATES / locale / "common" / "rejected.j2").read_text(encoding="utf-8")
        for reason in shared:
            assert f'reason == "{reason}"' in common, f"{locale}/common/rejected.j2 lacks {reason!r}"
        for rid in ruleset_ids():
            source = (TEMPLATES / locale / rid / "rejected.j2").read_text(encoding="utf-8")
            assert source.startswith('{% extends "common/rejected.j2" %}'), (locale, rid)
            own = set(re.findall(r'reason == "([a-z_]+)"', source))
            assert not own & shared, f"{locale}/{rid}/rejected.j2 words shared reasons {own & shared} again"
            assert own <= set(emitted()[rid]), f"{locale}/{rid}/rejected.j2 words reasons it never gives: {own - set(emitted()[rid])}"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_a_shared_reason_reads_the_same_in_every_ruleset(locale: str, markup: str) -> None:
    renderer = Renderer(locale, markup)
    for reason in sorted(shared_reasons()):
        keys = set().union(*(r[reason] for r in emitted().values() if reason in r)) - {"role"}
        texts = {}
        for rid, reasons in emitted().items():
            if reason in reasons:
                data = _data(rid, reason, keys) | {"phase": "night"}
                texts[rid] = renderer.render(f"{rid}/rejected", data)
        common = renderer.render("common/rejected", _data(next(iter(texts)), reason, keys) | {"phase": "night"})
        for rid, text in texts.items():
            module_source = (TEMPLATES / locale / rid / "rejected.j2").read_text(encoding="utf-8")
            if reason == "kill_self" and "{% set self_kill" in module_source:
                # a game with a self-kill command adds how to kill oneself to the same sentence
                assert text.startswith(common.rstrip().rstrip(".。")), (rid, text, common)
            else:
                assert text == common, (locale, rid, reason, text, common)


@pytest.mark.parametrize("locale", LOCALES)
def test_replies_name_verbs_as_the_parser_reads_them(locale: str) -> None:
    """The verb in a refusal is the word the parser reads for it (VERB_WORDS), and it parses back."""
    from forumbot.language.parse import parse
    from forumbot.language.types import Command, Roster

    renderer = Renderer(locale, "markdown")
    roster = Roster.of(["张三", "李四", "王五"])
    for verb, word in VERB_WORDS[locale].items():
        text = renderer.render("killer_club/rejected", {"verb": verb, "reason": "not_in_game", "phase": "night",
                                                        "round": 1})
        assert word in text.splitlines()[0], (verb, text)
    help_word = VERB_WORDS[locale]["help"]
    text = renderer.render("sunlight/rejected", {"verb": "vote", "reason": "wrong_phase", "phase": "kill", "round": 1})
    quoted = re.findall(r'[「"]([^」"]+)[」"]', text)
    assert help_word in quoted
    parsed = parse(help_word, roster, sender_seat=1)
    assert isinstance(parsed, Command) and parsed.verb == "help"


@pytest.mark.parametrize("locale", LOCALES)
def test_help_lists_commands_in_the_parsers_words(locale: str) -> None:
    """Each command a ruleset's help lists is written with the word the parser reads for it (VERB_WORDS)."""
    renderer = Renderer(locale, "markdown")
    for rid in ruleset_ids():
        source = (TEMPLATES / locale / rid / "help.j2").read_text(encoding="utf-8")
        listed = [v for v in re.findall(r'"([a-z_]+)": ', source) if v in VERB_WORDS[locale]]
        assert "help" in listed, (locale, rid)
        text = renderer.render(f"{rid}/help", {"verbs": listed, "phase": "prologue", "round": 0, "clue_options": [1, 2]})
        items = [line.removeprefix("- ") for line in text.splitlines() if line.startswith("- ")]
        for verb, item in zip(listed, items, strict=True):
            assert VERB_WORDS[locale][verb] in item.replace("\\", ""), (locale, rid, verb, item)
