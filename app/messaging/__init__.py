"""Messaging infrastructure: how live messages travel, in one process or across several.

Publish/subscribe on named channels (in-process or Redis), players' numbered event
streams and their outboxes (resumable on any process when kept in Redis), presence and
the per-player connection cap shared through Redis, and the Redis plumbing under them
(scripts in pipelines, healing after a restart).

It knows no game: it imports nothing of ``app.rooms``, ``app.services``, ``app.api`` or
``app.db``, only ``app.runtime`` and ``app.errors``; the live layer (``app.rooms``) and the
services publish and subscribe through it.
"""
