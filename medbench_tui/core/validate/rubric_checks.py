"""The checks of a rubric case (``kind: rubric``), each finding placed at the YAML path it is about.

The schema, empty values, the id against the file name, comments inside text blocks, the checks
across the bank and the status come from the consultation checker, in the same words; what is
the rubric's own is which question and which grading the file gives, and whether each criterion
carries what its grader reads.
"""

from __future__ import annotations

from medbench_tui.core.cases.model import Case
from medbench_tui.core.cases.rubric import RubricCase
from medbench_tui.core.validate.checks import Checker
from medbench_tui.core.validate.messages import show
from medbench_tui.core.validate.values import entries_at, number_at, text_at


class RubricChecker(Checker):
    """All checks of one rubric case."""

    model = RubricCase

    def run(self) -> Case | None:
        """Checks the file; a valid rubric case is left in ``rubric`` (a rubric is no consultation)."""
        if not self.parsed.ok:
            return None
        rubric = self.validated(RubricCase)
        self.empty_values()
        self.identity()
        self.question()
        self.criteria()
        self.panel()
        self.comments_in_blocks()
        if self.bank is not None:
            self.bank_checks()
        self.final_status()
        if rubric is not None and not any(d.severity == "error" for d in self.diagnostics):
            self.rubric = rubric
        return None

    def question(self) -> None:
        prompt, messages = self.data.get("prompt"), self.data.get("messages")
        if prompt is None and messages is None:
            self.add("error", "rubric.no_question", (),
                     "The case has no question: add `prompt: |` with the question (one user message), or "
                     "`messages:` with a short chat whose last message is the user's.")
        elif prompt is not None and messages is not None:
            self.add("error", "rubric.two_questions", ("messages",),
                     f"The case has both `prompt` (line {self.line_of(('prompt',))}) and `messages`: keep one "
                     "(a single question is `prompt`, a chat is `messages`).", at_key=True)
        chat = entries_at(self.data, "messages")
        if chat and chat[-1][0] == len(messages) - 1 and chat[-1][1].get("role") == "assistant":
            self.add("error", "rubric.last_message", ("messages", chat[-1][0], "role"),
                     "The chat ends with the assistant's message: the system answers the user's last message, so "
                     "end `messages` with `role: user`.")
        if isinstance(messages, list) and not messages:
            self.add("error", "rubric.no_question", ("messages",),
                     "`messages` is empty: write the chat, or use `prompt:` for a single question.", at_key=True)

    def criteria(self) -> None:
        criteria = self.data.get("criteria")
        panel = self.data.get("panel")
        if criteria is None and panel is None:
            self.add("error", "rubric.no_grading", (),
                     "The case has no grading: add `criteria:` (a points rubric) or `panel:` (a weighted "
                     "action panel).")
            return
        if criteria is not None and panel is not None:
            self.add("error", "rubric.two_gradings", ("panel",),
                     f"The case has both `criteria` (line {self.line_of(('criteria',))}) and `panel`: a case is "
                     "graded one way, so keep one of them.", at_key=True)
        self.criterion_entries()

    def panel(self) -> None:
        actions = entries_at(self.data, "panel")
        if not actions:
            return
        severities = [s for _, a in actions if (s := number_at(a, "severity")) is not None]
        if severities and all(s < 0 for s in severities):
            self.add("error", "panel.no_positive", ("panel",),
                     "No action of the panel has a positive severity, so nothing can be included and the F1 is "
                     "always 0: add the actions a good answer takes (severity 1 to 3).", at_key=True)
        elif severities and all(s > 0 for s in severities):
            self.add("warning", "panel.one_sided", ("panel",),
                     "Every action of the panel is appropriate, so naming everything costs nothing: about half "
                     "of a panel should be inappropriate actions (severity -1 to -3).", at_key=True)
        seen: dict[str, int] = {}
        for i, action in actions:
            name = text_at(action, "action")
            if name is None:
                continue
            key = name.strip().casefold()
            if key in seen:
                self.add("warning", "panel.duplicate_action", ("panel", i, "action"),
                         f"`{show(name)}` is listed twice (first on line "
                         f"{self.line_of(('panel', seen[key], 'action'))}): merge the two entries.")
            else:
                seen[key] = i
