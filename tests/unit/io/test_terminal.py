"""Text from a user's files made safe to print on a terminal (textfair.io._terminal)."""

import pytest

from textfair.io._terminal import printable


@pytest.mark.parametrize("text", ["comment", "café – naïve 🎉", "日本語のテキスト", "", "a  b"])
def test_printable_text_is_left_as_it_is(text):
    assert printable(text) == text


@pytest.mark.parametrize(
    ("char", "shown"),
    [
        ("\x1b", "\\x1b"),  # escape: colours, cursor moves, window titles
        ("\x07", "\\x07"),  # bell
        ("\r", "\\r"),  # carriage return: overwrites the line
        ("\n", "\\n"),  # line break: breaks a one-line message
        ("\t", "\\t"),
        ("\x00", "\\x00"),
        ("\x7f", "\\x7f"),  # delete
        ("\x85", "\\x85"),  # next line (C1)
        ("\u2028", "\\u2028"),  # line separator
        ("\u2029", "\\u2029"),  # paragraph separator
        ("\u202e", "\\u202e"),  # right-to-left override: hides text
        ("\u2066", "\\u2066"),  # left-to-right isolate
        ("\u200f", "\\u200f"),  # right-to-left mark
        ("\u061c", "\\u061c"),  # Arabic letter mark
    ],
)
def test_each_control_character_becomes_a_visible_escape(char, shown):
    assert printable(f"name{char}end") == f"name{shown}end"


def test_an_escape_sequence_is_shown_not_run_and_the_rest_kept():
    text = "gay\x1b]0;pwned\x07 café\r\nline\u202eevil"
    assert printable(text) == "gay\\x1b]0;pwned\\x07 café\\r\\nline\\u202eevil"
    assert printable(text).isprintable()
