"""The ``xdb`` group's class: every error leaves as one line, ``error: <message>``, on
stderr with exit code 2 (an unexpected one with exit code 1, its traceback with
``XDB_DEBUG=1``), and ``xdb --help`` lists the commands by capability (``cli_help``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import click
from click.exceptions import NoArgsIsHelpError

from xdb.errors import XdbError
from xdb.interfaces import cli_help


class XdbGroup(cli_help.SectionedGroup):
    """A group that turns every error into one ``error: ...`` line and exit code 2, and
    lists its commands by capability (``cli_help``)."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        code = 0
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            # Without standalone mode click returns --help's exit code, or a command's value.
            code = result if isinstance(result, int) else 0
        except XdbError as exc:
            code = fail(exc.message)
        except NoArgsIsHelpError as exc:
            # Bare `xdb` (or a bare group) asks for help; it is not an error.
            click.echo(exc.format_message())
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
            code = fail(f"{exc.format_message()}{hint}")
        except click.ClickException as exc:
            code = fail(exc.format_message())
        except click.Abort:
            code = fail("aborted", 130)
        except BrokenPipeError:
            code = 1  # the reader went away (`xdb export | head`); nothing left to say
        except OSError as exc:
            code = fail(f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc))
        except Exception as exc:
            if os.environ.get("XDB_DEBUG"):
                raise
            code = fail(
                f"unexpected {type(exc).__name__}: {exc} (XDB_DEBUG=1 shows a traceback)", 1
            )
        if standalone_mode:
            sys.exit(code)
        return code


def fail(message: str, code: int = 2) -> int:
    click.echo(f"error: {' '.join(message.split())}", err=True)  # one line, always
    return code
