"""Registry sweep inputs for the shape ops of minitorch/_ops/shape/joins.py and shape/view_copy.py,
the joins and unsafe splits of minitorch/_ops/shape/view.py, and the Tensor methods that convert, resize and alias."""

NOT_DIFFERENTIABLE = {"detach_copy", "new", "new_empty_strided", "resize_", "resize_as_", "set_"}
