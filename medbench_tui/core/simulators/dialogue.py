"""The dialogue so far in one consultation: what the patient keeps between replies.

The planner reads it for follow-ups ("how long did that last?" is about the topic of the
last reply), for repeats ("As I said, ...") and for the doctor's answer to a question the
patient asked back ("Do you mean the headaches or the eye?" - "the eye"). The LLM patient's
prompt is written from the same state (:func:`llm.dialogue_note`).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class DialogueState:
    """What was disclosed and how often, the topic of the last reply (the facts it gave), what
    the patient asked back and has not had answered, what was handed over."""

    disclosed: dict[str, int] = field(default_factory=dict)
    asked: dict[str, int] = field(default_factory=dict)
    """How often each fact was asked for (a delayed fact is told the second time)."""
    clarified: set[str] = field(default_factory=set)
    """Medical words the patient has asked the meaning of (it asks once)."""
    topic: list[str] = field(default_factory=list)
    """The facts of the last reply: what a follow-up is about."""
    told: list[str] = field(default_factory=list)
    """Every fact told, in the order told: whom "she" or "he" may be when the last reply told of someone else."""
    pending: list[str] = field(default_factory=list)
    """The facts the patient asked the doctor to choose between ("Do you mean ...?"), in order."""
    handed_over: set[str] = field(default_factory=set)
    last_asked: str = ""
    """The last question of the doctor's last message, as read: what a request that points back in the next
    message ("can I see the results from that?") asks for."""
    replies: int = 0
    believed: bool = False
    """The self-diagnosing patient has said what it read online."""
    confidence: list[float] = field(default_factory=list)
    """The confidence of each reply so far."""
