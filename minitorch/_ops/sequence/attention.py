"""Attention: ``scaled_dot_product_attention`` and ``multi_head_attention_forward`` (nn.functional).

Both run one ``ScaledDotProductAttention`` node: numpy's batched matmul over all batch and head dims at once
and a numerically stable softmax computed in place; its backward is written with ops (higher derivatives
work). Bool and causal masks become a constant additive bias of -inf / 0; a float mask is an input (it gets
the scores' gradient).
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..amp import lower_precision
from ..._dtype import C_NAMES
from ..._core.registry import functional_op
from ..._core.tensor import Tensor
from ..._core.function import Op
from ..._core.parallel import parallel_products, parallel_rows
from ..dropout import keep_mask
from ..shape.indexing import masked_fill, repeat_interleave
from ..conv.padding import pad
from ..linalg.products import linear, matmul
from ..reduction.sums import mean, sum
from ..reduction.softmax import softmax
from ..shape.joins import cat


def _cpp_name(d) -> str:
    """The C++ type name torch's attention messages use (``float``, ``double``, ``long int``)."""
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
            "int16": "short int", "int8": "signed char", "uint8": "unsigned char"}.get(d.name, d.name)


def _check_sdpa(query, key, value, attn_mask, dropout_p, is_causal, enable_gqa) -> None:
    """torch's argument checks, with its messages."""
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{_cpp_name(query.dtype)} key.dtype: {_cpp_name(key.dtype)} and value.dtype: "
                           f"{_cpp_name(value.dtype)} instead.")
    if query._data.dtype.kind not in "fV":  # torch's message for batched input
        raise RuntimeError(f"expected scalar type Float but found {C_NAMES[query.dtype]}")
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if attn_mask is not None:
        if attn_mask.dtype != query.dtype and attn_mask._data.dtype.kind != "b" and \
                attn_mask._data.dtype != np.float32:
            raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                               f"attn_mask.dtype: {_cpp_name(attn_mask.dtype)} and  query.dtype: "
                               f"{_cpp_name(query.dtype)} instead.")
        if is_causal:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                               "is_causal=True")
    if dropout_p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    if dropout_p < 0:  # (torch's message)
        raise RuntimeError("scaled_dot_product_attention_flash_attention: Currently do not support dropout > 0")
    if enable_gqa and query.dim() >= 3 and (query.shape[-3] % key.shape[-3] or query.shape[-3] % value.shape[-3]):
        raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
    batch = int(np.prod(query.shape[:-2]))
    if key.shape[-1] != query.shape[-1]:  # what torch's bmm reports for q @ k^T and attn @ v
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, "
                           f"{query.shape[-1]}] but got: [{batch}, {key.shape[-1]}].")
    if value.shape[-2] != key.shape[-2]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, "
                           f"{key.shape[-2]}] but got: [{batch}, {value.shape[-2]}].")


def _bias(attn_mask, is_causal: bool, L: int, S: int, dtype) -> np.ndarray | Tensor | None:
    """The additive bias: a float mask as is (it may require grad), else a constant -inf/0 array."""
    if attn_mask is not None and attn_mask._data.dtype.kind != "b":
        return attn_mask
    if is_causal:
        allowed = np.tri(L, S, dtype=bool)
    elif attn_mask is not None:
        allowed = attn_mask._data
    else:
        return None
    bias = np.zeros(allowed.shape, dtype=dtype.np)
    bias[~allowed] = -np.inf
    return bias


def _part(a, ndim: int, b: int, e: int):
    """``a``'s share of items ``b..e`` of the first dim of an ``ndim``-dim broadcast: all of ``a`` where it
    broadcasts along that dim."""
    if a is None or a.ndim < ndim or a.shape[a.ndim - ndim] == 1:
        return a
    return a[(slice(None),) * (a.ndim - ndim) + (slice(b, e),)]


