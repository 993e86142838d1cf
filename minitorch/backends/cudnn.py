"""``minitorch.backends.cudnn``: no cuDNN here; the flags are kept for code that sets them."""

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available() -> bool:
    return False


def version() -> None:
    return None
