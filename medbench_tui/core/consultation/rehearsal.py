"""Case rehearsal for authors: a standard battery of history questions put to the case's
patient, to show each reply, which questions reach each fact, what nothing reaches, and
replies whose fact does not fit the question asked.

Each question goes to a patient with no memory of the others (asked twice when the
patient holds back on the first asking: delayed disclosure, clarification seeking). The
battery is the history a clinician takes (presenting complaint, SOCRATES, systems
review, past history, drugs, allergies, social and family history), then examination,
observations and a request for each attachment (by its kind, then by its title). What
the report lists to fix: facts no question reaches, control questions none of whose
facts is reached, attachments nothing releases.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from medbench_tui.core.cases.model import Attachment, Case, patient_record
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.simulators.base import SURE
from medbench_tui.core.simulators.grounded import GroundedSimulator
from medbench_tui.core.simulators.intent import attachments_asked
from medbench_tui.core.simulators.question import read_message

HISTORY: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("presenting complaint", (
        "What brings you in today?", "Tell me more about what's been happening.", "When did it start?",
        "How has it changed since it started?", "Is it getting better or worse?",
        "What were you hoping we could do for you today?", "How are you feeling now?",
    )),
    ("SOCRATES", (
        "Where exactly is it?", "Has it moved?", "Did it come on suddenly or gradually?",
        "What is it like? Can you describe it?",
        "Does it go anywhere else?", "Have you noticed anything else along with it?",
        "Is it there all the time or does it come and go?", "Does anything make it better or worse?",
        "How bad is it, out of ten?", "Have you had anything like this before?",
    )),
    ("systems review", (
        "Any fever, sweats or shivers?", "Any cough or phlegm?", "Have you coughed up any blood?",
        "Any shortness of breath or wheeze?", "Any chest pain?", "Any palpitations?", "Any nausea or vomiting?",
        "Any tummy pain?", "Any change in your bowels, or blood in your stools?", "Any problems passing urine?",
        "Any headaches?", "Any weakness, numbness or trouble speaking?", "Any dizziness, fainting or blackouts?",
        "Any problems with your eyes or vision?", "Any rashes, itching or swelling?", "Any swelling of your legs?",
        "Have you lost any weight?", "How is your appetite? Are you eating and drinking normally?",
        "How have you been sleeping?", "How is your energy?", "How has your mood been?",
        "Do you still enjoy the things you used to?", "Have you had any thoughts of harming yourself?",
        "Any confusion or memory problems?", "Any bleeding or bruising?",
    )),
    ("women's health", (
        "When was your last period?", "Could you be pregnant?", "What contraception do you use?",
        "Any vaginal bleeding or discharge?", "Any previous pregnancies?",
        "If you are pregnant: have you seen the midwife or booked your antenatal care?",
        "Any change in your sex drive?",
    )),
    ("pregnancy and birth", (
        "How has the pregnancy been? Any problems on the scans?", "How did the labour and birth go?",
        "Was the placenta delivered complete?", "Any tears or stitches?",
        "How are the baby's movements compared with usual?",
        "Have you used a home Doppler to listen to the baby's heartbeat?",
        "Have you ever had a blood transfusion?",
    )),
    ("men's health", ("Any problems with erections?",)),
    ("informant", ("Do they know you're here?", "Would they come in to see me?")),
    ("child", (
        "Was he born on time, and any problems at birth?", "Are his immunisations up to date?",
        "Is he feeding and drinking normally? How many wet nappies?", "Has he been his usual self?",
        "Is anyone else at home or at nursery unwell?", "How many fits has he had, and how long did each last?",
    )),
    ("more systems review", (
        "Any problems swallowing, or a change in your voice?", "Any indigestion or heartburn?",
        "Any pain in your back or side?", "Is it worse when you breathe in or move?",
        "Have you taken anything for it?", "Have you had any falls?", "Any infections that keep coming back?",
        "Do you drink much tea, coffee or energy drinks?", "What is your diet like?",
        "Any burning or stinging when you pass urine?",
        "Do you have diabetes, high blood pressure or high cholesterol?", "Are your vaccinations up to date?",
        "Have you ever fainted during exercise or when lying down?", "Is anyone around you unwell with the same?",
        "Have you had any screening tests?", "What is your ethnic background?",
    )),
    ("body systems", (
        "Any pain or swelling in your joints?", "Any back pain or stiffness?", "Any muscle aches or weakness?",
        "Any fits, seizures or funny turns?", "Any problems with your balance or walking?",
        "Any headaches that wake you, or with changes in your vision?", "Any jaw pain when chewing?",
        "Any ringing in your ears or change in your hearing?", "Any nosebleeds or a blocked nose?",
        "Any sore throat or mouth ulcers?", "Any lumps or swellings in your neck?",
        "Can you lie flat at night, or do you wake up breathless?", "Do you have oxygen at home?",
        "Any swelling of your ankles?",
        "Any pain in your calves when you walk?", "Any blood in your urine?", "Any pain in your loin or groin?",
        "Are you more thirsty than usual, or passing more urine?", "Do you feel the heat or the cold more?",
        "Any easy bruising or bleeding gums?", "Any night sweats?", "Any new moles or skin changes?",
        "Any hair loss or changes to your nails?", "Any problems with your memory or concentration?",
        "Has it changed in size, shape or colour?", "Any toothache or problems with your teeth?",
        "Any problems with your mood or sleep lately?",
    )),
    ("past history", (
        "Do you have any medical conditions?", "Any heart or lung problems?",
        "Have you had any operations or been in hospital?",
        "Have you had any illnesses recently?", "How well controlled is your sugar, if you have diabetes?",
    )),
    ("drugs", (
        "What medicines do you take?", "Anything over the counter, or anything new recently?",
        "Do you carry a steroid card or any emergency medicine?",
        "When did you last take each of your medicines?", "Are you having any injections as part of your treatment?",
        "If you have taken an overdose: what did you take, how many, and when?",
        "What tablets were they, and where did you get them?",
        "What did you want to happen when you took them?",
    )),
    ("allergies", ("Do you have any allergies?",)),
    ("social history", (
        "Do you smoke?", "How much alcohol do you drink?", "Do you use any recreational drugs?",
        "What do you do for work?", "Who do you live with?", "Have you travelled anywhere recently?",
        "Any travel planned, or flights coming up?", "Do you drive?",
        "When did you last eat or drink?", "When did you last have an alcoholic drink?",
        "Would you like help to stop or cut down your drinking?",
        "How are things at home? Any arguments or worries?",
    )),
    ("family history", ("Does anything run in your family?",)),
)
SPECIALTY: dict[str, tuple[str, ...]] = {
    "psychiatry": (
        "Do you feel guilty or worthless?", "Have you made any plans to end your life?",
        "Do you have anything at home you could use to harm yourself?", "Have you ever self-harmed?",
        "Have you ever had spells of feeling very high or full of energy?",
        "Have you heard voices or seen things other people don't?", "How are you managing day to day?",
        "Do you feel anxious or on edge?", "Do you think something is wrong?", "Have you been spending a lot of money?",
        "Have you done anything risky, such as driving fast?", "What do your family think is going on?",
        "Have you been going to work or school?", "Do you think you are special or have special powers?",
        "Have you been more talkative, or your thoughts racing?", "Have you been behaving differently with people?",
        "Do you make yourself sick or take laxatives?", "How do you feel about your body and your weight?",
        "How much exercise do you do?", "Do you feel the cold, or notice changes in your hair or skin?",
        "What is your normal day like when you are well?", "Have you had mental health problems before?",
    ),
    "ophthalmology": (
        "Do you wear glasses or contact lenses?", "Is the eye painful or red?", "Any flashes or floaters?",
        "Is the other eye all right?", "Any injury to the eye, or anything in it?", "Does light hurt your eyes?",
        "Any jaw pain when chewing, or a tender scalp?", "Have you had any eye operations or laser?",
        "Any kidney problems?", "Does it feel gritty?", "Any cold sores?",
    ),
    "obstetrics_gynecology": (
        "Any pain during sex?", "Is the baby moving normally?", "Do you know your blood group?",
        "Any pain in your shoulder?", "What does your urine look like?", "Are you sexually active?",
    ),
    "oncology": (
        "Any pain in the breast?", "Any lumps in your armpit?", "Are you on any hormones, the pill or HRT?",
        "Have you had children, and did you breastfeed?", "Any skin changes?",
    ),
    "pediatrics": (
        "Has he ever stopped breathing or gone blue?", "Any bedwetting?", "Any stinging when passing urine?",
        "Was mum on any medicines in pregnancy?", "Do you know the baby's blood group and yours?",
        "Were there any signs of infection around the birth?", "Any lumps in the groin?",
    ),
    "surgery": ("Any lumps or bulges in your groin?", "Have you had any operations on your tummy?"),
    "emergency_medicine": (
        "Any swelling of your lips, tongue or throat?", "Do you have asthma?", "Have you been given an adrenaline pen?",
        "Any allergies to medicines?", "Have you taken anything else recently, such as Viagra?",
    ),
}
"""History a clinician of the case's category takes as standard, beyond the general history."""
EXAMINATION = ("I'd like to examine you now.", "Can I check your pulse, blood pressure and temperature?")
REQUEST_BY_KIND = {
    "lab_report": "Can I see the test results?",
    "image": "Can I see the scan or X-ray?",
    "ecg": "Can I see the ECG?",
    "document": "Can I see the report or letter?",
}


