"""``minitorch.backends.mps``: no Metal here."""


def is_available() -> bool:
    return False


def is_built() -> bool:
    return False
