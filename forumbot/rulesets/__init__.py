"""The built-in rulesets, one module each; importing this package registers them."""

from forumbot.rulesets import human_kill, interview_vampire, killer_club, sunlight, vampire_village  # noqa: F401
