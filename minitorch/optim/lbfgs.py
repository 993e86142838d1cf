"""L-BFGS: a quasi-Newton method driven by a closure, with an optional strong-Wolfe line search."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._core.tensor import Tensor
from ..autograd import enable_grad, no_grad
from .optimizer import Optimizer, ParamsT, _check_lr

# Scalars below are Python floats or 0-d numpy values: numpy 2 keeps float32 arithmetic in float32 when a
# Python float meets a float32 scalar, as torch does for a Python float and a 0-d float32 tensor, so the
# iterates follow torch's roundings. Those that torch keeps as 0-d tensors are stored as 0-d tensors.


def _cubic_minimum(x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any,
                   bounds: tuple[Any, Any] | None = None) -> Any:
    """The minimiser of the cubic through ``(x1, f1)`` and ``(x2, f2)`` with slopes ``g1`` and ``g2``,
    clamped to ``bounds`` (by default the interval between ``x1`` and ``x2``); the bounds' midpoint when
    the cubic has no minimum."""
    if bounds is None:
        low, high = (x1, x2) if x1 <= x2 else (x2, x1)
    else:
        low, high = bounds
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if not d2_square >= 0:  # also the NaN case
        return (low + high) / 2.0
    d2 = np.sqrt(d2_square)
    if x1 <= x2:
        at = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        at = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(at, low), high)


def _strong_wolfe(evaluate: Callable[[Any], tuple[float, np.ndarray]], t: Any, d: np.ndarray, f: float,
                  g: np.ndarray, gtd: Any, c1: float = 1e-4, c2: float = 0.9, tolerance_change: float = 1e-9,
                  max_ls: int = 25) -> tuple[float, np.ndarray, Any, int]:
    """A line search along ``d`` from the loss ``f`` and gradient ``g`` (slope ``gtd``) for a step meeting the
    strong Wolfe conditions: first bracket a step (growing it by cubic extrapolation), then shrink the
    bracket by cubic interpolation (safeguarded against steps too near its ends).

    ``evaluate(t)`` gives the loss and the flat gradient at ``x + t * d``. Returns the loss, gradient and
    step found, and how many evaluations it took.
    """
    d_norm = np.abs(d).max()
    f_new, g_new = evaluate(t)
    evals = 1
    gtd_new = g_new.dot(d)

    t_prev, f_prev, g_prev, gtd_prev = 0, f, g.copy(), gtd
    done = False
    ls_iter = 0
    # phase 1: find an interval holding an acceptable step
    while ls_iter < max_ls:
        if f_new > f + c1 * t * gtd or (ls_iter > 1 and f_new >= f_prev):  # too long: [t_prev, t] brackets it
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:  # the curvature condition holds too: t is the answer
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:  # the slope turned: a minimum lies in [t_prev, t]
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        # still descending: extrapolate to a longer step, between 1.01 t and 10 t
        lowest, highest = t + 0.01 * (t - t_prev), t * 10
        t_prev, t = t, _cubic_minimum(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(lowest, highest))
        f_prev, g_prev, gtd_prev = f_new, g_new.copy(), gtd_new
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:  # out of evaluations while extrapolating
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]

    # phase 2: zoom into the bracket (its low end has the lower loss)
    insufficient_progress = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_minimum(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])
        # keep t at least a tenth of the bracket away from its ends, unless the last step made progress
        margin = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < margin:
            if insufficient_progress or t >= max(bracket) or t <= min(bracket):
                t = max(bracket) - margin if abs(t - max(bracket)) < abs(t - min(bracket)) else min(bracket) + margin
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False

        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > f + c1 * t * gtd or f_new >= bracket_f[low]:  # not enough decrease: t is the new high end
            bracket[high], bracket_f[high] = t, f_new
            bracket_g[high], bracket_gtd[high] = g_new.copy(), gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:  # the minimum lies on the other side of t
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low] = t, f_new
            bracket_g[low], bracket_gtd[low] = g_new.copy(), gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evals


def _wrap_scalar(value: Any) -> Any:
    """0-d numpy values become 0-d tensors in the state (torch's are 0-d tensors there); others stay."""
    return Tensor._wrap(np.asarray(value)) if isinstance(value, (np.ndarray, np.generic)) else value


def _unwrap_scalar(value: Any) -> Any:
    return value._data[()] if isinstance(value, Tensor) else value


class LBFGS(Optimizer):
    """L-BFGS, like ``torch.optim.LBFGS``: ``step(closure)`` runs up to ``max_iter`` iterations (at most
    ``max_eval`` closure calls, by default ``max_iter * 5 // 4``), each along the two-loop-recursion
    direction from the last ``history_size`` curvature pairs, with step ``lr`` (the first iteration ever
    ``min(1, 1 / sum|g|) * lr``) or, with ``line_search_fn="strong_wolfe"``, the step a strong-Wolfe line
    search finds. It stops early when the gradient's largest entry is at most ``tolerance_grad``, or the
    step or the loss change is below ``tolerance_change``.

    Only one parameter group is supported. The state lives under the first parameter, with torch's keys
    (``func_evals``, ``n_iter``, ``al``, ``d``, ``t``, ``old_dirs``, ``old_stps``, ``ro``, ``H_diag``,
    ``prev_flat_grad``, ``prev_loss``), vectors flattened over all parameters.
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1, max_iter: int = 20, max_eval: int | None = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None) -> None:
        _check_lr(lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {"lr": lr, "max_iter": max_iter, "max_eval": max_eval, "tolerance_grad": tolerance_grad,
                    "tolerance_change": tolerance_change, "history_size": history_size,
                    "line_search_fn": line_search_fn}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")

    @property
    def _params(self) -> list[Tensor]:
        return self.param_groups[0]["params"]

    def _flat_grad(self) -> np.ndarray:
        """All the gradients, flattened into one new array (zeros for a parameter without one)."""
        return np.concatenate([np.zeros(p._data.size, p._data.dtype) if p.grad is None else p.grad._data.ravel()
                               for p in self._params])

    def _add_to_params(self, step: Any, direction: np.ndarray) -> None:
        """``params += step * direction``, ``direction`` flat over all the parameters."""
        offset = 0
        for p in self._params:
            x = p._data
            x += step * direction[offset:offset + x.size].reshape(x.shape)
            offset += x.size
            p._bump()

    def _set_params(self, values: list[np.ndarray]) -> None:
        for p, value in zip(self._params, values):
            p._data[...] = value
            p._bump()

    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        """Run the iterations; ``closure`` zeroes the gradients, re-evaluates the loss, backpropagates it and
        returns it. Returns the loss of the first evaluation."""
        with no_grad():
            return self._run(closure)

    def _evaluate(self, closure: Callable[[], Any]) -> Any:
        with enable_grad():
            return closure()

    def _run(self, closure: Callable[[], Any]) -> Any:
        group = self.param_groups[0]
        lr = group["lr"].item() if isinstance(group["lr"], Tensor) else group["lr"]
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn, history_size = group["line_search_fn"], group["history_size"]

        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = self._evaluate(closure)
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if np.abs(flat_grad).max() <= tolerance_grad:  # already optimal
            return orig_loss

        def array(key: str) -> np.ndarray | None:
            value = state.get(key)
            return None if value is None else value._data

        d, t = array("d"), _unwrap_scalar(state.get("t"))
        old_dirs = [v._data for v in state.get("old_dirs", [])]
        old_stps = [v._data for v in state.get("old_stps", [])]
        ro = [_unwrap_scalar(v) for v in state.get("ro", [])]
        h_diag = _unwrap_scalar(state.get("H_diag"))
        prev_flat_grad, prev_loss = array("prev_flat_grad"), state.get("prev_loss")
        al = None if "al" not in state else [_unwrap_scalar(v) for v in state["al"]]

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1

            # the direction: steepest descent the first time, else the two-loop recursion
            if state["n_iter"] == 1:
                d = -flat_grad
                old_dirs, old_stps, ro = [], [], []
                h_diag = 1
            else:
                y = flat_grad - prev_flat_grad
                s = d * t
                ys = y.dot(s)
                if ys > 1e-10:  # keep the pair only where the curvature is positive
                    if len(old_dirs) == history_size:
                        del old_dirs[0], old_stps[0], ro[0]
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / y.dot(y)
                if al is None:
                    al = [None] * history_size
                q = -flat_grad
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q += -al[i] * old_dirs[i]
                d = r = q * h_diag
                for i in range(len(old_dirs)):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r += (al[i] - be_i) * old_stps[i]

            prev_flat_grad = flat_grad.copy()
            prev_loss = loss
            t = min(1.0, 1.0 / np.abs(flat_grad).sum()) * lr if state["n_iter"] == 1 else lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:  # not a descent direction
                break

            evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                start = [p._data.copy() for p in self._params]

                def evaluate(step: Any, start: list[np.ndarray] = start, d: np.ndarray = d) -> tuple[float,
                                                                                                      np.ndarray]:
                    self._add_to_params(step, d)
                    value = float(self._evaluate(closure))
                    grad = self._flat_grad()
                    self._set_params(start)
                    return value, grad

                loss, flat_grad, t, evals = _strong_wolfe(evaluate, t, d, loss, flat_grad, gtd,
                                                          max_ls=max_eval - current_evals)
                self._add_to_params(t, d)
                opt_cond = np.abs(flat_grad).max() <= tolerance_grad
            else:
                self._add_to_params(t, d)
                opt_cond = False
                if n_iter != max_iter:  # re-evaluate, unless this was the last iteration
                    loss = float(self._evaluate(closure))
                    flat_grad = self._flat_grad()
                    opt_cond = np.abs(flat_grad).max() <= tolerance_grad
                    evals = 1
            current_evals += evals
            state["func_evals"] += evals

            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if np.abs(d * t).max() <= tolerance_change or abs(loss - prev_loss) < tolerance_change:
                break

        if al is not None:
            state["al"] = [_wrap_scalar(v) for v in al]
        state["d"] = Tensor._wrap(d)
        state["t"] = _wrap_scalar(t)
        state["old_dirs"] = [Tensor._wrap(v) for v in old_dirs]
        state["old_stps"] = [Tensor._wrap(v) for v in old_stps]
        state["ro"] = [_wrap_scalar(v) for v in ro]
        state["H_diag"] = _wrap_scalar(h_diag)
        state["prev_flat_grad"] = Tensor._wrap(prev_flat_grad)
        state["prev_loss"] = prev_loss
        return orig_loss
