"""Drug and treatment classes, for the ``group`` of a treatment item.

A treatment the doctor gives scores ``different`` (not ``matching``, not ``extra``)
when it belongs to the ``group`` of a required item without being that item: the
group's own name ("antibiotics", "an NSAID") or a member listed here ("doxycycline"
for ``group: antibiotic``). A group that is not in this table is recognised by its
own name only. Names are written naturally; they are normalised like everything else.
"""

from __future__ import annotations

GROUP_NAMES: dict[str, tuple[str, ...]] = {
    # class key: other names of the class
    "antibiotic": ("antibiotics", "antimicrobial", "antibacterial", "antibiotic therapy"),
    "nsaid": ("non-steroidal anti-inflammatory drug", "anti-inflammatory"),
    "analgesic": ("analgesia", "pain relief", "painkiller", "simple analgesia"),
    "opioid": ("opiate", "opioid analgesia"),
    "proton pump inhibitor": ("PPI", "acid suppression"),
    "corticosteroid": ("steroid", "steroids", "glucocorticoid", "systemic steroids"),
    "bronchodilator": ("inhaled bronchodilator", "beta agonist", "beta-2 agonist"),
    "anticoagulant": ("anticoagulation",),
    "antiplatelet": ("antiplatelet therapy",),
    "antiemetic": ("anti-emetic",),
    "antihistamine": ("anti-histamine",),
    "beta blocker": ("beta-blocker", "beta adrenergic blocker"),
    "ace inhibitor": ("ACE-I", "ACEi", "angiotensin converting enzyme inhibitor"),
    "statin": ("lipid lowering therapy",),
    "antidepressant": ("SSRI", "selective serotonin reuptake inhibitor"),
    "diuretic": ("loop diuretic", "thiazide"),
    "antiviral": ("antiviral therapy",),
    "antifungal": ("antifungal therapy",),
    "iron replacement": ("iron supplementation", "iron supplement", "iron therapy", "iron"),
    "laxative": ("laxatives",),
    "antipsychotic": ("neuroleptic",),
    "benzodiazepine": ("benzo",),
    "antiepileptic": ("anticonvulsant", "antiseizure medication"),
    "intravenous fluid": ("fluid resuscitation", "IV fluids", "fluids"),
}

GROUP_MEMBERS: dict[str, tuple[str, ...]] = {
    "antibiotic": (
        "amoxicillin", "ampicillin", "penicillin", "phenoxymethylpenicillin", "benzylpenicillin",
        "flucloxacillin", "co-amoxiclav", "piperacillin-tazobactam", "cefalexin", "cefuroxime",
        "ceftriaxone", "cefotaxime", "cefixime", "ceftazidime", "cefazolin", "doxycycline",
        "tetracycline", "minocycline", "clarithromycin", "azithromycin", "erythromycin",
        "ciprofloxacin", "levofloxacin", "moxifloxacin", "ofloxacin", "trimethoprim",
        "nitrofurantoin", "co-trimoxazole", "metronidazole", "clindamycin", "gentamicin",
        "amikacin", "vancomycin", "teicoplanin", "linezolid", "meropenem", "ertapenem",
        "imipenem", "fosfomycin", "pivmecillinam", "chloramphenicol", "fluoroquinolone",
        "cephalosporin", "macrolide", "aminoglycoside", "carbapenem",
    ),
    "nsaid": (
        "ibuprofen", "naproxen", "diclofenac", "indometacin", "indomethacin", "ketorolac",
        "celecoxib", "etoricoxib", "mefenamic acid", "ketoprofen", "piroxicam", "meloxicam", "aspirin",
    ),
    "analgesic": (
        "paracetamol", "ibuprofen", "naproxen", "codeine", "co-codamol", "morphine", "tramadol",
        "oxycodone", "dihydrocodeine",
    ),
    "opioid": (
        "morphine", "codeine", "tramadol", "oxycodone", "fentanyl", "diamorphine", "hydromorphone",
        "buprenorphine", "pethidine", "dihydrocodeine", "co-codamol", "tapentadol",
    ),
    "proton pump inhibitor": ("omeprazole", "lansoprazole", "pantoprazole", "esomeprazole", "rabeprazole"),
    "corticosteroid": (
        "prednisolone", "prednisone", "dexamethasone", "hydrocortisone", "methylprednisolone",
        "budesonide", "beclometasone", "fluticasone",
    ),
    "bronchodilator": ("salbutamol", "terbutaline", "ipratropium", "tiotropium", "salmeterol", "formoterol"),
    "anticoagulant": (
        "heparin", "enoxaparin", "dalteparin", "tinzaparin", "warfarin", "apixaban", "rivaroxaban",
        "edoxaban", "dabigatran", "fondaparinux", "low molecular weight heparin",
    ),
    "antiplatelet": ("aspirin", "clopidogrel", "ticagrelor", "prasugrel", "dipyridamole"),
    "antiemetic": ("ondansetron", "metoclopramide", "cyclizine", "prochlorperazine", "domperidone", "levomepromazine"),
    "antihistamine": (
        "cetirizine", "loratadine", "fexofenadine", "chlorphenamine", "promethazine", "diphenhydramine",
        "hydroxyzine",
    ),
    "beta blocker": ("bisoprolol", "metoprolol", "atenolol", "propranolol", "carvedilol", "labetalol", "nebivolol"),
    "ace inhibitor": ("ramipril", "lisinopril", "enalapril", "perindopril", "captopril"),
    "statin": ("atorvastatin", "simvastatin", "rosuvastatin", "pravastatin"),
    "antidepressant": (
        "sertraline", "citalopram", "escitalopram", "fluoxetine", "paroxetine", "mirtazapine",
        "venlafaxine", "duloxetine", "amitriptyline",
    ),
    "diuretic": (
        "furosemide", "bumetanide", "bendroflumethiazide", "indapamide", "spironolactone", "hydrochlorothiazide",
    ),
    "antiviral": ("aciclovir", "valaciclovir", "famciclovir", "oseltamivir"),
    "antifungal": ("fluconazole", "nystatin", "clotrimazole", "itraconazole", "terbinafine"),
    "iron replacement": (
        "ferrous sulfate", "ferrous fumarate", "ferrous gluconate", "ferric carboxymaltose",
        "ferric derisomaltose", "iron sucrose", "oral iron", "intravenous iron",
    ),
    "laxative": ("lactulose", "macrogol", "senna", "bisacodyl", "docusate"),
    "antipsychotic": ("haloperidol", "olanzapine", "quetiapine", "risperidone", "aripiprazole"),
    "benzodiazepine": ("diazepam", "lorazepam", "midazolam", "chlordiazepoxide", "clonazepam"),
    "antiepileptic": ("levetiracetam", "valproate", "lamotrigine", "carbamazepine", "phenytoin"),
    "intravenous fluid": ("sodium chloride", "saline", "Hartmann's solution", "crystalloid"),
}


def group_phrases(group: str, *, members: bool = True) -> tuple[str, ...]:
    """The names that stand for ``group``: itself, and its class's names (and members,
    unless ``members`` is false) when the class is known (looked up by normalised name)."""
    from medbench_tui.core.text import compact

    wanted = compact(group)
    for key, names in GROUP_NAMES.items():
        if wanted in {compact(n) for n in (key, *names)}:
            return (group, key, *names, *(GROUP_MEMBERS.get(key, ()) if members else ()))
    return (group,)
