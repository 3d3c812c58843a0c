"""The one text module: what a word is, for the scorer, the patient and the ICD search.

Every part of the project that compares words (the scorer matching an answer against the
reference, the patient simulator reading a question, the leak check and the ICD-10 search)
uses these functions, so that they agree on case, accents, UK/US spelling, plurals and
clinical abbreviations. Each use picks what it needs: :func:`tokenize` (words with their
spans, abbreviations expanded, phrase synonyms folded) for the scorer, :func:`stem` (a
lighter, more aggressive stem for free questions) for the patient, :func:`fold` and
:func:`singular` for titles and names.

For matching answers against a case's reference, both sides (what the doctor wrote and
what the case lists) go through the same
functions, so a rule only has to be consistent, not linguistically perfect: folding
"oe" to "e" turns "oedema" and "edema" into the same token, and any collision it might
create would be between two words that are then written alike on both sides.

Steps, per token (a run of letters and digits, with inner ``&``, ``/``, ``+`` or an
apostrophe kept together so that ``U&E``, ``u/s`` and ``don't`` stay one word):

1. case folding and apostrophes dropped (``don't`` -> ``dont``);
2. clinical abbreviations and UK/US drug names, from :data:`ABBREVIATIONS`
   (``CXR`` -> ``chest x ray``, ``FBC``/``CBC`` -> ``full blood count``,
   ``paracetamol``/``acetaminophen`` -> one name), singular or plural (``LFTs``);
3. British to American spelling (:func:`american_spelling`: oesophagus, haemorrhage,
   anaemia, paediatric, oedema, ischaemia, oestrogen, foetal, leukaemia, diarrhoea,
   tumour, -ise/-isation, centre, sulphate, counselling, ...);
4. plurals folded to the singular (``cultures`` -> ``culture``; acronyms in capitals
   such as ``AIDS`` are left alone);
5. multi-word synonyms, longest first, from :data:`PHRASE_SYNONYMS`
   (``complete blood count`` -> ``full blood count``, ``urea and electrolytes`` ->
   ``urea electrolyte``, ``accident and emergency`` -> ``emergency department``).

Matching compares the tokens with the small words of :data:`FILLER` left out
("CT of the abdomen" = "CT abdomen") and with the spaces between tokens ignored, so
"x-ray", "x ray" and "xray" (and "gastro-oesophageal" and "gastroesophageal") agree.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

TOKEN_RE = re.compile(r"[A-Za-z0-9]+(?:['\u2019&+/][A-Za-z0-9]+)*")
INNER_PUNCT_RE = re.compile(r"['\u2019&+/]")

FILLER = frozenset({
    "of", "the", "an", "and", "for", "to", "with", "on", "in", "at", "per", "via", "please", "mellitus",
})
"""Words left out when comparing phrases. Never a negation word, never "a" or "or"
(hepatitis A, vitamin A), never "by" (by mouth); "mellitus", which clinicians drop ("type 2 diabetes")."""

# Token (lower case, singular or as written) -> canonical words. Canonical forms use the
# American spelling of step 3, because they are not spelled again.
ABBREVIATIONS: dict[str, str] = {
    # imaging
    "cxr": "chest x ray",
    "xray": "x ray",
    "xr": "x ray",
    "radiograph": "x ray",
    "radiography": "x ray",
    "ctpa": "ct pulmonary angiography",
    "cta": "ct angiography",
    "angiogram": "angiography",
    "mra": "mr angiography",
    "mrcp": "mr cholangiopancreatography",
    "us": "ultrasound",
    "uss": "ultrasound",
    "usg": "ultrasound",
    "u/s": "ultrasound",
    "sonography": "ultrasound",
    "sonogram": "ultrasound",
    "echo": "echocardiography",
    "echocardiogram": "echocardiography",
    "tte": "transthoracic echocardiography",
    "ecg": "electrocardiogram",
    "ekg": "electrocardiogram",
    "electrocardiography": "electrocardiogram",
    # laboratory
    "fbc": "full blood count",
    "cbc": "full blood count",
    "u&e": "urea electrolyte",
    "u+e": "urea electrolyte",
    "ue": "urea electrolyte",
    "bmp": "urea electrolyte",
    "crp": "c reactive protein",
    "esr": "erythrocyte sedimentation rate",
    "hb": "haemoglobin",
    "hgb": "haemoglobin",
    "hct": "haematocrit",
    "retic": "reticulocyte count",
    "retics": "reticulocyte count",
    "wcc": "white cell count",
    "wbc": "white cell count",
    "plt": "platelet",
    "plts": "platelet",
    "abg": "arterial blood gas",
    "vbg": "venous blood gas",
    "lft": "liver function test",
    "tft": "thyroid function test",
    "coag": "coagulation screen",
    "coagulation": "coagulation screen",
    "clotting": "coagulation screen",
    "ua": "urinalysis",
    "msu": "midstream urine",
    "a1c": "hba1c",
    "bgl": "blood glucose",
    "cbg": "blood glucose",
    "lp": "lumbar puncture",
    "dre": "digital rectal examination",
    "ogd": "gastroscopy",
    "egd": "gastroscopy",
    "oesophagogastroduodenoscopy": "gastroscopy",
    "esophagogastroduodenoscopy": "gastroscopy",
    "bp": "blood pressure",
    "spo2": "oxygen saturation",
    "sats": "oxygen saturation",
    "oximetry": "oxygen saturation",
    # routes, settings, general
    "iv": "intravenous",
    "po": "oral",
    "orally": "oral",
    "im": "intramuscular",
    "sc": "subcutaneous",
    "sq": "subcutaneous",
    "subcut": "subcutaneous",
    "gi": "gastrointestinal",
    "ed": "emergency department",
    "er": "emergency department",
    "a&e": "emergency department",
    "casualty": "emergency department",
    "gp": "general practitioner",
    "icu": "intensive care",
    "itu": "intensive care",
    "abx": "antibiotic",
    "antibacterial": "antibiotic",
    "ppi": "proton pump inhibitor",
    "nsaid": "nsaid",
    "r/o": "rule out",
    "f/u": "follow up",
    "ddx": "differential",
    "hrt": "hormone replacement therapy",
    # diagnoses with one unambiguous short form
    "uti": "urinary tract infection",
    "copd": "chronic obstructive pulmonary disease",
    "dka": "diabetic ketoacidosis",
    "dvt": "deep vein thrombosis",
    "tia": "transient ischemic attack",
    "cva": "stroke",
    "gerd": "gerd",
    "gord": "gerd",
    "ibs": "irritable bowel syndrome",
    "ibd": "inflammatory bowel disease",
    "mi": "myocardial infarction",
    # UK/US and old/new drug names (one canonical name each)
    "acetaminophen": "paracetamol",
    "apap": "paracetamol",
    "albuterol": "salbutamol",
    "epinephrine": "adrenaline",
    "norepinephrine": "noradrenaline",
    "frusemide": "furosemide",
    "lignocaine": "lidocaine",
    "amoxycillin": "amoxicillin",
    "cephalexin": "cefalexin",
    "meperidine": "pethidine",
    "cyclosporine": "ciclosporin",
    "cyclosporin": "ciclosporin",
    "rifampin": "rifampicin",
    "mesalamine": "mesalazine",
    "glyburide": "glibenclamide",
    "isoproterenol": "isoprenaline",
    "scopolamine": "hyoscine",
    "nitroglycerin": "glyceryl trinitrate",
    "nitroglycerine": "glyceryl trinitrate",
    "gtn": "glyceryl trinitrate",
    "beclomethasone": "beclometasone",
    "asa": "aspirin",
    "augmentin": "coamoxiclav",
    "bactrim": "cotrimoxazole",
    "septrin": "cotrimoxazole",
    "thyroxine": "levothyroxine",
    "valproic": "valproate",
}

# Written naturally; normalised by the token steps at import.
PHRASE_SYNONYMS: dict[str, str] = {
    "complete blood count": "full blood count",
    "full blood picture": "full blood count",
    "urea and electrolytes": "urea electrolyte",
    "u and e": "urea electrolyte",
    "basic metabolic panel": "urea electrolyte",
    "liver function test": "liver function test",
    "liver function": "liver function test",
    "liver function panel": "liver function test",
    "liver panel": "liver function test",
    "thyroid function test": "thyroid function test",
    "thyroid function": "thyroid function test",
    "computed tomography": "ct",
    "computerised tomography": "ct",
    "cat scan": "ct",
    "ct scan": "ct",
    "magnetic resonance imaging": "mri",
    "mri scan": "mri",
    "ultrasound scan": "ultrasound",
    "x ray chest": "chest x ray",
    "chest film": "chest x ray",
    "12 lead electrocardiogram": "electrocardiogram",
    "upper endoscopy": "gastroscopy",
    "upper gastrointestinal endoscopy": "gastroscopy",
    "pulse oxygen saturation": "oxygen saturation",
    "blood sugar": "blood glucose",
    "capillary glucose": "blood glucose",
    "capillary blood glucose": "blood glucose",
    "emergency room": "emergency department",
    "accident and emergency": "emergency department",
    "by mouth": "oral",
    "amoxicillin clavulanate": "coamoxiclav",
    "amoxicillin clavulanic acid": "coamoxiclav",
    "trimethoprim sulfamethoxazole": "cotrimoxazole",
    "tmp smx": "cotrimoxazole",
    "acetylsalicylic acid": "aspirin",
    "gastroesophageal reflux disease": "gerd",
    "gastroesophageal reflux": "gerd",
    "gastro esophageal reflux disease": "gerd",
    "gastro esophageal reflux": "gerd",
    "heart attack": "myocardial infarction",
    "cerebrovascular accident": "stroke",
    "deep venous thrombosis": "deep vein thrombosis",
    "congestive cardiac failure": "congestive heart failure",
    "cardiac failure": "heart failure",
    "nonsteroidal anti inflammatory drug": "nsaid",
    "non steroidal anti inflammatory drug": "nsaid",
    "nonsteroidal anti inflammatory": "nsaid",
    "non steroidal anti inflammatory": "nsaid",
    "anti inflammatory": "nsaid",
}

# --- Clinical vocabulary of final responses (the scorer) ------------------------------
# How doctors and models write plans and diagnoses in their answers: short forms and
# synonyms that a case's reference writes out in full. Merged into the tables above;
# kept in a block of their own so that the question shorthand can grow beside them.
ANSWER_ABBREVIATIONS: dict[str, str] = {
    "o2": "oxygen",
    "temp": "temperature",
    "dipping": "dipstick",
    "dipped": "dipstick",
    "nbm": "nil by mouth",
    "npo": "nil by mouth",
    "cocp": "combined oral contraceptive",
    "coc": "combined oral contraceptive",
    "pud": "peptic ulcer disease",
    "ob/gyn": "obstetrics gynecology",
    "obgyn": "obstetrics gynecology",
    "o&g": "obstetrics gynecology",
    "obs&gynae": "obstetrics gynecology",
    "gynae": "gynecology",
    "ophth": "ophthalmology",
    "neb": "nebulizer",
    "nebs": "nebulizer",
    "nebulized": "nebulizer",
    "nebulization": "nebulizer",
    "poc": "point of care",
    "ngt": "nasogastric tube",
    "txa": "tranexamic acid",
    "mgso4": "magnesium sulfate",
    "kcl": "potassium chloride",
    "nrt": "nicotine replacement therapy",
    "2ww": "two week wait",
    "obs": "observation",
    "sbr": "serum bilirubin",
    "bhcg": "hcg",
    "dont": "do not",
    "doesnt": "does not",
    "wont": "will not",
    "refer": "referral",
    "referred": "referral",
    "referring": "referral",
    "admit": "admission",
    "admitted": "admission",
    "admitting": "admission",
    "urgently": "urgent",
    "advise": "advice",
    "advised": "advice",
    "testing": "test",
    "weigh": "weight",
    "high": "raised",
    "elevated": "raised",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "ten": "10",
    "twelve": "12",
}
ANSWER_PHRASE_SYNONYMS: dict[str, str] = {
    "nil per os": "nil by mouth",
    "nothing by mouth": "nil by mouth",
    "combined pill": "combined oral contraceptive",
    "combined oral contraceptive pill": "combined oral contraceptive",
    "obstetrics and gynaecology": "obstetrics gynecology",
    "peptic ulcer": "peptic ulcer disease",
    "neuro checks": "neurological observation",
    "neuro obs": "neurological observation",
    "neurological checks": "neurological observation",
    "point of care glucose": "blood glucose",
    "point of care blood glucose": "blood glucose",
    "finger prick glucose": "blood glucose",
    "fingerprick glucose": "blood glucose",
    "sodium chloride": "saline",
    "normal saline": "0 9 saline",
    "beta hcg": "hcg",
    "beta human chorionic gonadotropin": "hcg",
    "on call ophthalmology": "ophthalmology",
    "eye team": "ophthalmology",
    "eye casualty": "emergency ophthalmology",
    "nothing to eat or drink": "nil by mouth",
    "anything to eat or drink": "nil by mouth",
    "urine infection": "urinary tract infection",
    "breathing rate": "respiratory rate",
    "rate of breathing": "respiratory rate",
    "water infection": "urinary tract infection",
    "clot on the lung": "pulmonary embolism",
    "clot in the lung": "pulmonary embolism",
    "clot on the lungs": "pulmonary embolism",
    "overactive thyroid": "hyperthyroidism",
    "liver tests": "liver function test",
    "kidney tests": "renal function",
    "then home": "discharge home",
    "go home": "discharge home",
    "allowed home": "discharge home",
    "stay at home": "discharge home",
    "stay home": "discharge home",
    "rest at home": "discharge home",
    "manage this at home": "discharge home",
    "manage it at home": "discharge home",
    "managed at home": "discharge home",
    "manage at home": "discharge home",
    "see how it goes at home": "discharge home",
    "see how things go at home": "discharge home",
    "send home": "discharge home",
    "sent home": "discharge home",
    "send him home": "discharge home",
    "send her home": "discharge home",
    "send you home": "discharge home",
    "head home": "discharge home",
    "urine dip": "urine dipstick",
    "urine dip test": "urine dipstick",
    "glucose monitoring": "capillary glucose monitoring",
    "recurrent colon cancer": "recurrent colorectal cancer",
    "recurrent bowel cancer": "recurrent colorectal cancer",
    "colon cancer recurrence": "recurrent colorectal cancer",
    "peritoneal disease": "peritoneal metastases",
    "peritoneal deposits": "peritoneal metastases",
    "peritoneal carcinomatosis": "peritoneal metastases",
    "full blood count": "full blood count",  # the whole name first, so "blood count" in it is not read again
    "blood count": "full blood count",
    "white blood count": "white cell count",
    "thyroid test": "thyroid function test",
    "thyroid blood test": "thyroid function test",
    "cut down": "reduce",
    "cut back": "reduce",
    "cutting down": "reduce",
    "cutting back": "reduce",
    "cut alcohol": "reduce alcohol",
    "drink less alcohol": "reduce alcohol",
    "less alcohol": "reduce alcohol",
}
ABBREVIATIONS.update(ANSWER_ABBREVIATIONS)
PHRASE_SYNONYMS.update(ANSWER_PHRASE_SYNONYMS)

CAPS_ONLY: frozenset[str] = frozenset({"us", "im", "er", "ed"})
"""Abbreviations that are also everyday words ("call us", "I'm"): expanded only when
written in capitals."""

GREEK_PLURALS: dict[str, str] = {
    "diagnoses": "diagnosis",
    "prognoses": "prognosis",
    "metastases": "metastasis",
    "stenoses": "stenosis",
    "thromboses": "thrombosis",
    "anastomoses": "anastomosis",
    "psychoses": "psychosis",
    "neuroses": "neurosis",
    "analyses": "analysis",
    "crises": "crisis",
    "bronchiectases": "bronchiectasis",
}

# British -> American, applied in order to a lower-case token.
_SPELLING: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"oesophag", "esophag"),  # oesophagus, gastro-oesophageal
        (r"^oe", "e"),  # oedema, oestrogen, oestradiol
        (r"oea", "ea"),  # diarrhoea, dyspnoea, apnoea, gonorrhoea
        (r"foet", "fet"),  # foetal, foetus
        (r"coeli", "celi"),  # coeliac
        (r"amoeb", "ameb"),
        (r"homoeo", "homeo"),
        (r"ae(?!r)", "e"),  # anaemia, haem-, -aemia, paediatric, ischaemia, leukaemia, caecum (not aerobic)
        (r"(?<=[a-z]{2})our(?=(s|ed|ing|ite|able|al)?$)", "or"),  # tumour, colour, behaviour (not hour, four)
        (r"isation", "ization"),
        (r"is(e|ed|es|ing|er|ers)$", r"iz\1"),  # hospitalise, nebulised, immunising
        (r"yse$", "yze"),  # analyse, paralyse
        (r"(?<=[a-z]{2}[tb])re(s?)$", r"er\1"),  # centre, litre, fibre
        (r"ogue$", "og"),  # catalogue, analogue
        (r"(?<=[a-z]{4}[aeiou])ll(ed|ing)$", r"l\1"),  # counselling, travelled, labelled
        (r"sulph", "sulf"),  # sulphate, sulphonylurea
        (r"^aluminium$", "aluminum"),
        (r"^programme", "program"),
    )
)


def american_spelling(word: str) -> str:
    for pattern, replacement in _SPELLING:
        if pattern.search(word):
            word = pattern.sub(replacement, word)
    return word


_POSSESSIVE = re.compile(r"['\u2019]s\b")


def fold(text: str) -> str:
    """Lower case without accents or possessive 's ("Ménière's" -> "meniere")."""
    text = text.lower()
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in text if not unicodedata.combining(c))
    return _POSSESSIVE.sub("", text) if "'" in text or "\u2019" in text else text


