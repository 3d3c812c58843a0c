"""The interface every doctor (system under test) implements, and the common run frame."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from medbench_tui.core.endpoints.client import EndpointError
from medbench_tui.core.jsondata import JSONObject

if TYPE_CHECKING:
    from medbench_tui.core.consultation.loop import Consultation
    from medbench_tui.core.transcript import Transcript


class DoctorSystem(Protocol):
    name: str

    def public_config(self) -> JSONObject:
        """The full configuration (model, endpoint, prompt, parameters), never a key."""
        ...

    async def consult(self, consultation: Consultation) -> Transcript:
        """Drive the whole consultation and return its transcript."""
        ...

    def cannot_play(self, case_id: str) -> str | None:
        """Why this system cannot play the case at all (planning leaves it out), else None."""
        ...


class DrivenSystem:
    """The frame of a run: :meth:`drive` talks to the patient; whatever happens, the
    consultation ends here. An endpoint error that survives ends it incomplete with
    the reason (never a scored placeholder); a drive that stops without a final
    response ends it ``no_final_response``."""

    name = "system"

    async def drive(self, consultation: Consultation) -> None:
        raise NotImplementedError

    def cannot_play(self, case_id: str) -> str | None:
        """Every case, unless the system says otherwise (a replay plays only what it recorded)."""
        return None

    @staticmethod
    async def give_way() -> None:
        """Let the other runs in flight have the loop: a doctor that never waits (a script, a
        replay) with a patient that answers at once (the grounded one) would hold it for a
        whole run. A doctor that waits for a model or a person gives way as it waits."""
        await asyncio.sleep(0)

    async def consult(self, consultation: Consultation) -> Transcript:
        from medbench_tui.core.consultation.loop import ConsultationOver

        try:
            await self.drive(consultation)
        except EndpointError as exc:
            if not consultation.done:
                consultation.fail(exc)
        except ConsultationOver:
            pass
        except asyncio.CancelledError:
            if not consultation.done:
                consultation.abandon("cancelled")
            raise
        finally:
            close = getattr(consultation.simulator, "aclose", None)
            if close is not None:
                await close()
        if not consultation.done:
            consultation.abandon("no_final_response")
        return consultation.transcript
