"""One consultation: the turn loop, its transcript, a played session, and rehearsal of a case's
patient for its author."""
