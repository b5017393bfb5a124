"""The explorer: web pages where a person sees what an agent lived through and learned
(``xdb serve`` at ``/``). Server-rendered (Jinja2, autoescaped) from the same read-only
operations every interface serves, for the request's caller: the pages show what the API
would answer that caller, and nothing else. No Node at run time; no JavaScript needed to
read a page."""
