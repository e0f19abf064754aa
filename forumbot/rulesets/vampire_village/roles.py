"""The roles of vampire_village (吸血鬼村莊) and the rulebook's presets.

【角色分配】: 「角色分為：吸血鬼，普通村民，預言家，丘比特，守護者，女巫，獵人，長老，吹笛者9種起始身份（除吸血鬼外
統稱村民）。另有警長、情侶2種附加身份，附加身份并不覆蓋原有起始身份。」
"""

from __future__ import annotations

from forumbot.engine.game import SetupError

VAMPIRE, VILLAGER, SEER, CUPID, WITCH, GUARD, HUNTER, ELDER, PIPER = (
    "vampire", "villager", "seer", "cupid", "witch", "guard", "hunter", "elder", "piper")
ROLES = (VAMPIRE, VILLAGER, SEER, CUPID, WITCH, GUARD, HUNTER, ELDER, PIPER)
VAMPIRES, VILLAGERS, PIPER_WIN, LOVERS = "vampires", "villagers", "piper", "lovers"
#: Everyone but the vampires is a villager (「除吸血鬼外統稱村民」); the piper and the lovers may also win alone.
FACTION = {r: (VAMPIRES if r == VAMPIRE else VILLAGERS) for r in ROLES}
#: The villager-side powers the elder's death by the village's hand takes away (「村民所有特殊能力消失，但身份依然保留」).
POWER_ROLES = (SEER, WITCH, GUARD, HUNTER, PIPER)
#: Night commands of each role (the votes are everyone's).
NIGHT_VERBS = {VAMPIRE: ["kill", "selfkill"], VILLAGER: [], SEER: ["check"], CUPID: ["link"], WITCH: ["save", "poison"],
               GUARD: ["guard"], HUNTER: [], ELDER: [], PIPER: ["charm"]}

#: The rulebook's presets (【參加人數及職業配置】, 13–18 players). 14–15: 5–6 villagers; 16–17: 4–5 vampires.
_BASE = {SEER: 1, CUPID: 1, WITCH: 1, GUARD: 1}
PRESETS: dict[int, dict[str, int]] = {
    13: {VAMPIRE: 3, VILLAGER: 6, **_BASE},
    14: {VAMPIRE: 4, VILLAGER: 5, **_BASE, HUNTER: 1},
    15: {VAMPIRE: 4, VILLAGER: 6, **_BASE, HUNTER: 1},
    16: {VAMPIRE: 4, VILLAGER: 6, **_BASE, HUNTER: 1, ELDER: 1},
    17: {VAMPIRE: 5, VILLAGER: 6, **_BASE, HUNTER: 1, ELDER: 1},
    18: {VAMPIRE: 5, VILLAGER: 6, **_BASE, HUNTER: 1, ELDER: 1, PIPER: 1},
}


def preset_counts(n: int) -> dict[str, int]:
    """The rulebook's role counts for ``n`` players (13–18); KeyError outside that range."""
    base = PRESETS[n]
    return {r: base.get(r, 0) for r in ROLES}


def deal(n_players: int, counts: dict[str, int] | None) -> dict[str, int]:
    """The role counts for ``n_players``: the preset (「參加人數限定在13~18人范圍內」) with the season's ``counts``
    (role -> count); villagers fill the rest. Raises SetupError: no preset and no ``counts``, an unknown role,
    more roles than players."""
    if n_players in PRESETS:
        dealt = preset_counts(n_players)
    elif counts is None:
        raise SetupError(f"vampire_village has presets for 13-18 players, not {n_players}: set params.counts")
    else:
        dealt = {r: 0 for r in ROLES}
    for role, k in (counts or {}).items():
        if role not in ROLES:
            raise SetupError(f"unknown role {role!r} in params.counts; known: {', '.join(ROLES)}")
        dealt[role] = k
    dealt[VILLAGER] = n_players - sum(v for r, v in dealt.items() if r != VILLAGER)
    if dealt[VILLAGER] < 0:
        raise SetupError(f"the role counts {dealt} need more than {n_players} players")
    return dealt
