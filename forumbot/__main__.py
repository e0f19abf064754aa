from forumbot.cli import app

app()
