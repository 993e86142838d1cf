"""Helpers nn.functional exposes as torch does: argument checks and the boolean dispatch that lets
``max_pool2d(..., return_indices=True)`` pick its implementation. Not ops: no tensors in or out."""
from __future__ import annotations


def assert_int_or_pair(arg, arg_name: str, message: str) -> None:
    """AssertionError with ``message.format(arg_name)`` unless ``arg`` is an int or has two entries."""
    if not (isinstance(arg, int) or len(arg) == 2):
        raise AssertionError(message.format(arg_name))


boolean_dispatched: dict = {}


def boolean_dispatch(arg_name: str, arg_index: int, default: bool, if_true, if_false, module_name: str | None,
                     func_name: str | None):
    """A function calling ``if_true`` or ``if_false`` by the boolean argument ``arg_name`` (position
    ``arg_index``, ``default`` when absent), as F.max_pool2d picks by ``return_indices``."""
    def fn(*args, **kwargs):
        flag = kwargs[arg_name] if arg_name in kwargs else args[arg_index] if arg_index < len(args) else default
        return if_true(*args, **kwargs) if flag else if_false(*args, **kwargs)

    docs = [f.__doc__ for f in (if_true, if_false) if f.__doc__ is not None]
    if len(docs) == 2:
        raise RuntimeError("only one function can have a docstring")
    fn.__doc__ = if_true.__doc__ = if_false.__doc__ = docs[0] if docs else None
    if module_name is not None:
        fn.__module__ = module_name
    if func_name is not None:
        fn.__name__ = func_name
    boolean_dispatched[fn] = {"if_true": if_true, "if_false": if_false, "index": arg_index, "default": default,
                              "arg_name": arg_name}
    return fn
