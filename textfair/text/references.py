"""Other references to the person a swap rewrites: names, titles, gendered identity words and
cues of a life stage elsewhere in the text.

A swap of a pronoun, a first name or an age says something about a person; every other word
of the text that refers to the same person must say the same, or the variant contradicts
itself ("Joyce ... he", "Brittany Depp ... Mr. Depp", "five old people" later "the kids").
Which word refers to whom is not known here, so the rules keep to what is safe whatever
the reference:

* a **full name** (a first name with a surname, an initial, an epithet or a title:
  "John Banner", "Michael S. Margolin", "Richard the Lionheart", "Reverend Billy", "Mr.
  Depp") names a person the text treats as real: renaming them, or changing the gender of
  the words that may refer to them, makes the text false about that person;
* a **first name alone** is flipped with a pronoun swap ("Emily said she" -> "Michael said
  he"), so every gendered reference changes together, whoever it refers to;
* a **gendered identity word** that a gender swap cannot carry ("female", "Latina",
  "lesbian": identity terms, not pair words) keeps the seed out of a pronoun or name swap;
* a **life stage** stated elsewhere ("the kids", "teens", "a 16-year-old", "retired",
  "grandchildren", "in high school") rules out an age target no one of that stage can have,
  where the mentioned term itself fits the stage (the cue may describe the same people).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from textfair.terms import Term, load_term_list
from textfair.text import context

if TYPE_CHECKING:
    from textfair.text.mentions import Mention

__all__ = [
    "NONBINARY_TERMS",
    "a_peoples_culture",
    "about_a_work",
    "age_range",
    "fits_life_stages",
    "full_name_at",
    "gendered_identity_words",
    "hashtag_names",
    "life_stages",
    "name_group",
    "named_elsewhere",
    "named_people",
    "one_person",
    "one_private_person",
    "our_nation",
    "public_affairs",
    "region_or_slur",
    "shown_private",
    "the_writers_own",
    "unknown_first_names",
]

# Titles before a name: a titled name ("Mr. Depp", "Reverend Billy") is someone the text
# treats as real (or as a character of a real work), with a fixed gender.
TITLES = frozenset(
    """
    mr mrs ms miss mister madam sir dame lord lady dr doctor prof professor rev reverend fr
    father sister brother saint st officer detective sergeant sgt captain capt president
    senator judge governor king queen prince princess uncle aunt auntie count countess
    """.split()
)
# Capitalised words that follow a first name and are no surname ("Will He", "Grace And").
_NOT_SURNAMES = frozenset(
    "i he she it we they you his her him the a an and or but of in on at to for with".split()
)
# Capitalised words of the first-name lexicon that texts use far more often for a month, a
# day, a holiday, a religious figure, a place or a faith than for a person (the names list
# leaves them out for the same reason: term_lists/build_lists.py).
_CALENDAR = frozenset(
    """
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday christmas easter jesus christ
    god lord allah buddha krishna moses muhammad mohammed mohammad israel jordan nazareth
    jerusalem eden genesis santa paris london sydney virginia georgia carolina dakota
    christian little messiah angel love story true blue boy son king prince summer
    africa america britain england france germany ireland iran iraq italy spain russia
    china japan india canada mexico
    """.split()
)
# A place, not a person, after these ("of Nazareth", "in Jordan").
_PLACE_BEFORE = frozenset("of in from to at near".split())

# Identity terms on a gender-identity axis that name no binary gender: "he" or "she"
# beside one reads wrong ("a nonbinary person ... him").
NONBINARY_TERMS = frozenset(
    """
    nonbinary non-binary non_binary agender androgyne bigender demigender enby genderfluid
    genderless genderqueer neutrois
    """.split()
) | {"gender neutral", "gender non conforming", "non binary", "third gender", "two spirit"}

# A surname may open on a particle ("Lars von Trier", "Vincent van Gogh", "Osama bin Laden").
_PARTICLE = r"(?:von|van|der|den|de|da|di|del|della|du|la|le|bin|ibn|al|el|ben|ter)[ \t]+"
_SURNAME = re.compile(
    r"[ \t]+(?:[A-Z]\.[ \t]*)?(?:" + _PARTICLE + r")?(?:[A-Z][\w'’]*|the[ \t]+[A-Z]\w+)|-[A-Z]"
)
# "Book of Daniel", "House of David", "Gospel of John": a work or a lineage named after a
# person.
_NAMED_OF = re.compile(r"\b[A-Z][a-z]+[ \t]+of[ \t]+$")
_TITLE_BEFORE = re.compile(r"\b([A-Za-z]+)\.?[ \t]+$")
_TITLED = re.compile(
    r"\b(?:Mr|Mrs|Ms|Miss|Mister|Dr|Sir|Dame|Lord|Lady|Madam)\.?[ \t]+[A-Z][\w'’\-]+"
)
# A capitalised word, not the start of a contraction ("Don't" is no "Don").
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b(?!['’](?:t|ll|re|ve|d)\b)")
# "Will you", "May I": a sentence-initial modal, not a name.
_QUESTION = re.compile(r"\s+(?:i|you|he|she|it|we|they|not)\b", re.IGNORECASE)
# A user's handle ("@Emily", "@wikiadmin"): a real user.
_HANDLE = re.compile(r"(?<![\w@])@[A-Za-z][\w.]*")
_FULL_NAME = re.compile(r"\b([A-Z][a-z]+)[ \t]+(?:[A-Z]\.[ \t]*)?([A-Z][\w'’\-]*[a-z][\w'’]*)")


def full_name_at(text: str, start: int, end: int) -> bool:
    """The first name at [start, end) is part of a full name: a surname, an initial and a
    surname, or an epithet follows ("John Banner", "Michael S. Margolin", "Richard the
    Lionheart", "Levi-Civita"), a title goes before ("Reverend Billy", "Dr. Emily"), it is a
    user's handle ("@Emily"), or it names a work or a lineage ("the Book of Daniel", "the
    House of David")."""
    after = _SURNAME.match(text, end)
    if after and not text[start:end].endswith(("'s", "’s")):
        word = after.group().strip(" \t-").split()[0].rstrip(".")
        if word.lower() not in _NOT_SURNAMES or after.group().lstrip().startswith("the"):
            return True
    if start > 0 and text[start - 1] == "@":
        return True  # "@Emily": a user's handle
    before = _TITLE_BEFORE.search(text, max(0, start - 16), start)
    if before and before.group(1)[:1].isupper() and before.group(1).lower() in TITLES:
        return True
    return _NAMED_OF.search(text, max(0, start - 30), start) is not None


# Words of a text about a film, a show or music: its first names are characters, actors or
# performers ("Lisa wanders lost in the opening", "Keri's hit single"), real or part of a
# real work, whom a swap would make false.
WORK_WORDS = frozenset(
    """
    film films movie movies cast character characters director directed actor actors actress
    actresses role roles scene scenes starring episode episodes series sequel screenplay plot
    album albums song songs single singles singer rapper band concert tour
    """.split()
)


def _any_word(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern matching any of `words` as a whole word, in any case."""
    return re.compile(r"\b(?:" + "|".join(sorted(words)) + r")\b", re.IGNORECASE)


_WORK_WORD = _any_word(WORK_WORDS)


def about_a_work(text: str) -> bool:
    """The text speaks of a film, a show or music (`WORK_WORDS`)."""
    return _WORK_WORD.search(text) is not None


# "my wife Sarah", "our friend Rudy": the writer's own people, private whatever the text is
# about.
_OWN_PERSON = re.compile(
    r"\b(?:my|our)[ \t]+(?:(?:best|old|little|big|dear|late|younger|older|eldest|oldest)[ \t]+)?"
    r"(?:wife|husband|son|daughter|friend|brother|sister|boyfriend|girlfriend|mom|mum|dad|"
    r"mother|father|kid|nephew|niece|cousin|roommate|flatmate|partner|fiancee?|grandson|"
    r"granddaughter|grandma|grandpa|grandmother|grandfather|uncle|aunt|auntie|colleague|"
    r"coworker|co-worker|boss|neighbou?r|classmate|buddy|pal|stepson|stepdaughter|baby|"
    r"toddler|child|student|client|customer|tenant|landlord|landlady)[ \t]*,?[ \t]+$",
    re.IGNORECASE,
)
# "a guy named Tyrone", "this girl called Emily": someone the writer introduces by first name.
_INTRODUCED = re.compile(
    r"\b(?:guy|girl|man|woman|boy|lady|kid|child|baby|person|someone|somebody|friend|student|"
    r"customer|client|colleague|coworker|co-worker|dude|fellow|chap|bloke|gal|neighbou?r|"
    r"classmate|teacher|nurse)[ \t]+(?:named|called)[ \t]+$",
    re.IGNORECASE,
)
# "my Syrian neighbour", "our old Mexican friend", "my neighbour is a Mexican", "my friend,
# a Mexican", "I'm a Mexican": the writer's own, or the writer, described.
_OWN_BEFORE = re.compile(
    r"(?:\b(?:my|our)[ \t]+(?:[a-z]+[ \t]+)?"
    r"|\b(?:my|our)[ \t]+[a-z]+(?:[ \t]+[a-z]+)?(?:[ \t]+(?:is|was)|[ \t]*,)[ \t]+(?:a|an)[ \t]+"
    r"|\bI[ \t]*(?:['’]m|[ \t]am|[ \t]was)[ \t]+(?:a|an)[ \t]+)$",
    re.IGNORECASE,
)
# "our server Jessica", "the manager, Tom": someone who served the writer, named by role.
_SERVED_BY = re.compile(
    r"\b(?:my|our|the)[ \t]+(?:server|waiter|waitress|bartender|barista|host|hostess|"
    r"stylist|hairdresser|hair[ \t]+stylist|barber|colorist|manicurist|technician|tech|"
    r"mechanic|agent|rep|representative|manager|owner|cashier|clerk|driver|realtor|"
    r"contractor|groomer|trainer|instructor|teacher|therapist|masseuse|massage[ \t]+therapist|"
    r"nurse|receptionist|associate|salesman|saleswoman|salesperson|planner|photographer|"
    r"coordinator|chef|cook|guide|tutor|coach|landlord|landlady|neighbou?r)[ \t]*,?[ \t]+$",
    re.IGNORECASE,
)
# "I'm Emily", "my name is Emily": the writer, a private person.
_THE_WRITER = re.compile(
    r"(?:\bI[ \t]*(?:'|’)?[ \t]*m|\bI am|\bmy name is|\bmy name's)[ \t]+$", re.IGNORECASE
)
# "Hi Peter," opening a message or a line of it: the person the writer addresses.
_GREETED = re.compile(r"(?:^|\n)[ \t=:*]*(?:hi|hello|hey|dear)[ \t,]+$", re.IGNORECASE)
# A talk page's message opening after its heading ("== New article == Hey Bogdan,", "== A
# friendly note == Peter, ...") or a reply's indentation ("::Doug you have not read ...",
# "::: Monkeykiss, Stephen I agree"): the editor the writer addresses, a private person.
# (Tweets, where a greeted first name was a celebrity as often as not, have neither.)
_TALK_OPENING = re.compile(
    r"(?:==[ \t`]*|(?:^|\n)[ \t`]*:+[ \t]*)"
    r"(?:(?P<greeting>(?:hi|hello|hey|dear)[ \t,]+)|(?:[A-Z]\w*,[ \t]+)?)$",
    re.IGNORECASE,
)
_ADDRESS_AFTER = re.compile(r"\w+[ \t]*(?:[,:!]|(?:you|I)\b)")
# "Hey its Jim.": the writer says who they are after a greeting.
_INTRODUCES_ONESELF = re.compile(
    r"\b(?:hi|hey|hello)[ \t,]+(?:it['’]?s|this[ \t]+is)[ \t]+$", re.IGNORECASE
)


def _addressed_on_a_talk_page(text: str, start: int) -> bool:
    """The first name at `start` opens a talk page's message or reply, greeted or followed
    by a comma, a colon or "you"/"I" (`_TALK_OPENING`)."""
    opening = _TALK_OPENING.search(text[max(0, start - 40) : start])
    if opening is None:
        return False
    return opening.group("greeting") is not None or _ADDRESS_AFTER.match(text, start) is not None


def the_writers_own(text: str, start: int) -> bool:
    """The first name at `start` is introduced as one of the writer's people ("my wife
    Sarah")."""
    return _OWN_PERSON.search(text, max(0, start - 50), start) is not None


# Person nouns read as plural although they end in no "s" ("people"), or as singular
# although they do ("boss", "actress").
_PLURAL_PERSON_NOUNS = frozenset("people folks folk children men women police staff crew".split())


def _one_person_noun(token: str) -> bool:
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


_HASHTAG = re.compile(r"#(\w+)")


@cache
def _tag_words(term: Term) -> frozenset[str]:
    """The term's written forms and related words (its members' too), lowercased without
    spaces, as a hashtag would hold them; words under four letters left out."""
    words = {form for form, _ in term.surface_forms()}
    for each in (term, *term.members):
        words.update(word for _, word in each.related)
    return frozenset(w.lower().replace(" ", "") for w in words if len(w) >= 4)


def hashtag_names(text: str, terms: Iterable[Term], spans: Sequence[tuple[int, int]]) -> bool:
    """A hashtag outside `spans` (the mentions) names one of `terms` or its country
    ("#AmericaFirst", "#AmericanKids" beside "Americans"): a swap would leave it naming the
    old identity."""
    if "#" not in text:
        return False
    words = frozenset().union(*(_tag_words(term) for term in terms))
    for match in _HASHTAG.finditer(text):
        if any(s <= match.start(1) < e for s, e in spans):
            continue  # the mention itself, written as a hashtag ("#American kids")
        tag = match.group(1).lower()
        if any(word in tag for word in words):
            return True
    return False


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
_PUBLIC_AFFAIRS = _any_word(PUBLIC_AFFAIRS_WORDS)
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
_CULTURE = _any_word(
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
    return _THE_WRITER.search(text, begin, start) is None and shown_private(text, start)


def _quoted(text: str, start: int) -> bool:
    """`start` lies inside a quotation: after an opening curly quote not closed yet, or
    after an odd number of straight double quotes."""
    before = text[:start]
    return before.rfind("“") > before.rfind("”") or before.count('"') % 2 == 1


def shown_private(text: str, start: int) -> bool:
    """The text shows that the first name at `start` is a private person's: one of the
    writer's people ("my friend Tyrone", "our neighbour, Emily"), someone introduced by name
    ("a guy named Tyrone") or by the role they served the writer in ("our server Jessica",
    "the manager, Tom"), the writer ("I'm Emily", "my name is Emily", "Hey its Jim"), the
    one a message opens by greeting ("Hi Peter,") or the editor a talk page's message or
    reply addresses ("== A note == Peter, ...", "::Doug you have not read"). Read blind,
    first names in tweets, comments and reviews with nothing of the kind were mostly public
    figures, characters, pets, products and drugs ("Molly"), whom a swap makes false: such
    a name is left out (``unknown_person``) unless the user says the corpus's names are
    private people's (`private_names`)."""
    begin = max(0, start - 50)
    return (
        any(
            pattern.search(text, begin, start) is not None
            for pattern in (_OWN_PERSON, _INTRODUCED, _THE_WRITER, _SERVED_BY)
        )
        # "^" matches only at the text's start, not at `pos`: a greeting opens the text or a line.
        or _GREETED.search(text, max(0, start - 12), start) is not None
        or _INTRODUCES_ONESELF.search(text, max(0, start - 20), start) is not None
        or _addressed_on_a_talk_page(text, start)
    )


def named_elsewhere(text: str, names: Sequence[Mention]) -> bool:
    """A first name of `names` is also written where it is no mention (a heading, a full
    name, a title: "== Richard the Lionheart == ... Richard's"), inside a hashtag ("my boss
    Ned ... #nedfail") or as its initial after it ("John ... sorry J"): the swap would
    rename the person in one place only."""
    found = {m.start for m in names}
    for surface in {m.surface for m in names}:
        for match in re.finditer(r"(?<![\w])" + re.escape(surface) + r"(?![\w])", text):
            if match.start() not in found:
                return True
        lower = surface.lower()
        if any(lower in tag.lower() for tag in _HASHTAG.findall(text)):
            return True  # "my boss Ned ... #nedfail"
        initial = surface[0].upper()
        first = min(m.end for m in names if m.surface == surface)
        if initial != "I" and re.search(r"(?<![\w.])" + initial + r"(?![\w.'’])", text[first:]):
            return True  # "my neighbor John ... sorry J"
    return False


def named_people(text: str) -> list[tuple[int, int]]:
    """Spans of the full names, titled names and handles of `text` ("Bill Nighy", "Mr.
    Dreyfuss", "@Emily"): a first name of the name lexicon followed by a capitalised
    surname, a title followed by a capitalised name, or an @-handle."""
    found = [m.span() for m in _TITLED.finditer(text)]
    found += [m.span() for m in _HANDLE.finditer(text)]
    first = context.first_names()
    for match in _FULL_NAME.finditer(text):
        name, surname = match.group(1), match.group(2)
        if name in first and name.lower() not in _CALENDAR and surname.lower() not in _NOT_SURNAMES:
            found.append(match.span())
    return sorted(found)


def unknown_first_names(text: str, known: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Capitalised first names that are not at `known` spans (the name list's mentions):
    names of a person whose gender a swap cannot know ("Bill", "Joyce", which the list
    leaves out as ordinary words). A sentence's first word asking a question ("Will you",
    "May I") is no name."""
    first = context.first_names()
    spans = list(known)
    found = []
    for match in _CAPITALISED.finditer(text):
        word, start = match.group(), match.start()
        lower = word.lower()
        if word not in first or lower in _CALENDAR or lower in _ordinary_words():
            continue
        before = context.tokens_before(text, start, count=1)
        if (
            not (before and before[0] in _PLACE_BEFORE)
            and not any(s <= start < e for s, e in spans)
            and not (
                context.is_sentence_initial(text, start) and _QUESTION.match(text, match.end())
            )
        ):
            found.append(match.span())
    return found


@cache
def _ordinary_words() -> frozenset[str]:
    """Lowercase words the first-name lexicon also holds that are function words or identity
    terms and their related words ("My", "An", "German", "Islam")."""
    words = set(context.FUNCTION_WORDS | context.DETERMINERS)
    for name in ("dixon2018", "holistic"):
        for term in load_term_list(name).terms():
            words.update(form.lower() for form, _ in term.surface_forms())
            words.update(word.lower() for _, word in term.related)
    return frozenset(words)


@cache
def _gendered_identity_pattern() -> re.Pattern[str]:
    """The written forms of every gendered identity term of the built-in lists that are
    not pair words ("female", "Latina", "lesbian", "trans male", "Chicano")."""
    forms: set[str] = set()
    for name in ("dixon2018", "holistic"):
        for term in load_term_list(name).terms():
            if term.gender and not term.words and not term.names:
                forms.update(form.lower() for form, _ in term.surface_forms())
    return re.compile(
        r"(?<![\w\-])" + context.trie_pattern(sorted(forms)) + r"(?![\w\-])", re.IGNORECASE
    )


def gendered_identity_words(text: str) -> list[str]:
    """The gendered identity terms of `text` ("female", "Latina", "lesbian") that a pronoun
    or name swap leaves as they are."""
    return [m.group() for m in _gendered_identity_pattern().finditer(text)]


@cache
def name_group(gender: str) -> Term:
    """The first-name group of the built-in `names` list for `gender`."""
    return next(t for t in load_term_list("names").terms() if t.gender == gender)


# --- life stages ----------------------------------------------------------------------

_OLDEST = 120
_NUMBERS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen".split()
    )
} | {
    w: 10 * k
    for k, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)
}
_DECADES = {
    w + "ies": 10 * k
    for k, w in enumerate("twent thirt fort fift sixt sevent eight ninet".split(), 2)
}
_NUMBER = (
    r"(?:\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[\s-]+\w+)?"
    r"|\w+teen|ten|eleven|twelve|one|two|three|four|five|six|seven|eight|nine)"
)
# Fixed life-stage words of the age terms (their ages in years, inclusive).
_STAGES: dict[str, tuple[int, int]] = {
    "adolescent": (12, 19),
    "teen": (13, 19),
    "teenage": (13, 19),
    "teenaged": (13, 19),
    "teenager": (13, 19),
    "young": (0, 39),
    "middle aged": (38, 65),
    "old": (55, _OLDEST),
    "elderly": (60, _OLDEST),
    "senior": (60, _OLDEST),
    "senior citizen": (60, _OLDEST),
    "geriatric": (60, _OLDEST),
    "retired": (50, _OLDEST),
    "spry": (55, _OLDEST),
    "young at heart": (50, _OLDEST),
    "octogenarian": (80, 89),
    "nonagenarian": (90, 99),
    "centenarian": (100, _OLDEST),
    "adult": (18, _OLDEST),
    "mature": (25, _OLDEST),
}
# Words elsewhere in a text that state a life stage, with its ages, and words one of which
# every match holds (lowercased; `_may_hold`): most texts hold none, and are not scanned.
_CUES: tuple[tuple[re.Pattern[str], tuple[int, int], tuple[str, ...]], ...] = tuple(
    (
        re.compile(r"(?<![\w\-])(?:" + pattern + r")(?![\w\-])", re.IGNORECASE),
        ages,
        tuple(keys.split()),
    )
    for pattern, ages, keys in (
        (
            r"toddlers?|infants?|kindergarten|grade school|elementary school|primary school",
            (0, 10),
            "toddler infant kindergarten school",
        ),
        (r"kids?|child|children|schoolboys?|schoolgirls?", (0, 17), "kid child school"),
        (
            r"teens?|teenagers?|adolescents?|high[\s-]?school(?:ers?)?",
            (12, 19),
            "teen adolescent high",
        ),
        (
            r"students?|undergrad(?:uate)?s?|freshm[ae]n|campus|college kids?",
            (15, 30),
            "student undergrad freshm campus college",
        ),
        (
            r"retired|retiree|retirees|retirement|pensioners?|grandchild|grandchildren|grandkids"
            r"|grandsons?|granddaughters?|grandpa|grandma|granny|nursing home"
            r"|old people's home|old folks' home",
            (45, _OLDEST),
            "retire pensioner grand granny home",
        ),
    )
)
_STATED = re.compile(
    r"(?<![\w\-])(?P<n>" + _NUMBER + r")[\s-]*(?:years?|yrs?)\.?[\s-]*olds?(?![\w])"
    r"|(?<![\w\-])(?:aged|age of|ages of)\s+(?P<m>\d{1,3})(?![\w])"
    r"|(?<![\w\-])in\s+(?:his|her|their)\s+(?:early\s+|late\s+|mid-?\s*)?"
    r"(?:(?P<d>[1-9]0)['’]?s|(?P<w>twenties|thirties|forties|fifties|sixties|seventies"
    r"|eighties|nineties))(?![\w])",
    re.IGNORECASE,
)
# Every match of `_STATED` holds one of these: "year" or "yr" (a stated age), "aged", "age
# of" or "ages of", a decade in digits ("80s", "1960s") or in words ("eighties").
_STATED_KEYS = ("year", "yr", "aged", "age of", "ages of", "0", "ties")


def _may_hold(lower: str, keys: Sequence[str]) -> bool:
    """Whether a text, lowercased as `context.lower_exactly` gives it, may hold a match of
    a pattern every match of which holds one of `keys`."""
    return any(key in lower for key in keys)


@cache
def _lowercase(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """`pattern` without ignoring case, for a text lowercased (`context.lower_exactly`): the
    same matches at the same offsets, and faster (the matcher's trick)."""
    return re.compile(pattern.pattern, pattern.flags & ~re.IGNORECASE)


# Made at import, not when the first text asks (inside a benchmark's timing).
for _pattern in (_STATED, *(cue[0] for cue in _CUES)):
    _lowercase(_pattern)


def _number(word: str) -> int | None:
    word = word.lower().replace("-", " ")
    if word.isdigit():
        return int(word)
    total = 0
    for part in word.split():
        if part not in _NUMBERS:
            return None
        total += _NUMBERS[part]
    return total


def age_range(term: Term) -> tuple[int, int] | None:
    """The ages in years a life-stage term can describe ("teenage": 13 to 19, "forty year
    old": 40, "thirty something": 30 to 39); None for a comparative or a generation
    ("older", "millennial"), which states no life stage."""
    name = term.id.replace("-", " ")
    if name in _STAGES:
        return _STAGES[name]
    stated = re.fullmatch(r"(.+?) (year old|something)", name)
    if stated:
        number = _number(stated.group(1))
        if number is not None:
            return (number, number) if stated.group(2) == "year old" else (number, number + 9)
    return None


def life_stages(text: str, skip: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """The life stages `text` states outside the spans `skip` (the mentions being
    rewritten), as age ranges: "the kids" (0-12), "teens" (12-19), "a 16-year-old" (16),
    "in her 80s" (80-89), "retired", "grandchildren" (45 and over)."""

    def outside(match: re.Match) -> bool:
        return not any(s < match.end() and match.start() < e for s, e in skip)

    lower = context.lower_exactly(text)

    def scan(pattern: re.Pattern[str], keys: Sequence[str]) -> Iterable[re.Match[str]]:
        if lower is None:
            return pattern.finditer(text)
        return _lowercase(pattern).finditer(lower) if _may_hold(lower, keys) else ()

    stages = [ages for pattern, ages, keys in _CUES for m in scan(pattern, keys) if outside(m)]
    for match in scan(_STATED, _STATED_KEYS):
        if not outside(match):
            continue
        if match.group("d") or match.group("w"):
            decade = int(match.group("d") or _DECADES[match.group("w").lower()])
            stages.append((decade, decade + 9))
            continue
        number = _number(match.group("n") or match.group("m"))
        if number is not None and number <= _OLDEST:
            stages.append((number, number))
    return stages


def fits_life_stages(
    target: tuple[int, int] | None,
    sources: Sequence[tuple[int, int] | None],
    stages: Sequence[tuple[int, int]],
) -> bool:
    """Whether a target of ages `target` fits every stated life stage that the mentioned
    terms (`sources`) fit too. A stage no source fits describes other people (the text
    already sets them apart: "an old man ... the kids"), and constrains nothing."""
    if target is None:
        return True
    for low, high in stages:
        source_fits = any(s is not None and s[0] <= high and low <= s[1] for s in sources)
        if source_fits and not (target[0] <= high and low <= target[1]):
            return False
    return True
