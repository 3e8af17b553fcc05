"""``python -m tests.support.testing_serve``: what ``spider serve`` runs (uvicorn with the
operational settings, app/ops/serve.py), serving the testing app instead of the product's."""

from app.ops.serve import main

if __name__ == "__main__":
    main(app="tests.support.testing_app:app")
