"""Sparse COO cases run on PyTorch and on minitorch alike: each takes the library (``torch`` or ``minitorch``)
and returns what it prints. tests/fixtures/make_sparse_fixtures.py records PyTorch's texts in
tests/fixtures/sparse_coo.json; tests/sparse/test_sparse.py compares minitorch's with them (floats within float32's
tolerance)."""
import warnings

import numpy as np

IDX = [[0, 1, 1, 2], [2, 0, 2, 1]]
DUP = [[0, 0, 1, 2, 0], [1, 1, 0, 2, 2]]  # (0, 1) twice, columns out of order
DENSE = np.array([[0.0, 1.5, 0.0, -2.0], [0.0, 0.0, 0.0, 0.0], [3.0, 0.0, 0.25, 0.0]])
RHS = np.array([[0.5, -1.0], [2.0, 0.25], [-1.5, 1.0]])


def _text(x) -> str:
    if isinstance(x, tuple):
        return "\n".join(_text(v) for v in x)
    return str(x)


def _s(lib, idx=IDX, values=(3.0, 4.0, 5.0, 6.0), size=(3, 3), **kw):
    return lib.sparse_coo_tensor(idx, values, size, **kw)


def _mm_grads(lib, product):
    """The gradients of ``product(S, D).sum() weighted`` for a sparse leaf ``S`` and a dense ``D``."""
    s = _s(lib, dtype=lib.float64, requires_grad=True)
    d = lib.tensor(RHS, requires_grad=True)
    out = product(lib, s, d)
    (out * lib.tensor([[1.0, -2.0], [0.5, 1.0], [3.0, 0.0]], dtype=lib.float64)).sum().backward()
    return out, s.grad, d.grad


def _values_grad(lib, fn):
    """``fn(S)`` of ``S`` whose values are ``w * 2``, and ``w``'s gradient of its weighted sum."""
    w = lib.tensor([1.0, -2.0, 0.5, 3.0, 1.5], dtype=lib.float64, requires_grad=True)
    s = lib.sparse_coo_tensor(DUP, w * 2, (3, 3))
    out = fn(lib, s)
    dense = out.to_dense() if out.is_sparse else out
    weights = lib.arange(dense.numel(), dtype=lib.float64).reshape(dense.shape) - 1.5
    (dense * weights).sum().backward()
    return out, w.grad


def _error(fn):
    def case(lib):
        try:
            fn(lib)
        except Exception as e:  # noqa: BLE001 (the case records whichever error the library raises)
            return f"{type(e).__name__}: {str(e)[:120]}"
        return "no error"
    return case


