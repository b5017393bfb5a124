"""Signing in to the explorer with an API key: a browser cannot send ``Authorization``
headers by itself, so ``/login`` checks a key and keeps it in an HttpOnly, SameSite=Strict
cookie that ``interfaces.auth`` reads on GET requests only (the explorer only reads; no
write is ever made with it), marked Secure when the page was served over HTTPS (the request's
scheme, which uvicorn takes from ``X-Forwarded-Proto`` only when a proxy it trusts sends
it). ``/logout`` forgets it. The form may post only from the serve's own pages
(``interfaces.guard``).

A serve on localhost wants no key (``interfaces.auth``: one bound beyond localhost wants
one from every request, a local one included), so there the page says so and leads to the
overview; a key may still be given, to see what its caller may see."""

from __future__ import annotations

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from xdb.core import Database
from xdb.explorer.render import render
from xdb.interfaces.auth import KEY_COOKIE, ApiKeyAuth
from xdb.policy.keys import authenticate

__all__ = ["add_login"]


def keys_required(app: FastAPI) -> bool:
    """Whether ``app`` wants a key from every request (``ApiKeyAuth``'s ``required``)."""
    return any(
        getattr(m, "cls", None) is ApiKeyAuth and bool(m.kwargs.get("required"))
        for m in app.user_middleware
    )


def add_login(app: FastAPI, db: Database) -> None:
    @app.get("/login", include_in_schema=False, summary="Explorer: the sign-in form.")
    def login_form() -> HTMLResponse:
        return render("login.html", failed=False, required=keys_required(app), here="/login")

    @app.post("/login", include_in_schema=False, summary="Explorer: sign in with an API key.")
    async def login(request: Request, key: str = Form("")) -> Response:
        caller = await run_in_threadpool(authenticate, db.store, key.strip()) if key else None
        if caller is None:
            return render("login.html", http_status=401, failed=True,
                          required=keys_required(app), here="/login")  # fmt: skip
        answer = RedirectResponse("/", status_code=303)
        answer.set_cookie(KEY_COOKIE, key.strip(), httponly=True, samesite="strict",
                          secure=request.url.scheme == "https", max_age=8 * 3600)  # fmt: skip
        return answer

    @app.get("/logout", include_in_schema=False, summary="Explorer: sign out.")
    def logout() -> Response:
        answer = RedirectResponse("/login", status_code=303)
        answer.delete_cookie(KEY_COOKIE)
        return answer
