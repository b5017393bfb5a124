"""Signing in to the explorer with an API key: a browser cannot send ``Authorization``
headers by itself, so ``/login`` checks a key and keeps it in an HttpOnly, SameSite=Strict
cookie that ``interfaces.auth`` reads on GET requests only (the explorer only reads; no
write is ever made with it), marked Secure when the page was served over HTTPS (the request's
scheme, which uvicorn takes from ``X-Forwarded-Proto`` only when a proxy it trusts sends
it). ``/logout`` forgets it. The form may post only from the serve's own pages
(``interfaces.guard``)."""

from __future__ import annotations

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from xdb.core import Database
from xdb.interfaces.auth import KEY_COOKIE
from xdb.policy.keys import authenticate

__all__ = ["add_login"]


def add_login(app: FastAPI, db: Database) -> None:
    from xdb.explorer.pages import _render  # (pages adds these routes)

    @app.get("/login", include_in_schema=False, summary="Explorer: the sign-in form.")
    def login_form() -> HTMLResponse:
        return _render("login.html", failed=False)

    @app.post("/login", include_in_schema=False, summary="Explorer: sign in with an API key.")
    async def login(request: Request, key: str = Form("")) -> Response:
        caller = await run_in_threadpool(authenticate, db.store, key.strip()) if key else None
        if caller is None:
            return _render("login.html", http_status=401, failed=True)
        answer = RedirectResponse("/", status_code=303)
        answer.set_cookie(KEY_COOKIE, key.strip(), httponly=True, samesite="strict",
                          secure=request.url.scheme == "https", max_age=8 * 3600)  # fmt: skip
        return answer

    @app.get("/logout", include_in_schema=False, summary="Explorer: sign out.")
    def logout() -> Response:
        answer = RedirectResponse("/login", status_code=303)
        answer.delete_cookie(KEY_COOKIE)
        return answer
