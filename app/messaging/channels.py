"""Names of the pubsub channels, in one place so publishers and subscribers agree."""

LOBBY = "lobby"
FRAME_PREFIXES = ("player:", "presence:", "match:", "watch:")


def carries_frames(channel: str) -> bool:
    """Whether a channel's messages are frames of the protocol (``app/wire/``): those a
    player's event stream follows, read back from Redis typed, in one pass. Every other
    channel (the peers' ``sync:``, the presence scripts' changes) carries plain JSON."""
    return channel == LOBBY or channel.startswith(FRAME_PREFIXES)


def player(player_id: int) -> str:
    """Direct messages to one player: invites, match results."""
    return f"player:{player_id}"


def presence(player_id: int) -> str:
    return f"presence:{player_id}"


def match(match_id: int) -> str:
    """Progress and ends of a match's games: no card, ever."""
    return f"match:{match_id}"


def watch(match_id: int, player_id: int) -> str:
    """Live steps (views) of one game, followed only by those allowed to watch it."""
    return f"watch:{match_id}:{player_id}"
