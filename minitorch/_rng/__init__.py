"""PyTorch's CPU random streams in numpy: the kernels that turn Mersenne Twister words into samples.

Every function here takes a ``minitorch.Generator`` and draws its words exactly as PyTorch 2.13 does on
x86-64 (see the project's RNG specification), so seeded programs give PyTorch's numbers bit for bit.
"""