_NAMED = re.compile(r"([^\W\d_]+)['\u2019](?:s\b|(?=\s|$))")


def possessives(text: str) -> set[str]:
    """The words written with a possessive ("Bowen's disease", "Graves' disease"), folded:
    the names of people, which no spelling correction should touch."""
    if "'" not in text and "\u2019" not in text:
        return set()
    return {fold(match.group(1)) for match in _NAMED.finditer(text)}


@lru_cache(maxsize=20000)
def stem(word: str) -> str:
    """A light, consistent stem for free text such as a doctor's question: UK/US spelling
    (as :func:`american_spelling`), plurals, -ing/-ed/-ness/-ly, a doubled last consonant
    ("counselling" and "counseling" both give "counsel"), comparatives ("thirstier": thirsty)."""
    word = american_spelling(word)
    if len(word) <= 3 or word.isdigit():
        return word
    for suffix, keep in (
        ("iness", "y"), ("ness", ""), ("ier", "y"), ("iest", "y"), ("ies", "y"), ("ing", ""), ("ed", ""), ("ly", ""),
        ("es", ""), ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                continue
            if suffix == "es" and not word.endswith(("shes", "ches", "xes", "sses", "oes")):
                continue
            if (suffix == "ed" and word.endswith("eed")) or (suffix == "ly" and len(word) < 6):
                continue
            word = word[: -len(suffix)] + keep
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def singular(word: str) -> str:
    if word in GREEK_PLURALS:
        return GREEK_PLURALS[word]
    if len(word) >= 5 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) >= 5 and word.endswith(("sses", "shes", "xes")):
        return word[:-2]
    if len(word) >= 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@lru_cache(maxsize=65536)