CASES = {
    "uncoalesced": lambda lib: _s(lib),
    "properties": lambda lib: tuple(repr(v) for v in (
        _s(lib).is_coalesced(), _s(lib).is_sparse, str(_s(lib).layout), _s(lib).sparse_dim(), _s(lib).dense_dim(),
        _s(lib)._nnz(), tuple(_s(lib).shape), str(_s(lib).dtype), str(lib.ones(2).layout), lib.ones(2).is_sparse)),
    "requires_grad": lambda lib: _s(lib, requires_grad=True),
    "inferred_size": lambda lib: lib.sparse_coo_tensor(IDX, [1.0, 2.0, 3.0, 4.0]),
    "coalesce_duplicates": lambda lib: _s(lib, DUP, [1.0, 2.0, 3.0, 4.0, 5.0]).coalesce(),
    "to_dense_duplicates": lambda lib: _s(lib, DUP, [1.0, 2.0, 3.0, 4.0, 5.0]).to_dense(),
    "indices_values": lambda lib: (_s(lib, DUP, [1.0, 2.0, 3.0, 4.0, 5.0]).coalesce().indices(),
                                   _s(lib, DUP, [1.0, 2.0, 3.0, 4.0, 5.0]).coalesce().values(),
                                   _s(lib)._indices(), _s(lib)._values()),
    "to_sparse": lambda lib: lib.tensor(DENSE).to_sparse(),
    "to_sparse_coo": lambda lib: lib.tensor(DENSE, dtype=lib.float64).to_sparse_coo(),
    "to_sparse_hybrid": lambda lib: lib.tensor(DENSE).reshape(3, 2, 2).to_sparse(2),
    "hybrid": lambda lib: lib.sparse_coo_tensor(IDX, lib.arange(8.0).reshape(4, 2), (3, 3, 2)),
    "empty": lambda lib: lib.sparse_coo_tensor(lib.zeros(2, 0, dtype=lib.long), lib.zeros(0), (2, 2)),
    "zeros_to_sparse": lambda lib: lib.zeros(2, 3).to_sparse(),
    "int_values": lambda lib: lib.sparse_coo_tensor([[0, 2]], [1, 2], (3,)),
    "float64": lambda lib: _s(lib, dtype=lib.float64),
    "double": lambda lib: _s(lib).double(),
    "sparse_mm": lambda lib: lib.sparse.mm(_s(lib), lib.tensor(RHS, dtype=lib.float32)),
    "matmul_operator": lambda lib: _s(lib) @ lib.tensor(RHS, dtype=lib.float32),
    "torch_mm": lambda lib: lib.mm(_s(lib, DUP, [1.0, 2.0, 3.0, 4.0, 5.0]), lib.tensor(RHS, dtype=lib.float32)),
    "spmm": lambda lib: lib.spmm(_s(lib), lib.tensor(RHS, dtype=lib.float32)),
    "sparse_addmm": lambda lib: lib.sparse.addmm(lib.ones(3, 2), _s(lib), lib.tensor(RHS, dtype=lib.float32),
                                                 beta=0.5, alpha=2.0),
    "sparse_mm_grads": lambda lib: _mm_grads(lib, lambda lib, s, d: lib.sparse.mm(s, d)),
    "sparse_addmm_grads": lambda lib: _mm_grads(lib, lambda lib, s, d: lib.sparse.addmm(d * 2, s, d, alpha=0.5)),
    "matmul_dense_grad": lambda lib: _mm_grads(lib, lambda lib, s, d: s @ d),
    "mm_then_sparse_mm_grad": lambda lib: _mm_grads(lib, lambda lib, s, d: lib.mm(s, d) + lib.sparse.mm(s, d)),
    "to_sparse_grad": lambda lib: _to_sparse_grad(lib, lambda lib, s, d: lib.sparse.mm(s, d)),
    "to_sparse_grad_matmul": lambda lib: _to_sparse_grad(lib, lambda lib, s, d: s @ d),
    "to_sparse_grad_mm": lambda lib: _to_sparse_grad(lib, lambda lib, s, d: lib.mm(s, d * 2)),
    "to_sparse_grad_coalesce_spmm": lambda lib: _to_sparse_grad(lib, lambda lib, s, d: lib.spmm(s.coalesce(), d)),
    "to_sparse_grad_no_grad": lambda lib: _to_sparse_grad(lib, lambda lib, s, d: s.detach() @ d),
    "values_grad_to_dense": lambda lib: _values_grad(lib, lambda lib, s: s.to_dense()),
    "values_grad_coalesce": lambda lib: _values_grad(lib, lambda lib, s: s.coalesce()),
    "values_grad_values": lambda lib: _values_grad(lib, lambda lib, s: s.coalesce().values()),
    "from_values": lambda lib: lib.sparse_coo_tensor(IDX, lib.tensor([1.0, 2, 3, 4], requires_grad=True) * 2),
    "sum_all": lambda lib: lib.sparse.sum(_s(lib)),
    "sum_dims": lambda lib: (lib.sparse.sum(_s(lib), 0), lib.sparse.sum(_s(lib), dim=1),
                             lib.sparse.sum(_s(lib), (0, 1)), lib.sparse.sum(_s(lib), -1)),
    "sum_hybrid": lambda lib: (lib.sparse.sum(lib.tensor(DENSE).reshape(3, 2, 2).to_sparse(2), 2),
                               lib.sparse.sum(lib.tensor(DENSE).reshape(3, 2, 2).to_sparse(2), (0, 2)),
                               lib.sparse.sum(lib.tensor(DENSE).reshape(3, 2, 2).to_sparse(2), 1)),
    "sum_grad": lambda lib: _values_grad(lib, lambda lib, s: lib.sparse.sum(s, 1)),
    "softmax": lambda lib: (lib.sparse.softmax(_s(lib), 1), lib.sparse.softmax(_s(lib), 0),
                            lib.sparse.softmax(_s(lib, DUP, [1.0, 2.0, 3.0, 4.0, 5.0]), -1)),
    "log_softmax": lambda lib: (lib.sparse.log_softmax(_s(lib), 1), lib.sparse.log_softmax(_s(lib), 0)),
    "softmax_hybrid": lambda lib: lib.sparse.softmax(lib.tensor(DENSE).reshape(3, 2, 2).to_sparse(2), 2),
    "softmax_grad": lambda lib: _values_grad(lib, lambda lib, s: lib.sparse.softmax(s, 1)),
    "log_softmax_grad": lambda lib: _values_grad(lib, lambda lib, s: lib.sparse.log_softmax(s, 0)),
    "legacy_constructors": lambda lib: _legacy(lib),
    "legacy_sequence": _error(lambda lib: lib.sparse.FloatTensor([2, 3])),
    "scaled": lambda lib: (_s(lib) * 2, 0.5 * _s(lib), _s(lib) / 4, -_s(lib)),
    "transposed": lambda lib: (_s(lib).t(), _s(lib).t().to_dense()),
    "detach": lambda lib: _s(lib, requires_grad=True).detach(),
    "indices_uncoalesced": _error(lambda lib: _s(lib).indices()),
    "values_uncoalesced": _error(lambda lib: _s(lib).values()),
    "view": _error(lambda lib: _s(lib).view(9)),
    "reshape": _error(lambda lib: _s(lib).reshape(9)),
    "numpy": _error(lambda lib: _s(lib).numpy()),
    "nnz_mismatch": _error(lambda lib: _s(lib, values=[1.0, 2.0, 3.0])),
    "indices_1d": _error(lambda lib: lib.sparse_coo_tensor([0, 1], [1.0, 2.0], (2, 2))),
    "size_dims": _error(lambda lib: _s(lib, size=(3, 3, 2))),
    "size_too_small": _error(lambda lib: _s(lib, size=(2, 3), check_invariants=True)),
    "negative_index": _error(lambda lib: _s(lib, [[0, -1], [1, 0]], [1.0, 2.0], (2, 2), check_invariants=True)),
    "mm_shapes": _error(lambda lib: lib.sparse.mm(_s(lib), lib.ones(2, 2))),
    "mm_dtypes": _error(lambda lib: _s(lib) @ lib.ones(3, 2, dtype=lib.float64)),
}


