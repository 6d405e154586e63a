"""The word pattern shared by the matcher's context gates and the PyTorch text models.

nltk's RegexpTokenizer needs no downloaded data. Since nltk 3.10 it compiles every
caller-supplied pattern behind a per-call timeout (a guard against catastrophic backtracking,
CWE-1333), which makes each call several times slower. textfair's pattern is fixed and linear
(every repetition starts with a non-word character, so it cannot backtrack catastrophically),
so it is compiled with the same `regex` engine without the timeout: identical tokens (checked
on all 2,491 real texts of the project, Bengali, Arabic and Sinhala included), 3x faster.
The context gates and the PyTorch text models call that compiled pattern's `findall`
directly (`word_regex`), which is what the tokenizer's `tokenize` does after its checks;
`word_tokenizer` is the nltk object itself, the reference the tests compare them with.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import regex
    from nltk.tokenize import RegexpTokenizer

__all__ = ["PATTERN", "word_regex", "word_tokenizer"]

# Words keep inner apostrophes ("don't", "Muslim's"); each punctuation mark is one token.
PATTERN = r"\w+(?:['’]\w+)*|[^\w\s]"


@cache
def word_regex(pattern: str = PATTERN) -> regex.Pattern[str]:
    """One of textfair's own patterns compiled with the `regex` engine, for callers that
    split many texts and want `findall` without a tokenizer object's per-call checks."""
    import regex

    return regex.compile(pattern, regex.UNICODE | regex.MULTILINE | regex.DOTALL)


@cache
def word_tokenizer(pattern: str = PATTERN) -> RegexpTokenizer:
    """An nltk RegexpTokenizer for one of textfair's own (trusted, linear) patterns."""
    from nltk.tokenize import RegexpTokenizer

    class TrustedPatternTokenizer(RegexpTokenizer):
        _regexp: Any  # nltk's (untyped): None until the pattern is compiled

        def _check_regexp(self) -> None:
            if self._regexp is None:
                self._regexp = word_regex(self._pattern)

    return TrustedPatternTokenizer(pattern)