def normalise_word(low: str, caps: bool = False) -> tuple[str, ...]:
    """Steps 2-4 for one lower-case word (no inner punctuation but ``&``/``/``/``+``
    abbreviations); ``caps`` marks a word written in capitals (an acronym)."""
    for key in (low, low[:-1] if low.endswith("s") and len(low) > 2 else None):
        if key is not None and key in ABBREVIATIONS and (caps or key not in CAPS_ONLY):
            return tuple(ABBREVIATIONS[key].split())
    if caps and len(low) <= 5:
        return (low,)
    word = singular(american_spelling(low))
    if word in ABBREVIATIONS and word not in CAPS_ONLY:
        return tuple(ABBREVIATIONS[word].split())
    return (word,)


class Token(NamedTuple):
    """One normalised word and where it came from in the text."""

    norm: str
    low: str  # the word as written, lower case, apostrophes dropped (for cue words)
    start: int
    end: int
    caps: bool  # written in capitals (an acronym such as FIT or CAP)


@lru_cache(maxsize=65536)
def _word_parts(raw: str) -> tuple[tuple[str, str, int, int, bool], ...]:
    """Steps 1-4 for one word as written: (norm, low, start, end, caps) relative to it;
    an abbreviation gives several tokens that share its span."""
    low = raw.lower().replace("'", "").replace("\u2019", "")
    if INNER_PUNCT_RE.search(low) and low not in ABBREVIATIONS and low.rstrip("s") not in ABBREVIATIONS:
        # split "and/or", "IV/PO" into their parts, each with its own span
        parts = []
        for part in re.finditer(r"[A-Za-z0-9]+", raw):
            sub = part.group()
            caps = sub.isupper() and len(sub) > 1
            parts += [(norm, sub.lower(), part.start(), part.end(), caps) for norm in normalise_word(sub.lower(), caps)]
        return tuple(parts)
    caps = raw.isupper() and len(raw) > 1
    return tuple((norm, low, 0, len(raw), caps) for norm in normalise_word(low, caps))


