"""Console passwords, stored as argon2id hashes (argon2-cffi's :class:`~argon2.PasswordHasher` with its
default, RFC 9106 low-memory parameters): the console file never holds a password, only its hash."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_HASHER = PasswordHasher()
#: verified against when an account has no password, so a wrong name costs the same time as a wrong password
_NOBODY = _HASHER.hash("no console password is set for this account")
#: a console password shorter than this is refused when it is set
MIN_LENGTH = 10


class PasswordTooWeak(ValueError):
    """The password cannot be set: the message says why (too short)."""


def hash_password(password: str) -> str:
    """The argon2id hash (a ``$argon2id$...`` string) of ``password``. Raises :class:`PasswordTooWeak` for a
    password shorter than :data:`MIN_LENGTH` characters."""
    if len(password) < MIN_LENGTH:
        raise PasswordTooWeak(f"a console password needs at least {MIN_LENGTH} characters (it had {len(password)})")
    return _HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the hash ``stored`` (None: the account has none: always False, after the
    same work as a real check). A malformed stored hash is False, never an exception."""
    try:
        return _HASHER.verify(stored or _NOBODY, password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with weaker parameters than the current ones (rehash it at the next login)."""
    try:
        return _HASHER.check_needs_rehash(stored)
    except (InvalidHashError, ValueError):
        return True
