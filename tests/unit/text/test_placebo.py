"""Placebo edits (issue 25): causal numbers separated from a model's reaction to any edit.

A learned classifier also reacts to edits that change no identity. Beside every causal test,
group score and term pair, textfair scores a placebo edit of the same seeds (a neutral word
written before the identity term) and reports the excess of the identity edits' flip rate
over it. The simulations run 200 seeded causal audits of a model that decides by a fixed
coin per text (it reacts to every edit alike) and of one whose decision turns on "muslim".
"""

import re

import numpy as np
import pytest

from textfair.core.rules import Rule
from textfair.discovery.themis import themis
from textfair.models import CachedModel, CallableModel
from textfair.text.domain import PLACEBO_WORDS, TextDomain

from synthetic import corpus, unit

RUNS = 200


def test_a_placebo_edit_keeps_every_identity_and_is_the_same_in_every_run():
    texts = [
        "a gay Muslim man was here",
        "Muslims are people too",
        "He is an American. Gay men rock",
        "YOU ARE GAY",
        "An LGBT editor left",
        "The weather is fine today.",
    ]
    domain = TextDomain(texts)
    edits = [domain.placebo(i, domain.categories()) for i in range(len(texts))]
    assert [e.text if e else None for e in edits] == [
        "a left-handed gay quiet Muslim man was here",
        "Tall Muslims are people too",
        "He is a local American. Tall gay men rock",
        "YOU ARE TALL GAY",
        "A tall LGBT editor left",
        None,
    ]
    for i, edit in enumerate(edits[:-1]):
        # Every identity word is still written, in order: only a neutral word was added
        # before each mention (and "an" became "a" before it).
        words = edit.text.lower().split()
        kept = [w for w in words if w not in PLACEBO_WORDS]
        assert " ".join(kept) == re.sub(r"\ban\b", "a", texts[i].lower())
        assert len(words) - len(kept) == len(domain.mentions(i))
    again = TextDomain(list(reversed(texts)))
    assert again.placebo(len(texts) - 2, again.categories()).text == edits[1].text


def test_placebo_texts_go_through_the_cache_once():
    domain = TextDomain(corpus(20), categories=["gender", "religion"])
    model = CachedModel(CallableModel(_coin(0.1, "cache"), labels=["ok", "toxic"]))
    result = themis(domain, model, favorable=0, max_samples=100, seed=3)
    assert all(c.excess is not None and c.excess.n > 0 for c in result.causal)
    assert all(g.excess is not None for g in result.group)
    assert any(p.excess is not None and p.excess_shift_ci is not None for p in result.pairs)
    assert model.stats.forwarded == model.stats.unique_inputs
    # The placebo edits' queries are stated apart: exactly the texts with a placebo word
    # (the corpus has none of its own).
    placebo = re.compile(r"\b(" + "|".join(PLACEBO_WORDS) + r")\b", re.IGNORECASE)
    asked = list(model._memory)
    assert model.stats.stages["placebo"].forwarded == sum(bool(placebo.search(t)) for t in asked)


def test_an_uncached_model_is_asked_each_text_once_with_the_same_result():
    """themis gathers texts of several tests into one call and reads them back per test;
    given a bare model it wraps it, so no text reaches the model twice."""
    domain = TextDomain(corpus(20), categories=["gender", "religion"])
    seen: list[str] = []

    def recording(texts):
        seen.extend(texts)
        return _coin(0.2, "bare")(texts)

    bare = themis(domain, CallableModel(recording, labels=["ok", "toxic"]), favorable=0, seed=3)
    assert len(seen) == len(set(seen))
    cached = CachedModel(CallableModel(_coin(0.2, "bare"), labels=["ok", "toxic"]))
    assert themis(domain, cached, favorable=0, seed=3) == bare


