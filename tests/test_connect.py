"""What ``xdb.connect`` may make: a read never makes a database, a write never makes a
directory (except the default file's, in the user data directory)."""

from __future__ import annotations

from pathlib import Path

import pytest

import xdb
from xdb.config import default_file
from xdb.errors import InvalidRequest


def test_create_false_refuses_a_missing_file_and_makes_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "typo.sqlite3"
    with pytest.raises(xdb.InvalidRequest) as caught:
        xdb.connect(missing, create=False)
    assert caught.value.field == "target"
    assert caught.value.message == (
        f"database {missing} does not exist; check target, "
        "or connect with create=True to make a new one"
    )
    assert list(tmp_path.iterdir()) == []


def test_create_false_opens_a_file_that_exists(tmp_path: Path) -> None:
    path = tmp_path / "agent.sqlite3"
    with xdb.connect(path, embedder="hash") as db:
        db.record(event_type="input", content="kept")
    with xdb.connect(path, create=False, embedder="hash") as db:
        assert [t.content for t in db.recent().timesteps] == ["kept"]


@pytest.mark.parametrize("create", [True, False])
def test_a_missing_directory_is_never_made(tmp_path: Path, create: bool) -> None:
    nowhere = tmp_path / "no" / "such" / "dir" / "agent.sqlite3"
    with pytest.raises(xdb.InvalidRequest) as caught:
        xdb.connect(nowhere, create=create)
    assert caught.value.field == "target"
    if create:
        assert caught.value.message == (
            f"directory {nowhere.parent} does not exist (for database {nowhere}); check "
            f"target, or make the directory first (mkdir -p {nowhere.parent})"
        )
    else:
        assert caught.value.message.startswith(f"database {nowhere} does not exist")
    assert list(tmp_path.iterdir()) == []


def test_a_file_where_the_directory_should_be_is_named(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("not a directory")
    with pytest.raises(xdb.InvalidRequest, match=r"directory .*plain is not a directory"):
        xdb.connect(tmp_path / "plain" / "agent.sqlite3")


def test_a_relative_path_opens_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    xdb.connect("agent.sqlite3").close()
    assert (tmp_path / "agent.sqlite3").is_file()


def test_xdb_db_is_no_exception_to_the_directory_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nowhere = tmp_path / "no" / "agent.sqlite3"
    monkeypatch.setenv("XDB_DB", str(nowhere))
    with pytest.raises(xdb.InvalidRequest, match=r"directory .* does not exist"):
        xdb.connect()
    assert list(tmp_path.iterdir()) == []


def test_the_default_file_gets_its_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDB_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    expected = tmp_path / "data" / "xdb" / "xdb.sqlite3"
    assert Path(default_file()) == expected
    with pytest.raises(xdb.InvalidRequest, match="does not exist"):
        xdb.connect(create=False)  # reading makes nothing, not even the directory
    assert list(tmp_path.iterdir()) == []
    xdb.connect().close()
    assert expected.is_file()
    xdb.connect(expected, create=False).close()


def test_memory_needs_no_file() -> None:
    with xdb.connect(":memory:", create=False) as db:
        assert db.status().experience_stats.total_timesteps == 0


def test_a_postgresql_url_is_no_file(postgres_url: str) -> None:
    with xdb.connect(postgres_url, create=False, embedder="hash") as db:
        assert db.status().experience_stats.total_timesteps == 0


@pytest.mark.parametrize("create", [True, False])
def test_a_name_the_filesystem_cannot_hold_is_the_callers_error(
    tmp_path: Path, create: bool
) -> None:
    too_long = tmp_path / ("x" * 300)  # over NAME_MAX (255) on every common filesystem
    with pytest.raises(InvalidRequest, match="File name too long") as caught:
        xdb.connect(too_long, create=create)
    assert caught.value.field == "target"


def test_a_directory_is_no_database(tmp_path: Path) -> None:
    with pytest.raises(InvalidRequest, match="is a directory") as caught:
        xdb.connect(tmp_path)
    assert caught.value.field == "target"


def test_a_bad_embed_wait_opens_and_makes_nothing(tmp_path: Path) -> None:
    with pytest.raises(InvalidRequest) as caught:
        xdb.connect(tmp_path / "new.sqlite3", embed_wait=-1)
    assert caught.value.field == "embed_wait"
    assert list(tmp_path.iterdir()) == []
