"""The browser's socket (web/js/socket.js) against a stand-in WebSocket in the page: what
it sends around a welcome (docs/protocol.md, "Resuming")."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.web.conftest import LiveServer

# A WebSocket that records what the client sends and lets the test speak for the server.
PRELUDE = """
const sent = [];
class StandIn {
  static OPEN = 1;
  constructor() {
    this.readyState = 0;
    StandIn.last = this;
    setTimeout(() => { this.readyState = 1; this.onopen(); }, 0);
  }
  send(text) { sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; setTimeout(() => this.onclose?.(), 0); }
}
window.WebSocket = StandIn;
const { createSocket } = await import('/js/socket.js');
const tick = () => new Promise((resolve) => setTimeout(resolve, 10));
const hear = (frame) => StandIn.last.onmessage({ data: JSON.stringify(frame) });
"""


def run(page: Page, server: LiveServer, body: str) -> Any:
    page.goto(server.url + "/css/app.css")  # any page of the app: the module's origin
    return page.evaluate(f"(async () => {{ {PRELUDE}\n{body} }})()")


def test_a_subscription_asked_for_before_the_welcome_is_sent_once(
        page: Page, static_server: LiveServer) -> None:
    # Sent twice, it was answered twice: the second snapshot came while an action was on
    # its way and cut its answer short (a refusal never said).
    out = run(page, static_server, """
      const socket = createSocket({ token: 't', onMessage: () => {}, url: 'ws://stand-in' });
      socket.send({ type: 'open_game', match_id: 1 }, 'game:1');   // not connected yet
      socket.send({ type: 'ping' });                                 // queued, not kept
      await tick();
      hear({ type: 'welcome', v: 1, stream: 's1', last_event: 0, resumed: false });
      const first = sent.map((m) => m.type);
      sent.length = 0;
      socket.drop();                           // a fresh stream later: asked for again
      await new Promise((resolve) => setTimeout(resolve, 400));
      hear({ type: 'welcome', v: 1, stream: 's2', last_event: 0, resumed: false });
      const again = sent.map((m) => m.type);
      socket.close();
      return { first, again };
    """)
    assert out["first"] == ["hello", "open_game", "ping"]
    assert out["again"] == ["hello", "open_game"]


def test_what_is_followed_is_asked_for_again_after_unavailable(
        page: Page, static_server: LiveServer) -> None:
    # The database restarting: the server could not read the game, changed nothing, and
    # said so (docs/protocol.md, "Errors"); the page asks again a moment later, once.
    out = run(page, static_server, """
      const heard = [];
      const socket = createSocket({ token: 't', onMessage: (m) => heard.push(m.type),
                                    url: 'ws://stand-in' });
      await tick();
      hear({ type: 'welcome', v: 1, stream: 's1', last_event: 0, resumed: false });
      socket.send({ type: 'open_game', match_id: 1 }, 'game:1');
      socket.send({ type: 'spectate', match_id: 2 }, 'watch:2');
      sent.length = 0;
      hear({ type: 'error', code: 'unavailable', message: 'try again' });
      hear({ type: 'error', code: 'unavailable', message: 'try again' });
      await tick();
      const before = sent.length;
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const after = sent.map((m) => m.type);
      socket.close();
      return { before, after, heard };
    """)
    assert out["before"] == 0  # not at once: the database needs a moment
    assert out["after"] == ["open_game", "spectate"]  # once each, for both refusals
    assert out["heard"].count("error") == 2  # the screens still hear of it


def test_a_dropped_connection_is_tried_again_at_once_then_with_back_off(
        page: Page, static_server: LiveServer) -> None:
    """A player whose server died waited 250 ms before even trying again, on top of the
    failover itself (docs/operations.md): the first try now goes within 100 ms (spread,
    so that a dead server's players do not all arrive in one millisecond); a try that
    fails waits 250 ms, then 500; a welcome starts the count again."""
    out = run(page, static_server, """
      const waits = [];
      const realSetTimeout = window.setTimeout;
      window.setTimeout = (fn, ms, ...rest) => {
        if (fn.name === 'connect') waits.push(Math.round(ms));
        return realSetTimeout(fn, ms, ...rest);
      };
      const connected = async (count) => {
        while (countMade < count) await tick();
      };
      let countMade = 0;
      const Made = window.WebSocket;
      window.WebSocket = class extends Made { constructor(url) { super(url); countMade += 1; } };
      const socket = createSocket({ token: 't', onMessage: () => {}, url: 'ws://stand-in' });
      await connected(1);
      await tick();
      hear({ type: 'welcome', v: 1, stream: 's1', last_event: 0, resumed: false });
      socket.drop();              // the server died: tried again at once
      await connected(2);
      StandIn.last.close();       // that try failed before any welcome: 250 ms
      await connected(3);
      StandIn.last.close();       // and again: 500 ms
      await connected(4);
      await tick();
      hear({ type: 'welcome', v: 1, stream: 's1', last_event: 0, resumed: true });
      socket.drop();              // welcomed in between: at once again
      await connected(5);
      socket.close();
      window.setTimeout = realSetTimeout;
      return waits;
    """)
    assert len(out) == 4, out
    assert 0 <= out[0] <= 100 and 0 <= out[3] <= 100, out
    assert out[1:3] == [250, 500], out
