"""The OpenAPI document: served at /docs, lists every REST route with problem answers."""

import httpx

EXPECTED = {
    ("post", "/api/players"), ("get", "/api/players/me"), ("get", "/api/players/{player_id}"),
    ("get", "/api/players/{player_id}/history"), ("get", "/api/me/friends"),
    ("post", "/api/me/friends"), ("delete", "/api/me/friends/{player_id}"),
    ("get", "/api/me/ignores"), ("post", "/api/me/ignores"),
    ("delete", "/api/me/ignores/{player_id}"), ("post", "/api/tables"), ("get", "/api/tables"),
    ("get", "/api/tables/{table_id}"), ("post", "/api/tables/{table_id}/join"),
    ("post", "/api/tables/{table_id}/leave"), ("post", "/api/tables/{table_id}/new-game"),
    ("post", "/api/tables/{table_id}/invites"), ("get", "/api/me/invites"),
    ("get", "/api/invites/{code}"), ("post", "/api/invites/{code}/accept"),
    ("post", "/api/invites/{code}/decline"), ("delete", "/api/invites/{code}"),
    ("get", "/api/matches/{match_id}"), ("get", "/api/games/{game_id}/record"),
    ("get", "/api/leaderboard"), ("get", "/api/bands"),
}


async def test_docs_page_and_schema(client: httpx.AsyncClient) -> None:
    docs = await client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    schema = (await client.get("/openapi.json")).json()
    operations = {(method, path) for path, item in schema["paths"].items() for method in item}
    assert operations >= EXPECTED
    for method, path in EXPECTED:
        responses = schema["paths"][path][method]["responses"]
        if path != "/api/bands":
            assert "422" in responses, (method, path)
            assert "application/problem+json" in responses["422"]["content"], (method, path)
    assert set(schema["components"]["schemas"]["ProblemOut"]["required"]) >= {
        "type", "title", "status", "detail", "code"}
