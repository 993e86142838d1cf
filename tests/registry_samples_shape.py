"""Registry-sweep facts kept in tests (the sample inputs sit on the registry rows) about the shape ops and the
Tensor methods that convert, resize and alias: the ones without gradients."""

NOT_DIFFERENTIABLE = {"detach_copy", "new", "new_empty_strided", "resize_", "resize_as_", "set_"}
