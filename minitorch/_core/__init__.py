"""The core layer: the Tensor and autograd's machinery, which every op builds on and which imports no op.

From the bottom up (each module imports only those above it in this list, and ``_dtype``, ``_device``,
``_tensor_str`` and ``utils.hooks``, which import nothing of minitorch):

- ``shape``: ``Size``, broadcasting and its errors, list-of-ints arguments, layouts and memory formats.
- ``grad_mode``, ``anomaly_mode``: the process-wide flags every op reads.
- ``tensor``: the ``Tensor`` (a numpy array and its autograd fields; its op methods are bound by the registry).
- ``graph``: ``Node``, edges, saved tensors with their versions, ``AccumulateGrad``, the graph summary.
- ``out``, ``registry``: the ``out=`` argument; the one table of public ops.
- ``function``: ``Op`` (the base of every built-in op) and the user's ``Function``.
- ``inplace``: the history of tensors changed in place (``CopySlices``).
- ``engine``: ``backward`` and ``grad``, which run the graph.
- ``parallel``: the intra-op thread pool the kernels call.

``minitorch.autograd`` is the public namespace of this layer.
"""
