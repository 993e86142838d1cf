"""Convolution and pooling: convolutions (im2col tiles, Winograd), their window geometry, pooling, fold/unfold,
pixel shuffles, resampling (interpolate, grid_sample)."""