def _words(text: str) -> list[Token]:
    """Steps 1-4: the text's words."""
    out: list[Token] = []
    append = out.append
    for match in TOKEN_RE.finditer(text):
        start = match.start()
        for norm, low, a, b, caps in _word_parts(match.group()):
            append(Token(norm, low, start + a, start + b, caps))
    return out


def _phrase_table() -> dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]]:
    """Each phrase's words, and the words of its canonical form normalised as written text is
    (so "nothing to eat or drink" -> "nil by mouth" -> "nil oral", as "nil by mouth" reads)."""
    table: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
    for phrase, canonical in PHRASE_SYNONYMS.items():
        key = tuple(t.norm for t in _words(phrase) if t.norm not in FILLER)
        table.setdefault(key[0], []).append((key, tuple(canonical.split())))
    for entries in table.values():
        entries.sort(key=lambda e: -len(e[0]))
    return {
        first: [(key, tuple(t.norm for t in _replace(_words(" ".join(value)), table))) for key, value in entries]
        for first, entries in table.items()
    }


def _replace(words: list[Token], table: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]]) -> list[Token]:
    """The words with every phrase of ``table`` replaced by its canonical words (on the phrase's span)."""
    if not any(t.norm in table for t in words):
        return words
    out: list[Token] = []
    i = 0
    n = len(words)
    while i < n:
        token = words[i]
        replaced = False
        for key, value in table.get(token.norm, ()):
            j, k = i, 0
            while j < n and k < len(key):
                if words[j].norm in FILLER and words[j].norm != key[k]:
                    j += 1
                    continue
                if words[j].norm != key[k]:
                    break
                j += 1
                k += 1
            if k == len(key):
                last = words[j - 1]
                low = " ".join(w.low for w in words[i:j])
                out.extend(Token(norm, low, token.start, last.end, False) for norm in value)
                i = j
                replaced = True
                break
        if not replaced:
            out.append(token)
            i += 1
    return out


