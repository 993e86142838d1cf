"""Multi-tensor optimizer updates (minitorch/optim/_multi_tensor.py): every element updated once, the work split
over the threads, and every optimizer's update the same bits at 1, 2, 3 and 4 threads as its plain per-parameter
loop (``foreach=False``) on one thread, with blocks of rows of any layout."""
import threading

import numpy as np
import pytest

import minitorch
from minitorch import optim
from minitorch._core import parallel as _parallel
from minitorch.optim import _multi_tensor

G = _parallel.GRAIN_SIZE
# sizes around the grain and odd counts, so that chunks and blocks end inside parameters and rows
SHAPES = [(), (7,), (G - 1,), (G + 3,), (3, G // 2 + 5), (2 * G + 1,), (5, 3, 111), (57, 129), (1,), (0, 3)]


@pytest.fixture
def num_threads():
    before = minitorch.get_num_threads()
    yield minitorch.set_num_threads
    minitorch.set_num_threads(before)


@pytest.mark.parametrize("threads", [1, 2, 3, 4])
@pytest.mark.parametrize("block_bytes", [1 << 16, 4000])  # small enough for every thread to get a share
def test_every_element_is_updated_once_and_the_threads_share_the_work(num_threads, monkeypatch, threads,
                                                                       block_bytes):
    num_threads(threads)
    monkeypatch.setattr(_multi_tensor, "BLOCK_BYTES", block_bytes)
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in SHAPES] + [rng.standard_normal((70, 61)).T]  # one F-ordered
    counts = [np.zeros_like(a) for a in arrays]
    names, lock = set(), threading.Lock()

    def kernel(x, count, scale):
        assert x.ndim >= 1 and x.shape == count.shape
        with lock:
            names.add(threading.current_thread().name)
        count += 1
        x *= scale

    _multi_tensor.foreach_update(kernel, [((a, c), (2.0,)) for a, c in zip(arrays, counts)])
    assert all((c == 1).all() for c in counts)
    # one chunk per thread: the first on the caller, the others on the pool's threads
    assert len(names) == 1 if threads == 1 else len(names) >= 2


VARIANTS = [
    ("SGD", {"lr": 0.1}), ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "maximize": True}),
    ("Adam", {"lr": 0.01}), ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01, "maximize": True, "betas": (0.3, 0.9)}),
    ("AdamW", {"lr": 0.01}), ("AdamW", {"lr": 0.01, "amsgrad": True, "maximize": True}),
    ("RMSprop", {"lr": 0.01}), ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.9, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.5, "maximize": True}),
    ("Adagrad", {"lr": 0.1}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1, "initial_accumulator_value": 0.2,
                 "maximize": True}),
    ("Adamax", {"lr": 0.01}), ("Adamax", {"lr": 0.01, "weight_decay": 0.1, "maximize": True}),
    ("NAdam", {"lr": 0.01}), ("NAdam", {"lr": 0.01, "weight_decay": 0.1}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True, "maximize": True}),
    ("RAdam", {"lr": 0.01}), ("RAdam", {"lr": 0.01, "weight_decay": 0.1}),
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True, "maximize": True}),
    ("Adadelta", {"lr": 1.0}), ("Adadelta", {"lr": 0.5, "rho": 0.8, "weight_decay": 0.1, "maximize": True}),
    ("ASGD", {"lr": 0.01}), ("ASGD", {"lr": 0.01, "t0": 2, "lambd": 0.01, "weight_decay": 0.1, "maximize": True}),
    ("Rprop", {"lr": 0.01}), ("Rprop", {"lr": 0.01, "etas": (0.3, 1.5), "step_sizes": (1e-4, 0.1), "maximize": True}),
]


def _start(seed=0, steps=7):
    """Float32 parameters and ``steps`` of their gradients (RAdam's rectified steps start at the 6th): one
    parameter F-ordered, gradients sometimes strided or transposed views, one parameter without a gradient once."""
    rng = np.random.default_rng(seed)
    params = [rng.standard_normal(s).astype(np.float32) for s in SHAPES]
    params.append(rng.standard_normal((70, 61)).astype(np.float32).T)
    grads = []
    for step in range(steps):
        grads.append([rng.standard_normal(p.shape).astype(np.float32) for p in params])
        grads[-1][7] = np.ascontiguousarray(grads[-1][7].T).T
        if step % 2:
            grads[-1][4] = np.repeat(grads[-1][4], 2, axis=1)[:, ::2]
        if step == 3:
            grads[-1][8] = None
    return params, grads


START = _start()


def _run(name, kwargs):
    """Params and state after the steps of ``START``."""
    params = [minitorch.from_numpy(p.copy(order="K")).requires_grad_() for p in START[0]]
    opt = getattr(optim, name)(params, **kwargs)
    for grads in START[1]:
        for p, g in zip(params, grads):
            p.grad = None if g is None else minitorch.from_numpy(g)
        opt.step()
    return [p.detach().numpy().copy() for p in params] + [
        v.numpy().copy() for p in params for v in opt.state[p].values()]


@pytest.mark.parametrize("name,kwargs", VARIANTS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(VARIANTS)])
def test_update_is_the_same_bits_at_any_thread_count_and_as_the_plain_loop(num_threads, monkeypatch, name, kwargs):
    num_threads(1)
    expected = _run(name, dict(kwargs, foreach=False))
    runs = [(1, _multi_tensor.BLOCK_BYTES), (2, 1 << 16), (3, 5000), (4, 100_000)]  # blocks end inside rows too
    for threads, block_bytes in runs:
        num_threads(threads)
        monkeypatch.setattr(_multi_tensor, "BLOCK_BYTES", block_bytes)
        got = _run(name, kwargs)
        assert len(got) == len(expected)
        for a, b in zip(got, expected):
            assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), (threads, block_bytes)


@pytest.mark.parametrize("name", ["RMSprop", "NAdam", "RAdam", "Adadelta", "Adam", "SGD"])
@pytest.mark.parametrize("foreach", [False, None])
def test_a_0d_parameter_steps_like_a_1_element_one(lib, name, foreach):
    kwargs = {"lr": 0.1, "foreach": foreach} | ({"centered": True, "momentum": 0.5} if name == "RMSprop" else {})
    kwargs |= {"momentum": 0.9, "nesterov": True} if name == "SGD" else {}
    scalar = lib.tensor(1.5, requires_grad=True)
    vector = lib.tensor([1.5], requires_grad=True)
    opt = getattr(lib.optim, name)([scalar, vector], **kwargs)
    for g in (0.5, -2.0, 0.25, 1.0, -0.5, 3.0, 0.75):
        scalar.grad, vector.grad = lib.tensor(g), lib.tensor([g])
        opt.step()
    assert scalar.shape == () and scalar.item() == vector.item() != 1.5


@pytest.mark.parametrize("threads", [1, 2])
def test_a_parameter_listed_twice_is_updated_twice_in_turn(num_threads, threads):
    num_threads(threads)
    start = np.random.default_rng(0).standard_normal(3 * G).astype(np.float32)
    p, once = minitorch.from_numpy(start.copy()).requires_grad_(), minitorch.from_numpy(start.copy()).requires_grad_()
    with pytest.warns(UserWarning, match="duplicate parameters"):
        opt = optim.Adam([p, p], lr=0.1)
    reference = optim.Adam([once], lr=0.1)
    for g in (0.5, -1.0):
        p.grad, once.grad = minitorch.full_like(p, g), minitorch.full_like(once, g)
        opt.step()
        reference.step()
        reference.step()  # the same two updates, one after the other
    assert p.detach().numpy().tobytes() == once.detach().numpy().tobytes()
