"""The matcher's address gates (textfair.text._address_gates): a candidate inside a web
address, a file name, an @user or a wiki user or page name names no identity."""

import pytest

from textfair.text._address_gates import in_url, in_username


def _start(text: str, word: str) -> int:
    return text.rindex(word)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("visit www.Christian-Bible.com today", "Christian"),
        ("see http://example.org/official-neglect-for-anglo-sikh-war-monuments2704.html", "sikh"),
        ("see example.org/anglo-sikh-war.html", "sikh"),  # .htm
        ("posted at news/world/Muslim/today", "Muslim"),  # two slashes: a path
        ("the site gay.com is down", "gay"),
        ("the site Gay.net is down", "Gay"),
        ("apply at Muslim.edu now", "Muslim"),
        ("the page jewish.gov/faq says", "jewish"),
        ("line one\nwww.gay.org", "gay"),
        ("ftp://Black.example/x", "Black"),
        ("@Muslim thanks", "Muslim"),  # an @user
        ("mail me@Muslim", "Muslim"),
        ("Mr.Muslim", "Muslim"),  # after a dot inside a token
        ("user_Muslim", "Muslim"),  # after an underscore
    ],
)
def test_inside_a_web_address_a_file_name_or_a_handle(text, word):
    assert in_url(text, _start(text, word)) is True


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I am a Muslim.", "Muslim"),
        ("I am a Muslim. He is Christian.", "Christian"),  # a sentence's dot is no address
        ("Muslims/Christians are welcome", "Muslim"),  # one slash: an alternative
        ("e.g. Muslim", "Muslim"),
        ("the U.S. Muslim community", "Muslim"),
        ("a gay man", "gay"),
        ("Muslim", "Muslim"),
    ],
)
def test_ordinary_words_are_no_address(text, word):
    assert in_url(text, _start(text, word)) is False


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("User:Sikh-history", "Sikh"),
        ("Category:Jewish_x", "Jewish"),
        ("see User talk:Gay_boy please", "Gay"),
        ("per Wikipedia:Muslim", "Muslim"),
        ("Template:Black", "Black"),
        ("File:Black.jpg", "Black"),
        ("TALK:Muslim", "Muslim"),
    ],
)
def test_inside_a_wiki_user_or_page_name(text, word):
    assert in_username(text, _start(text, word)) is True


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Note: Jewish people", "Jewish"),  # a colon in prose
        ("user: Muslim", "Muslim"),  # a space after the colon: no name
        ("Talk:Islam and Muslim", "Muslim"),  # the name ended at the space
        ("Portal:Muslim", "Muslim"),  # no namespace textfair reads
        ("User:" + "y" * 40 + "Muslim", "Muslim"),  # the namespace too far back
        ("a Muslim", "Muslim"),
    ],
)
def test_not_a_wiki_name(text, word):
    assert in_username(text, _start(text, word)) is False


def test_a_sites_name_written_with_a_space_is_an_address():
    text = "It should reflect NPOV regarding jew watch.com."
    assert in_url(text, text.index("jew"))
    near = "I saw Jews at example.com today."
    assert not in_url(near, near.index("Jews"))
