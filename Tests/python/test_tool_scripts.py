"""The scripts in Tools/ and the Makefile's recipes never pipe into a reader
that may stop reading early (`head`, `grep -q`, `grep -m`, `sed ...q`).

Under `set -o pipefail` such a pipeline fails by chance: when the reader
exits first, the writer gets SIGPIPE (curl exits 23, others 141) and the
pipeline's status is the writer's, so `make demo` failed now and then
(issue 19). A reader that consumes its whole input (`sed -n 1,8p`, `awk`)
gives the same output and never closes the pipe early.
"""
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "Tools").glob("*.sh"))
HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")


def is_complete(line):
    """Whether the line closes every quote it opens (a quoted awk program may span lines)."""
    try:
        shlex.split(line, comments=False)
    except ValueError:
        return False
    return True


def logical_lines(text):
    """The shell lines of a script: continuations and multi-line quotes joined, comments and heredoc bodies left out."""
    lines, pending, heredoc_end = [], "", None
    for raw in text.splitlines():
        if heredoc_end is not None:
            if raw.strip() == heredoc_end:
                heredoc_end = None
            continue
        if not pending and raw.lstrip().startswith("#"):
            continue
        line = pending + raw
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not is_complete(line):
            pending = line + "\n"
            continue
        pending = ""
        found = HEREDOC.search(line)
        if found:
            heredoc_end = found.group(1)
        lines.append(line)
    return lines


def stops_reading_early(stage):
    """Whether a pipeline stage (its words) may exit before its input ends."""
    if not stage:
        return False
    command, options = stage[0], stage[1:]
    if command == "head":
        return True
    if command == "grep":
        return any(o in ("-q", "--quiet", "--silent", "-l") or o.startswith("--max-count")
                   or re.fullmatch(r"-[A-Za-z]*[qml][A-Za-z0-9]*", o) for o in options)
    if command == "sed":
        return any(re.search(r"(^|[0-9;/$])q", o) for o in options if not o.startswith("-"))
    return False


def early_readers(line):
    """The stages of the line's pipelines after the first that may stop reading early, also inside `bash -c`."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars="|&;()")
    lexer.whitespace_split = True
    tokens = list(lexer)
    found, stage, after_pipe = [], [], False
    for index, token in enumerate(tokens):
        if token in ("|", "||", "&&", ";", "&", "(", ")", "|&"):
            if after_pipe and stops_reading_early(stage):
                found.append(" ".join(stage))
            after_pipe, stage = token in ("|", "|&"), []
            continue
        stage.append(token)
        if index > 0 and tokens[index - 1] == "-c" and index > 1 and tokens[index - 2] in ("bash", "sh"):
            found += early_readers(token)
    if after_pipe and stops_reading_early(stage):
        found.append(" ".join(stage))
    return found


def offending_lines(text):
    return [(line, reader) for line in logical_lines(text) for reader in early_readers(line)]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_script_never_pipes_into_a_reader_that_stops_early(script):
    assert offending_lines(script.read_text()) == []


def test_makefile_recipes_never_pipe_into_a_reader_that_stops_early():
    recipes = [line.lstrip("\t@") for line in (ROOT / "Makefile").read_text().splitlines() if line.startswith("\t")]
    assert offending_lines("\n".join(recipes)) == []


@pytest.mark.parametrize("line", [
    'curl -s "$url" | head -c 300; echo ...',
    "bash -c \"'$mytaxi' zones neighbours | head -8\"",
    'grep -E "^(fixes|ACK)" log | head -3 || true',
    'ps aux | grep -q serve && echo up',
    'mytaxi zones neighbours | sed 8q',
    'generate | grep -m1 found',
])
def test_the_check_finds_a_pipe_into_an_early_reader(line):
    assert offending_lines(line) != []


@pytest.mark.parametrize("line", [
    "bash -c \"'$mytaxi' zones neighbours | sed -n 1,8p\"",
    "curl -s \"$m\" | awk '$1 ~ /^a|b/ && $2 != 0'",
    "grep -q '^listening http ' file && break",
    "printf 'a|head' | tee out | mytaxi eta",
    "python3 -c 'import x' || head -1 file",
])
def test_the_check_lets_whole_input_readers_pass(line):
    assert offending_lines(line) == []