_PHRASES = _phrase_table()


def tokenize(text: str) -> list[Token]:
    """Every normalisation step; filler words are kept (cue words need them)."""
    return _replace(_words(text), _PHRASES)


def key_tokens(tokens: list[Token]) -> list[Token]:
    """The tokens that take part in matching (filler words left out)."""
    return [t for t in tokens if t.norm not in FILLER]


@lru_cache(maxsize=65536)
def normalise(text: str) -> str:
    """The normalised form of a short text, spaces between words (for display and for
    whole-item fuzzy comparison); cached, as item names are normalised at every reading."""
    return " ".join(t.norm for t in key_tokens(tokenize(text)))


@lru_cache(maxsize=65536)
def compact(text: str) -> str:
    """The normalised form with the spaces dropped: what phrase search compares (cached)."""
    return "".join(t.norm for t in key_tokens(tokenize(text)))


# --- Question shorthand (the patient simulator and the scorer) ------------------------
# How clinicians abbreviate a *question* to a patient ("any N/V?", "palps?", "FHx?").
# Unlike :data:`ABBREVIATIONS` (which folds an answer's terms to one canonical token),
# these expand to the plain words a patient's record uses, so that a question can be
# matched against lay text. Keys are lower case as written, with inner ``/``, ``&``, ``+``.
QUESTION_SHORTHAND: dict[str, str] = {
    "n/v": "nausea or vomiting",
    "n+v": "nausea or vomiting",
    "n&v": "nausea or vomiting",
    "nv": "nausea or vomiting",
    "d/v": "diarrhoea or vomiting",
    "d+v": "diarrhoea or vomiting",
    "d&v": "diarrhoea or vomiting",
    "sob": "short of breath",
    "soboe": "short of breath on exertion",
    "cp": "chest pain",
    "palps": "palpitations",
    "palp": "palpitations",
    "temp": "temperature",
    "temps": "temperature",
    "meds": "medications",
    "med": "medication",
    "rx": "medication",
    "pmh": "past medical history",
    "pmhx": "past medical history",
    "fhx": "family history",
    "fh": "family history",
    "shx": "social history",
    "dhx": "medication history",
    "psh": "past surgical history operations",
    "ocp": "oral contraceptive pill",
    "coc": "combined contraceptive pill",
    "lmp": "last menstrual period",
    "hx": "history",
    "nkda": "any allergies to medicines",
    "obs": "observations",
    "dvt": "deep vein thrombosis clot in the leg",
    "pe": "pulmonary embolism clot",
    "vte": "blood clot",
    "etoh": "alcohol",
    "bo": "bowels opened",
    "bno": "bowels opened",
    "pu": "passing urine",
    "pv": "vaginal",
    "imb": "bleeding between periods",
    "pcb": "bleeding after sex",
    "pmb": "bleeding after the menopause",
    "hmb": "heavy periods",
    "dub": "abnormal bleeding",
    "luts": "urinary symptoms",
    "pnd": "breathless at night",
    "loc": "loss of consciousness",
    "tia": "mini stroke",
    "sti": "sexually transmitted infection",
    "stis": "sexually transmitted infection",
    "ivf": "fertility treatment",
    "abx": "antibiotics",
    "op": "operation",
    "ops": "operations",
    "wt": "weight",
    "sx": "symptoms",
    "tb": "tuberculosis",
    "ha": "headache",
    "bp": "blood pressure",
    "hr": "heart rate",
    "rr": "breathing rate",
    "sats": "oxygen levels",
    "o2": "oxygen",
    "tft": "thyroid function test",
    "tfts": "thyroid function tests",
    "lft": "liver function test",
    "lfts": "liver function tests",
    "ecg": "ecg heart tracing",
    "ekg": "ecg heart tracing",
    "imms": "immunisations",
    "immunis": "immunisations",
    "vaccs": "vaccinations",
    "vacc": "vaccinations",
    "vax": "vaccinations",
    "dh": "medications",
    "sh": "social history home work",
    "pr": "rectal",
    "abdo": "abdominal",
    "crt": "capillary refill",
    "scbu": "special care baby unit",
    "nicu": "neonatal intensive care special care",
    "resps": "breathing rate",
    "cf": "cystic fibrosis",
    "epipen": "adrenaline auto injector",
    "viagra": "sildenafil blue tablet",
    "bili": "bilirubin",
    "sbr": "serum bilirubin",
    "va": "visual acuity",
    "vit": "vitamin",
    "jab": "injection jab",
    "iop": "eye pressure",
}
QUESTION_SHORTHAND_CAPS_ONLY = frozenset({"pe", "op", "ha", "pu", "bo", "dh", "sh", "pr", "cf", "va"})
"""Shorthand that is also an everyday word ("PE" vs "p.e. lessons", "ha"): expanded only
when written in capitals."""