@dataclass
class Asked:
    """One question of the battery and what it drew out."""

    section: str
    question: str
    reply: str
    facts: list[str] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    confidence: float = 1.0
    """How sure the patient was that the reply answers the question."""
    fits: bool = True
    """The reply's facts are about what the question asks (else the author should look: a reply
    to the wrong question teaches the wrong thing)."""


@dataclass
class Rehearsal:
    """What the battery reached in one case, and what to fix."""

    case_id: str
    asked: list[Asked]
    reached_by: dict[str, list[str]]
    released_by: dict[str, list[str]]
    unreached_facts: list[str]
    unelicited_controls: list[str]
    unreleased_attachments: list[str]

    @property
    def unfit(self) -> list[Asked]:
        """The questions whose reply gives a fact that does not fit them (marked ``!``)."""
        return [a for a in self.asked if not a.fits]

    @property
    def clean(self) -> bool:
        return not (self.unreached_facts or self.unelicited_controls or self.unreleased_attachments)

    def to_json(self) -> JSONObject:
        return {
            "case_id": self.case_id,
            "questions": [vars(a) for a in self.asked],
            "facts": self.reached_by,
            "attachments": self.released_by,
            "to_fix": {
                "facts_no_question_reaches": self.unreached_facts,
                "control_questions_nothing_elicits": self.unelicited_controls,
                "attachments_nothing_releases": self.unreleased_attachments,
                "replies_that_do_not_fit": [a.question for a in self.unfit],
            },
        }