def _products(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.matmul(a, b)`` of stacks of matrices, the stack split across the threads along its first dim, each
    product by single-threaded BLAS (``parallel_products``)."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    if not batch:
        return np.matmul(a, b)
    out = np.empty(batch + (a.shape[-2], b.shape[-1]), np.result_type(a, b))

    def items(i: int, j: int) -> None:
        np.matmul(_part(a, out.ndim, i, j), _part(b, out.ndim, i, j), out=out[i:j])
    parallel_products(batch[0], out[0].size, items)
    return out


def _scores(q, k, bias, scale: float) -> np.ndarray:
    """``(q * scale) @ k^T + bias``, a new array (numpy's matmul reads strided heads in place; scaling ``q``
    touches fewer numbers than scaling the scores)."""
    s = _products(q * q.dtype.type(scale), np.swapaxes(k, -1, -2))
    if bias is None:
        return s
    if np.broadcast_shapes(s.shape, bias.shape) == s.shape:
        s += bias
        return s
    return s + bias


def _softmax_rows(s: np.ndarray, safe: bool) -> tuple:
    """Softmax over the last dim of C-contiguous ``s``, in place, row by row, the rows split across the threads;
    returns its log-normaliser and, with ``safe``, the rows that attend to nothing (all -inf, left all 0), or None."""
    rows = s.reshape(math.prod(s.shape[:-1]), s.shape[-1])
    m, total = np.empty((rows.shape[0], 1), s.dtype), np.empty((rows.shape[0], 1), s.dtype)
    dead = np.zeros(m.shape, bool)

    def softmax(b: int, e: int) -> None:
        r = rows[b:e]
        top = np.max(r, -1, keepdims=True, out=m[b:e])
        if safe:
            np.isneginf(top, out=dead[b:e])
            top[dead[b:e]] = 0  # exp(-inf - 0) = 0 everywhere in the row; its sum is set to 1 below
        r -= top
        np.exp(r, out=r)
        np.sum(r, -1, keepdims=True, out=total[b:e])
        total[b:e][dead[b:e]] = 1
        r *= 1 / total[b:e]
    parallel_rows(rows.shape[0], rows.shape[1], softmax)
    shape = s.shape[:-1] + (1,)
    return (m + np.log(total)).reshape(shape), dead.reshape(shape) if dead.any() else None


def _weights_rows(s: np.ndarray, log_norm: np.ndarray) -> np.ndarray:
    """The softmax weights ``exp(s - log_norm)`` from the scores ``s`` (overwritten), row by row, the rows split
    across the threads."""
    rows, norms = s.reshape(math.prod(s.shape[:-1]), s.shape[-1]), log_norm.reshape(-1, 1)

    def weights(b: int, e: int) -> None:
        r = rows[b:e]
        r -= norms[b:e]
        np.exp(r, out=r)
    parallel_rows(rows.shape[0], rows.shape[1], weights)
    return s


def _softmax_grad_rows(d_weights: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``w * (d_weights - sum(d_weights * w))`` (sums over the last dim), ``d_weights`` (C-contiguous) overwritten,
    row by row, the rows split across the threads."""
    shape = d_weights.shape
    dw = d_weights.reshape(math.prod(shape[:-1]), shape[-1])
    wr = np.broadcast_to(w, shape).reshape(dw.shape)
    out = np.empty(dw.shape, np.result_type(dw, wr))

    def rows(b: int, e: int) -> None:
        d = np.multiply(dw[b:e], wr[b:e], out=out[b:e])
        dw[b:e] -= d.sum(-1, keepdims=True)
        np.multiply(dw[b:e], wr[b:e], out=d)
    parallel_rows(dw.shape[0], dw.shape[1], rows)
    return out.reshape(shape)


class ScaledDotProductAttention(Op):
    """``softmax(q @ k^T * scale + bias) @ v`` in one node, with a numerically stable softmax computed in place.
    Like torch's fused kernels it keeps the softmax's log-normaliser, not the (L, S) weights: backward recomputes
    them with one matmul. With ``need_weights`` the (dropped-out) weights are a second output. ``safe``: rows
    that attend to nothing give zeros, as torch's SDPA (its plain softmax, for MultiheadAttention's weights,
    gives NaN)."""

    @staticmethod
    def forward(ctx, q, k, v, bias=None, scale=1.0, dropout_p=0.0, safe=True, need_weights=False):
        s = _scores(q, k, bias, scale)
        log_norm, dead = _softmax_rows(s, safe)  # weights = exp(scores - log_norm)
        ctx.scale, ctx.dropout_p = scale, dropout_p
        keep = None if dropout_p == 0 else keep_mask(s.shape, dropout_p) if dropout_p < 1 else np.zeros(s.shape, bool)
        dropped = s if keep is None else s * _dropout_scale(keep, dropout_p, s.dtype)
        # with need_weights the weights are kept (returned anyway: keeping them costs nothing)
        ctx.save_for_backward(q, k, v, bias, log_norm, dead, keep, s if need_weights else None)
        out = _products(dropped, v)
        if need_weights:  # a copy: changing the returned weights in place must not change the saved ones
            return out, (dropped if keep is not None else s.copy())
        return out

    @staticmethod
    def backward(ctx, g, g_weights=None):
        q, k, v, bias, log_norm, dead, keep, weights = ctx.saved_tensors
        drop = None if keep is None else _dropout_scale(_array(keep), ctx.dropout_p, _array(log_norm).dtype)
        if ctx._as_tensors:  # the weights as a function of q, k and bias, for higher derivatives
            s = matmul(q, k.mT) * ctx.scale
            if bias is not None:
                s = s + bias
            w = softmax(s if dead is None else masked_fill(s, dead, 0.0), -1)
            w = w if dead is None else masked_fill(w, dead, 0.0)
        elif weights is not None:
            w = weights
        else:
            w = _weights_rows(_scores(q, k, bias, ctx.scale), log_norm)
        product = matmul if ctx._as_tensors else _products
        dropped = w if drop is None else w * drop
        d_weights = None if g is None else product(g, v.mT)
        if g_weights is not None:
            d_weights = g_weights if d_weights is None else d_weights + g_weights
        if drop is not None:
            d_weights = d_weights * drop
        if ctx._as_tensors:
            d_scores = w * (d_weights - sum(d_weights * w, -1, keepdim=True))
        else:  # the same, in place on the (L, S) arrays
            d_scores = _softmax_grad_rows(d_weights.copy() if d_weights is g_weights else d_weights, w)
        need_q, need_k, need_v, _ = ctx.needs_input_grad
        scale = ctx.scale  # applied to the (L, E) and (S, E) products, smaller than the (L, S) scores
        return (product(d_scores, k) * scale if need_q else None, product(d_scores.mT, q) * scale if need_k else None,
                product(dropped.mT, g) if need_v and g is not None else None, d_scores)


def _dropout_scale(keep: np.ndarray, p: float, dtype) -> np.ndarray:
    """The dropout factors: 1 / (1 - p) where ``keep`` (bools), 0 where dropped."""
    return keep.astype(dtype) / np.asarray(1.0 - p, dtype) if p < 1 else np.zeros(keep.shape, dtype)


def _array(x):
    """The array of a saved value (a tensor under create_graph)."""
    return x if x is None or type(x) is np.ndarray else x._data


def _attend(q, k, v, bias, scale: float, dropout_p: float, safe: bool, need_weights: bool = False):
    """The attention output (and, with ``need_weights``, the weights); bias a constant array or a tensor."""
    return ScaledDotProductAttention.apply(q, k, v, bias, scale=scale, dropout_p=dropout_p, safe=safe,
                                           need_weights=need_weights)


@functional_op
def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(query @ key^T * scale + mask) @ value`` over the last two dims, batched over the others.

    ``attn_mask``: bool (True attends) or float (added to the scores); ``is_causal``: query i attends to keys
    0..i; ``scale`` defaults to ``1 / sqrt(E)``; ``enable_gqa``: key/value heads (dim -3) shared by groups of
    query heads. Rows that attend to nothing give zeros, as in torch.
    """
    query, key, value, attn_mask = lower_precision(query, key, value, attn_mask)
    _check_sdpa(query, key, value, attn_mask, dropout_p, is_causal, enable_gqa)
    L, S, E = query.shape[-2], key.shape[-2], query.shape[-1]
    if enable_gqa and query.dim() >= 3:
        if key.shape[-3] != query.shape[-3]:
            key = repeat_interleave(key, query.shape[-3] // key.shape[-3], -3)
        if value.shape[-3] != query.shape[-3]:
            value = repeat_interleave(value, query.shape[-3] // value.shape[-3], -3)
    scale = 1.0 / math.sqrt(E) if scale is None else scale
    return _attend(query, key, value, _bias(attn_mask, is_causal, L, S, query.dtype), scale, dropout_p, True)


def canonical_mask(mask, mask_name: str, other_type, other_name: str, target_type, check_other: bool = True):
    """A bool mask as a float bias of ``target_type`` (-inf where True); float masks as they are."""
    if mask is None:
        return None
    kind = mask._data.dtype.kind
    if kind not in "bf":
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=3)
    if kind == "b":
        bias = np.zeros(mask.shape, dtype=target_type.np)
        bias[mask._data] = -np.inf
        return Tensor._wrap(bias)
    return mask


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads) -> bool:
    """torch's checks of the ranks; whether the input is batched."""
    if query.dim() not in (2, 3):
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D "
                             "query tensor")
    batched = query.dim() == 3
    what = "batched (3-D)" if batched else "unbatched (2-D)"
    if key.dim() != query.dim() or value.dim() != query.dim():
        raise AssertionError(f"For {what} `query`, expected `key` and `value` to be {query.dim()}-D but found "
                             f"{key.dim()}-D and {value.dim()}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != query.dim() - 1:
        raise AssertionError(f"For {what} `query`, expected `key_padding_mask` to be `None` or "
                             f"{query.dim() - 1}-D but found {key_padding_mask.dim()}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For {what} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                                 f"{attn_mask.dim()}-D tensor instead")
        if not batched and attn_mask.dim() == 3:
            expected = (num_heads, query.shape[0], key.shape[0])
            if tuple(attn_mask.shape) != expected:
                raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
    return batched


def _heads(x, length: int, bsz: int, num_heads: int):
    """(length, bsz, E) -> (bsz, heads, length, head_dim)."""
    return x.reshape(length, bsz, num_heads, -1).permute(1, 2, 0, 3)


@functional_op
def multi_head_attention_forward(
        query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
        in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None, bias_v: Tensor | None,
        add_zero_attn: bool, dropout_p: float, out_proj_weight: Tensor, out_proj_bias: Tensor | None,
        training: bool = True, key_padding_mask: Tensor | None = None, need_weights: bool = True,
        attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False, q_proj_weight: Tensor | None = None,
        k_proj_weight: Tensor | None = None, v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
        static_v: Tensor | None = None, average_attn_weights: bool = True,
        is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
    """Multi-head attention on sequence-first inputs ``(L, N, E)`` (or unbatched ``(L, E)``), as
    ``nn.MultiheadAttention`` computes it: returns ``(output, weights or None)``."""
    batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask",
                                      None if attn_mask is None else attn_mask.dtype, "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # the hint alone: SDPA's causal path
    else:
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    # in-projection: one matmul for self-attention, else one per input
    if use_separate_proj_weight:
        b_q, b_k, b_v = (None,) * 3 if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = linear(query, q_proj_weight, b_q), linear(key, k_proj_weight, b_k), linear(value, v_proj_weight, b_v)
    elif query is key and key is value:
        q, k, v = linear(query, in_proj_weight, in_proj_bias).unflatten(-1, (3, embed_dim)).unbind(-2)
    else:
        w_q, w_k, w_v = in_proj_weight.chunk(3)
        b_q, b_k, b_v = (None,) * 3 if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = linear(query, w_q, b_q), linear(key, w_k, b_k), linear(value, w_v, b_v)
    src_len = key.shape[0]

    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.reshape(1, 1, tgt_len, src_len)
        else:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
            attn_mask = attn_mask.reshape(bsz, num_heads, tgt_len, src_len)
    if bias_k is not None and bias_v is not None:
        if static_k is not None or static_v is not None:
            raise AssertionError(f"bias cannot be added to static {'key' if static_k is not None else 'value'}.")
        k = cat([k, bias_k.expand(1, bsz, embed_dim)])
        v = cat([v, bias_v.expand(1, bsz, embed_dim)])
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    elif bias_k is not None or bias_v is not None:
        raise AssertionError("bias_k is set but bias_v is None" if bias_k is not None else
                             "bias_v is set but bias_k is None")

    q = _heads(q, tgt_len, bsz, num_heads)
    k = _heads(k, k.shape[0], bsz, num_heads) if static_k is None else _static(static_k, "k", bsz, num_heads, head_dim)
    v = _heads(v, v.shape[0], bsz, num_heads) if static_v is None else _static(static_v, "v", bsz, num_heads, head_dim)
    if add_zero_attn:
        k = pad(k, (0, 0, 0, 1))
        v = pad(v, (0, 0, 0, 1))
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    src_len = k.shape[-2]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise AssertionError(f"expecting key_padding_mask shape of {(bsz, src_len)}, but got "
                                 f"{key_padding_mask.shape}")
        key_padding_mask = key_padding_mask.reshape(bsz, 1, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    scale = 1.0 / math.sqrt(head_dim)
    bias = _bias(None, is_causal and attn_mask is None, tgt_len, src_len, q.dtype) if attn_mask is None else attn_mask
    if need_weights:
        out, weights = _attend(q, k, v, bias, scale, dropout_p, safe=False, need_weights=True)
    else:
        out = _attend(q, k, v, bias, scale, dropout_p, safe=True)
    out = linear(out.permute(2, 0, 1, 3).reshape(tgt_len * bsz, embed_dim), out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, -1)
    if not need_weights:
        return (out if batched else out.squeeze(1)), None
    if average_attn_weights:
        weights = mean(weights, 1)
    return (out, weights) if batched else (out.squeeze(1), weights.squeeze(0))


def _static(t, name: str, bsz: int, num_heads: int, head_dim: int):
    """A precomputed (N * heads, S, head_dim) key or value, as (N, heads, S, head_dim)."""
    if t.shape[0] != bsz * num_heads:
        raise AssertionError(f"expecting static_{name}.size(0) of {bsz * num_heads}, but got {t.shape[0]}")
    if t.shape[2] != head_dim:
        raise AssertionError(f"expecting static_{name}.size(2) of {head_dim}, but got {t.shape[2]}")
    return t.reshape(bsz, num_heads, t.shape[1], head_dim)
