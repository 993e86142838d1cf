"""``torch.autograd.graph``: the backward graph's nodes and its text summary (defined in ``minitorch._core.graph``)."""
from .._core.graph import AccumulateGrad, Node, SavedTensor, summary

__all__ = ["AccumulateGrad", "Node", "SavedTensor", "summary"]
