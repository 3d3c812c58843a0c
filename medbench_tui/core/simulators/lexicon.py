"""Words as the simulator compares them: normalised, lightly stemmed, and mapped to
clinical concepts, so that a doctor's "meds" meets a record's "medication" and
"short of breath" meets "breathless".

A text becomes a list of *units*: one per content word or per known phrase, each a
set of alternatives (the stem, and the ``@concept`` names it stands for). Two texts
match on a unit when any alternative is shared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from medbench_tui.core.text import lemma, stem

__all__ = ["BROADER", "CONCEPTS", "STOPWORDS", "Unit", "content_words", "sentences", "stem", "terms", "units", "words"]

# A small clinical synonym map: concept -> lay and clinical phrases (UK and US).
# Phrases are matched on stems, so "smoke" also covers "smoking" and "smoked".
CONCEPTS: dict[str, tuple[str, ...]] = {
    "medication": (
        "for the pain", "for your pain", "for his pain", "for her pain", "meds", "medication", "medicine", "tablet", "pill", "prescription", "prescribed",
        "drug you take", "taking anything", "inhaler", "over the counter", "supplement",
        "vitamin", "remedy", "painkiller", "paracetamol", "ibuprofen", "dose", "capsule",
        "treatment", "treated", "taking", "taken", "took", "antibiotic", "penicillin", "antidepressant",
        "steroid", "insulin", "aspirin", "statin", "chemist", "pharmacy", "cream", "ointment",
        "anticoagulant", "anticoagulation",
        # what was used for something ("what did you use for that?")
        "use for", "used for", "using for", "tried for", "try for", "put anything on", "put something on",
    ),
    "allergy": ("allergy", "allergic", "reaction", "react", "reacted", "intolerance", "hypersensitivity", "anaphylaxis"),
    "breathless": (
        "sob", "short of breath", "shortness of breath", "breathless", "dyspnoea", "dyspnea",
        "out of breath", "difficulty breathing", "trouble breathing", "hard to breathe",
        "catch your breath", "catch breath", "puffed", "breathing", "breathe", "breath",
        "wheeze", "wheezing", "wheezy",
    ),
    "tobacco": ("give up smoking", "quit", "stop smoking", "smoke", "smoker", "cigarette", "cig", "tobacco", "vape", "vaping", "nicotine", "pack a day", "roll up"),
    "alcohol": ("alcohol", "drinker", "beer", "wine", "spirits", "unit", "booze", "pint", "liquor", "sober"),
    "recreational": ("recreational", "street drug", "cannabis", "weed", "marijuana", "cocaine", "heroin", "inject drugs", "injecting drugs", "ecstasy", "substance"),
    "menstrual": (
        "period", "menstrual", "menses", "lmp", "last menstrual", "menstruation", "cycle",
        "monthly bleed", "menopause", "bleed between",
    ),
    "pregnancy": ("pregnant", "pregnancy", "expecting", "baby on the way", "conceive", "gestation", "weeks along"),
    "contraception": ("contraception", "contraceptive", "the pill", "coil", "iud", "condom", "birth control", "implant"),
    "urinary": (
        "waterworks", "urine", "urinate", "urination", "pee", "wee", "passing water", "bladder",
        "dysuria", "micturition", "toilet", "nocturia", "wet nappy", "wet nappies", "wet diaper",
        "stream", "dribble",
    ),
    "bowel": (
        "bowel", "stool", "poo", "faeces", "feces", "motion", "toilet paper", "in the pan",
        "toilet habit", "nappy", "diaper", "opened", "back passage",
    ),
    "diarrhoea": ("diarrhoea", "diarrhea", "runny", "loose", "watery", "the runs"),
    "constipation": ("constipation", "constipated", "hard stool", "straining"),
    "vomit": (
        "vomit", "vomiting", "throw up", "throwing up", "threw up", "thrown up", "emesis", "puke", "being sick",
        "been sick", "was sick", "is sick", "sickness", "sick up", "brought up", "bring up food",
    ),
    "nausea": ("nausea", "nauseous", "queasy", "feel sick", "feeling sick", "sick to your stomach"),
    "fever": ("fever", "temperature", "febrile", "feverish", "pyrexia", "hot", "chill", "rigor", "shiver", "shake", "thermometer"),
    # sweating goes with fever but also with a heart attack or a panic: it answers "any fever?" only weakly
    "sweat": ("sweat", "sweaty", "sweating", "clammy", "night sweats", "drenched"),
    "cough": ("cough", "coughing", "hack"),
    "sputum": ("sputum", "phlegm", "mucus", "productive", "bring up", "bringing up", "cough up", "coughing up", "expectorate", "spit"),
    "pain": ("pain", "ache", "aching", "hurt", "hurting", "sore", "discomfort", "tender", "painful"),
    "headache": ("headache", "head pain", "head hurt", "migraine", "head ache"),
    "dizziness": ("dizzy", "dizziness", "lightheaded", "light headed", "vertigo", "giddy", "spinning", "unsteady", "woozy"),
    "syncope": ("faint", "fainting", "passed out", "pass out", "blackout", "black out", "collapse", "lose consciousness", "lost consciousness", "syncope", "keel over"),
    "palpitations": ("palpitation", "racing heart", "heart racing", "pounding", "fluttering", "skipped beat", "irregular heartbeat", "heart beat", "heartbeat"),
    "weight": ("weight", "weigh", "thinner", "clothes looser", "clothes fit", "kilo", "kg", "lost weight", "gained"),
    "appetite": ("appetite", "hungry", "eating", "food", "meal", "eat"),
    "fatigue": ("tired", "tiredness", "fatigue", "exhausted", "energy", "lethargy", "lethargic", "worn out", "weary", "run down"),
    "sleep": ("sleep", "sleeping", "asleep", "insomnia", "wake", "waking", "early waking", "bed"),
    "rash": ("rash", "spotty", "red spots", "hives", "blister", "lesion", "eczema"),
    "itch": ("itch", "itchy", "itching", "pruritus"),
    "skin": ("skin",),
    "swelling": ("swelling", "swollen", "puffy", "puffiness", "oedema", "edema", "fluid retention", "ankles"),
    "vision": ("vision", "eyesight", "sight", "blurred", "blurry", "visual", "eye", "double vision"),
    "hearing": ("hearing", "ear", "deaf", "tinnitus", "ringing in the ears", "ringing in your ears"),
    "family": (
        "family", "relative", "parent", "mother", "father", "mum", "mom", "dad", "sibling",
        "brother", "sister", "run in the family", "runs in the family", "hereditary", "genetic",
        "grandparent", "inherited", "blood relative",
    ),
    "history": (
        "past medical", "medical history", "previous", "illness", "condition", "health problem",
        "diagnosed", "chronic", "medical problem", "ongoing", "long term", "in the past", "history",
    ),
    "surgery": ("surgery", "operation", "operated", "surgical", "procedure", "op"),
    "hospital": ("hospital", "admitted", "admission", "inpatient", "a and e", "emergency department"),
    "occupation": ("work", "job", "occupation", "employed", "profession", "for a living", "working", "career", "retired"),
    "home": ("live", "living", "home", "house", "alone", "flat", "household", "live with"),
    "travel": (
        "travel", "travelled", "traveled", "abroad", "holiday", "overseas", "flight", "flown", "flew", "aeroplane",
        "long haul", "vacation",
    ),
    "animals": ("pet", "animal", "dog", "cat", "bird", "farm", "livestock"),
    "sexual": (
        "sexual", "sex", "intercourse", "sti", "std", "sexually", "erection", "erectile", "impotence", "impotent",
        "libido", "sex drive", "sex life",
    ),
    "behaviour": (
        "behaviour", "behavior", "behaving", "behave", "out of character", "acting differently", "behaving differently",
        "behave differently", "unlike him",
        "unlike her", "unlike himself", "unlike herself",
    ),
    # what a person at risk could use to harm themselves (a suicide risk assessment's "means")
    "means": (
        "means", "firearm", "gun", "weapon", "stockpile", "stockpiling", "use to harm", "use to hurt",
        "harm yourself with", "hurt yourself with", "harm himself with", "harm herself with", "access to",
    ),
    "vaccination": ("vaccine", "vaccination", "vaccinated", "immunisation", "immunization", "immunised", "jab", "shot", "booster"),
    "onset": (
        "start", "started", "begin", "began", "onset", "first notice", "first noticed", "since when",
        "how long", "when did", "what time", "come on", "came on", "first", "duration", "develop", "kick off",
        # the circumstances it came on in ("what were you doing at the time?")
        "beforehand", "at the time", "were you doing", "was he doing", "was she doing", "were you up to",
        "was he up to", "was she up to", "while i was", "when it happened",
    ),
    "severity": ("severity", "severe", "how bad", "scale", "out of ten", "out of 10", "intensity", "worst", "mild", "bad"),
    "location": ("where", "location", "point", "which part", "whereabouts", "site", "side", "area"),
    "radiation": ("radiate", "radiating", "spread", "move", "go anywhere", "shoot", "travel down", "travel up"),
    "character": ("character", "describe", "what is it like", "feel like", "sharp", "dull", "burning", "stabbing", "crushing", "throbbing", "tight", "tightness", "pressure", "cramp", "cramping", "colicky", "kind of pain", "type of pain"),
    "aggravating": ("worse", "worsen", "aggravate", "trigger", "brings it on", "bring it on", "make it worse", "exacerbate", "provoke"),
    "relieving": ("better", "ease", "eases", "relieve", "relief", "help", "helps", "improve", "settle",
                  # whether what was used worked ("did that work?" is no question of a job)
                  "did it work", "did that work", "did they work", "does it work", "does that work", "has it worked",
                  "it worked", "that worked"),
    "progression": ("progress", "changed", "getting worse", "since then", "course", "over time", "evolve", "steady"),
    "frequency": ("how often", "frequency", "often", "times a day", "episode", "attack", "bout", "come and go", "comes and goes", "constant", "constantly", "intermittent",
                  "all the time", "on and off", "off and on", "continuous", "continuously", "non stop"),
    # the time between attacks, not the attacks ("what's he like in between?"); "between the
    # (screaming) bouts" and the like are written "in between" first (see _JOINS)
    "interval": ("in between", "between them", "between each one", "between each", "between times"),
    "feeding": ("feed", "feeding", "bottle", "breastfeed", "breastfeeding", "breast milk", "milk", "formula", "drinking", "fluids", "intake", "eat"),
    "birth": ("born", "birth", "delivery", "delivered", "premature", "term", "newborn", "gestation", "caesarean", "labour"),
    "development": ("development", "milestone", "walking", "talking", "crawling", "sitting", "growth", "growing", "school"),
    "activity": ("play", "playing", "active", "alert", "behaviour", "behavior", "usual self", "unsettled",
                 # "he's not himself" (not "harm himself", "ideas about himself")
                 "not himself", "not herself", "feeling himself", "feeling herself", "is he himself", "is she herself",
                 "like himself", "like herself", "back to himself", "back to herself", "finally himself",
                 "finally herself", "himself again", "herself again"),
    "mood": ("mood", "depressed", "depression", "feeling low", "low mood", "feeling down", "sad", "hopeless",
             "irritable", "temper", "anger", "angry", "tearful", "spirits", "anxious", "anxiety", "worried", "stress", "stressed", "hopeless", "enjoy", "interest", "nerves"),
    "selfharm": (
        "suicidal", "suicide", "self harm", "harm yourself", "harm himself", "harm herself", "hurt yourself",
        "end your life", "end it", "kill yourself", "not wanting to live", "not wanting to be here",
        "better off without", "overdose", "take your life", "how you would do it", "ways to do it",
    ),
    "hallucination": (
        "hallucination", "hearing voices", "hear voices", "heard voices", "hearing things", "seeing things",
        "voices", "paranoid", "being followed", "against him", "against her", "against you", "unreal",
        "strange beliefs", "strange ideas", "strange thoughts",
    ),
    "enjoyment": ("enjoy", "enjoyment", "pleasure", "interest", "interested", "hobby", "hobbies", "fun", "used to like", "like doing"),
    "concentration": ("concentrate", "concentration", "focus", "decision", "decide", "attention", "lose track", "distracted"),
    "guilt": ("guilt", "guilty", "failure", "worthless", "blame", "let down", "burden", "feel about yourself"),
    "elation": ("feeling high", "unusually high", "on a high", "elated", "euphoric", "manic", "mania", "hyper", "invincible", "confidence", "confident", "grandiose", "special powers", "on top of the world"),
    "money": ("money", "finance", "finances", "financial", "spending", "spend", "debt", "buying", "bills", "credit card"),
    "risk": ("risk", "risky", "reckless", "dangerous", "speeding", "near miss"),
    "psych": ("mental health", "psychiatric", "psychiatrist", "mental illness", "counselling", "counseling", "therapy", "therapist", "breakdown", "nerves"),
    "stressor": ("stress", "stressful", "pressure", "worries", "life event", "bereavement", "lost his job", "lost her job", "lost your job", "bring this on", "brought this on"),
    "bleeding": ("bleeding", "bleed", "blood", "bloody", "haemorrhage", "hemorrhage"),
    "haematuria": ("haematuria", "hematuria", "blood in urine", "blood in your urine", "red urine", "pink urine"),
    "melaena": ("melaena", "melena", "black stool", "tarry", "blood in stool", "rectal bleeding", "blood from the back passage"),
    "haemoptysis": ("haemoptysis", "hemoptysis", "coughing blood", "cough up blood", "coughed up blood", "blood in phlegm"),
    "jaundice": ("jaundice", "yellow", "yellowing", "icterus"),
    "abdomen": ("abdominal", "abdomen", "tummy", "stomach", "belly", "gut"),
    "chest": ("chest", "breastbone", "sternum"),
    "joint": ("joint", "arthritis", "knee", "hip"),
    "neuro_weakness": ("weakness", "weak", "numbness", "numb", "tingling", "pins and needles", "paralysis", "cannot move", "can't move"),
    "speech": ("speech", "slurred", "words", "talking"),
    "confusion": ("confusion", "confused", "muddled", "disoriented", "not making sense", "drowsy"),
    "seizure": ("seizure", "fit", "convulsion", "jerking", "epilepsy"),
    "neck": ("neck", "stiff neck"),
    "light": ("photophobia", "bright light", "light hurt", "light bother", "sensitive to light"),
    "exertion": ("exercise", "exertion", "stairs", "walking", "climb", "uphill", "effort", "activity", "exert"),
    "diet": ("diet", "eat", "food"),
    "injury": ("injury", "injured", "fall", "fell", "trauma", "hit", "accident", "knock", "bump", "blow"),
    "contacts": ("anyone else", "contact", "sick contact", "others unwell", "exposure", "exposed", "around you", "nursery", "daycare", "school"),
    "recurrence": ("before", "previously", "happened before", "similar", "ever had", "again", "first time", "recurrent", "episode"),
    "throat": ("throat", "swallow", "swallowing", "hoarse", "voice"),
    "nose": ("nose", "runny nose", "sneeze", "sneezing", "congestion", "blocked nose", "snotty"),
    "age": ("how old", "age", "birthday"),
    "thirst": ("thirst", "thirsty", "thirstier", "dry mouth", "drinking a lot", "polydipsia"),
    "vaginal": ("vaginal", "discharge", "vagina", "spotting"),
    "memory": ("memory", "forget", "forgetful", "remember"),
    # when, not what: a fact matched only on these does not answer "do you snore at night?"
    "time_of_day": ("night", "nights", "at night", "overnight", "nighttime", "morning", "mornings", "evening",
                    "evenings", "afternoon", "daytime", "time of day", "bedtime", "school day", "working day"),
    # how the patient is when well, not now ("what is she normally like?")
    # ("than usual" compares with it, and is about the symptom)
    "baseline": ("normally like", "usually like", "like normally", "like usually", "normal self", "usual self",
                 "day to day", "baseline", "before all this", "when he is well", "when she is well",
                 "when you are well"),
    "swallowing": ("swallow", "swallowing", "dysphagia", "food sticking", "stuck in your throat"),
    # a comparison with before, not a question whether it happened before ("thirstier than before")
    "comparison": ("than before", "than usual", "than normal", "than it used to", "than they used to",
                   "than you used to", "than it was"),
}

# A specific concept also speaks, more weakly, for its broader one.
BROADER: dict[str, str] = {
    "diarrhoea": "bowel",
    "constipation": "bowel",
    "melaena": "bowel",
    "haematuria": "urinary",
    "haemoptysis": "sputum",
    "headache": "pain",
    "rash": "skin",
    "itch": "skin",
    "sweat": "fever",
}

# Words that carry no topic of their own in a doctor's question.
STOPWORDS = frozenset(
    """
    a about above after again all also am an and any anyone anything anywhere are aren arent as at
    be been being both but by can cant could couldnt did didnt do does doesnt doing done dont down
    during each either else even ever every everything few for from further get gets getting got
    had hadnt has hasnt have havent having he hed hes her here hers herself him himself his how i
    id if ill im in into is isnt it its itself ive just kind know last lately let like ll made make
    may me might mind more most much must my myself no nor not now of off on once only or other
    our ours out over own please pretty quite rather re really recently right said same say see
    seem shall she should shouldnt so some something sometimes sort such tell than thank thanks
    that thats the their theirs them themselves then there theres these they theyre thing things
    think this those though through to today too under until up us ve very was wasnt way we well
    were werent what whats when whenever which while who whom whose why will with within without
    wont would wouldnt yes yet you youd youll your youre yours yourself yourselves ve lot lots bit
    little able noticed notice notic experience experienced having happen happened happening
    currently current ok okay go going gone come coming went doctor dr okay alright feel feeling
    felt problem problems issue issues symptom symptoms day days any still usual usually
    mention mentioned tell told ask asking asked describe sorry remind
    exactly exact actually roughly approximately generally normally particular particularly
    specific specifically typical typically anybody someone somebody see seen saw look looked
    month months week weeks year years hour hours minute minutes time times ago since while
    many often far enough normal usual different easily lately already far nearly almost
    one ones
    """.split()
)
# "describe" is a stopword for content, but maps to the character concept as a phrase.

_TOKEN = re.compile(r"[a-z0-9]+")
_JOINS = (
    (re.compile(r"x[\s-]?rays?"), "xray"),
    (re.compile(r"\be[\s-]?cig(arette)?s?\b"), "vape"),
    (re.compile(r"['\u2019]"), ""),
    (re.compile(r"&"), " and "),
    (re.compile(r"\bout of 10\b"), "out of ten"),
    (re.compile(r"\btalk (me|us) through\b"), "tell me about"),  # asks, not of talking
    (re.compile(r"\bwater (tablets?|pills?)\b"), r"diuretic \1"),  # a medicine, not of passing water
    (re.compile(r"\bmilligrams?\b"), "mg"),  # one unit, however written
    (re.compile(r"\bmicrograms?\b"), "mcg"),
    # "regular" of the medicines one takes means the usual ones, not a steady heartbeat
    (re.compile(r"\bregular(?= (?:medications?|medicines?|meds|tablets|pills|prescriptions?|treatments?|drugs|"
                r"inhalers?|injections?)\b)"), "usual"),
    (re.compile(r"\b(take|takes|taking|use|uses|using)\b([^.?!]{0,40}?) regularly\b"), r"\1\2"),
    # the time between the attacks, whatever they are called ("between the screaming bouts")
    (re.compile(r"\bbetween (?:the |his |her |your |these |those )?(?:\w+ )?(?:attacks?|bouts?|episodes?|fits?|"
                r"screams?|screaming|pains?|cramps?|spasms?|seizures?|crying|spells?)\b"), "in between"),
)


@lru_cache(maxsize=8192)
def words(text: str) -> tuple[str, ...]:
    """Lower-case word tokens, apostrophes dropped (``don't`` -> ``dont``); cached, as every
    question is read by several checks."""
    text = text.lower()
    for pattern, replacement in _JOINS:
        text = pattern.sub(replacement, text)
    return tuple(_TOKEN.findall(text))


@dataclass(frozen=True)
class Unit:
    """One content word or known phrase: its surface text and the terms it stands for."""

    text: str
    terms: frozenset[str]
    in_phrase: bool = False
    """Part of a multi-word phrase of the synonym map: its concept says more than its stem."""


def _compile_phrases() -> dict[str, list[tuple[tuple[str, ...], str]]]:
    index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for concept, phrases in CONCEPTS.items():
        for phrase in phrases:
            stems = tuple(stem(w) for w in words(phrase))  # as written: "fly" of "he could fly" is no travel
            if stems:
                index.setdefault(stems[0], []).append((stems, concept))
    for entries in index.values():
        entries.sort(key=lambda e: -len(e[0]))
    return index


_PHRASES = _compile_phrases()


@lru_cache(maxsize=4096)
def units(text: str) -> tuple[Unit, ...]:
    """The content units of a text: one per content word, with its stem and the
    concepts of every known phrase that covers it. A phrase made only of stopwords
    ("when did", "how often") becomes one unit of its concepts."""
    tokens = words(text)
    written = [stem(t) for t in tokens]  # concepts go by the words as written ("could fly" is no flight)
    stems = [stem(lemma(t)) for t in tokens]  # the word itself by its one form (flew, flown: fly)
    concepts: list[set[str]] = [set() for _ in tokens]
    in_phrase = [False] * len(tokens)
    out: list[Unit] = []
    for i in range(len(tokens)):
        for phrase, concept in _PHRASES.get(written[i], ()):
            n = len(phrase)
            if tuple(written[i : i + n]) != phrase:
                continue
            if all(t in STOPWORDS for t in tokens[i : i + n]):
                out.append(Unit(" ".join(tokens[i : i + n]), frozenset({f"@{concept}"})))
            for j in range(i, i + n):
                if n > 1 and not in_phrase[j]:
                    concepts[j].clear()  # "living" of "for a living" is the work, not the home
                if n > 1 or not in_phrase[j]:
                    concepts[j].add(f"@{concept}")
                in_phrase[j] = in_phrase[j] or n > 1
    for token, stemmed, extra, inside in zip(tokens, stems, concepts, in_phrase, strict=False):
        if token not in STOPWORDS and not token.isdigit():
            out.append(Unit(token, frozenset({stemmed} | extra), inside))
    return tuple(out)


def terms(text: str) -> set[str]:
    return {t for u in units(text) for t in u.terms}


def content_words(text: str) -> str:
    """The text without stopwords, stemmed: what fuzzy comparisons look at."""
    return " ".join(stem(t) for t in words(text) if t not in STOPWORDS)


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n\s*\n+")
_HARD_WRAP = re.compile(r"(?<=\S)[ \t]*\n[ \t]*(?=\S)")


def sentences(text: str) -> list[str]:
    """The sentences of a text; a hard-wrapped line break inside a sentence is a space."""
    return [s.strip() for s in _SENTENCE.split(_HARD_WRAP.sub(" ", text)) if s.strip()]
