"""``minitorch.xpu``: no XPU device."""


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def manual_seed(seed: int) -> None:
    """Accepted: there is no XPU generator to seed."""
