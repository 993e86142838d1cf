"""``minitorch.backends.winograd``: minitorch's own switch (not a PyTorch one) for the Winograd kernels of
stride-1 3x3 convolutions with many channels. Set ``enabled = False`` to use the im2col kernels everywhere."""

enabled = True
