"""Folders the tests read from, computed once so that a test file's own depth in tests/ does not matter."""
import pathlib

TESTS = pathlib.Path(__file__).resolve().parent
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"
CORPUS = TESTS / "corpus"
EXAMPLES = ROOT / "examples"
