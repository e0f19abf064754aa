"""The roles of killer_club (殺人遊戲), their sides, night commands and counts (the rulebook's 「設置5種身份
——殺手、警察、護士、殺助、水民」 and its notes 1 and 4)."""

from __future__ import annotations

KILLER, POLICE, HELPER, NURSE, CIVILIAN = "killer", "police", "helper", "nurse", "civilian"
ROLES = (KILLER, POLICE, HELPER, NURSE, CIVILIAN)
#: The two sides: the helper plays for the killers; the nurse and the civilians for the police.
FACTION = {KILLER: KILLER, HELPER: KILLER, POLICE: POLICE, NURSE: POLICE, CIVILIAN: POLICE}
#: Commands of each role at night (the day vote is everyone's).
NIGHT_VERBS = {KILLER: ["kill"], POLICE: ["check"], HELPER: ["check"], NURSE: ["ask", "save"], CIVILIAN: []}


def preset_counts(n: int) -> dict[str, int]:
    """The role counts for ``n`` players (the judge not counted), as the rulebook's note 1 scales them:

    ====== ======= ====== ====== ===== =========
    n      killers police helper nurse civilians
    ====== ======= ====== ====== ===== =========
    6–7    1       1      0      0     n − 2
    8–12   2       2      0      0     n − 4
    13–16  3       3      1      1     n − 8
    17–20  4       4      1      1     n − 10
    21–24  5       5      1      1     n − 12
    ====== ======= ====== ====== ===== =========

    and on: one more killer and one more police for every 4 players from 13 (14 is the standard
    game: 3, 3, 1, 1, 6; about 10 players: 2 killers, 2 police, no helper, no nurse).
    """
    if n < 8:
        k, extras = 1, 0
    elif n <= 12:
        k, extras = 2, 0
    else:
        k, extras = 3 + (n - 13) // 4, 1
    return {KILLER: k, POLICE: k, HELPER: extras, NURSE: extras, CIVILIAN: n - 2 * k - 2 * extras}


def last_words_limit(killers: int, n_players: int) -> int:
    """N, the number of first deaths that leave last words (note 4): the number of killers at the
    start, or 3 with 2 killers and 11–12 players."""
    if killers == 2 and n_players in (11, 12):
        return 3
    return killers
