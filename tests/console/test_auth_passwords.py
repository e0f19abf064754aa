"""Console passwords are argon2id hashes (forumbot.console.passwords)."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from forumbot.console.passwords import PasswordTooWeak, hash_password, needs_rehash, verify_password


def test_a_hash_is_argon2id_salted_and_verifies_only_its_password():
    first, second = hash_password("correct horse battery"), hash_password("correct horse battery")
    assert first.startswith("$argon2id$") and "correct horse" not in first
    assert first != second  # a salt each
    assert verify_password(first, "correct horse battery")
    assert not verify_password(first, "correct horse battery!")
    assert not verify_password(first, "")


def test_no_hash_or_a_broken_hash_verifies_nothing():
    assert not verify_password(None, "no console password is set for this account")
    assert not verify_password("not a hash", "anything at all")
    assert not verify_password("$argon2id$v=19$m=65536,t=3,p=4$broken", "anything at all")


def test_a_short_password_is_refused_with_its_length():
    with pytest.raises(PasswordTooWeak, match=r"at least 10 characters \(it had 5"):
        hash_password("short")


def test_a_hash_made_with_weaker_parameters_needs_a_rehash():
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash("correct horse battery")
    assert verify_password(weak, "correct horse battery")
    assert needs_rehash(weak)
    assert not needs_rehash(hash_password("correct horse battery"))
