"""``human``: the person at the keyboard. The front end (``medbench play``, the TUI)
supplies the doctor, an async callable that returns the next doctor message, a
:class:`FinalResponse` to finish, or None to stop without one; and optionally
``show``, which receives the opening (:class:`DoctorView`) and each
:class:`PatientReply` as the doctor should see them, and ``on_text``, which receives
reply text as it streams in (see :meth:`Consultation.ask`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from medbench_tui.core.consultation.loop import Consultation, DoctorView
from medbench_tui.core.errors import UsageError
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.simulators import PatientReply, TextSink
from medbench_tui.core.systems.base import DrivenSystem
from medbench_tui.core.transcript import FinalResponse

DoctorInput = Callable[[Consultation], Awaitable["str | FinalResponse | None"]]
Show = Callable[["DoctorView | PatientReply"], None]


class HumanSystem(DrivenSystem):
    name = "human"

    def __init__(
        self,
        doctor: DoctorInput | None = None,
        *,
        show: Show | None = None,
        on_text: TextSink | None = None,
        name: str = "human",
    ) -> None:
        self.doctor = doctor
        self.show = show or (lambda _: None)
        self.on_text = on_text
        self.name = name

    def public_config(self) -> JSONObject:
        return {"name": self.name, "kind": "human"}

    async def drive(self, consultation: Consultation) -> None:
        if self.doctor is None:
            raise UsageError("the human system needs a person at the keyboard: use 'medbench play' or the TUI")
        self.show(consultation.opening)
        while not consultation.done:
            action = await self.doctor(consultation)
            if action is None:
                return
            if isinstance(action, FinalResponse):
                consultation.finish(action)
                return
            self.show(await consultation.ask(action, on_text=self.on_text))
