"""Elementwise and special functions: arithmetic, clamping and selection, unary math, trigonometry, the
special functions, activations, comparisons, complex numbers, number representation; ``broadcast`` holds the
type promotion they share."""
