"""The live hub ends every page's stream when the server stops, a late one too: a stream
left open holds aiohttp's shutdown (a box restarting with a phone's page open)."""

from __future__ import annotations

import asyncio

from narrator.web.live import Hub


def test_a_stream_that_subscribes_after_the_close_is_told_to_end() -> None:
    async def main() -> tuple[bytes, bytes]:
        hub = Hub(lambda _organiser: b"data: x\n\n")
        early = hub.subscribe()
        hub.close()
        late = hub.subscribe()  # a page that reconnected while the server stops
        hub.poke()
        await asyncio.sleep(0)
        return early.get_nowait(), late.get_nowait()

    early, late = asyncio.run(main())
    assert early == b"" and late == b""
