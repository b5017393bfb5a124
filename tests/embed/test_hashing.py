"""The feature-hashing stand-in: right shape, deterministic, and word overlap shows."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from xdb.embed.hashing import HashEmbedder

TEXTS = ["the build failed", "the build passed", "grandmother grows tomatoes", "", "!!!"]


def test_shape_norm_and_id() -> None:
    embedder = HashEmbedder()
    out = embedder.embed(TEXTS)
    assert (embedder.model_id, embedder.dimension) == ("hash:384", 384)
    assert out.shape == (5, 384)
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-6)
    assert embedder.embed([]).shape == (0, 384)


def test_shared_words_score_higher() -> None:
    a, b, c = HashEmbedder().embed(TEXTS[:3])
    assert float(a @ b) > float(a @ c) + 0.3


def test_batch_equals_single_and_megabyte_text_is_clipped() -> None:
    embedder = HashEmbedder()
    np.testing.assert_array_equal(
        embedder.embed(TEXTS), np.stack([embedder.embed([t])[0] for t in TEXTS])
    )
    huge = "alpha beta gamma " * 70_000
    np.testing.assert_array_equal(embedder.embed([huge]), embedder.embed([huge[:8_000]]))


def test_same_vectors_in_another_process() -> None:
    # Stored vectors must be reproducible: no per-process hash salt may leak in.
    code = (
        "from xdb.embed.hashing import HashEmbedder; "
        "print(HashEmbedder().embed(['the build failed']).tobytes().hex())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert bytes.fromhex(out.stdout.strip()) == HashEmbedder().embed(["the build failed"]).tobytes()
