"""A bare WebSocket echo: the load harness's baseline for what the transport alone costs.

Mounted only with `bench_echo` on. Same process, same middleware, same uvicorn: the gap
between an action's round trip and an echo's is what validation, scoring, persistence
and fan-out cost.
"""

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

router = APIRouter()


@router.websocket("/bench/echo")
async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        pass
