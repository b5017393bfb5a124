"""Choosing an embedder from a spec or the XDB_EMBEDDER variable."""

from __future__ import annotations

import pytest

from xdb.embed import SPECS, get_embedder
from xdb.embed.hashing import HashEmbedder
from xdb.embed.minilm import MiniLMEmbedder
from xdb.embed.openai import OpenAIEmbedder
from xdb.errors import InvalidRequest

_VARS = ("XDB_EMBEDDER", "XDB_EMBED_URL", "XDB_EMBED_MODEL", "XDB_EMBED_API_KEY", "XDB_EMBED_DIM")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _VARS:
        monkeypatch.delenv(name, raising=False)


def test_default_is_minilm_and_cached() -> None:
    embedder = get_embedder()
    assert isinstance(embedder, MiniLMEmbedder)
    assert (embedder.model_id, embedder.dimension) == ("minilm:all-MiniLM-L6-v2", 384)
    assert get_embedder("minilm") is embedder
    assert get_embedder(" MiniLM ") is embedder


def test_env_selects_and_argument_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDB_EMBEDDER", "hash")
    hashed = get_embedder()
    assert isinstance(hashed, HashEmbedder)
    assert (hashed.model_id, hashed.dimension) == ("hash:384", 384)
    assert isinstance(get_embedder("minilm"), MiniLMEmbedder)


def test_unknown_spec_names_field_and_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InvalidRequest) as info:
        get_embedder("word2vec")
    assert info.value.field == "XDB_EMBEDDER"
    assert "'word2vec'" in info.value.message
    assert all(spec in info.value.message for spec in SPECS)
    monkeypatch.setenv("XDB_EMBEDDER", "bert")
    with pytest.raises(InvalidRequest, match="minilm, openai, hash"):
        get_embedder()


def test_openai_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDB_EMBEDDER", "openai")
    monkeypatch.setenv("XDB_EMBED_URL", "http://localhost:11434/v1")
    monkeypatch.setenv("XDB_EMBED_MODEL", "nomic-embed-text")
    monkeypatch.setenv("XDB_EMBED_DIM", "768")
    embedder = get_embedder()
    assert isinstance(embedder, OpenAIEmbedder)
    # The dimension comes from XDB_EMBED_DIM, so nothing is sent to the (absent) server.
    assert (embedder.model_id, embedder.dimension) == ("openai:nomic-embed-text@localhost", 768)
    assert get_embedder() is embedder
    monkeypatch.setenv("XDB_EMBED_MODEL", "mxbai-embed-large")
    assert get_embedder() is not embedder  # new settings, new client


@pytest.mark.parametrize(
    ("env", "field"),
    [
        ({"XDB_EMBED_MODEL": "m"}, "XDB_EMBED_URL"),
        ({"XDB_EMBED_URL": "http://h/v1"}, "XDB_EMBED_MODEL"),
        (
            {"XDB_EMBED_URL": "http://h/v1", "XDB_EMBED_MODEL": "m", "XDB_EMBED_DIM": "big"},
            "XDB_EMBED_DIM",
        ),
        (
            {"XDB_EMBED_URL": "http://h/v1", "XDB_EMBED_MODEL": "m", "XDB_EMBED_DIM": "-3"},
            "XDB_EMBED_DIM",
        ),
    ],
)
def test_openai_settings_checked(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], field: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(InvalidRequest) as info:
        get_embedder("openai")
    assert info.value.field == field
    assert field in info.value.message
