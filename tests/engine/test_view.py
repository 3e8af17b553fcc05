"""player_view: face-down cards and the stock order never leave it, only their counts."""

import msgspec

from app.engine.actions import Move
from app.engine.cards import card_name
from app.engine.deal import deal
from app.engine.game import legal_moves, push
from app.engine.rules import preset
from app.engine.view import ViewMemo, player_view
from app.wire.game import GameView


def test_the_view_shows_counts_not_hidden_cards() -> None:
    state = deal(31, preset("duel", 4))
    view = player_view(state)
    assert [c.down for c in view.columns] == [len(c.down) for c in state.columns]
    assert [c.up for c in view.columns] == [[card_name(x) for x in c.up]
                                            for c in state.columns]
    assert view.stock == 50 and view.deals_left == 5
    assert view.status == "playing" and view.can_undo is False
    text = msgspec.json.encode(view).decode()
    up_names = {card_name(x) for c in state.columns for x in c.up}
    hidden = {card_name(x) for c in state.columns for x in c.down} | {
        card_name(x) for x in state.stock
    }
    for name in hidden - up_names:
        assert f'"{name}"' not in text


def test_the_view_is_sent_as_the_documented_object() -> None:
    """The wire form of the view, field for field and in order (docs/protocol.md, Views
    and events): what the view's dict said before it was a struct."""
    start = deal(31, preset("classic", 1))
    view = player_view(push(start, legal_moves(start)[0]))
    text = msgspec.json.encode(view).decode()
    assert text.startswith('{"columns":[{"down":')
    assert text.endswith('],"stock":50,"deals_left":5,"removed":[],"status":"playing",'
                         '"actions":1,"can_undo":true}')
    assert msgspec.json.decode(text, type=GameView) == view


def test_the_view_says_when_undo_is_possible() -> None:
    state = deal(31, preset("classic", 1))
    moves = legal_moves(state)
    assert moves, "deal 31 has a first move"
    after = push(state, moves[0])
    assert player_view(after).can_undo is True
    assert player_view(after).actions == 1
    assert isinstance(moves[0], Move)



def test_a_memo_gives_the_same_views_and_reuses_only_unchanged_columns() -> None:
    state = deal(7, preset("duel", 4))
    memo = ViewMemo()
    last = player_view(state, memo)
    states = [state]
    for _ in range(30):
        moves = legal_moves(state)
        if not moves:
            break
        after = push(state, moves[-1])
        view = player_view(after, memo)
        assert view == player_view(after)
        reused = [i for i in range(10) if view.columns[i] is last.columns[i]]
        assert reused == [i for i in range(10) if after.columns[i] is state.columns[i]]
        assert len(reused) >= 8  # a move changes two columns
        state, last = after, view
        states.append(state)
    assert len(states) > 10
    for earlier in reversed(states):  # and back, as undo goes
        assert player_view(earlier, memo) == player_view(earlier)
