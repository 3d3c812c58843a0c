"""What the doctor receives of an attachment: its text inline, an image as its description
(and the file, for systems that take images), never a path outside the bank."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.paths import is_inside

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp")


@dataclass(frozen=True)
class AttachmentView:
    """An attachment as the doctor receives it: text inline, an image as its
    description (and the file, for systems that take images)."""

    id: str
    kind: str
    title: str
    text: str | None = None
    description: str | None = None
    image_path: Path | None = None
    missing_file: str | None = None
    outside_file: str | None = None
    """A ``file:`` that leads outside the bank (a link): never read, never sent."""

    def render(self) -> str:
        lines = [f"[Attachment: {self.title} ({self.kind})]"]
        if self.text:
            lines.append(self.text.rstrip())
        elif self.description:
            lines.append(f"Description: {self.description.strip()}")
        # Never a file path: it names the case folder (often the diagnosis), and a text-only
        # system can do nothing with it; the description is what it is sent.
        if self.missing_file:
            lines.append("(file not found in the case bank)")
        if self.outside_file:
            lines.append("(file outside the case bank, not shown)")
        return "\n".join(lines)


@dataclass(frozen=True)
class DoctorView:
    """What the doctor sees before the first question: the intro and turn-zero attachments."""

    intro: str
    attachments: list[AttachmentView] = field(default_factory=list)

    def render(self) -> str:
        return "\n\n".join([self.intro.strip(), *(a.render() for a in self.attachments)])


def attachment_view(attachment: Attachment, bank_root: Path) -> AttachmentView:
    """Read a text file from the bank root; an image stays a path plus description; a file
    whose real path is outside the bank is refused."""
    text = attachment.content
    image = missing = outside = None
    if attachment.file and text is None:
        path = Path(bank_root) / attachment.file
        if not is_inside(path, bank_root):
            outside = attachment.file
        elif not path.is_file():
            missing = attachment.file
        elif path.suffix.lower() in IMAGE_SUFFIXES or attachment.kind == "image":
            image = path
        else:
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                image = path
    return AttachmentView(
        attachment.id, attachment.kind, attachment.title, text, attachment.description, image, missing, outside
    )
