"""Comparing printed output that holds float32 results: the text exactly, each printed number within a tolerance.

A float32 result changes in its last bits with numpy's BLAS kernel and thread count (they add a product's terms
in another order), and a training run carries such a change on, so a printed loss can end in another digit on
another machine. ``printout_mismatches`` therefore compares two outputs number by number: each number written
with a decimal point or an exponent may differ from the expected one by ``rtol * |expected| + atol`` (what float32
arithmetic explains) plus half a unit in the last printed place of each (what printing to that many digits
rounds away: 38.3849 and 38.3851 print as 38.38 and 38.39). Integers and all other text must be equal, but for
spaces: PyTorch pads a tensor's elements to the widest one, so a number's width and sign move the columns.
Runs of spaces count as one, and spaces next to a float not at all.
"""
from __future__ import annotations

import difflib
import math
import re

# float32 carries 7 significant digits; the largest drift seen between numpy's SkylakeX and Haswell kernels is
# 1.6e-5 relative, in tests/corpus/word_language_model.py's losses after 6 epochs of training
RTOL, ATOL = 1e-4, 1e-6
# 1.5, -0.25, 3., .5, 1e-05, 1.2346e+01; not inside a name (conv1.weight, float32), a version (2.13.0) or an
# address; a full stop after a number is not part of it
FLOAT = re.compile(r"(?<![\w.])[-+]?(?:(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?!\w|\.\w)")


def _half_unit(number: str) -> float:
    """Half a unit in the last place ``number`` is printed to: 0.005 for 38.39, 0.5 for 65., 5e-5 for 1.2346e+01."""
    mantissa, _, exponent = number.lower().partition("e")
    return 0.5 * 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))


def _words(text: str) -> list[str]:
    """The text between the floats, without the spaces that padding moves."""
    return [re.sub(" +", " ", piece).strip(" ") for piece in FLOAT.split(text)]


def printout_mismatches(actual: str, expected: str, rtol: float = RTOL, atol: float = ATOL) -> list[str]:
    """How ``actual`` differs from ``expected`` beyond the tolerance, one line per difference; [] when they agree."""
    if _words(actual) != _words(expected):  # the words, integers or lines differ, or a float is missing or added
        marked, wanted = FLOAT.sub("<float>", actual), FLOAT.sub("<float>", expected)
        return ["the text differs (numbers as <float>; - expected, + actual):"] + [
            line.rstrip("\n") for line in difflib.unified_diff(wanted.splitlines(True), marked.splitlines(True), n=1)]
    problems = []
    for match, want in zip(FLOAT.finditer(actual), FLOAT.findall(expected)):
        got, expect = float(match.group()), float(want)
        allowed = rtol * abs(expect) + atol + _half_unit(match.group()) + _half_unit(want)
        if not math.isclose(got, expect, rel_tol=0, abs_tol=allowed):
            line = actual.count("\n", 0, match.start()) + 1
            problems.append(f"line {line}: {match.group()} where {want} was expected (allowed difference {allowed:.3g})")
    return problems


def assert_same_printout(actual: str, expected: str, rtol: float = RTOL, atol: float = ATOL) -> None:
    """Raise AssertionError listing how ``actual`` differs from ``expected`` (see ``printout_mismatches``)."""
    if problems := printout_mismatches(actual, expected, rtol, atol):
        raise AssertionError("the printed output differs from the expected one:\n" + "\n".join(problems))
