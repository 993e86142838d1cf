"""AdaptiveLogSoftmaxWithLoss: Grave et al.'s adaptive softmax for large vocabularies (a head over the
frequent classes and one entry per tail cluster; each cluster a low-rank projection)."""
from __future__ import annotations

from collections import namedtuple
from typing import Sequence

import numpy as np

from ..._ops.shape.indexing import ARRAY, IndexScatter
from ..._ops.shape.joins import cat
from ..._core.tensor import Tensor
from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    """Log-probabilities of the targets (and their mean negative as the loss) under an adaptive softmax:
    classes below ``cutoffs[0]`` live in the head, the others in clusters of hidden size
    ``in_features // div_value ** (i + 1)``."""

    def __init__(self, in_features: int, n_classes: int, cutoffs: Sequence[int], div_value: float = 4.0,
                 head_bias: bool = False, device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1 or \
                len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted in an increasing "
                             "order, where each value is between 1 and n_classes-1")
        self.in_features, self.n_classes, self.cutoffs = in_features, n_classes, cutoffs + [n_classes]
        self.div_value, self.head_bias = div_value, head_bias
        self.shortlist_size, self.n_clusters = self.cutoffs[0], len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, dtype=dtype)
        self.tail = ModuleList(
            Sequential(Linear(in_features, int(in_features // div_value ** (i + 1)), bias=False, dtype=dtype),
                       Linear(int(in_features // div_value ** (i + 1)), self.cutoffs[i + 1] - self.cutoffs[i],
                              bias=False, dtype=dtype))
            for i in range(self.n_clusters))

    def reset_parameters(self) -> None:
        self.head.reset_parameters()
        for i2h, h2o in self.tail:
            i2h.reset_parameters()
            h2o.reset_parameters()

    def forward(self, input_: Tensor, target_: Tensor) -> _ASMoutput:
        if target_.dim() == 1:
            if input_.shape[0] != target_.shape[0]:
                raise RuntimeError("Input and target should have the same size in the batch dimension.")
            if input_.dim() != 2:
                raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with size "
                                   f"{input_.shape}")
        elif target_.dim() == 0:
            if input_.dim() != 1:
                raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with size "
                                   f"{input_.shape}")
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        batched = target_.dim() > 0
        input = input_ if batched else input_.unsqueeze(0)
        t = target_._data.reshape(-1)
        if t.size and (t.min() < 0 or t.max() >= self.n_classes):
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                               f"[{t.min()}, {t.max()}] were found. ")
        cluster = np.searchsorted(self.cutoffs, t, side="right")  # 0: the head's shortlist, i: tail cluster i - 1
        head_column = np.where(cluster == 0, t, self.shortlist_size + cluster - 1)
        head_logprob = F.log_softmax(self.head(input), dim=1)
        output = head_logprob.gather(1, Tensor._wrap(head_column[:, None])).squeeze(1)
        for i, projection in enumerate(self.tail):
            rows = np.flatnonzero(cluster == i + 1)
            if not rows.size:
                continue
            local = F.log_softmax(projection(input[Tensor._wrap(rows)]), dim=1)
            local = local.gather(1, Tensor._wrap(t[rows, None] - self.cutoffs[i])).squeeze(1)
            output = output + IndexScatter.apply(local, rows, shape=(len(t),), index=(ARRAY,))
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def log_prob(self, input: Tensor) -> Tensor:
        """Log-probabilities of all ``n_classes`` classes, (N, n_classes)."""
        head_logprob = F.log_softmax(self.head(input), dim=1)
        parts = [head_logprob[:, :self.shortlist_size]]
        for i, projection in enumerate(self.tail):
            parts.append(F.log_softmax(projection(input), dim=1)
                         + head_logprob[:, self.shortlist_size + i].unsqueeze(1))
        return cat(parts, 1)

    def predict(self, input: Tensor) -> Tensor:
        """The most likely class of each row: the head's argmax, refined through the clusters where it
        picked a cluster."""
        output = self.head(input).argmax(1)
        tail = output._data >= self.shortlist_size
        if tail.any():
            output._data[tail] = self.log_prob(input[Tensor._wrap(tail)]).argmax(1)._data
        return output
