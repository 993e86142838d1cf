"""bfloat16 arithmetic as PyTorch's CPU kernels do it: each op computes in float32 and rounds its result.

numpy's bfloat16 (ml_dtypes) would otherwise round at every step inside an op (a sum would accumulate in
bfloat16). So ``Op.apply`` hands any op with a bfloat16 input to ``apply_lowered``: the bfloat16 arrays
widen to float32 (exact), the op's forward runs unchanged, and its floating results round to bfloat16 (to
nearest, ties to even) where torch's promotion makes the result bfloat16 (not beside a float16 or a float32
tensor with dimensions, nor where the op is given a ``dtype``). Backward does the same per node: bfloat16
gradients and saved results widen to float32, and the engine rounds the input gradients to the inputs' dtype.
"""
from __future__ import annotations

import numpy as np

from .._dtype import BF16, bfloat16, from_numpy_dtype, lift, promote_types

_F32 = np.dtype(np.float32)


def widen(x):
    """A bfloat16 array as float32 (exact); anything else unchanged."""
    return x.astype(_F32) if type(x) is np.ndarray and x.dtype is BF16 else x


def rounds_to_bfloat16(inputs, params) -> bool:
    """Whether the op's float32 results stand for bfloat16 ones: torch's promotion of the tensor inputs
    (a 0-dim one counts only when of a higher category; arrays are the op's own constants) gives bfloat16,
    and no ``dtype`` is asked for."""
    if params.get("dtype") is not None:
        return False
    dim_t = zero_t = None
    for x in inputs:
        a = getattr(x, "_data", None)
        if type(a) is np.ndarray:
            d = from_numpy_dtype(a.dtype)
            if a.ndim:
                dim_t = d if dim_t is None else promote_types(dim_t, d)
            else:
                zero_t = d if zero_t is None else promote_types(zero_t, d)
    result = dim_t
    if zero_t is not None and (result is None or zero_t.kind > result.kind):
        result = lift(result, zero_t)
    return result is bfloat16


def narrow(out, to_bf16: bool):
    """The op's results: float32 arrays rounded to bfloat16 when ``to_bf16``."""
    if not to_bf16:
        return out
    if type(out) is tuple:
        return tuple(_narrow_one(o) for o in out)
    return _narrow_one(out)


def _narrow_one(o):
    if type(o) is np.ndarray and o.dtype == _F32:
        return o.astype(BF16)
    if isinstance(o, np.float32):
        return np.asarray(o).astype(BF16)
    return o


def remap_saved(ctx, raw, rounded) -> None:
    """Point what forward saved at the rounded results (found by identity), so that backward reads the values
    the results hold and their versions are checked as any op's."""
    saved = ctx._to_save
    if not saved:
        return
    raw_t = raw if type(raw) is tuple else (raw,)
    rounded_t = rounded if type(rounded) is tuple else (rounded,)
    pairs = {id(r): n for r, n in zip(raw_t, rounded_t) if r is not n}
    if pairs:
        ctx._to_save = tuple(pairs.get(id(s), s) if type(s) is np.ndarray else s for s in saved)


def widen_all(values):
    """Gradients or saved values for a lowered node's backward: bfloat16 arrays as float32."""
    return [widen(v) for v in values]
