"""The votes of human_kill (人类杀), declared once (:mod:`forumbot.engine.votes`): the humans' exorcism,
the night's banish vote and the sage election, and the phase kinds in which the last two are cast.

Source: the rulings on what the rulebook 《人类杀》 leaves open (human_kill, dated).
"""

from __future__ import annotations

from forumbot.engine.votes import VoteRule

#: The phases of the night's banish vote: the first and the run-off.
VOTE_KINDS = ("banish", "banish_runoff")
#: The phases of the sage election's votes: the first and the run-off.
SAGE_VOTE_KINDS = ("sage_vote", "sage_runoff")
#: The humans' exorcism (rulings, human_kill): 「humans ... pick any living player, a human included, by PM;
#: abstain allowed; plurality at the deadline; all abstain or a tie: nobody (config)」 (the team talks until
#: the deadline: a later ballot replaces the earlier one). ``last_tie`` is the ``exorcise_tie`` parameter.
EXORCISM = VoteRule("exorcism", votes=1, last_tie="nobody", change="replace", abstain=True)
#: The night's banish vote (rulings, human_kill): 「everyone votes to banish (abstain allowed); the top is out;
#: a tie: the tied speak again and everyone votes among them; tied again, or a top of 0: nobody」; 「The sage's
#: banish vote counts 1.5」. ``votes`` (``banish_votes``; 1 under 凪) and ``change`` (``change_vote``) are set
#: when it opens.
BANISH = VoteRule("banish vote", votes=2, last_tie="nobody", abstain=True)
#: The sage election (rulings, human_kill): 「only those who withdrew vote (abstain allowed); a tie: the tied
#: speak again and everyone but the tied votes among them; tied again, or nobody withdrew, or everyone did:
#: no sage」; 「A first sage vote in which everyone abstains is a tie of all candidates (run-off); a second
#: all-abstain: no sage」 (ruling 2026-12). Everybody stands unless they withdraw (:meth:`Vote.withdraw_candidate`).
SAGE_ELECTION = VoteRule("sage election", votes=2, last_tie="nobody", no_votes="tie", abstain=True)