@pytest.mark.slow  # an audit rendered as report.md and report.html: 4 s of the fast tier
def test_the_verdict_markdown_and_page_speak_of_the_excess():
    """The verdict names what identity adds beyond a placebo edit; the Markdown group and
    term-pair tables and the page's heatmap show the excess, not the raw flip rate."""
    from textfair.auditing.text import audit_text
    from textfair.report.html import render_html
    from textfair.report.markdown import render_markdown
    from textfair.settings import AuditConfig

    texts = corpus(40)
    planted = CallableModel(_muslim, labels=["ok", "toxic"])
    config = AuditConfig(categories=["gender", "religion"])
    report = audit_text(planted, texts, favorable="ok", config=config, model_id="planted")
    verdict = report.summary()
    assert "significantly more often than a placebo edit for religion" in verdict, verdict
    coin = CallableModel(_coin(0.1, "verdict"), labels=["ok", "toxic"])
    fair = audit_text(coin, texts, favorable="ok", config=config, model_id="coin").summary()
    assert "no identity swap flips decisions significantly more often" in fair, fair
    markdown = render_markdown(report)
    group_table = markdown[markdown.index("| category | group score") :]
    religion = next(line for line in group_table.splitlines() if line.startswith("| religion"))
    assert "| yes |" in religion  # the group score's excess is significant
    pairs = markdown[markdown.index("## Term pairs") :]
    assert "shift vs placebo" in pairs and "muslim" in pairs
    page = render_html(report)
    assert "flips beyond the placebo edit" in page
    assert "placebo edit" in page[page.index('id="verdict"') :][:1000]


def _coin(p_toxic: float, salt: str):
    """A model that ignores identity: toxic by a fixed coin per text (the same coin for the
    same text), so any edit flips the decision with probability 2p(1-p)."""

    def predict(texts):
        toxic = np.array([unit(salt + t) < p_toxic for t in texts])
        return np.stack([~toxic, toxic], axis=1).astype(float)

    return predict


def _muslim(texts):
    """Planted: unfavourable exactly when a text names Muslims."""
    toxic = np.array(["muslim" in t.lower() for t in texts])
    return np.stack([~toxic, toxic], axis=1).astype(float)


@pytest.fixture(scope="module")
def domain():
    return TextDomain(corpus(400, seed=5), categories=["gender", "religion"])


@pytest.mark.slow
def test_a_model_that_reacts_to_any_edit_alike_shows_no_excess(domain):
    covered = quiet = 0
    for run in range(RUNS):
        model = CachedModel(CallableModel(_coin(0.1, f"run{run}"), labels=["ok", "toxic"]))
        result = themis(domain, model, favorable=0, seed=run)
        excess = [c.excess for c in result.causal]
        covered += all(e.ci[0] <= 0 <= e.ci[1] for e in excess)
        quiet += not any(e.significant for e in excess)
        assert all(c.score > 0.3 for c in result.causal)  # the raw score alone would alarm
    assert covered / RUNS >= 0.95
    assert quiet / RUNS >= 0.95


@pytest.mark.slow
def test_a_planted_model_has_its_excess_found_and_covered(domain):
    model = CachedModel(CallableModel(_muslim, labels=["ok", "toxic"]))
    everyone = len(domain.texts)
    truth = themis(
        domain, model, favorable=0, min_samples=everyone, max_samples=everyone, prune=False
    )
    true_excess = {c.categories: c.excess.excess for c in truth.causal}
    assert true_excess[("religion",)] > 0.05
    found = covered = 0
    for run in range(RUNS):
        result = themis(domain, model, favorable=0, seed=run, prune=False)
        religion = next(c for c in result.causal if c.categories == ("religion",))
        found += religion.excess.significant
        covered += religion.excess.ci[0] <= true_excess[("religion",)] <= religion.excess.ci[1]
        to_muslim = [p for p in result.pairs if p.target == "muslim" and p.n >= 10]
        assert to_muslim and all(p.excess.ci[0] > 0 for p in to_muslim)
    assert found / RUNS >= 0.95
    assert covered / RUNS >= 0.93
    assert Rule("religion", "muslim") in domain.single_rules("religion")
