"""`/healthz`, `/readyz` and `/metrics`: plain HTTP for probes and Prometheus."""

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from app.ops.health import Readiness
from app.runtime import metrics

router = APIRouter(tags=["operations"])


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process is up and its event loop answers."""
    return {"status": "ok"}


# Not in the OpenAPI schema: a probe for the orchestrator, whose 503 is an answer (not a
# server error) that API clients and schema fuzzers have no business with.
@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> JSONResponse:
    """Readiness: every required check passes and the process is not shutting down
    (200, ``degraded`` when an optional one, Redis, fails)."""
    readiness: Readiness = request.app.state.readiness
    checks = await readiness.run()
    status = Readiness.status(checks)
    return JSONResponse({"status": status, "checks": checks},
                        status_code=503 if status == "unavailable" else 200)


@router.get("/metrics", include_in_schema=False)
async def prometheus_metrics() -> Response:
    body, content_type = metrics.render()
    return Response(body, media_type=content_type)
