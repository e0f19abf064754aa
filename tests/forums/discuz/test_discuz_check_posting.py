"""`forumbot check --forum` fails where the judge could not post (issue 24): with Discuz!'s posting captcha on,
`run` would open no thread and post no result, yet the check passed.

What the fake claims, and where it comes from: no recorded answer of ``module=secure`` exists. In the Discuz!
X3.4/X3.5 source, ``source/plugin/mobile/api/4/secure.php`` answers ``seccheck($_GET['type'])`` for the
logged-in account: ``Variables.sechash`` plus ``seccode`` (a captcha picture's URL) and/or ``secqaa`` (a
security question) when that account's posts need them, neither otherwise; ``helper_seccheck::seccheck``
returns nothing for a user group without the ``seccode`` permission (exempt) and applies the captcha's
``minposts``. A real X3.5 with the stock captcha on answered ``submit_seccode_invalid`` to ``newthread`` and
``sendreply`` (captures README, 2026-12-03), which the fake does with ``captcha_post``; an old mobile plugin
without the module answers ``module_not_exists``. The moderation queue (the board's ``modnewposts`` with
the group's ``allowdirectpost``) is not shown by any mobile API call (checkpost gives allowpost, allowreply,
allowupload, attachremain, uploadhash only): it cannot be checked before posting; the adapter logs
``post_reply_mod_succeed`` when it happens.
"""

from __future__ import annotations

import pytest
from discuz_helpers import Site
from typer.testing import CliRunner

from forumbot.forums.check import _report, failed
from forumbot.forums.errors import ForumError
from forumbot.forums.settings import ForumSettings


@pytest.fixture
def site():
    s = Site()
    yield s
    s.close()


def _settings(site: Site) -> ForumSettings:
    return ForumSettings(engine="discuz", base_url=site.fake.base, username="法官", password_env="X", forum_id=3)


def test_the_posting_captcha_fails_the_check_with_the_setting_to_change(site):
    site.fake.captcha_post = True
    lines = list(_report(site.client(), _settings(site)))
    errors = [line for line in lines if "ERROR" in line]
    assert len(errors) == 1 and failed(lines)
    assert "captcha (seccode)" in errors[0] and "防灌水" in errors[0] and "user group" in errors[0]
    judge = site.client()
    judge.login()
    with pytest.raises(ForumError, match="seccode"):  # what the check foresaw: the forum refuses the judge's post
        judge.create_thread(3, "局", "开始")


def test_no_captcha_passes(site):
    lines = list(_report(site.client(), _settings(site)))
    assert not failed(lines)
    assert "Posting: the judge's posts need no captcha and no security question." in lines


def test_a_forum_that_cannot_say_is_a_warning_not_a_failure(site):
    site.fake._m_secure = None  # an old mobile plugin: module_not_exists
    lines = list(_report(site.client(), _settings(site)))
    assert not failed(lines)
    assert any("WARNING" in line and "captcha" in line for line in lines)


def test_check_cli_exits_1_on_the_captcha(site, tmp_path, monkeypatch):
    from forumbot.cli import app
    from forumbot.cli import season as season_cli

    config = tmp_path / "season.toml"
    config.write_text(
        'name = "测试"\nruleset = "sunlight"\nplayers = ["张三", "李四", "王五", "赵六", "孙七"]\n'
        f'[forum]\nengine = "discuz"\nbase_url = "{site.fake.base}"\nusername = "法官"\npassword_env = "DZ_PW"\n'
        "forum_id = 3\n", encoding="utf-8")
    for name in ["张三", "李四", "王五", "赵六", "孙七"]:
        site.fake.add_user(name)
    monkeypatch.setenv("DZ_PW", "秘密")
    monkeypatch.setattr(season_cli, "make_forum", lambda settings, base_dir: site.client())
    assert CliRunner().invoke(app, ["check", str(config), "--forum"]).exit_code == 0
    site.fake.captcha_post = True
    result = CliRunner().invoke(app, ["check", str(config), "--forum"])
    assert result.exit_code == 1, result.output
    assert "ERROR: the forum asks the judge for a captcha (seccode)" in result.output
    import forumbot.cli.forum_check as forum_check_cli

    monkeypatch.setattr(forum_check_cli, "make_forum", lambda settings, base_dir: site.client())
    again = CliRunner().invoke(app, ["forum-check", str(config)])
    assert again.exit_code == 1 and "captcha (seccode)" in again.output
