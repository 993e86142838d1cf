"""Reductions and scans: sums, means, products, extrema, softmax, statistics, norms, sorting, counting, and
the running (cumulative) forms."""
