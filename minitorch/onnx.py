"""``minitorch.onnx``: importable; exporting needs PyTorch."""
from __future__ import annotations


def export(*args, **kwargs):
    raise RuntimeError("minitorch cannot export ONNX graphs: save a state_dict with minitorch.save, load it in "
                       "PyTorch (the same model code) and use torch.onnx.export there.")
