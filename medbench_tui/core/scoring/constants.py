"""Every threshold, scorer and default of scoring, with the reason for its value.

Change a number here and nowhere else; the tests in ``tests/test_scoring*.py`` pin the
behaviour these values give.
"""

from __future__ import annotations

from rapidfuzz import fuzz

# --- matching an answer item to a reference item ----------------------------------
# Texts are normalised first (``core/text.py``): case, punctuation, British/American
# spelling, plurals, clinical abbreviations and synonyms.
#
# 1. Phrase search (the main rule). A reference name or alias matches when its
#    normalised words occur, in order and contiguous, in the answer (filler words such
#    as "of"/"the" aside; spaces between words ignored, so "x-ray" = "xray"). Longest
#    phrase wins where two overlap ("virtual colonoscopy" over "colonoscopy").
MATCH_SCORE_EXACT = 100.0

# 2. A misspelt word in the answer ("amoxicilin", "pnuemonia") stands for a reference
#    word when both are at least TYPO_MIN_LENGTH letters, start with the same letter and
#    are at most TYPO_MAX_EDITS apart (optimal string alignment distance: a swap of two
#    neighbouring letters is one edit). One edit and six letters keep apart the drug and
#    anatomy names that differ by two ("prednisone"/"prednisolone") or are short
#    ("ileum"/"ileus"). Such a match scores MATCH_SCORE_TYPO.
TYPO_MIN_LENGTH = 6
TYPO_MAX_EDITS = 1
MATCH_SCORE_TYPO = 95.0

# 3. Whole-item comparison, for an answer item in which no phrase was found: rapidfuzz
#    token_sort_ratio (word order ignored: "x-ray chest" = "chest x-ray") of the
#    normalised texts, at least ITEM_THRESHOLD. 90 on 0-100 tolerates one or two
#    letters in a short name ("amoxicilin" scores 95) but not a different word
#    ("colonoscopy" vs "colonography" scores 70; "ct head" vs "ct chest" 40).
ITEM_SCORER = fuzz.token_sort_ratio
ITEM_THRESHOLD = 90.0

# 3b. A general concept the answer states in its own words: a safety-net instruction or
#    a timed follow-up review (``concepts.py``) matches a reference item that names
#    that concept. Below an exact phrase, so that an item named by its own words is
#    matched by them first.
MATCH_SCORE_CONCEPT = 95.0
# 3c. The words of a reference phrase in another order, close together in one clause
#    ("salbutamol 5 mg nebulised" = "nebulised salbutamol", "adrenaline 1 mg IV" =
#    "1 mg IV adrenaline"): every word of a phrase of at least two words, within the
#    phrase's length plus UNORDERED_SLACK words. Below a phrase in its own order.
MATCH_SCORE_UNORDERED = 92.0
UNORDERED_SLACK = 3
# 3e. All but one word of a credited item's name or alias of at least MOST_WORDS_MIN words, close
#    together in one clause: a thorough answer's own wording of the item. Credit only; the
#    lowest match, so any other reading wins.
MATCH_SCORE_MOST_WORDS = 89.0
MOST_WORDS_MIN = 4
# 3d. The item met as a clinical action in other words (``actions.py``): the same team for a
#    referral or admission in any word order, the item's drug by its route, a drug of the
#    item's class, the class just above the item's. Below the item's own words and concepts.
MATCH_SCORE_TEAM = 94.0
MATCH_SCORE_DRUG_ROUTE = 93.5
MATCH_SCORE_DRUG = 93.2
MATCH_SCORE_DRUG_OF_CLASS = 93.0
MATCH_SCORE_CLASS = 90.0
# An alias of at most EXACT_CASE_MAX_LENGTH characters that is not in capitals ("Mg")
# matches only as written: in lower case it is another word (the unit "mg").
EXACT_CASE_MAX_LENGTH = 2

# 4. Diagnoses also match by ICD-10 code: the same code as the reference's, or one of its
#    `accept_codes`. A shared 3-character category alone matches nothing (biliary colic,
#    K80.2, is not acute calculous cholecystitis, K80.0); it is still reported as
#    `primary_icd10: category`. Name matches rank first.
MATCH_SCORE_ICD_EXACT = 99.0

# Acronym aliases: an alias written in capitals of at most ACRONYM_MAX_LENGTH letters
# (FIT, CAP, MDT) matches only text written in capitals, because its lower-case form is
# often an ordinary word ("fit and well"). Abbreviations in the shared table
# (``text.ABBREVIATIONS``: CXR, FBC, CT...) match in any case.
ACRONYM_MAX_LENGTH = 5

# --- free-text extraction -----------------------------------------------------------
# An unmatched list item under a heading becomes an answer item only when short: a
# longer line is prose (reasoning), not an item.
LEFTOVER_MAX_WORDS = 8

# --- workup score -------------------------------------------------------------------
# Penalty of an unexpected workup item given: the item's `penalty`, else the case's
# scoring.unexpected_penalty, else this (the same size as a required item's default
# weight: ordering a test that should not be done costs what missing one gains).
DEFAULT_UNEXPECTED_PENALTY = 1.0
# Penalty per workup item that matches no reference item: the case's
# scoring.unlisted_penalty, else this. 0 because the reference lists what matters; a
# reasonable test the author did not think of should not cost points unless the
# author asks for it.
DEFAULT_UNLISTED_PENALTY = 0.0

# --- steps --------------------------------------------------------------------------
# Outside the soft range: steps < 0.75 x num_steps or steps > 1.25 x num_steps.
SOFT_RANGE_LOW = 0.75
SOFT_RANGE_HIGH = 1.25

# --- ranking of the primary diagnosis (recall@k) -------------------------------------
RECALL_AT = (3, 5)

# --- JSON ---------------------------------------------------------------------------
DECIMALS = 1
