"""A shell command line read into words, operators and redirections, the way bash reads it
(quotes, escapes, ``$( )``, backticks, ``${ }``, ``$(( ))``, process substitution,
here-documents, comments, line continuations).

Our own lexer rather than ``shlex``: ``shlex`` loses what decides an argument's kind
(whether a ``$X`` or a ``*`` was quoted), cannot see a substitution inside a word, and
splits ``2>&1`` and ``&>`` wrongly. Nothing is expanded or run.
"""

from __future__ import annotations

__all__ = ["Lexed", "RedirectOp", "Word", "lex"]

# Operators between commands, longest first (a newline is read as ";").
_OPERATORS = ("&&", "||", ";;&", ";;", ";&", "|&", "|", "&", ";", "(", ")")
# Redirections, longest first; a descriptor number may come before them (2>, 1>>).
_REDIRECTS = ("&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">|", ">&", ">", "<")
_META = frozenset(" \t\n;&|()<>")


class Word:
    """A word: ``value`` with quotes and escapes removed (substitutions kept as written),
    ``subs`` the command text of each ``$( )``/backtick/``<( )`` in it, ``dynamic``
    whether an unquoted or double-quoted expansion is in it, ``glob`` whether an unquoted
    ``*``/``?``/``[`` is, ``quoted`` whether any part was quoted."""

    __slots__ = ("dynamic", "glob", "quoted", "subs", "value")

    def __init__(self) -> None:
        self.value = ""
        self.subs: list[str] = []
        self.dynamic = False
        self.glob = False
        self.quoted = False

    def __repr__(self) -> str:
        return f"Word({self.value!r})"


class RedirectOp:
    """A redirection operator (``fd`` the descriptor written before it, "" for none); a
    here-document's body is set once its lines are read."""

    __slots__ = ("body", "fd", "op")

    def __init__(self, op: str, fd: str) -> None:
        self.op = op
        self.fd = fd
        self.body: str | None = None

    def __repr__(self) -> str:
        return f"RedirectOp({self.fd}{self.op})"


Token = Word | RedirectOp | str  # a str is an operator


class Lexed:
    """The tokens of a line; ``complete`` is False when it ended inside a quote or a
    substitution (what follows could not be read as the shell would)."""

    __slots__ = ("complete", "tokens")

    def __init__(self, tokens: list[Token], complete: bool) -> None:
        self.tokens = tokens
        self.complete = complete


def lex(text: str) -> Lexed:
    """The tokens of ``text``."""
    return _Lexer(text).run()


class _Lexer:
    __slots__ = ("complete", "heredocs", "i", "text", "tokens")

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.tokens: list[Token] = []
        self.heredocs: list[tuple[RedirectOp, str, bool]] = []  # waiting for their bodies
        self.complete = True

    def run(self) -> Lexed:
        text, n = self.text, len(self.text)
        while self.i < n:
            c = text[self.i]
            if c in " \t\r":
                self.i += 1
            elif c == "\\" and text.startswith("\\\n", self.i):
                self.i += 2  # a line continuation
            elif c == "\n":
                self.tokens.append(";")
                self.i += 1
                self._bodies()
            elif c == "#":
                end = text.find("\n", self.i)
                self.i = n if end < 0 else end
            elif self._redirect() or self._operator():
                pass
            else:
                self.tokens.append(self._word())
        if self.heredocs:
            self._bodies()
        return Lexed(self.tokens, self.complete)

    def _operator(self) -> bool:
        text = self.text
        if text.startswith(("<(", ">("), self.i):
            return False  # a process substitution is a word
        for op in _OPERATORS:
            if text.startswith(op, self.i):
                self.tokens.append(op)
                self.i += len(op)
                return True
        return False

    def _redirect(self) -> bool:
        text, j = self.text, self.i
        while j < len(text) and text[j].isdigit():
            j += 1
        if text.startswith(("<(", ">("), j):
            return False
        for op in _REDIRECTS:
            if text.startswith(op, j):
                fd = text[self.i : j]
                if fd and op.startswith("&"):
                    return False  # 2&> is not a redirection of descriptor 2
                token = RedirectOp(op, fd)
                self.tokens.append(token)
                self.i = j + len(op)
                if op in ("<<", "<<-"):
                    self._heredoc(token, op == "<<-")
                return True
        return False

    def _heredoc(self, token: RedirectOp, strip_tabs: bool) -> None:
        while self.i < len(self.text) and self.text[self.i] in " \t":
            self.i += 1
        if self.i >= len(self.text) or self.text[self.i] in _META:
            return
        delimiter = self._word()
        self.tokens.append(delimiter)
        self.heredocs.append((token, delimiter.value, strip_tabs))

    def _bodies(self) -> None:
        """The here-documents' lines (after the line that opened them): input, not
        commands, kept on their redirection."""
        text = self.text
        for token, delimiter, strip_tabs in self.heredocs:
            lines: list[str] = []
            while self.i < len(text):
                end = text.find("\n", self.i)
                end = len(text) if end < 0 else end
                line = text[self.i : end]
                self.i = end + 1
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    break
                lines.append(line)
            token.body = "\n".join(lines)
        self.heredocs = []
        self.i = min(self.i, len(text))

    def _word(self) -> Word:
        text, n = self.text, len(self.text)
        word = Word()
        out: list[str] = []
        while self.i < n:
            c = text[self.i]
            if c in _META:
                if c in "<>" and text.startswith("(", self.i + 1) and not out:
                    start = self.i
                    self.i = self._closing(self.i + 2)
                    word.subs.append(text[start + 2 : self.i - 1])
                    word.dynamic = True
                    out.append(text[start : self.i])
                    continue
                break
            if c == "\\":
                out.append(text[self.i + 1 : self.i + 2])
                self.i += 2
            elif c == "'":
                end = text.find("'", self.i + 1)
                if end < 0:
                    self.complete = False
                    end = n
                out.append(text[self.i + 1 : end])
                word.quoted = True
                self.i = end + 1
            elif c == '"':
                word.quoted = True
                self._double(word, out)
            elif c == "$":
                self._dollar(word, out)
            elif c == "`":
                self._backtick(word, out)
            else:
                if c in "*?[":
                    word.glob = True
                out.append(c)
                self.i += 1
        word.value = "".join(out)
        return word

    def _double(self, word: Word, out: list[str]) -> None:
        text, n = self.text, len(self.text)
        self.i += 1
        while self.i < n and text[self.i] != '"':
            c = text[self.i]
            if c == "\\" and text[self.i + 1 : self.i + 2] in ('"', "\\", "$", "`", "\n"):
                out.append(text[self.i + 1])
                self.i += 2
            elif c == "$":
                self._dollar(word, out)
            elif c == "`":
                self._backtick(word, out)
            else:
                out.append(c)
                self.i += 1
        if self.i >= n:
            self.complete = False
        self.i += 1

    def _dollar(self, word: Word, out: list[str]) -> None:
        text, start = self.text, self.i
        nxt = text[start + 1 : start + 2]
        if text.startswith("$((", start):  # arithmetic: a value, not a command
            self.i = self._closing(start + 2)  # the inner ( nests: one scan closes both
        elif nxt == "(":
            self.i = self._closing(start + 2)
            word.subs.append(text[start + 2 : self.i - 1])
        elif nxt == "{":
            end = text.find("}", start)
            self.i = len(text) if end < 0 else end + 1
        elif nxt and (nxt.isalnum() or nxt in "_@*#?$!-"):
            j = start + 2
            if nxt.isalpha() or nxt == "_":
                while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                    j += 1
            self.i = j
        else:  # a lone $ is itself
            out.append("$")
            self.i += 1
            return
        word.dynamic = True
        out.append(text[start : self.i])

    def _backtick(self, word: Word, out: list[str]) -> None:
        text, start = self.text, self.i
        j = start + 1
        while j < len(text) and text[j] != "`":
            j += 2 if text[j] == "\\" else 1
        if j >= len(text):
            self.complete = False
        word.subs.append(text[start + 1 : j].replace("\\`", "`"))
        word.dynamic = True
        self.i = min(j + 1, len(text))
        out.append(text[start : self.i])

    def _closing(self, i: int) -> int:
        """The index after the ``)`` that closes a ``(`` opened just before ``i``,
        skipping quoted text and nested parentheses."""
        text, depth = self.text, 1
        while i < len(text):
            c = text[i]
            if c == "\\":
                i += 2
                continue
            if c == "'":
                end = text.find("'", i + 1)
                i = len(text) if end < 0 else end + 1
                continue
            if c == '"':
                i += 1
                while i < len(text) and text[i] != '"':
                    i += 2 if text[i] == "\\" else 1
                i += 1
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        self.complete = False
        return len(text)