def _to_sparse_grad(lib, product):
    """``product(A.to_sparse(), D)`` and the gradients of its sum for dense ``A`` and ``D``."""
    a = lib.tensor(DENSE[:, :3], dtype=lib.float32, requires_grad=True)
    d = lib.tensor(RHS, dtype=lib.float32, requires_grad=True)
    s = a.to_sparse()
    out = product(lib, s, d)
    if out.requires_grad:
        out.sum().backward()
    return s, out, a.grad, d.grad


def _legacy(lib):
    """The deprecated ``torch.sparse.<T>Tensor`` constructors (pygcn's), with the kinds of warning they give."""
    i, v = lib.tensor(IDX), lib.tensor([1.0, 2.0, 3.0, 4.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = (lib.sparse.FloatTensor(i, v, lib.Size([3, 3])), lib.sparse.FloatTensor(2, 3),
                lib.sparse.DoubleTensor(i, v.double(), lib.Size([3, 4])), lib.sparse.FloatTensor(i, v),
                lib.sparse.LongTensor(i, lib.tensor([5, 6, 7, 8]), (3, 3)), lib.sparse.DoubleTensor(2))
    said = [str(w.message).split(" (Triggered internally")[0] for w in caught if "Sparse invariant" not in str(w.message)]
    return made + tuple(dict.fromkeys(said))  # each kind once (torch warns once per process)


def checkpoint(lib) -> dict:
    """What tests/fixtures/sparse_coo_torch.pt holds: sparse tensors of each kind beside a dense one."""
    return {"adjacency": lib.sparse_coo_tensor(DUP, [1.0, 2.0, 3.0, 4.0, 5.0], (3, 3)),
            "hybrid": lib.sparse_coo_tensor(IDX, lib.arange(8.0).reshape(4, 2), (3, 3, 2),
                                            dtype=lib.float64).coalesce(),
            "counts": lib.sparse_coo_tensor([[0, 4]], [7, 9], (5,)),
            "empty": lib.sparse_coo_tensor(lib.zeros(2, 0, dtype=lib.long), lib.zeros(0), (2, 2)),
            "dense": lib.tensor([[1.0, 2.0]])}


def describe(loaded: dict) -> str:
    """A loaded checkpoint as text: each tensor's repr and, for sparse ones, whether it is coalesced."""
    return "\n".join(f"{k}: {v!r} coalesced={v.is_coalesced() if v.is_sparse else None}" for k, v in loaded.items())


def run(lib, name: str) -> str:
    return _text(CASES[name](lib))
