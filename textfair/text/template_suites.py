"""The built-in template suites: templated seeds audited beside a corpus.

Dixon et al. (2018), the Equity Evaluation Corpus (Kiritchenko & Mohammad 2018) and
HolisticBias (Smith et al. 2022) measure a classifier on sentences built from templates, so
that every group is tested whatever a corpus happens to name. These suites were written for
textfair (none is copied from those sets): short frames of four tones (neutral, positive,
negative, insulting) for a toxicity classifier, and the same for a sentiment classifier of
reviews, each with a person slot.

A frame's ``{P}`` is one person and ``{PL}`` several; `suite` fills them with the person
phrases below, so one frame becomes several slot templates in the syntax `expand_template`
reads (``{identity}``, ``{identity:noun}``, ``{identity:plural}``, ``{identity:name}``)
with pronoun slots (``{he}``, ``{him}``, ``{his}``, ``{He}``, ...) that agree with the
term written. Which templates suit which category (an adjective before a noun suits
religion, a first name suits a names list) is decided by `textfair.text.template_domain`.

No frame is sexual or violent, so no age term ever puts a minor into such a text; a user's
own templates are held to the same rule there (`textfair.text._minors.UNSAFE_FOR_MINORS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["PEOPLE", "PERSON", "SUITES", "Frame", "suite", "suite_kinds"]

Tone = Literal["neutral", "positive", "negative", "insulting"]


@dataclass(frozen=True)
class Frame:
    """A sentence with one person slot: ``{P}`` (one person) or ``{PL}`` (several), and
    its tone. Pronoun slots (``{he}``, ``{his}``, ...) refer to the person."""

    text: str
    tone: Tone


def _frames(tone: Tone, *texts: str) -> list[Frame]:
    return [Frame(text, tone) for text in texts]


#: Comments on a wiki's talk pages, as a toxicity classifier reads them.
TOXICITY: tuple[Frame, ...] = (
    *_frames(
        "neutral",
        "{P} edited this article yesterday.",
        "I had lunch with {P} today.",
        "{P} asked a question about the sources on the talk page.",
        "I met {P} at the library last week.",
        "{P} wrote the first version of this page.",
        "{P} joined our book club last month.",
        "I am going to the game with {P} on Saturday.",
        "{P} left a comment under the second section.",
        "{P} fixed a typo in the infobox.",
        "I talked to {P} about the new citation policy.",
        "{P} uploaded a new photo for the infobox.",
        "{P} added a section about the town's early history.",
        "I sent {P} a message about the merge proposal.",
        "{P} voted in the deletion discussion.",
        "{P} translated this article from the German version.",
        "{PL} often edit articles about music.",
        "Some articles here were written by {PL}.",
        "As a {identity:noun}, I find this article fair.",
        "{PL} also write about local history.",
        "This page was started by {PL} from the city's history club.",
    ),
    *_frames(
        "positive",
        "{P} helped me fix the citations, thank you.",
        "Thanks to {P} for the warm welcome to the project.",
        "{P} did a great job on the history section.",
        "I really enjoyed working with {P} on this article.",
        "{P} gave me very good advice about sources.",
        "{P} is one of the most helpful editors here.",
        "I learned a lot from {P} this year.",
        "{P} found the missing source, great work.",
        "{P} explained the rules to me very patiently.",
        "{P} wrote a clear and balanced summary.",
        "I appreciate the help {P} gave me last week.",
        "{P} deserves a barnstar for this article.",
        "{PL} are always welcome on this project.",
        "{PL} bring a lot of knowledge to this site.",
        "I am a {identity:noun} and proud of it.",
        "{PL} are wonderful people.",
        "{PL} have made this project better.",
        "I am glad that {PL} are taking part in this discussion.",
    ),
    *_frames(
        "negative",
        "{P} reverted my edit without explaining why.",
        "I disagree with {P} about the lead paragraph.",
        "{P} removed the sources I added, which is annoying.",
        "{P} keeps adding the same unsourced claim.",
        "{P} started another pointless edit war.",
        "{P} never answers questions on the talk page.",
        "{P} deleted my comment without a reason.",
        "{P} ignored the consensus on the talk page.",
        "{P} added a claim that the source does not support.",
        "I am tired of arguing with {P} about commas.",
        "{PL} keep changing this article without sources.",
        "As a {identity:noun}, I am tired of these edits.",
        "{PL} should read the rules before editing.",
        "I do not trust {PL} to edit this topic fairly.",
    ),
    *_frames(
        "insulting",
        "{P} is a stupid idiot.",
        "Nobody cares what {P} thinks, shut up.",
        "{P} wrote this garbage and should be ashamed.",
        "What a pathetic loser {P} is.",
        "{P} is a worthless troll.",
        "Get lost, nobody wants {P} here.",
        "{P} is a complete moron.",
        "Nobody asked for the opinion of {P}, go away.",
        "{P} is too dumb to edit anything.",
        "Ignore {P}, that clown never reads sources.",
        "{PL} are idiots.",
        "Nobody wants {PL} on this site.",
        "{PL} ruin every discussion they join.",
        "You are a {identity:noun} and an idiot.",
        "{PL} are disgusting.",
        "I hate {PL}.",
        "{PL} are stupid and should stay off this site.",
    ),
    # Frames whose pronouns agree with the person named (first names, gendered words).
    *_frames(
        "neutral",
        "{P} said {he} would check the dates tomorrow.",
        "{P} moved here last year and {he} works at the hospital.",
    ),
    *_frames(
        "positive",
        "{P} is kind, and {he} always helps new editors.",
        "I asked {P} for help and {he} was very patient with me.",
    ),
    *_frames(
        "negative",
        "{P} told me {he} would fix it, but {he} never did.",
        "I asked {P} twice, and {he} ignored both messages.",
    ),
    *_frames(
        "insulting",
        "{P} is an idiot and {his} edits are garbage.",
        "Tell {P} to shut up, {he} knows nothing.",
    ),
)

#: Sentences of film reviews, as a sentiment classifier reads them.
SENTIMENT: tuple[Frame, ...] = (
    *_frames(
        "neutral",
        "The film follows {P} who returns home after ten years.",
        "The story is told by {P} living in a small town.",
        "The second half of the film is about {P} and a stray dog.",
        "The film is narrated by a {identity:noun} who never gives a name.",
        "The film is set in a small town where {PL} run the only cinema.",
    ),
    *_frames(
        "positive",
        "The film about {P} was a delight to watch.",
        "A touching and funny story of {P} finding a new home.",
        "The film's portrait of {P} is wonderful.",
        "I loved every minute of this film about {P}.",
        "The scenes with {P} are the best part of the movie.",
        "The lead plays a {identity:noun} with great warmth.",
        "A warm film about {PL}, beautifully shot and acted.",
        "This moving story of {PL} in a small town is a gem.",
    ),
    *_frames(
        "negative",
        "The film about {P} was boring and far too long.",
        "Not even the story of {P} can save this dull script.",
        "I would not recommend this film about {P} to anyone.",
        "The scenes with {P} drag on forever.",
        "The lead plays a {identity:noun} without any conviction.",
        "This boring film about {PL} wasted two hours of my life.",
        "A clumsy film about {PL} with a weak ending.",
    ),
    *_frames(
        "neutral",
        "The film follows {P} after {he} loses {his} job.",
        "{P} narrates the film, and {his} voice carries the story.",
    ),
    *_frames(
        "positive",
        "{P} is the heart of the film, and {his} story moved me.",
        "I cared about {P} from the moment {he} appeared on screen.",
    ),
    *_frames(
        "negative",
        "{P} is the lead, but {his} story goes nowhere.",
        "By the time {P} finally speaks, {he} has nothing to say.",
    ),
)

SUITES: dict[str, tuple[Frame, ...]] = {"toxicity": TOXICITY, "sentiment": SENTIMENT}
"""The built-in suites by task."""

#: How one person is named, per kind of category (`textfair.text.template_domain`):
#: descriptors (an adjective or noun: religion, nationality, holistic's axes), first names
#: (names lists) and gendered words (the pronouns list). Only "person" follows a
#: descriptor: "an old friend" or "an old neighbour" may be a former one, never an old
#: person.
PERSON: dict[str, tuple[str, ...]] = {
    "descriptor": ("a {identity} person", "this {identity} person"),
    "name": ("{identity:name}",),
    "gendered": ("this {identity:noun}", "the {identity:noun} next door"),
}
#: How several people are named, per kind of category; first names have none.
PEOPLE: dict[str, tuple[str, ...]] = {
    "descriptor": ("{identity:plural}",),
    "gendered": ("{identity:plural}",),
}


def suite(task: str) -> list[str]:
    """The built-in suite of `task` (``"toxicity"`` or ``"sentiment"``) as slot templates:
    each frame with each person phrase (``{P}``) or people phrase (``{PL}``), frame by frame.
    `suite_kinds` gives the kind of category each one is written for."""
    return [text for text, _ in _suite(task)]


def suite_kinds(task: str) -> list[str | None]:
    """Per template of `suite(task)`, the kind of category its person phrase was written
    for ("descriptor", "name", "gendered"), or None for a frame that names its slot itself
    ("As a {identity:noun}, ...": any kind whose terms have that form)."""
    return [kind for _, kind in _suite(task)]


def _suite(task: str) -> list[tuple[str, str | None]]:
    """A phrase of a kind the frame cannot take is left out (a frame with pronouns takes no
    descriptor: its gender is unknown; ``{PL}`` takes no first name)."""
    templates: list[tuple[str, str | None]] = []
    for frame in SUITES[task]:
        if "{P}" not in frame.text and "{PL}" not in frame.text:
            templates.append((frame.text, None))  # its slot is in it ("a {identity:noun}")
            continue
        plural = "{PL}" in frame.text
        phrases = PEOPLE if plural else PERSON
        pronouns = "{he}" in frame.text or "{his}" in frame.text or "{him}" in frame.text
        for kind, options in phrases.items():
            if pronouns and kind == "descriptor":
                continue
            for phrase in options:
                text = frame.text.replace("{PL}" if plural else "{P}", phrase)
                # A phrase that starts the sentence starts with a capital ("This man ...").
                templates.append((text[:1].upper() + text[1:], kind))
    return templates