CHAT_SPELLINGS: dict[str, str] = {
    "pls": "please", "plz": "please", "abt": "about", "ur": "your", "u": "you", "inbetween": "in between",
    "whats": "what's", "hows": "how's", "wheres": "where's", "whos": "who's", "whens": "when's", "thats": "that's",
}
"""How a question is typed in a chat box, written out: a word run together ("inbetween") or
an apostrophe left out ("whats he like?" is an open question, as "what's he like?" is)."""

IRREGULAR_FORMS: dict[str, str] = {
    "flew": "fly", "flown": "fly", "flight": "fly", "flights": "fly", "flying": "fly", "flies": "fly",
    "threw": "throw", "thrown": "throw", "took": "take", "taken": "take",
    "fell": "fall", "fallen": "fall", "began": "begin", "begun": "begin", "woke": "wake", "woken": "wake",
    "slept": "sleep", "drank": "drink", "drunk": "drink", "bled": "bleed", "brought": "bring",
    "caught": "catch", "spat": "spit", "kept": "keep", "gave": "give", "given": "give", "swollen": "swell",
    "swelled": "swell", "broke": "break", "broken": "break", "bit": "bite", "bitten": "bite", "stung": "sting",
    "felt": "feel", "sat": "sit", "stood": "stand", "wrote": "write", "drove": "drive", "driven": "drive",
    "medication": "medicine", "medications": "medicine", "meds": "medicine",
}
"""Irregular word forms of a question, folded to one form before stemming (fly, flew,
flown and flights are one word to the patient). Forms whose tense carries the meaning stay
apart: "ate" (the last meal) is not "eat" (appetite), "lost" (weight lost) is not "lose"."""

