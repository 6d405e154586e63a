"""Where the tests find what they read: the repository's root, the tests' data, the package
(every test module imports these instead of counting parents from its own file, so a test
can live at any depth of tests/)."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = TESTS / "data"
PACKAGE = ROOT / "textfair"
EXAMPLES = ROOT / "examples"
