"""What a vocabulary file may hold (the schema), and the typed records the readers use.

A vocabulary file is YAML with any of these sections; the shipped vocabulary
(``medbench_tui/vocabulary/*.yaml``) and a bank's own ``vocabulary.yaml`` are read the same
way (``docs/vocabulary.md`` describes each section and where a wording belongs):

* ``spelling``: British word part -> American word part (``oesophag: esophag``; ``^`` anchors a
  part at the start of a word, ``$`` at its end);
* ``forms``: words folded to one form (Greek plurals: ``diagnoses`` is ``diagnosis``; irregular
  forms the patient reads as one word);
* ``abbreviations``: shorthand written out before a text is read (``{short: [abx], means:
  antibiotics}``), optionally only as written (``case: exact``) or only in one kind of text;
* ``terms``: the things clinical text names, one entry each: drugs, drug classes, tests,
  teams, procedures, routes, symptoms, ... with their other names (``also``: synonyms, brand
  names, abbreviations), the broader terms they belong to (``is``: enoxaparin is a
  low-molecular-weight heparin), the result labels that report a test done (``reports``), the
  findings that report an examination done (``findings``) and the words patients use (``lay``);
* ``timing``: expressions of when (``same day``, ``next week``) as a window in hours;
* ``units``: units of time for written intervals ("within 4 hours", "2/52");
* ``groups``: the classes of treatments a case's treatment item names as its ``group`` (an
  item's ``group: antibiotic``), with their other names and their members: a treatment of the
  class that is not the item scores ``different``;
* ``patient_rewrites``: wordings the simulated patient reads as others before it reads a question
  (``{said: [water tablets], read_as: diuretic tablets}``), in the list's order;
* ``phrases``: named lists of cue phrases (negation, condition, referral verbs, ...); the
  names are fixed by the readers that use them (:data:`PHRASE_LISTS`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from medbench_tui.core.datafile import StrictEntry, Text

TermKind = Literal[
    "drug",  # a medicine by its generic or brand name
    "drug_class",  # a class of medicines (beta-blocker, low-molecular-weight heparin)
    "test",  # an investigation (a blood test, a panel, imaging, a bedside test)
    "team",  # a specialty, team or service a patient is referred to or discussed with
    "procedure",  # something done to the patient (intubation, NG tube, laparotomy)
    "route",  # how a drug is given (intravenous, intramuscular, oral)
    "fluid",  # intravenous fluids and blood products
    "symptom",  # what a patient feels or notices
    "finding",  # what an examination or test finds
    "body_part",  # where
    "history",  # a part of the history (smoking, alcohol, travel, occupation)
    "advice",  # what the patient is told (safety-netting, lifestyle)
    "disposition",  # where the patient goes (admission, discharge, observation)
    "condition",  # an illness, named in plain or clinical words
    "state",  # what a record gives as present or absent, or as one of exclusive values (``is``: the choice)
]
"""The kinds of terms. A term is of one kind; its ``is`` names may be of any kind."""

PHRASE_LISTS: dict[str, str] = {
    # name -> what its phrases do. The readers name the lists they use here; a vocabulary
    # file may fill only these, so a misspelt list name is an error at its line, not a list
    # that nobody reads.
    "home_dispositions": "answers: words that send the patient home: a harmful outpatient plan done with an earlier "
                         "review is still done, but an admission or a same-day referral is not it",
    "contact_visit_words": "answers: a visit or place of a contact ('clinic', 'f/u', 'OPD'): an amount of time written "
                           "bare right beside it, or beside a team or a team action, is that contact's time "
                           "('cardiology f/u 3 months', 'OPD 2/52'); g79",
    "team_actions": "words that make a team named in a plan a referral, review, discussion or admission "
                    '("refer", "discuss", "under"); a team named without one (safety-netting: "go to A&E if") is not',
    "team_admissions": "the team actions that admit rather than contact ('admit', 'under'): a team named with its time "
                       "alone ('Cardiology today') is the team contacted, never an admission under it",
    "team_qualifiers": "words of a team that, right before another team's name, only say whose that team is "
                       "('paediatric burns service'): that team alone is named",
    "team_grades": "grades of doctor: an item asking for a review by one ('Senior paediatric review') is not met by "
                   "an admission alone ('Admit to the paediatric ward')",
    "patient_aspect_onset": "the simulated patient: a question asks when something started or how long it has been",
    "patient_aspect_severity": "the simulated patient: a question asks how bad something is",
    "patient_aspect_location": "the simulated patient: a question asks where something is",
    "patient_aspect_radiation": "the simulated patient: a question asks whether something spreads or goes anywhere",
    "patient_aspect_character": "the simulated patient: a question asks what something is like",
    "patient_aspect_aggravating": "the simulated patient: a question asks what makes something worse",
    "patient_aspect_relieving": "the simulated patient: a question asks what makes something better, or whether "
                                "what was used helped",
    "patient_aspect_progression": "the simulated patient: a question asks how something has changed over time",
    "patient_aspect_frequency": "the simulated patient: a question asks how often something comes, or whether it "
                                "comes and goes",
    "patient_aspect_interval": "the simulated patient: a question asks how the patient is between attacks",
    "patient_aspect_recurrence": "the simulated patient: a question asks whether something happened before",
    "patient_aspect_time_of_day": "the simulated patient: a question says when in the day (says when, not what about)",
    "patient_aspect_baseline": "the simulated patient: a question asks how the patient is when well",
    "patient_aspect_amount": "the simulated patient: a question asks how much of something ('as much as usual?')",
    "patient_aspect_comparison": "the simulated patient: a question compares with before ('than usual')",
    "patient_aspect_time_frame": "the simulated patient: a question's time frame, the illness so far ('anything for it "
                                 "since it started?') or now ('anyone unwell at the moment?'): says over what time, "
                                 "not when it started nor what about",
    "patient_account_asks": "the simulated patient: words by which 'what do you think...' asks for the patient's "
                            "account of events ('how do you think it happened?'), not a diagnosis",
    "patient_past_episode_pointers": "the simulated patient: words by which a follow-up points at a past episode "
    "just told ('how did it get better that time?'): the fact of that episode answers it as far as the record goes",
    "patient_time_of_life": "the simulated patient: words of when in life something was ('a rash when I was a "
                            "kid', 'in my twenties'): one unit of the time, their noun no topic (no children)",
    "patient_before_this": "the simulated patient: words of the time before the present illness ('in the weeks "
    "before this started'): a fact of the illness now does not answer them",
    "patient_questions_invited": "the simulated patient: words by which the doctor asks whether the patient has "
    "questions ('any questions for me?'): answered politely, never with a fact or a 'No'",
    "patient_ideas_asks": "the simulated patient: words by which the doctor asks the patient's own idea or worry of "
    "what the illness is ('any idea what it might be?', 'what have you been worried it might be?'): a fact of their "
    "worries answers (patient_ideas_topics), else they are not sure; never a 'No' nor a symptom fact",
    "patient_ideas_topics": "the simulated patient: words of a fact's topic that say it records the patient's ideas, "
    "worries or concerns ('his worries and wishes'): the answer to a question of patient_ideas_asks",
    "patient_treatment_counts": "the simulated patient: words by which 'how many ...' counts the times a medicine "
    "was given ('how many courses of steroids?'), not a dose: the fact of the episodes treated answers it",
    "patient_daytime": "the simulated patient: words of the daytime ('slept in the day'): a fact that tells only of "
    "the night (patient_night_time) does not answer them",
    "patient_night_time": "the simulated patient: words of the night ('does it wake you at night?'): a fact that tells "
    "only of the daytime (patient_daytime) does not answer them",
    "patient_what_happened": "the simulated patient: words that ask what happened with something ('what happened "
    "with the codeine?'): when only one fact names that thing, its story is the answer, never a default",
    "patient_told_asks": "the simulated patient: words that ask what the patient was told by a doctor ('did they "
    "ever tell you you had ...?', 'were you told ...?'): a fact that reports what they were told answers, with doubt",
    "patient_told_reports": "the simulated patient: words of a fact's answer that report what the patient was told "
    "('they said I had ...', 'I was told')",
    "patient_agreement_asks": "the simulated patient: words that end a plan or a diagnosis told and ask the "
    "patient to agree ('sound ok?', 'so a quinsy, OK?'): the patient agrees, never denies or gives a fact",
    "patient_ones_own": "the simulated patient: words that say a question is of the patient's own history ('his "
    "own hearing'): a fact of the family does not answer it",
    "patient_speakers_own": "the simulated patient: words that say a question is of the one who speaks ('have you "
    "had kidney stones yourself?'): when the patient speaks, the family history does not answer it",
    "patient_forms_of_address": "the simulated patient: words a doctor addresses the patient or the one who speaks "
    "for them by, at the start of a question ('Mum, do you know your blood group?'): whom it speaks to, not what "
    "it asks about",
    "patient_jargon": "the simulated patient: medical words a lay person may not know (a patient who seeks "
                      "clarification asks what they mean)",
    "patient_findings_titles": "the simulated patient: title words of an attachment that holds examination or "
                               "observation findings",
    "patient_examination_titles": "the simulated patient: title words of an attachment that records an examination",
    "patient_assessment_titles": "the simulated patient: a test of the mind titled an examination ('Addenbrooke's "
    "Cognitive Examination'): a test with its own result asked for by name, not findings of the body",
    "patient_earlier_record_times": "the simulated patient: words of an attachment's title that date it before the "
    "consultation ('Blood tests from March'): a test the doctor orders from now on is never that one",
    "patient_record_times_now": "the simulated patient: words of an attachment's title that say it is of now ('repeat "
    "in clinic today'), beside any of patient_earlier_record_times",
    "patient_test_order_verbs": "the simulated patient: verbs of the doctor's own test from now on ('I'll send you "
    "for an IGF-1 blood test'): no request for an earlier record",
    "patient_test_leave_verbs": "the simulated patient: verbs of a test the doctor asks leave to do ('would you "
    "mind if I did a quick memory test?'): a request, not a question of whether the patient minds",
    "patient_score_asks": "the simulated patient: words that ask the score of a test ('what did he score on the "
    "memory test?'): a request for its result",
    "patient_kept_papers": "the simulated patient: papers a patient or carer keeps ('do you have her red book?'): "
    "asked whether they have one, an attachment that is one is asked for",
    "patient_findings_asks": "the simulated patient: words by which a question asks of a record of the examination "
                             "or observations ('what were her obs?'): an attachment of findings may answer it",
    "patient_more_observations": "the simulated patient: observations a question may ask besides those of "
                                 "patient_observation_asks ('her weight?', 'sats and sugar?'); read in order, the "
                                 "first that fits at a place is taken",
    "patient_examined_parts": "the simulated patient: parts of the body an examination is of, after 'your', 'his', "
                              "'her' or 'the' ('listen to your heart'): found only in a record of an examination; "
                              "read in order",
    "patient_observation_asks": "the simulated patient: the observations a doctor measures ('blood pressure', 'sats'): "
                                "a value asked for now, or a record of observations; read in order",
    "patient_measured_only": "the simulated patient: observations only a measurement gives (not a temperature the "
                             "patient may have taken): asked again or with the observations, handed over",
    "patient_points_in_time": "the simulated patient: words of a point in time a fact says ('two days ago', 'this "
                              "morning'): what a question of when asks of several facts just told",
    "patient_weekdays": "the simulated patient: the days of the week ('on Saturday' a point in time, 'since Monday' "
                        "a time something began)",
    "patient_document_words": "the simulated patient: words that name a document or result, not what it is of",
    "patient_complaint_asks": "the simulated patient: words that open a consultation and ask only for the "
                              "complaint ('what's been going on?', 'how can I help?'): the patient tells what brought "
                              "them, never a fact that shares a word ('help' of who helps at home)",
    "patient_kind_words": "the simulated patient: kind words of a doctor's statement with no question ('that sounds "
                          "really tough', 'poor lad, he's been brave'): acknowledged, never answered with a 'No' or a "
                          "fact",
    "patient_routine_asides": "the simulated patient: the doctor saying a question is asked of everyone ('I ask "
                              "everyone this'): an aside that asks nothing",
    "patient_examine_words": "the simulated patient: words by which the doctor examines or takes observations "
                             "('examine', 'vitals'): a request that may hand over a record of the examination",
    "patient_examine_felt_parts": "the simulated patient: what a doctor feels, after 'feel your', 'his' or 'her' "
                                  "('feel your tummy'): an examination; read in order",
    "patient_examine_checked": "the simulated patient: what a doctor checks, takes or measures after 'your', 'his', "
                               "'some' or 'the' ('check your sugar'): an examination; read in order",
    "patient_examine_looked_parts": "the simulated patient: what a doctor looks at or in, after 'your', 'his' or "
                                    "'her' ('look in his ears'): an examination; read in order",
    "patient_examine_measured": "the simulated patient: observations a doctor rechecks, repeats or records ('repeat "
                                "his obs', 'get a cap refill'): an examination; read in order",
    "patient_monitor_words": "the simulated patient: words before 'monitor' ('on the sats monitor', 'to a cardiac "
                             "monitor'): putting the patient on one is an examination",
    "patient_dose_units": "the simulated patient: the units and forms a dose is said in after an amount ('two puffs', "
                          "'5 mg'): a fact that says one answers a question of the dose; read in order",
    "patient_which_medicine_nouns": "the simulated patient: words of medicines in a question of which one someone "
                                    "takes ('what tablets does he take?'): the answer must name it",
    "patient_family_history_words": "the simulated patient: words that ask of illness in the patient's relatives "
                                    "('FHx', 'hereditary', 'blood relatives'), not of the patient",
    "patient_paired_parts": "the simulated patient: paired parts of the body after 'both' ('both legs'): a fact that "
                            "says it tells which side",
    "patient_test_doing_verbs": "the simulated patient: verbs of doing a test that, after another who will do it now "
                                "('the nurse will take some bloods now'), make the doctor's statement a request",
    "patient_test_services": "the simulated patient: who does a test on a sample besides the doctor ('the lab', "
                             "'haematology'): 'can the lab do a blood film?' asks for the test, a request",
    "patient_test_samples": "the simulated patient: what a test is done on ('on that sample'): after 'they' and a "
                            "verb of doing a test the doctor asks for the test",
    "patient_finding_tellers": "the simulated patient: who or what tells what a test or visit found, after 'the' ('the "
                               "consultant said', 'the scan showed'): the fact that answers what was found",
    "patient_regular_medicines": "the simulated patient: the medicines 'regular' is said of ('regular tablets': the "
                                 "usual ones, not a steady heartbeat)",
    "patient_held_documents": "the simulated patient: what 'do you have the/your/any ...' asks for ('do you have your "
                              "old scan reports?'): a request for a document, not a history question",
    "patient_result_nouns": "the simulated patient: words of a result that alone make a question ask for one ('the "
                            "results?')",
    "patient_results_back_nouns": "the simulated patient: what is asked to be back ('are the bloods back?'): a "
                                  "result asked for",
    "patient_came_back": "the simulated patient: a thing coming back ('did the FIT come back?'); of a symptom too "
                         "('did the pain come back?')",
    "patient_came_through": "the simulated patient: a report coming through ('did the echo report come through?')",
    "patient_culture_grow": "the simulated patient: a culture's growth after 'did/has/have anything' and before "
                            "'anything' ('did anything grow?'): a result asked for, not whether a lump grew",
    "patient_culture_grew": "the simulated patient: a culture's growth after 'what' ('what grew?')",
    "patient_episodes": "the simulated patient: episodes 'between' is said of ('between the attacks', 'between "
                        "screaming bouts'): the time in between",
    "patient_dose_asked_words": "the simulated patient: words after 'what' or 'which' that ask the dose of a medicine "
                                "('what dose?', 'which strength?'); read in order",
    "patient_dose_asked_units": "the simulated patient: units after 'how many' that ask the dose ('how many mg?')",
    "patient_history_headings": "the simulated patient: shorthand headings of a history ('SH', 'PMH', 'FHx'): a part "
                                "that is only one heads the questions after it",
    "patient_consultation_medium": "the simulated patient: the doctor speaking of the consultation's medium ('Sorry, "
                                   "the screen froze - ...'): the call, the line, the picture and the sound ask "
                                   "nothing, whatever fact shares a word",
    "patient_discourse_lead_ins": "the simulated patient: words that only lead into a question ('Just to check - no "
                                  "rash at all?', 'Quick question: any cough?'): discourse, no part of what is asked",
    "patient_in_general": "the simulated patient: a fragment asking how something is in general ('and her mood "
                          "generally?', 'sleep overall?'): an open question, unsure when the record does not say, "
                          "never 'No'",
    "patient_mentioned_to_you": "the simulated patient: whether anyone has mentioned something to the patient "
                                "('has anyone ever mentioned your parathyroid glands to you?'): unsure when the record "
                                "does not say, never 'No', as of a diagnosis",
    "patient_seen_asks": "the simulated patient: whether someone looked at or saw what is asked of ('has anyone looked "
                         "at that knee?', 'has the kitten been seen by a vet?'): only a fact that tells it was seen "
                         "answers",
    "patient_seen_tells": "the simulated patient: what a fact says when it tells that something was seen or by whom "
                          "('the GP looked at it', 'the vet said'), answering a question of patient_seen_asks",
    "patient_kind_named": "the simulated patient: a name whose first word names one kind of a symptom ('double "
                          "vision', 'stiff neck'): a fact that does not say that word is said with doubt, never as "
                          "the answer",
    "patient_side_asks": "the simulated patient: a question of which side ('which side was the operation on?'): a "
                         "fact heard that says no side (patient_side_tells) is not said again as if it answered",
    "patient_side_tells": "the simulated patient: what a fact says when it states a side ('left', 'both')",
    "patient_place_asks": "the simulated patient: a question of where a thing was done ('which hospital did the "
                          "scan?'): a fact heard that names no place (patient_place_tells) is not said again",
    "patient_place_tells": "the simulated patient: what a fact says when it names where a thing was done ('hospital', "
                           "'the GP', 'privately')",
    "patient_date_asks": "the simulated patient: a question of the date of a thing ('what year was that?'): a fact "
                         "heard that says no time (patient_date_tells, a number) is not said again",
    "patient_date_tells": "the simulated patient: what a fact says when it states when ('in March', 'two years ago')",
    "patient_brand_asks": "the simulated patient: a question of the brand of a thing ('which brand is it?'): a fact "
                          "heard that names none (patient_brand_tells, a name) is not said again",
    "patient_brand_tells": "the simulated patient: what a fact says when it tells a brand ('own brand', 'generic')",
    "patient_who_asks": "the simulated patient: a question of who did a thing ('who diagnosed it?'): a fact heard "
                        "that names nobody (patient_who_tells, a name) is not said again",
    "patient_who_tells": "the simulated patient: what a fact says when it names who ('the GP', 'my mum', 'nobody')",
    "patient_low_content_words": "the simulated patient: words of what is done with a thing or of a kind of thing "
                                 "('checked', 'procedures'): a fact that shares only such a word with a question that "
                                 "names something else does not answer it",
    "patient_results_judged": "the simulated patient: what the doctor says results are ('the bloods are "
                              "reassuring'): a statement of what was seen, asking for nothing",
    "patient_record_places": "the simulated patient: where the practice keeps what it holds ('on the system', 'on "
                             "file'): 'is there a photo on the system?' asks for the record's photo, not a history",
    "patient_examination_commands": "the simulated patient: manoeuvres of an examination the doctor asks the "
                                    "patient to do ('squeeze my hands', 'turn the camera to the rash', 'smile'): the "
                                    "patient does them and the examination's findings are handed over",
    "patient_picture_words": "the simulated patient: what a photo or video the patient took is called ('did you "
                             "take a picture of the tick?' asks for the picture)",
    "patient_home_measuring": "the simulated patient: what a patient measures with at home ('do you have a "
                              "thermometer?' asks them to measure: the examination's findings)",
    "patient_doctor_has_it": "the simulated patient: the doctor saying they have what was sent ('thanks for the "
                             "photo, I've got it up here'): asks for nothing, so nothing is handed over again",
    "patient_doctor_writes": "the simulated patient: the doctor saying they write something down themselves ('I'm "
                             "just going to type a few notes'): asks for nothing, so nothing is handed over again",
    "patient_side_words": "the simulated patient: a side a request may name inside an attachment's keyword "
                          "(\"the back of the left eye\" asks for \"back of the eye\")",
    "patient_places_attended": "the simulated patient: places the patient goes to ('nursery', 'school'): a question "
                               "only of one ('how many days a week is he at nursery?') is not answered by the fact of "
                               "the unwell contacts there",
    "patient_whole_history": "the simulated patient: words that ask the whole of the patient's own medical history "
                             "('PMH?', 'anything else you see the doctor for?'), not one organ's",
    "patient_long_term_conditions": "the simulated patient: long-term illnesses a fact's topic may be about apart "
                                    "from the rest of the history ('diabetes history and control'): a question of the "
                                    "past medical history ('PMH?') gets that fact too when the doctor has not heard it",
    "patient_food_and_drink": "the simulated patient: eating and drinking said together ('when did you last eat or "
    "drink?'): food and fluids, so a fact about alcohol alone does not answer them",
    "patient_household": "the simulated patient: words besides the relatives ('patient_relatives') that say who "
                         "lives with the patient, or nobody ('the kids', 'on my own'): a fact that says none of them "
                         "does not answer 'who's at home with you?'",
    "patient_own_times": "the simulated patient: words after 'this' or 'that' that name their own time ('this year', "
                         "'this pregnancy'): no pointer back",
    "patient_request_words": "the simulated patient: words of asking ('can I see it again please'): in these "
                             "alone, a request is for what was just handed over",
    "patient_qualities": "the simulated patient: words after 'is it' that ask how a symptom is, not what illness it is",
    "patient_states": "the simulated patient: words after 'is that' that ask how what was just told stands",
    "patient_medicine_use": "the simulated patient: verbs of using a medicine ('tried', 'used', 'put on'): beside "
                            "a medicine named they ask nothing of their own, so 'what creams have you tried?' is "
                            "every cream, not the one fact whose author listed 'tried'",
    "patient_not_medicines": "the simulated patient: products a patient does not count as medicines (supplements, "
                             "herbal remedies, gym products, recreational drugs): a held-back fact of them alone is "
                             "not asked by a question of the whole medicine list",
    "patient_any_medicine": "the simulated patient: words of a dose question that name no medicine in particular",
    "patient_unseen_findings": "the simulated patient: words of examination and test findings a patient cannot know "
                               "unless told (crackles, consolidation): said while only an attachment holds them, "
                               "they leak it",
    "patient_small_words": "the simulated patient: words that carry no topic of their own in a doctor's question",
    "negation_before": "answers: words before an action that negate it ('no CT', 'avoid NSAIDs', 'stop aspirin')",
    "negation_after": "answers: words after an action that negate it ('CT is unnecessary', 'NSAIDs are "
                      "contraindicated')",
    "interaction_words": "answers: words a bracket of drugs follows that make them what to keep away from "
                         "('lithium interactions (NSAIDs, diuretics)'), not given",
    "forecast_leads": "answers: words after another team's name that forecast what that team will do ('cardiology "
                      "will almost certainly start nadolol'): what the forecast names is not given by the answer",
    "deferral_after": "answers: words after an action that put it off for now ('acetazolamide not yet', 'steroids "
                      "later if needed'): a negation only where they close what is said of it, so 'the CT is not "
                      "yet back' is a result still to come",
    "negation_verdict_leads": "answers: a verdict after an action: one of these, an optional adverb, then a verdict "
                              "word ('CT is not routinely needed')",
    "negation_verdict_adverbs": "answers: the optional adverb of such a verdict",
    "negation_verdicts": "answers: the verdict words",
    "negation_passive_leads": "answers: 'X should not be started': one of these, 'be', then a verb of giving",
    "negation_passive_verbs": "answers: the verbs of giving in such a sentence",
    "harm": "answers: a harm said of an action as its very next words ('undiluted IV adrenaline risks arrhythmia')",
    "exclusion": "answers: an exclusion: after a temporal word it is a condition ('aspirin once haemorrhage excluded')",
    "temporal": "answers: words that open a temporal clause",
    "hedge": "answers: hedges: a negation for an action, a differential for a diagnosis",
    "pseudo_negation": "answers: negation words that negate nothing ('cannot rule out', 'no improvement')",
    "differential_strong": "answers: words that put a diagnosis on the differential, even inside a Diagnosis section",
    "result_places": "answers: words right before a test that make it where a finding was looked for ('no "
                     "arrhythmia on the ECG'): the test was done",
    "result_places_not_after": "answers: words before a result place that make the test what a decision rests "
                               "on ('decide on CT')",
    "record_pending": "case record: words that say a test's result is not there yet ('results pending'): a "
                      "condition on it is a later event",
    "withhold_declined_after": "answers: words right after a treatment that decline it ('acetylcysteine is not "
                               "required'): a withholding",
    "monitoring_item_words": "answers: words of a monitoring item whose bracket lists what it checks ('Magnesium "
                             "toxicity monitoring (reflexes, respiratory rate, urine output)'): those are the item",
    "level_words": "answers: the last word of a test item that is one measured thing's level ('Blood alcohol "
                   "level'): a result of what it measures reports it done",
    "level_not_analytes": "answers: words before a level word that are not what is measured ('serum', 'hour')",
    "query_cancer_words": "answers: bare words for a cancer that a query on a line naming the organ ('L breast "
                          "lump ... ?Ca') makes that organ's cancer",
    "declined_actions": "answers: actions an answer may decline by the verb alone ('do not aspirate', 'not for "
                        "discharge'): the declining meets a harmful item whose words hold the action",
    "level_repeat_words": "answers: words of a level item that make it repeated measurement ('serial lithium "
                          "levels'): one reported result is not it",
    "differential_predicates": "answers: what is said after a diagnosis that puts it on the differential even "
                               "where it opens its line ('to be excluded')",
    "differential_weak": "answers: words that put a diagnosis on the differential outside a Diagnosis section",
    "diagnosis_age_prefixes": "answers: age-group words that open a diagnosis's name ('Juvenile systemic lupus "
                              "erythematosus'): the name without them names the item too",
    "history_condition_before": "answers: words before a drug or test that make it part of a condition ('allergic "
                                "to penicillin')",
    "reaction_words": "answers: a reaction to a drug ('rash', 'anaphylaxis'): with a lead and a preposition "
                      "before the drug ('had a rash with') or a verb of causing after it ('gave her a rash'), "
                      "the drug is history",
    "reaction_leads": "answers: words before a reaction that make it the patient's past ('had', 'previous')",
    "reaction_causes": "answers: verbs right after a drug that say it caused a reaction ('gave', 'caused')",
    "history_response_leads": "answers: words before a treatment or test that name the patient's response to it "
                              "before today ('no response to', 'failed', 'despite'): history, never a plan",
    "history_change_words": "answers: a change of the illness ('worse', 'enlarged') that, right before a "
                            "preposition of time and a treatment or procedure ('worse post-debridement'), makes "
                            "that treatment history",
    "history_change_prepositions": "answers: the prepositions of time of such a change ('after', 'post')",
    "history_before_workup": "answers: words before a test that make it history ('previous colonoscopy')",
    "history_before_treatment": "answers: words before a drug that make it history or a cause ('currently on "
                                "ramipril', 'secondary to NSAIDs')",
    "history_after": "answers: words right after a drug or test that make it history or a reaction "
                     "('NSAID-induced', 'penicillin allergy')",
    "clause_words": "answers: words that end the reach of a cue: a new clause begins",
    "action_verbs": "answers: verbs that begin a new action in a list ('no CT, start amoxicillin')",
    "links": "answers: words that join list pieces",
    "reduction_words": "answers: words of a reduction of a treatment ('wean', 'withdraw'): such a cue before a drug "
                       "agrees with an item that is itself a reduction or withholding",
    "open_line_ends": "answers: words a line of prose cannot end a sentence with (the line is wrapped)",
    "determiner_negations": "answers: negations whose list must close with 'or' to negate it all ('no A, B or C')",
    "negation_example_leads": "answers: words after a comma that give examples of what a bare negation before it "
                              "denies ('no NSAIDs, e.g. ibuprofen'); any other piece after the comma is an action of "
                              "its own ('no debridement, non-adherent dressings')",
    "reason_words": "answers: words that open a reason: a negated predicate after one is not the list's",
    "plural_leads": "answers: words of a predicate for several coordinated items ('X and Y are contraindicated')",
    "condition_consequents": "answers: words after a condition that open what it leads to ('> 4 mm leads on to a "
                             "biopsy'): what follows them in their clause or bracket is conditional",
    "condition_insisted": "answers: words closing a temporal clause after an action that say it waits for it "
                          "('HRT once a cancer is excluded - not before'): a condition, not a time",
    "threshold_nouns": "answers: nouns right after a treatment that make it the name of its threshold ('below the "
                       "dialysis threshold'): a condition of it, nothing done",
    "condition_triggers": "answers: words that make an action conditional ('only if', 'reserved for', 'on standby')",
    "condition_precautions": "answers: words that open a need the action before them prepares for ('IGRA in case "
                             "biologics are needed'): the action stands, what the need names is a later event",
    "open_conditions": "answers: condition triggers of a plan's own contingencies ('X if Y'), which physicians often "
                       "read as the plan: an item left out whose only mention they make conditional is doubted",
    "other_branches": "answers: words that open the other branch of a contingency ('...; otherwise surgery'): an "
                      "item given from a piece holding one is doubted",
    "action_hedges": "answers: words (and the query mark) a few words before an action that only weigh it ('?DDAVP', "
                     "'consider morphine'): an action given from such a mention is doubted",
    "bare_negations": "answers: the one-word negations ('no', 'not'), which in shorthand often report a finding "
                      "('no peritonism'): an item left out as negated by one, or a differential rejected by one, "
                      "is doubted",
    "label_withholds": "answers: a label's verdict right after its colon that withholds it ('Fludrocortisone: "
    "hold')",
    "procedure_done_after": "answers: words right after a procedure's name that report it done ('Therapeutic "
                            "aspiration already done')",
    "label_refusals": "answers: a label's whole verdict that refuses it, closing what is said of it ('NSAIDs: no')",
    "not_done_after": "answers: words right after an action or its label's colon that report it not done, closing "
    "what is said of it ('Speculum: not done')",
    "permission_after": "answers: words right after an action that allow it, closing what is said of it ('calpol "
    "ok', 'paracetamol fine'): the plan gives it, and no negation before them reaches it",
    "condition_result_waits": "answers: words that make an action wait for a result still to come ('once the "
    "result confirms'): a later event, whatever the record establishes",
    "condition_result_back": "answers: the end of a wait for a named result after a lead and a few words ('once the "
    "CSF is back'): a later event",
    "condition_result_back_leads": "answers: words that open a wait for a named result ('once', 'until')",
    "condition_result_nouns": "answers: the nouns of a result that end such a wait ('once the FBC result')",
    "examining_words": "answers: verbs of examining that, in a clause naming most of the parts an examination "
                       "item lists in its bracket, report it done ('I checked her mouth and eyes')",
    "condition_duration_leads": "answers: wait words that, after the action in its piece, give how long it runs "
                                "('IV cefuroxime until the aspirate result is back': given now)",
    "condition_duration_holds": "answers: words of a piece that hold back or put off its action, so a later "
                                "'until' is a wait ('defer surgery until the scan is back')",
    "condition_opening_triggers": "answers: condition words only where they open a clause ('Should she deteriorate, "
                                  "...')",
    "not_conditions": "answers: condition-like words that set no condition ('if needed', 'if he prefers')",
    "sign_counts_before": "answers: words after which a short form written as a sign is a count, not what it "
                          "stands for ('# of tablets': number of, not fracture of)",
    "condition_above": "answers: a condition's comparison with a number the value must be above",
    "condition_below": "answers: a condition's comparison with a number the value must be below",
    "value_links": "answers: words between a test's name and its value in a case record ('potassium level was 7.4')",
    "examination_words": "answers: words that make a work-up item an examination or observations (a finding of it "
                         "reported in an answer examined)",
    "examination_generic_words": "answers: words of an examination finding that say nothing of which examination",
    "withholding_verdicts": "answers: verdicts after an instruction to withhold that agree with it "
                            "('no NSAIDs - ibuprofen stopped')",
    "item_replaces": "answers: words in a reference item's name before the action it replaces ('routine referral "
                     "instead of the suspected cancer pathway'): the item's time, and what it is about, are its own "
                     "part's",
    "item_goes_without": "answers: words of item_replaces by which a harmful item gives its drug without another "
                          "drug or class it needs ('levothyroxine without glucocorticoid cover'): an answer that "
                          "gives that one too is not the item",
    "order_words": "answers: words that order two actions: a phrase's words keep their side of one "
                   "('discharge before psychosocial assessment')",
    "fasting_wait_words": "items: words of a harmful item's waiting, which with a fasting word make it a delay for "
                          "fasting ('Delay removal to wait for fasting')",
    "fasting_words": "items and answers: words of fasting; an answer's fasting for a stated number of hours meets a "
                     "harmful delay for fasting ('fasted for 6 hours, then endoscopy')",
    "sequence_openers": "answers: words that open a step done after the step before it ('2. Then irrigate'): "
                        "a harmful item of an order is met across the two steps",
    "dose_words": "answers and items: the words of a dose, how often and how long (an item that names a drug "
                  "with its dose is still about the drug)",
    "condition_piece_breaks": "answers: words that start the piece a condition in the middle of a clause is about "
                              "('atropine with isoprenaline on standby')",
    "condition_clause_leads": "answers: words a condition word may follow and still open its clause ('and if')",
    "condition_absence": "answers: words of a condition that speaks of absence, failure, intolerance or a later "
                         "event: never established by the record",
    "condition_present_finding": "answers: words of a condition that states a present finding ('if the ECG shows', "
                                 "'if the BP is above')",
    "condition_test_words": "answers: words of a condition that name a test still to be done ('if testing "
                            "confirms'): with a word of condition_confirming, a later event unless the record "
                            "holds the test's result",
    "condition_confirming": "answers: words by which such a test confirms or shows something ('confirms', "
                            "'shows', 'positive')",
    "history_clause_leads": "answers: a word opening a clause that makes it the patient's background ('Known ...')",
    "condition_caveat": "answers: a condition that only excludes a contraindication ('if not allergic') or, of a "
                        "stop, the drug's own indication",
    "condition_recheck": "answers: words of a threshold condition that wait for a new measurement ('if K > 6.5 on "
                         "repeat'): the record's value does not settle it",
    "condition_persisting": "answers: words of a threshold condition that say the value is already there ('if BP "
                            "remains >= 160/110 on repeat'): the record's value settles it after all",
    "condition_negators": "answers: negating words in a condition",
    "history_labels": "answers: a label before a colon that makes its line history ('Precipitants: ...')",
    "deferrals": "answers: words by which a clause defers its action to the condition before ('at that point', a "
                 "last 'then')",
    "heading_diagnosis": "answers: whole headings that open the final diagnosis",
    "heading_icd": "answers: whole headings that open the ICD-10 codes",
    "heading_differential": "answers: whole headings that open the differential diagnosis",
    "heading_workup": "answers: whole headings that open the work-up",
    "heading_treatment": "answers: whole headings that open the treatment and management plan",
    "heading_assessment_plan": "answers: whole headings of an assessment and a plan together ('A/P:'): the text on "
                               "the heading's line is the assessment, what follows the plan",
    "heading_advice": "answers: whole headings that open advice to the patient (safety-netting, follow-up)",
    "heading_avoid": "answers: whole headings that open what not to do (everything under it is negated)",
    "indication_event_words": "answers: words of a condition that say its indication happens ('if seizures occur'), "
                              "left out when it is compared with an item's own indication",
    "avoid_alternative_after": "answers: a word ending a clause under an Avoid heading on the alternative given "
                               "in the place of what is avoided ('paracetamol instead'): that treatment is given",
    "heading_other": "answers: whole headings that open reasoning, history or findings (prose, no items)",
    "heading_history": "answers: whole headings of reasoning that describe the patient ('Clinical summary', "
                       "'Supporting features'): in an answer with a plan section a treatment under one is history",
    "heading_tail_treatment": "answers: last words that make a short unlisted heading a treatment one "
                              "('Immediate plan')",
    "heading_tail_workup": "answers: last words that make a short unlisted heading a work-up one ('Further tests')",
    "heading_tail_diagnosis": "answers: last words that make a short unlisted heading a diagnosis one",
    "heading_tail_advice": "answers: last words that make a short unlisted heading an advice one",
    "heading_tail_avoid": "answers: last words that make a short unlisted heading an avoid one ('What I would avoid')",
    "heading_tail_times": "answers: last words of a short heading that only time it ('Management today'): "
                          "its tail is read without them",
    "heading_plan_times": "answers: first words of a marked heading that times the plan ('After surgery', "
                          "'Once stable'): a treatment heading",
    "heading_differential_leads": "answers: first words that make any heading a differential one ('DDx (excluded)')",
    "heading_differential_words": "answers: words that make a short heading a differential one wherever they "
                                  "stand ('Other diagnoses considered')",
    "heading_avoid_leads": "answers: the first word of a short avoid heading made with a predicate ('Not advised:')",
    "heading_avoid_predicates": "answers: the predicate after it ('Not helpful here:')",
    "heading_avoid_words": "answers: words that make a short heading an avoid heading anywhere ('Drugs avoided')",
    "heading_avoid_negations": "answers: a negation that, right before a verb of giving, makes a short heading an"
                               " avoid heading ('Medicines I would not use')",
    "heading_avoid_verbs": "answers: the verbs of giving after such a negation ('Not given', 'would not prescribe')",
    "safety_net_terms": "answers: terms that are safety-netting themselves ('safety net', 'return precautions')",
    "safety_net_return_verbs": "answers: verbs of coming back: a safety net with a condition or urgency after them "
                               "('return if breathless') or an 'if' before them in the clause",
    "safety_net_return_when": "answers: words after a return verb that make it a safety net ('come back urgently', "
                              "'return if worse')",
    "safety_net_return_elsewhere": "answers: words right after a return verb that make it a return elsewhere "
                                   "('return to work', 'return to normal activities'), not to the doctor",
    "safety_net_seek_verbs": "answers: verbs of seeking: a safety net with one of the next list after them ('seek "
                             "urgent medical help')",
    "safety_net_seek_what": "answers: what is sought, or its urgency",
    "safety_net_call_verbs": "answers: verbs of calling: a safety net with an emergency number or service after "
                             "them ('call 999')",
    "safety_net_call_whom": "answers: the emergency numbers and services called",
    "safety_net_go_verbs": "answers: verbs of going: a safety net with the emergency department after them, or "
                           "hospital and an urgency ('go to A&E', 'attend hospital urgently if')",
    "safety_net_go_places": "answers: the emergency department, as its words are read (A&E, ED and ER are written "
                            "out before)",
    "safety_net_go_hospital": "answers: a place that is a safety net only with an urgency or a condition",
    "safety_net_urgency": "answers: the urgency or condition that makes going to hospital a safety net",
    "safety_net_conditionals": "answers: words earlier in a clause that make a return or a call a safety net ('if "
                               "worse, come back')",
    "safety_net_headings": "answers: headings of a section of safety-netting: under one, a verb of coming back, "
                           "seeking, calling or going with a condition is a safety net to any place",
    "safety_net_general_words": "answers: words of a safety net's condition that name no particular worry ('if things "
                                "get worse'): a case's safety net naming more is met only by one about the same thing",
    "anatomy_heads": "answers: organs that end a diagnosis's name without naming the disease ('torted ovary'): a "
                     "condition naming one is not established by the diagnosis",
    "assessment_words": "answers: words of an item that make it an assessment: a line headed by what is assessed "
                        "('Risk: passive SI, no plan') documents its findings",
    "telling_words": "answers: words of telling that open an item ('Explain febrile seizures') and a heading whose "
                     "points are what was told ('Explained to mum: common, not epilepsy')",
    "telling_skip": "answers: words of a telling item that a terse point leaves out ('explain it is not epilepsy': "
                    "'not epilepsy')",
    "assessment_heading_words": "answers: words such a heading may add to what is assessed ('Risk explored with "
                                "his wife:'); after 'with' comes who was asked",
    "counselling_words": "answers: words of an advice item ('Contraception and pregnancy counselling'): a plan "
                         "label or heading of its topic with advice after it gives it",
    "counselling_declined": "answers: words said first after an advice item's label that decline it "
                            "('Contraception: none needed')",
    "assessment_not_done": "answers: findings under such a heading that say the assessment was not done",
    "follow_up_review_words": "answers: words of a review: with an interval after them, a timed follow-up ('review "
                              "in 1 week', 'follow up in 2/52')",
    "follow_up_gap": "answers: words that may stand between a review word and its interval ('review her again in')",
    "follow_up_within": "answers: a word of that gap that makes the interval a limit ('within 48 hours': from now "
                        "to 48 hours in a reference)",
    "discharge_words": "answers: words of a discharge: with a treatment in the same clause, a discharge with that "
                       "treatment",
    "discharge_body_fluid": "answers: words before 'discharge' that make it a body fluid ('vaginal discharge'), not"
                            " a disposition",
    "discharge_plan_links": "answers: words of a 'discharge with X' item that are not the treatment X",
    "home_sending_words": "answers: words before 'home' that send the patient home ('can go home')",
    "discharge_from_here": "items: the places a patient is assessed in: a harmful discharge from one ('Discharge home "
                           "from triage') is met by a discharge now said without the place ('then home')",
    "home_as_place": "answers: words after 'home' that make it a place or a setting of care ('home oxygen'), not a "
                     "disposition",
    "home_later": "answers: words after 'home' that put the discharge after something else ('home once feeding "
                  "well')",
    "home_later_stops": "answers: words after 'home' that start another action, so a later word after them is "
                        "that action's ('home with GP review if not settling')",
    "condition_symptom_triggers": "answers: triggers by which a drug is dosed on a symptom ('ibuprofen if his legs "
                                  "ache', 'morphine 2.5 mg SC if in pain'): an as-needed prescription, the drug given",
    "condition_state_now": "answers: words of a condition that is the patient's general state now ('if stable'): the "
                           "record meets it unless it holds a word of record_unstable",
    "condition_recovery_words": "answers: words of a condition that is the patient's recovery ('once the "
                                "temperature settles'): a restart or continuation under it is timed by the recovery",
    "record_unstable": "cases: words of the record that say the patient is not stable: a condition of the state now "
                       "is not met",
    "test_repeat_words": "answers: words of a test done again ('repeat calcium in one week'): an emergency's "
                         "required test done again after today is still the test",
    "home_item_manage_words": "items: words of a harmful home-management item before 'at home' that name no "
                              "treatment ('Manage at home (paracetamol, review tomorrow)')",
    "elided_repeat_words": "answers: words that open a piece repeating the drug of the piece before, its name left "
                           "out ('lorazepam 4 mg IV now, repeat once at 10 minutes'): a repeat of that drug",
    "home_item_routine_words": "items: words of a harmful item of routine care in place of the same day's ('Routine "
                               "outpatient management without same-day referral'): met by a plan that admits and "
                               "refers nobody today and reviews on a later day",
    "home_item_team_procedures": "items: procedures a specialist team does on the day it is called, as what a "
                                 "harmful item goes without ('... without same-day drainage'): an answer that admits "
                                 "or refers today is never the item",
    "delay_item_words": "items: words of delay in a harmful item that puts the emergency action off for a later "
                        "look ('delayed reassessment'), with a word of delay_item_recheck_words",
    "delay_item_recheck_words": "items: words of a recheck in a harmful delayed-reassessment item ('Observation with "
                                "delayed reassessment before decompression')",
    "delay_recheck_words": "answers: words of a recheck, review or referral that, set hours or days from now without "
                           "a condition ('neurovascular obs in 4 hours'), meets a delayed-reassessment item",
    "delay_item_before_words": "items: words of a harmful item that put its observation before the emergency action "
                               "named after them ('Observation on the ward before surgical referral')",
    "home_review_words": "answers: words of a review or recheck a home plan sets for later ('repeat calcium in one "
                         "week'): with a later time, the review of a home-management item",
    "discharge_item_skips": "items: words of a harmful discharge item before what the discharge goes without "
                            "('Discharge before psychosocial assessment'): any discharge not waiting for it meets it",
    "discharge_item_as": "items: words of a harmful discharge item before the wrong reading it discharges on "
                         "('Discharge home as gastroenteritis'): a discharge now meets the item",
    "discharge_skipped_generic": "items: words of what a harmful discharge goes without that name no particular "
                                 "check ('clearance'): an answer's wait for it need not say them",
    "discharge_as_time": "answers: words right before a discharge that make it the time of another action "
                         "('assessment before discharge')",
    "discharge_wished": "answers: words before a discharge that make it the patient's wish, not the plan ('she "
                        "wants to go home', 'self-discharge')",
    "discharge_not_sent": "answers: words right after 'discharge' that make it a document or a plan, no sending "
                          "home ('discharge summary')",
    "result_trend_words": "answers: words after something a laboratory measures that follow its result, not give "
                          "it ('check pH and bicarbonate are improving')",
    "result_check_verbs": "answers: verbs before something a laboratory measures (only a list of such things "
                          "between) that check it, not give it ('monitor the bicarbonate')",
    "result_trend_links": "answers: small words between a measured thing and its trend ('bicarbonate is "
                          "improving')",
    "drug_item_loose_words": "answers: words of a drug item that say how the drug is chosen, not what else the "
                             "item is about, so beside a route they count neither way ('Empirical IV antibiotics'; "
                             "'Empirical antibiotics' without a route stays a loose item)",
    "local_routes": "answers: routes (and those under them) that a drug named without its route is never given "
                    "by, so that it meets no harmful item of such a route",
    "resuscitation_item_words": "answers: words of a reference item that make it fluid given fast, which a volume "
                                "run over hours (a maintenance rate) is not",
    "bolus_item_words": "answers: words of a reference item that make it a one-off dose of its drug or class "
                        "('Insulin bolus', 'aspirin loading dose')",
    "bolus_marks": "answers: words of an answer's piece that give its drug as a one-off dose ('Actrapid 0.1 "
                   "units/kg IV stat', 'Plasma-Lyte 10 ml/kg stat')",
    "bolus_infusion_words": "answers: words of such a piece that make it a running infusion, not a one-off dose "
                            "('insulin infusion stat')",
    "switch_words": "answers: verbs that switch one treatment for another ('switch sertraline to mirtazapine'): "
                    "what follows 'to', 'for' or 'with' is given; an item 'switch antidepressant' is a switch "
                    "within the class",
    "withhold_permanent": "answers: words of a reference item that make its stop permanent ('Stop lamotrigine "
                          "immediately and permanently')",
    "withhold_temporary": "answers: words in the clause of an answer's stop that end it later ('hold it for now "
                          "and restart it once healed'): a hold, not a permanent stop",
    "withhold_words": "answers: words of a reference item about withholding a treatment ('withholding analgesia "
                      "until assessed'): what follows is the treatment",
    "withhold_modifiers": "answers: words of such an item that say which supply is stopped ('stop regular "
                          "ibuprofen'), not what",
    "withhold_denied_objections": "answers: words between a negation and a treatment that make the negation "
                                  "theirs ('not a CI to VTE prophylaxis'): no withholding",
    "withhold_end": "answers: words that end the treatment of such an item ('until', 'while')",
    "withhold_wait_ends": "answers: end words of such an item that make it wait for something ('until the "
    "cortisol result'): a treatment the answer makes wait for a result is that withholding",
    "continuation_item_words": "answers: words that open a treatment item of more of a treatment already begun "
    "('Further IV fluids guided by response')",
    "continuation_item_ends": "answers: words that end the treatment of such an item ('guided', 'titrated')",
    "continuation_words": "answers: words right before a treatment that continue it ('further saline', 'ongoing IV "
    "fluids')",
    "loading_item_words": "answers: words of a treatment item's name that make it a loading dose ('60 mg/kg', "
    "'loading dose'): a maintenance regimen with no route and no time of now is not it",
    "maintenance_frequency_words": "answers: a regular frequency that makes a drug a maintenance regimen "
    "('levetiracetam 500 mg BD', 'twice daily'): no loading dose given now unless a route or a time of now is said",
    "restart_item_words": "answers: words that open a treatment item of restarting a drug the patient took ('Restart "
    "regular levetiracetam')",
    "restart_item_qualifiers": "answers: words of such an item beside its one drug that say it is the patient's own "
    "('regular', 'usual')",
    "restart_words": "answers: words right before a drug that restart it ('restart LEV 1 g BD', 'resume Keppra')",
    "reversal_words": "items and answers: the words of reversing a drug's effect ('Reversal of apixaban', 'reverse the "
                      "anticoagulation'): an item that reverses a drug is not met by an agent that does not reverse it "
                      "(`reverses` of drugs.yaml)",
    "continue_words": "answers: words right before a drug that keep the patient's own regimen going ('continue "
    "levetiracetam 500 mg BD'); with restart_words, never an item that gives the drug now",
    "increase_item_words": "answers: words that open a treatment item of raising one drug's dose ('Increase "
    "lamotrigine dose', 'Uptitrate bisoprolol')",
    "increase_item_qualifiers": "answers: words of such an item beside its one drug ('dose', 'the')",
    "increase_words": "answers: words right before a drug that raise its dose ('uptitrate bisoprolol')",
    "increase_to_lead_words": "answers: words after a drug before 'to' and a new dose that raise it ('LTG up to 150 "
    "bd', 'increase to 150 mg bd')",
    "increase_to_words": "answers: the word between an increase word and the new dose ('up to 150')",
    "increase_arrows": "answers: marks between a drug's old dose and a new one ('Atorva 20 -> 80'): a raise when the "
    "new is higher",
    "adjust_item_words": "answers: words of a treatment item of adjusting one drug's or drug class's dose ('Insulin "
    "adjustment for hyperglycaemia', 'Titrate levothyroxine')",
    "adjust_item_ends": "answers: words of such an item after which its indication follows ('for hyperglycaemia')",
    "adjust_words": "answers: words right before or just after a drug in its clause that adjust its dose ('titrate "
    "insulin to CBG', 'glargine dose reduced'), with increase_words",
    "dose_count_words": "answers: words after a number that make it a count, no dose ('up to 4 times a day')",
    "continuation_then": "answers: words after a treatment's dose in its clause that open its next dose ('saline 1 L "
    "over 1 hour, then 1 L 8-hourly')",
    "gradual_item_words": "answers: words of an item that make it a gradual change of what it measures ('Gradual "
    "blood pressure reduction'), and in an answer's line about that measure say it ('reduce the BP slowly')",
    "gradual_change_words": "answers: words of changing a measure ('reduce', 'down', 'drop', 'correct'): with a rate "
    "per day after them ('SBP down ~20/day') the change is gradual",
    "gradual_rate_periods": "answers: the periods of a rate of change that is gradual, after a number ('20/day', "
    "'10 per 24 h')",
    "gradual_rapid_words": "answers: words of a rapid change: declined with a bare negation ('no rapid drop', 'avoid "
    "a precipitous fall') they say the change is gradual",
    "gradual_rapid_negations": "answers: the negations that decline a rapid change right before its word ('no "
    "rapid drop', 'avoid a precipitous fall')",
    "serial_frequency_words": "answers: a repeating frequency right after a measured thing (digits between) or "
    "right before it: its serial measurement ('Na 2-4 hrly', 'hourly sodium')",
    "monitoring_qualifiers": "answers: words before a monitoring word that say how, not what, is measured "
    "('Closer blood glucose monitoring')",
    "ongoing_monitoring_words": "answers: words of an item that make it monitoring that goes on ('Continuous "
    "oxygen saturation monitoring', 'Hourly urine output'): a result reported with its value is one reading, not it",
    "withhold_cues": "answers: words before a treatment in an answer that withhold it ('don't take any "
                     "painkillers', 'hold off on pain relief')",
    "explain_words": "answers: words that open a reference item about explaining why a treatment or test is not "
                     "needed ('Explain that antibiotics are not needed and why')",
    "explain_marks": "answers: words that make an explaining item one about what is not needed ('... are not "
                     "needed and why')",
    "explain_end": "answers: words that end the treatment or test of such an item ('are not needed')",
    "explain_skip": "answers: words between the explaining word and the treatment of such an item ('explain why a "
                    "CT scan ...')",
    "decline_reasons": "answers: words of an answer's line that give a reason for declining a treatment or test "
                       "('no antibiotic - this is almost certainly viral', 'CT not indicated; explained rationale')",
    "withhold_leads": "answers: words that may stand before the withholding word of a reference item ('taper and "
                      "stop zopiclone'); any other word makes the item about something else ('BP check after "
                      "stopping doxazosin')",
    "withhold_stopped": "answers: words right after a treatment that withhold it ('sertraline should be stopped')",
    "withhold_next": "answers: shorthand that withholds only the treatment written right after it ('d/c Ditropan'; "
                     "'d/c home' is a discharge)",
    "withhold_negators": "answers: negating words that undo a withholding ('do not hold analgesia back', 'must not "
                         "be stopped')",
    "ecg_names": "answers: the name of the plain 12-lead ECG, as its words are read (ECG is written out before)",
    "ecg_plain_words": "answers: other words of a reference item that is still the plain ECG ('12-lead ECG'); any "
                       "other word makes it a variant ('right-sided ECG leads')",
    "ecg_findings": "answers: findings only an ECG gives: an answer that reports one did the ECG ('ST elevation in "
                    "II, III and aVF')",
    "ecg_aims": "answers: words before a rhythm that make it an aim of treatment ('cardioversion to restore sinus "
                "rhythm'), not a finding",
    "result_dose_units": "answers: units after a number that make it a dose, not a result ('potassium 20 mmol', "
                         "'two tablets')",
    "result_frequency_units": "answers: words after a number that make it a frequency, not a result ('4-hourly', "
                              "'30/500 QDS')",
    "result_per_litre": "answers: the denominators of a concentration unit of a laboratory value ('mmol/L', "
                        "'mg/dL')",
    "panel_shared_analytes": "answers: analytes a panel shares with another panel ('bicarbonate': a gas and a "
                             "chemistry profile): alone on its line such a result reports no panel; beside another of "
                             "the panel's analytes or names it does",
    "result_analytes": "answers: what a laboratory measures besides the panels' analytes: a treatment naming one, "
                       "then a bare number, reports a result ('bicarbonate 6'); another drug's number is its dose",
    "result_qualitative": "answers: words that report a laboratory result without a number, right after its "
                          "analyte ('troponin negative', 'TSH nl', 'trop flat'): the panel was done",
    "panel_blood_tests": "answers: words that name blood tests: the organ of a panel after them in a clause asks "
                         "for the panel ('bloods to check her kidneys')",
    "analyte_not_after": "answers: a word before an analyte's label that makes it something else ('vitamin K' is no"
                         " potassium)",
    "analyte_correcting_verbs": "answers: verbs before something a laboratory measures and its state that make it "
                                "what a treatment corrects, not a test ('to correct the low calcium')",
    "analyte_state_words": "answers: words of a state right before something a laboratory measures, after a verb of "
                           "correcting ('correct the low calcium'): a known result treated, no test",
    "condition_after_treatment": "answers: words of a condition before a treatment whose outcome it is ('if still "
                                 "fitting after the phenytoin'): a later event the record cannot hold",
    "history_after_workup": "answers: a past time shortly after a test that makes it history, done before this illness "
                            "('CT head last year normal', 'FBC 2 weeks ago'); right after a drug, the drug taken "
                            "then ('ibuprofen last wk')",
    "history_after_treatment": "answers: who gave a drug or where, before this visit, shortly after it ('ibuprofen "
                               "given at home', 'adrenaline by the ambulance crew'): history, neither given nor a harm",
    "result_value_marks": "answers: marks and words between a test's label and its value that keep it a value "
                          "('CRP <5', 'UO ~20 ml/h', 'lactate >4', 'K approx 6')",
    "result_percent_analytes": "answers: what a test measures whose result may be a per cent ('sats 92%', 'HbA1c 9%', "
                               "'PEFR 45%'); after anything else a per cent is a strength ('glucose 10%')",
    "result_rate_analytes": "answers: what a test measures whose result may be a rate ('UO 20 ml/h', 'PEFR 150 "
                            "L/min'); after anything else a rate is a dose ('potassium 10 mmol/h')",
    "result_rate_denominators": "answers: the units after a slash that make a value a rate ('ml/h', 'L/min', "
                                "'ml/kg/h')",
    "result_ratio_analytes": "answers: what a test measures whose result is a fraction ('VA 6/12', 'VA R 6/6 L "
                             "6/12'), never a duration ('7/7'); side words may stand before the value",
    "result_side_words": "answers: the side a fraction result is of, between the label and the value ('VA L 6/12')",
    "result_target_words": "answers: words near a label and value that make them a target, not a result ('target "
                           "SpO2 94-98%', 'keep K > 4', 'aim glucose 6-10')",
    "result_signs": "answers: signs written as a result right after a label ('urine blood +++', 'leucocytes ++')",
    "withhold_give_verbs": "answers: verbs of giving after a withholding word that opens such an item ('do not "
                           "prescribe testosterone'): the treatment follows them",
    "unlisted_test_words": "answers: words of an unlisted answer item under a mixed plan heading that make it a "
                           "test (workup), as normalised words",
    "unlisted_test_endings": "answers: word endings that do the same ('colonoscopy', 'angiogram', 'spirometry')",
    "unlisted_monitoring": "answers: phrases of an unlisted answer item that measure whatever therapy word they hold "
                           "('fluid balance', 'urine output'): monitoring, not a fluid given",
    "unlisted_therapy_words": "answers: words of an unlisted answer item that make it a drug, procedure or fluid "
                              "(counted extra); advice, monitoring, referrals, timing and states are not",
    "unlisted_therapy_endings": "answers: word endings (of words over five letters) that do the same: drug stems "
                                "and procedures ('amoxicillin', 'appendicectomy')",
    "drug_name_fillers": "answers: words of a drug's name of several words that name no drug on their own "
                         "('low molecular weight heparin'): no drug word of an unlisted item",
    "unlisted_dose_units": "answers: units after a number that make an unlisted item a drug ('zinc 50 mg'), "
                           "compared as written",
    "unlisted_noise": "answers: words that are no item on their own: small words, verbs of ordering and timing, "
                      "doses, routes and frequencies, hedges, approximations, how a dose is given, a measure's "
                      "target (a piece of only these is left out)",
    "unlisted_withholding": "answers: words that make an unlisted answer item an instruction to give nothing "
                            "('keep NBM'), among its first three words",
    "unlisted_readiness": "answers: words that make an unlisted treatment item something made ready, not given "
                          "('oxytocin infusion ready', 'IV access')",
    "unlisted_qualifiers": "answers: words after a named item or an unlisted drug that open what qualifies it "
                           "('paracetamol for fever and pain'): what follows is left out",
    "unlisted_body_sites": "answers: words of a piece that only names body sites: it extends the item before it "
                           "('CT chest, abdomen and pelvis')",
    "unlisted_statement_words": "answers: words after a piece's first word that make it a statement about a drug "
                                "or a state ('paracetamol still detectable'), not an item",
    "unlisted_statement_subjects": "answers: subjects that open a piece told of the patient ('he will be "
                                   "immobilised'): a statement when a verb of being follows",
    "unlisted_statement_verbs": "answers: the verbs of being after such a subject",
    "unlisted_record_labels": "answers: labels of a list item that records an allergy or a reaction: no item",
    "unlisted_record_verbs": "answers: verbs that open a piece recording an allergy ('record a severe reaction "
                             "to minocycline'): no item",
    "unlisted_record_words": "answers: the words of the allergy or reaction such a piece records",
    "unlisted_piece_links": "answers: words at which a list item is cut into pieces (besides commas, '+' and "
                            "arrows)",
    "unlisted_alternative_links": "answers: piece links that offer the piece after as another choice for the "
                                  "piece before ('paracetamol or ibuprofen'): one item",
    "advice_leads": "answers: words that lead into a safety-net instruction in its clause ('advise to return "
                    "if...', 'parents to'): from them on, a list item gives no piece",
    "advice_opening_leads": "answers: words that do the same only where they open their clause ('should it worsen')",
    "group_time_words": "answers: words before a treatment group that make it a time, not an item ('before starting"
                        " antibiotics')",
    "item_condition_words": "answers: words by which a reference item states its own condition ('IV mannitol if IOP"
                            " does not respond'); timing words do not",
    "discharge_referral_words": "answers: words of a referral a discharge plan makes: a treatment it is for is not "
                                "given now ('home with an outpatient referral for elective cholecystectomy')",
    "discharge_sending_home": "answers: words that send the patient home before such a referral",
    "diagnosis_service_words": "answers: words after a condition's name that make it a service ('the diabetes "
                               "nurse'), not a diagnosis",
    "decision_rule_words": "answers: words after a test's or treatment's name that make it the name of a decision "
                           "rule ('Canadian CT Head Rule negative'), not the test ordered",
    "condition_after_test_words": "answers: words after a test's or analyte's short name that make it a condition's "
                                  "name ('B12 deficiency'): under a differential heading the condition, not the test",
    "treatment_measurement_words": "answers: words after a treatment's name that make it a measurement ('his oxygen"
                                   " levels'), not an intervention",
    "diagnosis_attributed": "answers: words that make a diagnosis someone else's idea ('I understand why you think "
                            "it's a cyst'): not stated",
    "diagnosis_commitment": "answers: words by which prose commits to a diagnosis ('this is most likely CAP')",
    "diagnosis_working_after": "answers: words after a condition that make it the working diagnosis, queried or not "
                               "('?MM until proven otherwise')",
    "diagnosis_strong_alternative": "answers: cues that make even the first condition named an alternative "
                                    "('Consider pneumonia')",
    "withhold_one_dose": "answers: words right after a held drug that hold one dose of it, no stop ('hold the "
                         "regular haloperidol tonight')",
    "withhold_one_dose_verbs": "answers: the verbs of a hold of one dose ('hold', 'omit'; 'stop it tonight' stops it)",
    "withhold_contrasts": "answers: words after a held drug by which the same drug goes on in another form ('but')",
    "diagnosis_cause_leads": "answers: words in a diagnosis line before the drug that caused it ('NMS following "
                             "IM haloperidol'): the drug is history, not a plan",
    "diagnosis_cause": "answers: words by which an answer names the cause of its diagnosis ('DKA, probably tipped "
                       "over by a viral gastroenteritis'): a cause it commits to is a final diagnosis",
    "diagnosis_generic_words": "answers: words of a diagnosis's name that name no condition said alone "
                               "('infection', 'syndrome'): never the short name by which an answer rejects or hedges "
                               "the primary ('Torsion is unlikely')",
    "diagnosis_mimic_qualifiers": "answers: words before a condition's name that say the patient has not got it "
                                  "('spurious hyperkalaemia'): a secondary diagnosis whose name ends another "
                                  "diagnosis's mention is named ('pre-renal AKI' names AKI) unless one qualifies it",
    "diagnosis_item_hedges": "answers: words that may come before a diagnosis and still leave it opening its list "
                             "item ('possible colon cancer')",
    "specimen_blood": "answers: words of a test item that name blood: its analyte named in a urine result is not "
                      "that test",
    "specimen_urine": "answers: words that name urine: in an item, the test may be done on urine; in an answer, a "
                      "urine result ('urine dip: ketones 4+')",
    "specimen_fluids": "answers: one body fluid an entry, its adjective, noun and the procedures that draw it "
                       "('ascitic ascites peritoneal paracentesis'): a test of the fluid is reported with any of "
                       "them in its sentence, line or list entry",
    "specimen_fluid_generic": "answers: words of a fluid test item's name that say only that a fluid is tested "
                              "('fluid', 'sample')",
    "period_pregnancy": "answers: words by which a reference item keeps itself to pregnancy ('ACE inhibitor in "
                        "pregnancy')",
    "period_after_birth": "answers: words that place a plan after the birth ('postnatally, enalapril 5 mg'): it "
                          "does not give an item kept to pregnancy (NICE NG133)",
    "span_negations": "answers: words that, inside the span of an item's words written apart, show the span holds "
                      "no mention ('lamotrigine has no role in acute mania' is no 'lamotrigine for acute mania')",
    "span_links": "answers: words that join two list items inside such a span ('check FBC and repeat in 48 hours')",
    "plan_verbs": "answers: verbs that open a second action after 'and'/'or' ('step down to oral antibiotics and "
                  "discharge home'), besides the action verbs of cues.yaml",
    "reference_ranges": "answers: reference ranges of results with one usual unit ('platelet 150-450'): a "
                        "condition on a result said in words ('if the platelet count comes back low') is decided by "
                        "the record's value",
    "result_low_words": "answers: words of a condition on a result that say it lies below its reference range",
    "result_high_words": "answers: words of a condition on a result that say it lies above its reference range",
    "result_abnormal_words": "answers: words of a condition on a result that say it lies outside its reference range",
    "result_normal_words": "answers: words of a condition on a result that say it lies within its reference range",
    "record_measures": "answers: findings a condition may state ('if the BP is low') that a case's record usually "
                       "holds; a test term of the same name gives their other names",
    "patient_denials": "case validation: words before a condition in the patient's words that deny having had it "
                       "('never had a kidney infection'): history the patient may tell, not the diagnosis given away",
    "patient_parents_child": "the simulated patient: who 'your X' may be when a parent speaks for the patient, "
    "their child ('does your son have a cough?'); 'your mum' is the parent's own",
    "patient_male_people": "the simulated patient: the people 'he' may be ('how old is he?' of the boyfriend just "
                           "told, not the daughter)",
    "patient_female_people": "the simulated patient: the people 'she' may be ('how old is she?' of the daughter "
                             "told before, not the boyfriend just told)",
    "patient_relatives": "case validation: the people other than the patient whose illness a patient may tell "
                         "('my mother had a stroke')",
    "patient_having": "case validation: words between a relative and a condition that say the relative had it "
                      "('my father died of', 'my sister has'); 'thinks it is' is no history",
    "patient_past_episode": "case validation: the patient's words in a condition's clause that make it a past "
                            "episode months or years back ('a urine infection about a year ago')",
    "patient_prevention": "case validation: words before a condition that make it what a vaccine or medicine "
                          "prevents ('the jab against chest infections')",
    "filler": "small words left out when two names are compared (\"CT of the abdomen\" is \"CT abdomen\"); "
              "never a negation, \"a\" or \"or\" (hepatitis A), nor \"by\" (by mouth)",
}
"""Every named phrase list a reader uses, with what its phrases do (``medbench vocabulary
lists`` prints this table)."""


TextKind = Literal["answers", "questions"]
TEXT_KINDS: tuple[TextKind, ...] = ("answers", "questions")
AnswerSection = Literal["diagnosis", "icd", "differential", "workup", "treatment", "advice", "avoid"]
"""A list section of a final response (core/scoring/sections.py), where an abbreviation may be read."""


class AbbreviationEntry(StrictEntry):
    """Shorthand written out before a text is read."""

    short: list[Text] = Field(min_length=1, description="the written forms (e.g. [abx, ABx])")
    means: Text = Field(description="what they stand for, in full words")
    case: Literal["any", "exact"] = Field(
        "any", description="exact: only as written (IM is intramuscular, im is not)")
    in_: list[TextKind] = Field(
        default_factory=lambda: list(TEXT_KINDS), alias="in",
        description="the texts it applies to: final responses (answers), doctors' questions (questions)")
    sections: list[AnswerSection] = Field(
        default_factory=list,
        description="the sections of a final response it is read in (diagnosis, differential: 'Imp: necrotising OE');"
                    " elsewhere it stays as written; every section when left out")


SPELLING_PART = r"^\^?[a-z']+\$?$"
"""A spelling part: letters, optionally anchored at the start (``^``) or the end (``$``) of a word."""


class FormEntry(StrictEntry):
    """Words folded to one form before words are compared."""

    form: Text = Field(description="the one form (diagnosis, fly)")
    words: list[Text] = Field(min_length=1, description="the words that are that form (diagnoses; flew, flown)")
    in_: list[TextKind] = Field(
        default_factory=lambda: list(TEXT_KINDS), alias="in",
        description="the texts it applies to: final responses and names (answers), doctors' questions (questions)")


class TermEntry(StrictEntry):
    """One thing clinical text names."""

    name: Text = Field(description="the name it is known by (the canonical name)")
    kind: TermKind
    also: list[Text] = Field(default_factory=list, description="other names: synonyms, brands, abbreviations")
    is_: list[Text] = Field(default_factory=list, alias="is",
                            description="broader terms it belongs to, by name (classes, panels, specialties)")
    reports: list[Text] = Field(
        default_factory=list,
        description="tests only: result labels that, with a value or a finding, report the test done (Hb, K+)")
    findings: list[Text] = Field(
        default_factory=list,
        description="examinations (tests) only: findings that, reported, say the examination was done "
                    "(disc swelling of fundoscopy, a sixth nerve palsy of the cranial nerves)")
    reverses: list[Text] = Field(
        default_factory=list,
        description="drugs only: the drugs or classes whose effect it reverses, by name (vitamin K: vitamin K "
                    "antagonist; idarucizumab: dabigatran)")
    lay: list[Text] = Field(default_factory=list, description="words patients use for it")


class TimingEntry(StrictEntry):
    """An expression of when, as a window of hours from now."""

    say: list[Text] = Field(min_length=1, description="the expressions (same day, today, next week)")
    hours: tuple[float, float] = Field(description="[earliest, latest] in hours from now")


class UnitEntry(StrictEntry):
    """A unit of time for written intervals ("within 4 hours", "review in 2/52")."""

    say: list[Text] = Field(min_length=1, description="how it is written (h, hr, hours)")
    hours: float = Field(gt=0, description="its length in hours")
    shorthand: int | None = Field(None, description="the denominator of the clinical shorthand (7 for 2/7 days)")


class RewriteEntry(StrictEntry):
    """A wording the simulated patient reads as another before it reads a doctor's question ("x-ray": xray,
    "water tablets": diuretic tablets)."""

    said: list[Text] = Field(
        min_length=1,
        description="the wordings, lower case, as whole words (a space matches one space; apostrophes are already "
                    "dropped: write 'whats', not \"what's\")")
    read_as: Text = Field(description="the words read in their place")
    followed_by: Text | None = Field(
        None,
        description="only where one space and then this follows, left as it is: `a word` (any word), or the name "
                    "of a phrase list whose phrases follow ('regular' before `patient_regular_medicines`)")
    after: list[Text] = Field(
        default_factory=list,
        description="only after one of these words earlier in the same sentence (at most 40 characters between): "
                    "'regularly' after 'take'")


class GroupEntry(StrictEntry):
    """A class of treatments, as a case's treatment ``group`` names it."""

    name: Text = Field(description="the class, as an item's `group` names it (antibiotic, nsaid)")
    also: list[Text] = Field(default_factory=list, description="other names of the class (antibiotics, antimicrobial)")
    members: list[Text] = Field(
        default_factory=list, description="the treatments of the class (amoxicillin, doxycycline)")


