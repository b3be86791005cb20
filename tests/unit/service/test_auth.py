"""Token files, roles and the bind check."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagereader.errors import ConfigError
from pagereader.http.auth import (
    ANONYMOUS,
    ROLES,
    Principal,
    TokenStore,
    check_bind,
    is_loopback,
)
from pagereader.http.errors import ServiceError

READER = "r" * 20
ADMIN = "a:b:c-with-colons-0123"


def test_token_file_and_variable_together(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    path.write_text(f"# comment\n\nann:reader:{READER}  # trailing comment\n")
    store = TokenStore.load(path, f"root:admin:{ADMIN}")
    assert len(store) == 2
    assert store.lookup(READER) == Principal("ann", "reader")
    assert store.lookup(ADMIN) == Principal("root", "admin")
    assert store.lookup(READER[:-1]) is None and store.lookup("") is None
    assert store.authenticate(f"Bearer {ADMIN}").name == "root"
    assert store.authenticate(f"bearer  {READER}").role == "reader"
    for header in (None, READER, f"Basic {READER}", "Bearer wrong-token-1234567"):
        with pytest.raises(ServiceError) as caught:
            store.authenticate(header)
        assert caught.value.status == 401 and caught.value.code == "unauthorized"


def test_roles_are_ordered() -> None:
    reader, reviewer, admin = (Principal("x", r) for r in ROLES)
    assert [reader.can(r) for r in ("reader", "reviewer", "admin")] == [True, False, False]
    assert [reviewer.can(r) for r in ("reader", "reviewer", "admin")] == [True, True, False]
    assert all(admin.can(r) for r in ("reader", "reviewer", "admin"))
    assert TokenStore().authenticate(None) == ANONYMOUS


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (f"ann:owner:{READER}", "ROLE one of reader, reviewer, admin"),
        ("ann:reader:short", "shorter than 16"),
        (f"ann:reader:{READER} x", "has spaces"),
        (f"ann:reader:{READER}\nann:admin:{READER}b", "appears twice"),
        (f"{READER}", "NAME:ROLE:TOKEN"),
        ("# only a comment", "no tokens"),
    ],
)
def test_bad_entries_are_config_errors(text: str, says: str) -> None:
    with pytest.raises(ConfigError) as caught:
        TokenStore.parse(text, "tokens.txt")
    assert says in caught.value.message and caught.value.file == "tokens.txt"


def test_missing_token_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        TokenStore.load(tmp_path / "nope", None)
    assert caught.value.file == str(tmp_path / "nope")


def test_bind_check() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.8.0.1", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "10.0.0.1", "example.com", ""))
    check_bind("127.0.0.1", TokenStore())
    check_bind("0.0.0.0", TokenStore.parse(f"ann:reader:{READER}", "env"))
    with pytest.raises(ConfigError, match="without API tokens"):
        check_bind("0.0.0.0", TokenStore())
