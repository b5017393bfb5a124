"""What an argument is (``model.ARG_KINDS``) and which environment a text names, from the
text alone: no file system access (the call has not run yet, and the skip path cannot
afford it)."""

from __future__ import annotations

import posixpath

__all__ = ["arg_kind", "env_of", "path_inside"]

# Environment names, as written in hosts, contexts, namespaces, folders and files, to the
# environment they mean.
ENVIRONMENTS = {
    "prod": "production", "production": "production", "prd": "production",
    "live": "production", "staging": "staging", "stage": "staging", "stg": "staging",
    "preprod": "staging", "dev": "development", "development": "development",
    "sandbox": "development", "qa": "test", "uat": "test",
}  # fmt: skip
# "test" names an environment only as a whole word: as a part (tests/, test_x.py) it
# names test code.
_WHOLE_ONLY = {"test": "test", "testing": "test"}
# (No regular expressions here: compiling them would cost the skip path ~0.5 ms a call.)
_SEPARATORS = str.maketrans({c: " " for c in "/-_.:=@,+~*?[]{}()'\"$%&!#;<>|\\^`"})
_BRANCH_NAMES = frozenset(("main", "master", "develop", "trunk", "HEAD"))
_BRANCH_PREFIXES = ("origin/", "upstream/", "refs/", "feature/", "feat/", "fix/", "bugfix/",
                    "hotfix/", "release/", "chore/")  # fmt: skip
# Programs whose slash-separated arguments name resources, not files.
_NAMED = frozenset(("kubectl", "helm", "docker", "systemctl", "aws", "gcloud", "az", "npm",
                    "pnpm", "yarn", "pip", "uv", "cargo", "go", "brew"))  # fmt: skip
_REF_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./@{}~^-")
# git subcommands whose plain arguments are refs (a path has a / or an extension).
_GIT_REFS = frozenset(
    ("push", "pull", "checkout", "switch", "merge", "rebase", "branch", "cherry-pick",
     "reset", "fetch", "log", "diff", "tag", "revert", "show", "worktree")
)  # fmt: skip


def env_of(text: str) -> str | None:
    """The environment ``text`` names (``envs/prod/main.tf``, ``--context=staging-eu``,
    ``appsettings.Production.json``), or None."""
    lowered = text.lower()
    if lowered in _WHOLE_ONLY:
        return _WHOLE_ONLY[lowered]
    if lowered.startswith("/dev/"):  # devices, not the development environment
        return None
    for part in lowered.translate(_SEPARATORS).split():
        if part in ENVIRONMENTS:
            return ENVIRONMENTS[part]
    return None


def path_inside(path: str, cwd: str | None) -> bool:
    """Whether ``path`` lies inside the project ``cwd`` (a relative path is read from it;
    with no cwd, an absolute path counts as outside)."""
    if path.startswith("~"):
        return False
    if path.startswith("/"):
        if not cwd:
            return False
        root = posixpath.normpath(cwd)
        resolved = posixpath.normpath(path)
        return resolved == root or resolved.startswith(root.rstrip("/") + "/")
    resolved = posixpath.normpath(path)
    return resolved != ".." and not resolved.startswith("../")


def arg_kind(
    text: str,
    *,
    dynamic: bool = False,
    glob: bool = False,
    cwd: str | None = None,
    program: str = "",
    subcommand: tuple[str, ...] = (),
    index: int = 0,
) -> str:
    """The kind of a positional argument (``index``: its place among the command's
    positional arguments, for programs where the place says what it is)."""
    if dynamic:
        return "variable"
    if _url(text):
        return "url"
    if glob:
        return "glob"
    if _number(text):
        return "number"
    lowered = text.lower()
    if lowered in ENVIRONMENTS or lowered in _WHOLE_ONLY:
        return "env"
    if _branch(text):
        return "branch"
    if program == "git" and subcommand and subcommand[0] in _GIT_REFS:
        remote_first = subcommand[0] in ("push", "pull", "fetch")
        ref = text[:1] != "-" and set(text.lstrip("+")) <= _REF_CHARS
        if not (remote_first and index == 0) and ref and not _path_like(text):
            return "branch"
    if program in _NAMED and not text.startswith((".", "/", "~")):
        return "word"  # deploy/api, pod/x: a resource's name, not a path
    if _path_like(text):
        return "project_path" if path_inside(text, cwd) else "outside_path"
    return "word"


def _url(text: str) -> bool:
    """scheme://..., or user@host:path (scp and git's form)."""
    scheme, sep, _ = text.partition("://")
    if sep:
        return scheme[:1].isalpha() and all(c.isalnum() or c in "+.-" for c in scheme)
    user, at, rest = text.partition("@")
    host, colon, _ = rest.partition(":")
    return bool(at and colon and user and host) and "/" not in user + host


def _number(text: str) -> bool:
    """5, -1, 1.5, 1.2.3, 10s, 80%, 512Mi."""
    body = text[1:] if text[:1] in "+-" else text
    end = len(body)
    while end and len(body) - end < 2 and (body[end - 1].isalpha() or body[end - 1] == "%"):
        end -= 1
    digits = body[:end].split(".")
    return all(part.isdigit() and part.isascii() for part in digits)


def _branch(text: str) -> bool:
    """main, origin/x, feature/x, HEAD~1, @{u}, +main (a forced refspec)."""
    name = text[1:] if text.startswith("+") else text
    if name in _BRANCH_NAMES or (name.startswith("@{") and name.endswith("}")):
        return True
    if name.startswith("HEAD") and name[4:] and set(name[4:]) <= set("~^0123456789"):
        return True
    return name.startswith(_BRANCH_PREFIXES) and len(name.split("/", 1)[1]) > 0


def _path_like(text: str) -> bool:
    if "/" in text or text.startswith((".", "~")):
        return True
    stem, dot, ext = text.rpartition(".")
    return bool(dot and stem and 0 < len(ext) <= 8 and ext[0].isalpha() and ext.isalnum())