_SHORTHAND_RE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]+[0-9]?(?:[/&+][A-Za-z]+)?(?![A-Za-z0-9])")
"""A word of letters, and one digit at most ("O2")."""


def expand_shorthand(text: str) -> str:
    """The question with clinicians' shorthand and chat spellings written out ("any N/V?" ->
    "any nausea or vomiting?", "whats he like inbetween?" -> "what's he like in between?")."""

    def one(raw: str) -> str:
        low = raw.lower()
        if low in CHAT_SPELLINGS:
            return CHAT_SPELLINGS[low]
        if low in QUESTION_SHORTHAND and (raw.isupper() or low not in QUESTION_SHORTHAND_CAPS_ONLY):
            # a plain word is kept beside its expansion: a record may use it ("EpiPen", "meds")
            return QUESTION_SHORTHAND[low] + (f" {raw}" if raw.isalpha() and len(raw) > 3 else "")
        sides = raw.split("/")
        if len(sides) == 2 and min(len(side) for side in sides) > 1 and not {"and", "or"} & {low for low in sides}:
            return " or ".join(one(side) for side in sides)  # "wt loss/night sweats": one or the other
        return raw

    return _SHORTHAND_RE.sub(lambda match: one(match.group()), text)


def lemma(word: str) -> str:
    """One form for an irregular word (``flew`` -> ``fly``), else the word."""
    return IRREGULAR_FORMS.get(word, word)
# --- end of question shorthand ----------------------------------------------------------
