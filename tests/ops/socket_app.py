"""The real app plus one tracked echo socket, for the shutdown test's uvicorn process."""

from fastapi import WebSocket, WebSocketDisconnect

from app.main import create_app

app = create_app()


@app.websocket("/test-echo")
async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    async with app.state.connections.track(websocket, player="tester"):
        try:
            while True:
                await websocket.send_text(await websocket.receive_text())
        except WebSocketDisconnect:
            pass
