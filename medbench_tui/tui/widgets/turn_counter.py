"""Questions asked so far, against the case's target range (num_steps ± 25%) and its limit."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from medbench_tui.core.practice.session import TurnCount


class TurnCounter(Static):
    DEFAULT_CSS = """
    TurnCounter { height: auto; padding: 0 1; border: round $foreground 25%; border-title-color: $text-muted; }
    TurnCounter.-outside { border: round $warning; }
    TurnCounter.-last { border: round $error; }
    """

    def on_mount(self) -> None:
        self.border_title = "Questions"

    def show(self, count: TurnCount) -> None:
        lines = [Content.assemble((f"{count.steps}", "bold"), f" asked, {count.left} left of {count.max_turns}")]
        span = count.soft_range
        if span is not None:
            lines.append(Content(f"target {span[0]}-{span[1]} (about {count.num_steps})"))
            if count.where != "within" and count.steps:
                lines.append(Content.styled(f"{count.where} the target range", "italic"))
        self.update(Content("\n").join(lines))
        self.set_class(count.where != "within" and count.steps > 0, "-outside")
        self.set_class(count.left == 0, "-last")