def battery(case: Case) -> list[tuple[str, str]]:
    """The standard questions for this case: the history sections that fit the patient
    (women's health for a female patient of 12 or more, men's health for a male one of 16 or
    more, the child section when a parent speaks, the informant's own section when someone
    else speaks for an adult), the standard questions of the case's category, examination, observations, and
    one request per attachment."""
    patient = case.patient
    questions: list[tuple[str, str]] = []
    for section, asked in HISTORY:
        if section == "women's health" and not (patient.sex == "female" and _age(patient.age) >= 12):
            continue
        if section == "child" and patient.informant != "parent":
            continue
        if section == "men's health" and not (patient.sex == "male" and _age(patient.age) >= 16):
            continue
        if section == "informant" and patient.informant in ("self", "parent"):
            continue  # someone speaking for an adult who is not there
        questions += [(section, q) for q in asked]
    questions += [(case.metadata.category, q) for q in SPECIALTY.get(case.metadata.category, ())]
    questions += [("examination", EXAMINATION[0]), ("observations", EXAMINATION[1])]
    for attachment in case.attachments:
        questions.append(("attachments", REQUEST_BY_KIND.get(attachment.kind, REQUEST_BY_KIND["document"])))
        questions.append(("attachments", f"Can I see the {attachment.title}?"))
    return list(dict.fromkeys(questions))


def _age(age: int | str | None) -> int:
    """Years for an age given as a number or as "3 months" (0 when not in years)."""
    if isinstance(age, int):
        return age
    text = str(age or "")
    return int(text.split()[0]) if text.split() and text.split()[0].isdigit() and "year" in text else 0


def rehearse(case: Case) -> Rehearsal:
    """Put the battery to the case's patient and collect what each question reached."""
    patient = GroundedSimulator(patient_record(case))
    holds_back = {"delayed_disclosure", "clarification_seeking"} & set(case.patient.behavior)
    asked: list[Asked] = []
    for section, question in battery(case):
        patient.reset()
        reply = patient.answer(question)
        if holds_back and reply.kind in ("clarification", "deflection"):
            reply = patient.answer(question)
        released = [a.id for a in attachments_asked(case.attachments, question,
                                                    remote=case.metadata.setting == "telehealth")]
        fits = _fits(patient, question, reply.facts) and (not reply.facts or reply.confidence >= SURE)
        confidence = round(reply.confidence, 2)
        asked.append(Asked(section, question, reply.text, list(reply.facts), released, confidence, fits))
    reached_by = {a.id: [q.question for q in asked if a.id in q.facts] for a in case.additional_answers}
    released_by = {a.id: [q.question for q in asked if a.id in q.attachments] for a in case.attachments}
    return Rehearsal(
        case.id,
        asked,
        reached_by,
        released_by,
        unreached_facts=[f for f, qs in reached_by.items() if not qs],
        unelicited_controls=[
            c.id for c in case.control_questions if not any(reached_by.get(f) for f in c.answered_by)
        ],
        unreleased_attachments=[
            a for a, qs in released_by.items() if not qs and _by_id(case, a).available == "on_request"
        ],
    )


