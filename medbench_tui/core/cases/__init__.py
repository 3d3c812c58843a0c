"""Cases and banks: the case model, reading and writing case files, templates, the bank and its
configuration, the frozen manifest, and how a case is shown to someone practising it."""
