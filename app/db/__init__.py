"""Persistence: SQLAlchemy 2 async models, the engine/session factory and repositories."""