def _fits(patient: GroundedSimulator, question: str, facts: list[str]) -> bool:
    """Does each fact of the reply name what one of the question's parts is about (its keywords or
    topic share a word of the question's subject)?"""
    if not facts:
        return True
    sources = {s.id: s for s in patient.matcher.facts}
    parts = [q.asked for q in read_message(question, patient.record.patient.informant).questions]
    return all(any(patient.matcher.names(sources[f], part) for part in parts) for f in facts if f in sources)


def _by_id(case: Case, attachment_id: str) -> Attachment:
    return next(a for a in case.attachments if a.id == attachment_id)


def render_text(rehearsal: Rehearsal) -> str:
    """The report for a terminal: the things to fix, per fact the questions that reached it, per
    attachment the questions that released it, then every question with the patient's reply
    (a reply whose fact does not fit its question marked ``!``)."""
    lines = [f"Rehearsal of {rehearsal.case_id}: {len(rehearsal.asked)} standard questions", "", "To fix:"]
    fixes = [
        *(f"  fact {f}: no standard question reaches it (add keywords a clinician would use)"
          for f in rehearsal.unreached_facts),
        *(f"  control question {c}: none of its facts is reached" for c in rehearsal.unelicited_controls),
        *(f"  attachment {a}: no request releases it (add request keywords)" for a in rehearsal.unreleased_attachments),
    ]
    lines += fixes or ["  nothing"]
    if rehearsal.unfit:  # a judgement call, not a failure: the exit status is the list above's
        lines += ["", "Worth a look (replies whose fact may not fit the question):"]
        lines += [f"  question {q.question!r}: the reply gives {', '.join(q.facts)} (check the fact's keywords and "
                  "topic)" for q in rehearsal.unfit]
    lines += ["", "Facts:"]
    for fact, questions in rehearsal.reached_by.items():
        lines.append(f"  {fact}: " + ("; ".join(questions) if questions else "NOT REACHED"))
    if rehearsal.released_by:
        lines += ["", "Attachments:"]
        for attachment, questions in rehearsal.released_by.items():
            lines.append(f"  {attachment}: " + ("; ".join(questions) if questions else "NOT RELEASED"))
    lines += ["", "Questions and replies (! the reply's fact does not fit the question):"]
    section = ""
    for asked in rehearsal.asked:
        if asked.section != section:
            section = asked.section
            lines.append(f"  [{section}]")
        mark = "  " if asked.fits else "! "
        given = f" [{', '.join(asked.facts + asked.attachments)}]" if asked.facts or asked.attachments else ""
        lines.append(f"  {mark}{asked.question}")
        lines.append(f"      -> {' '.join(asked.reply.split())}{given}")
    return "\n".join(lines)


def checks_block(rehearsal: Rehearsal) -> str:
    """The questions asked, with what the patient gave, as a ``checks:`` block of question
    checks for the author to keep (a right reply), correct (a wrong one) or delete."""
    import json

    lines = [
        "# Question checks written by `medbench rehearse --checks` from the patient's replies.",
        "# Keep the checks whose reply is right, correct the others (facts the reply must give,",
        "# attachments it must release), delete the rest, and put the block under `checks:`.",
        "checks:",
        "  questions:",
    ]
    for asked in rehearsal.asked:
        reply = " ".join(asked.reply.split())
        lines.append(f"    # {asked.section}: {reply[:100]}{'…' if len(reply) > 100 else ''}")
        lines.append(f"    - ask: {json.dumps(asked.question, ensure_ascii=False)}")
        if asked.facts:
            lines.append(f"      facts: [{', '.join(asked.facts)}]")
        if asked.attachments:
            lines.append(f"      attachments: [{', '.join(asked.attachments)}]")
        if not asked.facts and not asked.attachments:
            lines.append("      default: true")
    return "\n".join(lines) + "\n"
