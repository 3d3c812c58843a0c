"""The labelled sets of the ICD-10 search, shared by its tests and by
benchmarks/icd_search.py (which runs without the test extras, so nothing here imports
pytest).

QUERIES are the clinicians' phrasings the search was first tuned on; the development
set (tests/data/icd/names.yaml, coding rules in CODING.md beside it) holds diagnosis
names written elsewhere. Each entry is a name and the WHO codes acceptable for it; a
3-character code accepts any code of that category.
"""

from __future__ import annotations

from pathlib import Path

DEVELOPMENT_SET = Path(__file__).resolve().parent.parent / "data" / "icd" / "names.yaml"

QUERIES: list[tuple[str, list[str]]] = [
    ("heart attack", ["I21"]), ("MI", ["I21"]), ("STEMI", ["I21"]), ("NSTEMI", ["I21.4"]),
    ("chest pain", ["R07"]), ("CAP", ["J18"]), ("community acquired pneumonia", ["J18"]),
    ("pneumonia", ["J18"]), ("aspiration pneumonia", ["J69.0"]), ("DKA", ["E10.1", "E11.1", "E13.1", "E14.1"]),
    ("diabetic ketoacidosis", ["E10.1", "E11.1", "E13.1", "E14.1"]), ("type 2 diabetes", ["E11"]),
    ("type 2 diabetes with kidney disease", ["E11.2"]), ("type 1 diabetes", ["E10"]),
    ("hypoglycaemia", ["E16"]), ("appendicitis", ["K35", "K36", "K37"]),
    ("perforated appendix", ["K35.2", "K35.3"]), ("UTI", ["N39.0", "N30"]), ("UTI in pregnancy", ["O23"]),
    ("urinary tract infection", ["N39.0"]), ("pyelonephritis", ["N10"]), ("kidney stones", ["N20", "N23"]),
    ("broken hip", ["S72.0", "S72.1", "S72"]), ("fractured neck of femur", ["S72.0"]),
    ("wrist fracture", ["S52.5", "S62"]), ("ankle sprain", ["S93.4"]), ("ectopic pregnancy", ["O00"]),
    ("miscarriage", ["O03", "O02", "O20"]), ("pre-eclampsia", ["O14"]), ("preeclampsia", ["O14"]),
    ("postpartum haemorrhage", ["O72"]), ("PPH", ["O72"]), ("gestational diabetes", ["O24.4"]),
    ("acute angle closure glaucoma", ["H40.2"]), ("retinal detachment", ["H33"]), ("CRAO", ["H34.1"]),
    ("conjunctivitis", ["H10", "B30"]), ("hyphema", ["H21.0", "S05.1"]), ("major depression", ["F32", "F33"]),
    ("depression", ["F32", "F33"]), ("generalised anxiety disorder", ["F41.1"]), ("bipolar disorder", ["F31"]),
    ("schizophrenia", ["F20"]), ("delirium", ["F05"]), ("anorexia nervosa", ["F50.0"]),
    ("alcohol withdrawal", ["F10.3", "F10.4"]), ("anaemia iron deficiency", ["D50"]),
    ("iron deficiency anemia", ["D50"]), ("oesophagitis", ["K20", "K21.0"]), ("esophagitis", ["K20", "K21.0"]),
    ("GERD", ["K21"]), ("GORD", ["K21"]), ("upper GI bleed", ["K92", "K25", "K26", "K27", "I85"]),
    ("small bowel obstruction", ["K56"]), ("cholecystitis", ["K81", "K80.0", "K80.1"]), ("gallstones", ["K80"]),
    ("acute pancreatitis", ["K85"]), ("COPD exacerbation", ["J44.1", "J44.0"]),
    ("asthma attack", ["J45", "J46"]), ("PE", ["I26"]), ("pulmonary embolism", ["I26"]),
    ("DVT", ["I80", "I82"]), ("stroke", ["I63", "I64", "I61"]), ("CVA", ["I63", "I64"]), ("TIA", ["G45"]),
    ("atrial fibrillation", ["I48"]), ("afib", ["I48"]), ("heart failure", ["I50"]), ("CHF", ["I50"]),
    ("hypertension", ["I10"]), ("high blood pressure", ["I10"]), ("AKI", ["N17"]), ("CKD", ["N18"]),
    ("sepsis", ["A41", "A40"]), ("septic shock", ["R57.2", "A41"]),
    ("meningitis", ["G03", "G00", "A39.0", "A87"]), ("bronchiolitis", ["J21"]), ("croup", ["J05.0"]),
    ("otitis media", ["H66", "H65"]), ("ear infection", ["H66", "H60"]), ("Kawasaki disease", ["M30.3"]),
    ("intussusception", ["K56.1"]), ("pyloric stenosis", ["Q40.0"]),
    ("neonatal jaundice", ["P59", "P55", "P58"]), ("PID", ["N73", "N70"]),
    ("pelvic inflammatory disease", ["N73", "N70"]), ("testicular torsion", ["N44"]),
    ("ovarian torsion", ["N83.5"]), ("anaphylaxis", ["T78.2", "T78.0", "T88.6"]), ("cellulitis", ["L03"]),
    ("gout", ["M10"]), ("migraine", ["G43"]), ("seizure", ["R56", "G40", "G41"]),
    ("febrile convulsion", ["R56.0"]), ("paracetamol overdose", ["T39.1"]), ("lung cancer", ["C34"]),
    ("breast cancer", ["C50"]), ("bowel cancer", ["C18", "C19", "C20"]), ("colon cancer", ["C18"]),
    ("leukaemia", ["C91", "C92", "C95"]), ("hodgkins lymphoma", ["C81"]), ("pnuemonia", ["J18", "J12", "J15"]),
    ("appendicits", ["K35", "K37"]), ("diabetis", ["E14", "E11", "E10"]), ("COVID-19", ["U07"]),
    ("covid pneumonia", ["U07", "J12"]), ("shortness of breath", ["R06.0"]), ("syncope", ["R55"]),
    ("hypothyroidism", ["E03"]), ("thyroid storm", ["E05.5"]), ("tension pneumothorax", ["J93.0", "S27.0"]),
    ("subarachnoid haemorrhage", ["I60"]), ("subdural hematoma", ["S06.5", "I62.0"]),
    ("head injury", ["S06", "S09"]), ("hip osteoarthritis", ["M16"]), ("low back pain", ["M54.5"]),
    ("rheumatoid arthritis", ["M05", "M06"]), ("UC", ["K51"]), ("Crohn's disease", ["K50"]),
    ("coeliac disease", ["K90.0"]), ("celiac disease", ["K90.0"]), ("chickenpox", ["B01"]),
    ("shingles", ["B02"]), ("whooping cough", ["A37"]), ("glandular fever", ["B27"]),
    ("HIV", ["B20", "B21", "B22", "B23", "B24", "Z21"]), ("TB", ["A15", "A16"]),
    ("malaria", ["B50", "B51", "B52", "B53", "B54"]),
    # phrasings the synonym table does not hold word for word
    ("inferior STEMI with right ventricular involvement", ["I21.1", "I21.2"]), ("right lower lobe pneumonia", ["J18"]),
    ("infection of the kidney", ["N10", "N15", "N39.0"]), ("fracture of the tibia", ["S82"]),
    ("acute kidney failure", ["N17"]), ("arthritis of the hip", ["M16"]), ("pain in chest", ["R07"]),
    ("blood in stool", ["K92.1", "K92.2", "K62.5", "R19.5"]), ("appendicitis with perforation", ["K35.2", "K35.3"]),
    ("type 1 diabetes with ketoacidosis", ["E10.1"]),
    ("pregnancy with high blood pressure", ["O13", "O16", "O10", "O14"]),
    ("cellulitis of the leg", ["L03.1"]), ("meningococcal septicaemia", ["A39.2", "A39.4"]),
    ("overdose of paracetamol", ["T39.1"]), ("low sodium", ["E87.1"]), ("high potassium", ["E87.5"]),
    ("exacerbation of asthma", ["J45", "J46"]), ("new onset atrial fibrillation", ["I48"]),
    ("broken arm", ["S42", "S52"]),
    ("broken leg", ["S82", "S72"]), ("infected wound", ["T79.3", "T81.4", "L08"]), ("heavy periods", ["N92"]),
    ("diabetic foot ulcer", ["E10.5", "E11.5", "E14.5", "L97"]), ("pressure sore on sacrum", ["L89"]),
    ("burns to hand", ["T23"]), ("dog bite", ["W54"]), ("haemorrhagic ovarian cyst", ["N83"]),
    ("bleed on the brain", ["I61", "I62", "S06"]), ("urine retention", ["R33"]), ("gall bladder stones", ["K80"]),
    ("liver cirrhosis due to alcohol", ["K70.3"]), ("bile duct stones", ["K80.5", "K80.3", "K80.4"]),
    ("duodenal ulcer perforation", ["K26"]), ("diverticulitis with abscess", ["K57.2", "K57.0", "K57.4", "K57.8"]),
    ("iron deficiency anaemia from blood loss", ["D50.0"]), ("vit b12 deficiency", ["D51", "E53.8"]),
    ("neutropenic fever", ["D70"]), ("lung metastases", ["C78.0"]), ("bone metastases", ["C79.5"]),
    ("tonsillar abscess", ["J36"]), ("macular degeneration", ["H35.3"]), ("chemical burn eye", ["T26"]),
    ("left ventricular failure", ["I50.1"]), ("kidney failure", ["N17", "N18", "N19"]), ("swollen ankles", ["R60"]),
    ("fractured clavicle", ["S42.0"]), ("water infection", ["N39.0"]), ("chest infection", ["J22", "J18", "J20"]),
    ("sugar in urine", ["R81"]), ("raised troponin", ["R79", "R77", "I21"]), ("fluid on the lungs", ["J81", "I50.1"]),
    ("wheezy child", ["R06.2", "J45", "J21"]), ("chest pain on exertion", ["I20", "R07"]),
    ("blood clot in lung", ["I26"]), ("clot in the leg", ["I80", "I82"]), ("ruptured spleen", ["S36.0", "D73.5"]),
    ("bowel perforation", ["K63.1"]), ("pain passing urine", ["R30"]), ("itchy rash", ["L29", "R21", "L30"]),
    ("runny nose", ["J00", "J30", "R09.8"]), ("high temperature in a baby", ["R50", "P81"]),
    ("vomiting in pregnancy", ["O21"]), ("pregnant with bleeding", ["O20", "O46"]), ("heart murmur", ["R01"]),
    ("irregular heartbeat", ["I49", "I48", "R00"]), ("chronic kidney disease stage 3", ["N18.3"]),
]


def development_set(path: Path = DEVELOPMENT_SET) -> list[tuple[str, str, list[str]]]:
    """(group, name, acceptable codes) of every name in names.yaml (or another set of its form)."""
    import yaml

    groups = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [(group, name, [str(code) for code in codes]) for group, rows in groups.items() for name, codes in rows]


def acceptable(code: str, accepted: list[str]) -> bool:
    return any(code == a or (len(a) == 3 and code[:3] == a) for a in accepted)


def rank(found: list[str], accepted: list[str]) -> int | None:
    """Where the first acceptable code stands in a hit list (1 = first), or None."""
    return next((place for place, code in enumerate(found, 1) if acceptable(code, accepted)), None)
