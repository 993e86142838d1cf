"""``TorchVersion``: the version string that compares as a version (``torch.__version__ >= "2.0"``, ``>= (2, 0)``)."""
from __future__ import annotations

import re

# PEP 440: release, then optional pre-release, post-release, dev-release and local label
_PATTERN = re.compile(r"v?(?P<release>\d+(?:\.\d+)*)"
                      r"(?:[-_.]?(?P<pre_l>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?P<pre_n>\d+)?)?"
                      r"(?P<post>-(?P<post_n1>\d+)|[-_.]?(?:post|rev|r)[-_.]?(?P<post_n2>\d+)?)?"
                      r"(?P<dev>[-_.]?dev[-_.]?(?P<dev_n>\d+)?)?"
                      r"(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?", re.IGNORECASE)
_PRE = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}
_BELOW, _ABOVE = (-1,), (1 << 62,)  # sort before / after any number


def version_key(text: str) -> tuple | None:
    """A tuple that orders versions as PEP 440 does, or None when ``text`` is no version."""
    m = _PATTERN.fullmatch(text.strip())
    if m is None:
        return None
    release = [int(p) for p in m["release"].split(".")]
    while len(release) > 1 and release[-1] == 0:
        release.pop()
    post = None if m["post"] is None else int(m["post_n1"] or m["post_n2"] or 0)
    dev = None if m["dev"] is None else int(m["dev_n"] or 0)
    if m["pre_l"]:
        pre = (_PRE[m["pre_l"].lower()], int(m["pre_n"] or 0))
    else:
        pre = _BELOW if post is None and dev is not None else _ABOVE  # 1.0.dev0 < 1.0a0 < 1.0
    local = tuple((0, int(p), "") if p.isdigit() else (-1, 0, p.lower())
                  for p in re.split(r"[-_.]", m["local"])) if m["local"] else ()
    return tuple(release), pre, _BELOW if post is None else (post,), _ABOVE if dev is None else (dev,), local


class TorchVersion(str):
    """A ``str`` that compares with strings, tuples such as ``(2, 0)`` and other versions as versions; with
    something that is no version it compares as the string it is. ``!=`` compares strings, as PyTorch's does."""

    __slots__ = ()
    __hash__ = str.__hash__

    def _compare(self, other, method: str):
        if isinstance(other, (tuple, list)):
            other = ".".join(str(item) for item in other)
        mine, theirs = version_key(self), version_key(other) if isinstance(other, str) else None
        if mine is None or theirs is None:
            return getattr(str, method)(self, other)
        return getattr(mine, method)(theirs)

    def __eq__(self, other):
        return self._compare(other, "__eq__")

    def __lt__(self, other):
        return self._compare(other, "__lt__")

    def __le__(self, other):
        return self._compare(other, "__le__")

    def __gt__(self, other):
        return self._compare(other, "__gt__")

    def __ge__(self, other):
        return self._compare(other, "__ge__")
