"""``minitorch.accelerator``: there is none; the CPU is the only device."""


def is_available() -> bool:
    return False


def current_accelerator(check_available: bool = False) -> None:
    return None


def device_count() -> int:
    return 0
