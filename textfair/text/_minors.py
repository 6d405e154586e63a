"""No minor is written into sexual text: the lexicons and the two questions every writer asks.

A variant that turns "Young Japanese girl ..." in a pornographic spam line into "Teenage
Japanese girl ..." sexualises a minor, whatever it would measure. So no command writes a
term that can name a minor (`names_a_minor`) into a text with sexual content
(`sexual_content`): the corpus's plans drop such targets (`textfair.text._coherence`, left-out
reason ``minor_in_sexual_text`` when none is left), and templates with sexual or violent words
are never written with them (`textfair.text.template_domain`, `UNSAFE_FOR_MINORS`).

The lexicons are written by the textfair authors (MIT): a word list, not a classifier, so they
err towards caution: "young" counts as naming a minor ("young girl"), and profanity that
names a sexual act counts as sexual content. What they cost is counted in the report.
"""

from __future__ import annotations

import re

from textfair.terms import Term

__all__ = [
    "MINOR_WORDS",
    "SEXUAL_WORDS",
    "UNSAFE_FOR_MINORS",
    "VIOLENT_WORDS",
    "minor_words_in",
    "names_a_minor",
    "sexual_content",
]

#: Words that can name a minor, or a person as young as one.
MINOR_WORDS = frozenset(
    """
    teenage teenaged teen teens teenager teenagers young younger youngster youngsters youth
    youths youthful child children kid kids adolescent adolescents juvenile juveniles underage
    minor minors boy boys girl girls preteen preteens tween tweens toddler toddlers baby babies
    infant infants schoolboy schoolboys schoolgirl schoolgirls loli lolita
    """.split()
)

#: Words of sexual content: sex itself, pornography, sexual acts and body parts, sex work and
#: sexual violence. Plain profanity used as an intensifier is a sexual word too ("fuck"): a
#: list cannot tell the two apart, and the cost of a missed sexual text is the larger.
SEXUAL_WORDS = frozenset(
    """
    sex sexy sexual sexually sexting nude nudes nudity naked porn porno pornography
    pornographic xxx nsfw erotic erotica horny orgasm orgasms masturbate masturbates
    masturbating masturbation blowjob blowjobs handjob cum cumming dildo fetish bdsm
    intercourse genitals genital penis vagina vaginas pussy pussies cock cocks dick dicks
    boobs boob tits titties breasts nipples fuck fucks fucked fucking fucker motherfucker
    slut sluts slutty whore whores hooker hookers prostitute prostitutes prostitution
    escort escorts stripper strippers striptease lingerie milf hookup seduce seduced seduces
    seducing seductive rape rapes raped raping rapist rapists molest molests molested
    molesting molestation molester pedophile pedophiles paedophile paedophiles pedophilia
    grooming incest
    """.split()
)

#: Words of violent content: with the sexual words, what keeps a template's minor terms out
#: (a template is written with every term of an axis, so it is held to more than a corpus).
VIOLENT_WORDS = frozenset(
    """
    kill killed killing kills murder murdered murdering stab stabbed shoot shooting beat
    beaten beating hang hanged lynch lynched die dead death burn burned torture tortured
    punch punched hit slap slapped choke choked gun guns knife bomb
    """.split()
)

#: What a template may not hold to be written with a term that can name a minor: sexual and
#: violent words, and the milder words of intimacy a template's fixed frame makes explicit.
UNSAFE_FOR_MINORS = (
    SEXUAL_WORDS | VIOLENT_WORDS | frozenset("kiss kissed kissing bed hot strip".split())
)

_WORD = re.compile(r"[a-z]+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def names_a_minor(term: Term) -> bool:
    """Whether `term` can name a minor ("teenage", "young", "adolescent"): a word of its
    written forms (text, noun, plurals, aliases) in `MINOR_WORDS`."""
    forms = " ".join([term.text, term.noun or "", *term.plurals, *term.aliases])
    return bool(_words(forms) & MINOR_WORDS)


def minor_words_in(text: str) -> bool:
    """Whether `text` (a mention as written: "girl", "schoolboys") holds a minor's word."""
    return bool(_words(text) & MINOR_WORDS)


def sexual_content(text: str) -> bool:
    """Whether `text` holds a word of sexual content (`SEXUAL_WORDS`, any case)."""
    return not _words(text).isdisjoint(SEXUAL_WORDS)
