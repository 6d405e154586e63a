"""Whether a nationality names a people in general, the only reading a swap keeps true.

Terms flagged ``groups_only`` (the nationalities) are rewritten only where they speak of a
people in general ("amazing how many Americans slag off capitalism"). Read blind on unseen
tweets and reviews, the other readings were common and a swap made them false or
incoherent; each rule here sees one of them from the words around:

* **one person** called by the nationality ("a Syrian refugee", "she is Canadian"), unless
  the text shows them to be private ("my Syrian neighbour");
* the writer speaking as one of a nation (**our nation**: "our country", "our borders");
* **public affairs**: a country's real people in its politics and news (a name, an account,
  a hashtag, a link, or a word of :data:`PUBLIC_AFFAIRS_WORDS`);
* a **region or a slur**: words of a region's or a race's people, a flag, a skin colour or
  a count before the mention, which place the nationality in its region;
* a **people's culture** or a thing: a work, a cuisine, music, a language, a pet, a place
  or an idiom ("French Rd", "Dutch oven").

Apart from `textfair.text._references`, whose rules decide who a swapped name or gendered
word refers to; these decide what a nationality stands for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from textfair.text import _context as context
from textfair.text._references import THE_WRITER, WORK_WORDS, any_word, shown_private

if TYPE_CHECKING:
    from textfair.text.mentions import Mention

__all__ = [
    "PUBLIC_AFFAIRS_WORDS",
    "a_peoples_culture",
    "one_person",
    "one_private_person",
    "our_nation",
    "public_affairs",
    "region_or_slur",
    "this_country",
]

# "my Syrian neighbour", "our old Mexican friend", "my neighbour is a Mexican", "my friend,
# a Mexican", "I'm a Mexican": the writer's own, or the writer, described.
_OWN_BEFORE = re.compile(
    r"(?:\b(?:my|our)[ \t]+(?:[a-z]+[ \t]+)?"
    r"|\b(?:my|our)[ \t]+[a-z]+(?:[ \t]+[a-z]+)?(?:[ \t]+(?:is|was)|[ \t]*,)[ \t]+(?:a|an)[ \t]+"
    r"|\bI[ \t]*(?:['’]m|[ \t]am|[ \t]was)[ \t]+(?:a|an)[ \t]+)$",
    re.IGNORECASE,
)


# Person nouns read as plural although they end in no "s" ("people"), or as singular
# although they do ("boss", "actress").
_PLURAL_PERSON_NOUNS = frozenset("people folks folk children men women police staff crew".split())


def _one_person_noun(token: str) -> bool:
    """A person noun for one person ("refugee", "boss"), not for several ("people")."""
    word = context.plain_token(token)
    return word not in _PLURAL_PERSON_NOUNS and (
        word in context.person_nouns() and (not word.endswith("s") or word.endswith("ss"))
    )


# An adjective said of one person: "she is Canadian", "you are American", "I'm Irish".
_PREDICATED_OF_ONE = re.compile(
    r"\b(?:he|she|i|you|he['’]s|she['’]s|i['’]m|you['’]re|ur)"
    r"(?:[ \t]+(?:is|was|isn['’]t|wasn['’]t|am|are|were|seems|"
    r"looks|sounds|became|becomes))?(?:[ \t]+(?:so|very|really|half|fully|totally|also|not|"
    r"clearly|obviously|literally))?[ \t]+$",
    re.IGNORECASE,
)


def one_person(text: str, mention: Mention) -> bool:
    """The mention calls one person by the term: a singular noun ("a Romanian", "no
    Russian"), an adjective said of one ("she is Canadian", "he's half German") or one
    before a singular person noun, within a compound ("a Syrian refugee", "a Moroccan truck
    driver", "a Spanish flamenco dancer")."""
    if mention.form == "noun":
        return True
    if mention.form != "adjective":
        return False
    if _PREDICATED_OF_ONE.search(text, max(0, mention.start - 40), mention.start):
        return True  # "she is Canadian", "he's half German"
    after = context.tokens_after(text, mention.end, count=2)
    if after and _one_person_noun(after[0]):
        return True
    return len(after) == 2 and context.is_content_word(after[0]) and _one_person_noun(after[1])


def this_country(text: str) -> bool:
    """The text points at one country as its own ("coming into this country", "our
    nation"): a nationality beside it is most often that country's (issue 56: "American
    culture ... coming into this country" -> "Japanese culture", IN_TEXT)."""
    return _THIS_COUNTRY.search(text) is not None


_THIS_COUNTRY = re.compile(r"\b(?:this|our)[ \t]+(?:own[ \t]+)?(?:country|nation)\b", re.I)


# "our country", "our borders", "our own laws": the writer speaks as one of a nation.
_OUR_NATION = re.compile(
    r"\bour[ \t]+(?:own[ \t]+)?(?:country|nation|homeland|borders?|laws|constitution|flag|"
    r"taxes|taxpayers|veterans|vets|troops|soldiers|citizens|fellow[ \t]+citizens)\b",
    re.IGNORECASE,
)


def our_nation(text: str) -> bool:
    """The writer speaks as one of a nation ("our country", "our borders", "our laws"):
    read blind on tweets, a nationality beside such words was most often the writer's own
    ("too many Americans ... invaders walk into our country"), which the rest of the text
    still speaks of after a swap."""
    return _OUR_NATION.search(text) is not None


# Words of a country's public affairs: government and elections, parties and ideologies,
# borders and migration, war and espionage, the police and the courts, its money, the
# press and its national teams' sport. Read blind
# on tweets the project had not seen, a nationality beside them was most often one country's
# people in its politics and news ("Build the wall ... 30% of Americans", "the Dutch Red
# Cross ... Syrian refugees", "Democrats against American citizens"): a swap makes the text
# false about them or leaves its other words speaking of the old country.
PUBLIC_AFFAIRS_WORDS = frozenset(
    """
    government governments govt president presidents presidential minister ministers
    ministry congress congressman congresswoman senate senator senators parliament mp mps
    election elections elected vote votes voted voter voters voting ballot campaign politics
    political politician politicians policy policies law laws legal illegal illegals
    democrat democrats democratic republican republicans gop dems libs liberal liberals
    leftist leftists conservative conservatives tory tories socialist socialists communist
    communists fascist fascists nazi nazis border borders wall deport deports deported
    deporting deportation immigration immigrant immigrants migrant migrants migration
    refugee refugees asylum invade invaded invader invaders invasion invading citizen
    citizens citizenship passport visa visas nation nations national nationalist
    nationalists country countries patriot patriots patriotic treason sovereign sovereignty
    taxpayer taxpayers tax taxes welfare military army troops soldier soldiers war wars
    veteran veterans vets police cops court courts judge officials official authorities
    agency embassy terror terrorist terrorists terrorism genocide sanctions regime dictator
    protest protests protesters riot riots news media agent agents asset assets spy spies
    intelligence diplomat diplomats ambassador navy rights freedom freedoms constitution
    amendment flag dollar dollars euro euros rupee rupees peso pesos yen yuan ruble rubles
    gun guns civilians advocates journalist journalists reporter reporters press newspaper
    game games match matches team teams league cup olympics olympic tournament
    championship football soccer rugby cricket hockey basketball baseball player players
    coach fans stadium fascism communism dictatorship season playoffs scored runs
    inning innings wicket wickets batting pitcher brexit remainers remainiacs leavers
    """.split()
)
_PUBLIC_AFFAIRS = any_word(PUBLIC_AFFAIRS_WORDS)
# A link, or the placeholder an anonymised corpus writes for one.
_LINK = re.compile(r"https?://|\bwww\.|@url\b", re.IGNORECASE)
_NAME_LIKE = re.compile(r"(?<![\w@#'’])[A-Z][\w'’.\-]*")
_HANDLE_BEFORE = re.compile(r"@\w+[ \t]*$")
# An @-handle of a real account (not the placeholder an anonymised corpus writes): the text
# speaks to or of someone in particular, a celebrity as often as not.
_ACCOUNT = re.compile(r"(?<![\w@])@(?!(?:user|url)\b)\w+", re.IGNORECASE)
# Capitalised words that name no one: the writer, God and the writer's parents, days and
# months, interjections and the usual chat acronyms.
_NAMES_NO_ONE = frozenset(
    """
    i i'm i've i'll i'd god dad mom mum mommy daddy ok okay lol omg imo wtf smh tbh idk lmao
    rofl btw fyi rip pls plz thx tv january february march april may june july august
    september october november december monday tuesday wednesday thursday friday saturday
    sunday
    """.split()
)


_WORD_BEFORE = re.compile(r"([A-Za-z]{2,})[^\w\n]*$")
_WORD_AFTER = re.compile(r"[^\w\n]*([A-Za-z]{2,})")


def _shouted(text: str, match: re.Match[str]) -> bool:
    """The word in capitals at `match` stands beside another: a writer shouting ("I CARE
    THAT"), not an acronym ("the GOP hates")."""
    before = _WORD_BEFORE.search(text, max(0, match.start() - 20), match.start())
    after = _WORD_AFTER.match(text, match.end())
    return any(found is not None and found.group(1).isupper() for found in (before, after))


def _names_someone(text: str, match: re.Match[str]) -> bool:
    """The capitalised word of `match` is a name (a person, an organisation, a place): one
    inside a sentence, or a sentence's first word (after the text's start, a sentence's end,
    a line break, a quote or an emoji, or after the @-handles a tweet opens with) that the
    name lexicons hold; not the writer, God or a month, and not a word in capitals a
    shouting writer uses (five letters or more, a function word, or beside another word in
    capitals: "BUILD THE WALL", "I CARE"; "the GOP", "US", "CBC" are names). Taking a word
    for a name only leaves a text out."""
    word = match.group().rstrip(".'’-")
    lower = word.lower()
    if lower in _NAMES_NO_ONE:
        return False
    if (
        word.isupper()
        and len(word) > 1
        and (len(word) >= 5 or lower in context.FUNCTION_WORDS or _shouted(text, match))
    ):
        return False
    # What stands before the word, within a few dozen characters: copying the whole prefix
    # for every capitalised word of a long text would cost its square.
    before = text[max(0, match.start() - 40) : match.start()].rstrip()
    inside = before and (before[-1].isalnum() or before[-1] in ",&'’(")
    if inside and _HANDLE_BEFORE.search(before) is None:
        return True
    # A sentence's first word is written with a capital whatever it is: a name there is one
    # the lexicons of first names and surnames hold ("Trump says ...", "Bernie did ...").
    return lower not in context.FUNCTION_WORDS and (
        word in context.first_names() or word in context.last_names()
    )


def public_affairs(text: str, spans: Sequence[tuple[int, int]]) -> bool:
    """The text speaks of public affairs, where a nationality is a country's real people in
    its politics and news: a name outside `spans` (the identity's own words) of a person, an
    organisation or a place ("Trump", "Assad", "the Dutch Red Cross", "Miami", "GOP"), an
    account's @-handle or an anonymised name ("[NAME]"), a hashtag, a link, or a word of
    :data:`PUBLIC_AFFAIRS_WORDS` ("government", "borders", "refugees", "voters"). Read blind
    on unseen tweets, such a nationality was most often anchored there (the writer's own
    nation, a real event, a celebrity addressed), and a swap made the text false or
    incoherent; what is left, a people spoken of in general ("amazing how many Americans
    slag off capitalism ..."), reads true after a swap."""
    if "#" in text or _LINK.search(text) or _PUBLIC_AFFAIRS.search(text):
        return True
    if _ACCOUNT.search(text) or "[NAME]" in text:
        return True  # "@KimKardashian", "@schmutzie": a real account; "[NAME]": someone
    return any(
        not any(s <= match.start() < e for s, e in spans) and _names_someone(text, match)
        for match in _NAME_LIKE.finditer(text)
    )


# Words of a region's or a race's people, their nicknames, and slurs aimed at a people: a
# nationality beside them is one of that region ("Asian group ... those Chinese dudes",
# "filipinos were hispanic", "Americans: ... Aussies: ..."), and a swap to a people of
# another region contradicts them (read blind on unseen tweets).
_REGION_OR_SLUR = re.compile(
    # A line break a corpus wrote out as "\\n" ends a word too.
    r"(?:\b|(?<=\\[nrt]))"
    r"(?:asians?|hispanics?|latin[oax]s?|latinx|arabs?|africans?|europeans?|caucasians?|"
    r"orientals?|middle[ \t]+eastern|subcontinent|slavs?|nordic|scandinavians?|balkans?|"
    r"aussies?|brits?|yanks?|kiwis?|canucks?|ching[ \t]+chong|chinks?|gooks?|japs?|spics?|"
    r"wetbacks?|beaners?|towelheads?|ragheads?|pakis?|kikes?|gringos?|chinam[ae]n|coolies?|dagos?|"
    r"wops?|krauts?|limeys?|polacks?)\b",
    re.IGNORECASE,
)


# A country's flag as an emoji: two regional indicator symbols.
_FLAG = re.compile("[\U0001f1e6-\U0001f1ff]{2}")
# A colour of skin or a count right before the nationality: "black Americans" (a people of
# their own), "the 13 Russians" (people in the news).
_RACE_OR_COUNT_BEFORE = re.compile(
    r"\b(?:black|white|brown|\d+|two|three|four|five|six|seven|eight|nine|ten|dozen)[ \t]+$",
    re.IGNORECASE,
)


def region_or_slur(text: str, spans: Sequence[tuple[int, int]] = ()) -> bool:
    """A word of a region's or a race's people, a nickname of a people or a slur aimed at
    one, outside `spans` (the mentions), or a flag emoji: it places the nationality in its
    region. So does a colour of skin or a count right before a mention ("black Americans",
    "the 13 Russians")."""
    if _FLAG.search(text) or any(
        _RACE_OR_COUNT_BEFORE.search(text, max(0, start - 12), start) for start, _ in spans
    ):
        return True
    return any(
        not any(s <= match.start() < e for s, e in spans)
        for match in _REGION_OR_SLUR.finditer(text)
    )


# What a nationality stands beside where it is a people's culture or a thing, not people:
# a work (a film, a book, a show: its cast and plot are real), its cuisine and its music
# ("being served by real Italians I expected more spice", "Irish folk"). Read blind on
# unseen reviews and tweets, such a swap made a work's story or a cuisine's people false.
_CULTURE = any_word(
    WORK_WORDS
    | set(
        """
        book books novel novels author story stories show shows tv video videos
        musical documentary comic comics anime cartoon cartoons food foods cuisine
        dish dishes restaurant restaurants menu meal meals chef cook cooking recipe
        recipes spice spices spicy flavor flavors flavour flavours sauce pizza pasta
        sushi curry tacos taco burrito noodles music folk dance
        dancing accent accents language languages culture cultures cultural
        tradition traditions heritage background ancestry descent filmmaker
        filmmakers genre comedy comedies drama thriller version vet dog dogs puppy
        puppies pet pets breed cat cats kitten horse meatballs kebab kebabs paella
        croissant baguette schnitzel sauerkraut dumplings kimchi ramen tapas
        bratwurst haggis borscht falafel hummus airline airlines flight flights
        plane cabin airport boarding
        """.split()
    )
)


def _followed_by(words: str) -> re.Pattern[str]:
    """A pattern matching, right after a mention, one of `words` (space-separated regular
    expressions of one word each)."""
    return re.compile(r"[ \t]+(?:" + "|".join(words.split()) + r")\b", re.IGNORECASE)


# A nationality naming a place or a thing: "French Rd", "Young Turks", "Ten Little Indians",
# "Dutch oven": read blind, no people there.
_PLACE_AFTER = _followed_by(
    "rd road st street ave avenue blvd boulevard lane drive dr square park quarter district "
    "bay river island islands sea coast alps embassy consulate room hall bar cafe pub hotel "
    "inn"
)
_IDIOM = re.compile(
    r"\b(?:young[ \t]+turks?|little[ \t]+indians|indian[ \t]+givers?|going[ \t]+dutch|"
    r"dutch[ \t]+(?:courage|oven|treat|uncle|auction|angle)|"
    r"french[ \t]+(?:kiss|kissing|fries|toast|horn|braid|door|doors|press|leave|manicure)|"
    r"greek[ \t]+(?:life|row|system|yogurt)|swiss[ \t]+(?:cheese|army|bank)|"
    r"russian[ \t]+(?:roulette|doll|dolls)|chinese[ \t]+(?:whispers|checkers|takeout)|"
    r"mexican[ \t]+(?:standoff|wave)|irish[ \t]+(?:goodbye|coffee|twins)|"
    r"turkish[ \t]+(?:delight|bath)|spanish[ \t]+(?:fly|inquisition)|english[ \t]+muffin|"
    r"german[ \t]+shepherds?|danish[ \t]+pastr(?:y|ies)|scotch[ \t]+tape|"
    r"geeks[ \t]+and[ \t]+greeks|business[ \t]+but[ \t]+the[ \t]+turks)\b",
    re.IGNORECASE,
)


# A nationality naming a language: "my Spanish teacher", "a rough translation of the
# Chinese", "I speak German".
_LANGUAGE_AFTER = _followed_by(
    "teachers? class classes lessons? course courses homework exams? words? translations? "
    "subtitles speakers? dub dubbed grammar vocab vocabulary"
)
_LANGUAGE_BEFORE = re.compile(
    r"\b(?:speak|speaks|speaking|spoke|learn|learning|learnt|learned|study|studying|"
    r"translate|translated|translation[ \t]+of|fluent[ \t]+in|in)[ \t]+(?:the[ \t]+)?$",
    re.IGNORECASE,
)


def a_peoples_culture(text: str, spans: Sequence[tuple[int, int]]) -> bool:
    """The nationality at `spans` stands for a people's culture or a thing, not its people:
    the text speaks of a work, a cuisine, music, dance, a language, a culture or a pet (the
    swap would make them another people's; "my german" is a dog), or a mention names a
    place, a language or an idiom ("French Rd", "my Spanish teacher", "young Turks",
    "Dutch oven")."""
    if _CULTURE.search(text):
        return True
    for start, end in spans:
        if _PLACE_AFTER.match(text, end) or _LANGUAGE_AFTER.match(text, end):
            return True
        if _LANGUAGE_BEFORE.search(text, max(0, start - 30), start):
            return True
        for match in _IDIOM.finditer(text, max(0, start - 15), min(len(text), end + 15)):
            if match.start() <= start < match.end():
                return True
    return False


def one_private_person(text: str, start: int) -> bool:
    """The term at `start` describes one of the writer's people ("my Syrian neighbour",
    "our old Mexican friend") or a person the text shows to be private otherwise
    (`shown_private`; not the writer), outside a quotation (whose "I" and "my" are someone
    else's: "“I am German when we win”")."""
    if _quoted(text, start):
        return False
    if _OWN_BEFORE.search(text, max(0, start - 30), start) is not None:
        return True
    # The writer's own nationality ("I'm Indian") is not taken: read blind, the rest of the
    # text most often turned on it (a catchphrase, a people's colours, a quoted celebrity).
    begin = max(0, start - 50)
    return THE_WRITER.search(text, begin, start) is None and shown_private(text, start)


def _quoted(text: str, start: int) -> bool:
    """`start` lies inside a quotation: after an opening curly quote not closed yet, or
    after an odd number of straight double quotes."""
    before = text[:start]
    return before.rfind("“") > before.rfind("”") or before.count('"') % 2 == 1
