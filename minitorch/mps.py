"""``minitorch.mps``: no Metal device; seeding is accepted."""


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def manual_seed(seed: int) -> None:
    """Accepted: there is no MPS generator to seed."""


def empty_cache() -> None:
    """Accepted: there is no MPS cache."""
