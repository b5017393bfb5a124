"""A spec's model id, known without making the embedder: what opening a database and
status ask, so that neither loads numpy or the model."""

from __future__ import annotations

import subprocess
import sys

import pytest

from xdb.embed import get_embedder, model_id
from xdb.errors import InvalidRequest, StoreError

_VARS = ("XDB_EMBEDDER", "XDB_EMBED_URL", "XDB_EMBED_MODEL", "XDB_EMBED_API_KEY", "XDB_EMBED_DIM")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _VARS:
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("spec", ["minilm", "hash", None])
def test_the_id_is_the_embedders_own(spec: str | None) -> None:
    assert model_id(spec) == get_embedder(spec).model_id


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://localhost:11434/v1", "openai:nomic@localhost"),
        ("https://api.example.com/v1/", "openai:nomic@api.example.com"),
        ("http://[::1]:8080/v1", "openai:nomic@::1"),
    ],
)
def test_an_openai_id_is_the_clients_own(
    monkeypatch: pytest.MonkeyPatch, url: str, expected: str
) -> None:
    monkeypatch.setenv("XDB_EMBEDDER", "openai")
    monkeypatch.setenv("XDB_EMBED_URL", url)
    monkeypatch.setenv("XDB_EMBED_MODEL", "nomic")
    assert model_id() == get_embedder().model_id == expected


def test_a_spec_that_cannot_be_made_fails_as_get_embedder_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(InvalidRequest) as caught:
        model_id("word2vec")
    assert caught.value.field == "XDB_EMBEDDER"
    monkeypatch.setenv("XDB_EMBEDDER", "openai")
    with pytest.raises(InvalidRequest) as caught:
        model_id()
    assert caught.value.field == "XDB_EMBED_URL"
    monkeypatch.setenv("XDB_EMBED_URL", "http://[::1/v1")
    monkeypatch.setenv("XDB_EMBED_MODEL", "nomic")
    with pytest.raises(StoreError, match="XDB_EMBED_URL"):
        model_id()
    with pytest.raises(StoreError, match="XDB_EMBED_URL"):
        get_embedder()


def test_it_loads_nothing_heavy() -> None:
    code = (
        "import sys; from xdb.embed import model_id; model_id('minilm'); model_id('hash');"
        "heavy = [m for m in sys.modules if m.split('.')[0] in "
        "('numpy', 'onnxruntime', 'tokenizers', 'httpx')]; print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