class VocabularyFile(StrictEntry):
    """A vocabulary file: any of the sections below."""

    spelling: dict[Annotated[str, StringConstraints(pattern=SPELLING_PART)], Text] = Field(
        default_factory=dict,
        description="British word part -> American word part (^ anchors at a word's start, $ at its end)")
    forms: list[FormEntry] = Field(default_factory=list)
    abbreviations: list[AbbreviationEntry] = Field(default_factory=list)
    terms: list[TermEntry] = Field(default_factory=list)
    timing: list[TimingEntry] = Field(default_factory=list)
    units: list[UnitEntry] = Field(default_factory=list)
    groups: list[GroupEntry] = Field(default_factory=list)
    patient_rewrites: list[RewriteEntry] = Field(
        default_factory=list,
        description="wordings the simulated patient reads as others, applied to a question in this order")
    phrases: dict[Text, list[Text]] = Field(
        default_factory=dict, description="named lists of cue phrases (`medbench vocabulary lists` names them)")


# --- the typed records the readers use ---------------------------------------------


@dataclass(frozen=True)
class Source:
    """Where an entry was written: shown when a reader explains a decision or an error."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Abbreviation:
    short: tuple[str, ...]
    means: str
    exact_case: bool
    in_answers: bool
    in_questions: bool
    source: Source
    sections: tuple[str, ...] = ()  # read only in these sections of a final response; all when empty


@dataclass(frozen=True)
class Form:
    form: str
    words: tuple[str, ...]
    in_answers: bool
    in_questions: bool
    source: Source


@dataclass(frozen=True)
class Term:
    name: str
    kind: TermKind
    also: tuple[str, ...]
    broader: tuple[str, ...]
    reports: tuple[str, ...]
    lay: tuple[str, ...]
    source: Source
    findings: tuple[str, ...] = ()
    """An examination's findings: reported, they say it was done (``findings`` of a test)."""
    reverses: tuple[str, ...] = ()
    """The drugs or classes whose effect this drug reverses (``reverses`` of a drug)."""

    @property
    def names(self) -> tuple[str, ...]:
        """Its name and every other name (not the lay words)."""
        return (self.name, *self.also)


@dataclass(frozen=True)
class Timing:
    say: tuple[str, ...]
    earliest: float
    latest: float
    source: Source


@dataclass(frozen=True)
class TimeUnit:
    say: tuple[str, ...]
    hours: float
    shorthand: int | None
    source: Source


@dataclass(frozen=True)
class TreatmentGroup:
    name: str
    also: tuple[str, ...]
    members: tuple[str, ...]
    source: Source


@dataclass(frozen=True)
class Rewrite:
    """A wording the simulated patient reads as another (``patient_rewrites``)."""

    said: tuple[str, ...]
    read_as: str
    followed_by: str | None
    after: tuple[str, ...]
    source: Source


@dataclass(frozen=True)
class Phrases:
    name: str
    phrases: tuple[str, ...]
    sources: tuple[Source, ...] = field(default=())


def vocabulary_json_schema() -> dict[str, object]:
    """The JSON Schema of a vocabulary file, for editors (``medbench vocabulary schema``;
    committed copy at ``medbench_tui/schema/vocabulary.schema.json``)."""
    generated = VocabularyFile.model_json_schema(by_alias=True)
    generated.pop("title", None)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:medbench:vocabulary:1",
        "title": "medbench vocabulary file",
        **generated,
    }
