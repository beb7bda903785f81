"""README.md and docs/ against the code, so that the documentation cannot drift.

- README.md stays within its budget of lines and starts with the two
  commands of a fresh machine, `make demo` and `make test`.
- Every page and picture in docs/ is linked from README.md, and every
  relative link in README.md and docs/*.md resolves (the file, and the
  heading a `#fragment` names).
- Every `mytaxi COMMAND [SUBCOMMAND...]` named in a code span or block
  exists (`mytaxi ... --help` exits 0), and every `--flag` that follows it
  in the same span or shell command is one that command's help lists.
  Needs the built binary in MYTAXI_BIN (as `make test` sets it); skipped
  without it.
- Every `METHOD /path` named is an operation of the OpenAPI document
  (Sources/API/Resources/openapi.json), whose paths are also the service's
  non-/v1 routes (/healthz, /metrics, /openapi.json, /map); `{id}`
  parameters may be written with any name or as values, query strings are
  ignored.
- No page refers to files outside the repository, to requirement ids of a
  specification the repository does not hold, or to how and when it was
  made.

Every failure names the file, the line and what is missing.
"""
import json
import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
OPENAPI = ROOT / "Sources" / "API" / "Resources" / "openapi.json"
README_MAX_LINES = 260

# Routes the code serves that the OpenAPI document does not describe: the
# OsmAnd listener's own HTTP server (its port, not the API's) takes fixes
# at its root.
EXTRA_ROUTES = {("GET", "/"), ("POST", "/")}


def pages():
    """README.md and every Markdown page of docs/."""
    return [README] + sorted(DOCS.rglob("*.md"))


def relative(path):
    return path.relative_to(ROOT).as_posix()


def segments(path):
    """(line number, text, is_code) pieces of a Markdown file.

    Fenced blocks are code, a whole shell command at a time (lines ending
    in a backslash joined, numbered by their first line); outside them,
    each inline code span is code and the rest of the line is text.
    """
    result = []
    fence = None
    pending, pending_line = "", 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = line.strip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            continue
        if fence is not None:
            if stripped.startswith(fence):
                if pending:
                    result.append((pending_line, pending, True))
                    pending = ""
                fence = None
                continue
            if not pending:
                pending_line = number
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            result.append((pending_line, pending + line, True))
            pending = ""
            continue
        rest = 0
        for span in re.finditer(r"(`+)(.+?)\1", line):
            result.append((number, line[rest:span.start()], False))
            result.append((number, span.group(2), True))
            rest = span.end()
        result.append((number, line[rest:], False))
    return result


def text_without_code(path):
    return [(number, text) for number, text, is_code in segments(path) if not is_code]


# --- 1. The README's budget and its first commands ---------------------------


def test_readme_within_budget():
    count = len(README.read_text(encoding="utf-8").splitlines())
    assert count <= README_MAX_LINES, (
        f"README.md: {count} lines, over the budget of {README_MAX_LINES}; move the detail into a page of docs/")


def test_readme_starts_with_make_demo_and_make_test():
    lines = README.read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith("```")), None)
    assert start is not None, "README.md: no code block; it must start with `make demo` and `make test`"
    heading = next((i for i, line in enumerate(lines) if line.startswith("## ")), len(lines))
    assert start < heading, (
        f"README.md:{start + 1}: the first code block comes after the first section (line {heading + 1}); "
        "`make demo` and `make test` come first")
    commands = []
    for line in lines[start + 1:]:
        if line.strip().startswith("```"):
            break
        command = line.split("#", 1)[0].strip()
        if command:
            commands.append(command)
    assert commands[:2] == ["make demo", "make test"], (
        f"README.md:{start + 2}: the first commands are {commands[:2]}, not ['make demo', 'make test']")


# --- 2. Links ----------------------------------------------------------------

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def links(path):
    """(line, target) of every Markdown link and image outside code."""
    return [(number, found.group(1)) for number, text in text_without_code(path) for found in LINK.finditer(text)]


def slug(heading):
    """The anchor GitHub gives a heading."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@lru_cache(maxsize=None)
def anchors(path):
    found, seen = set(), {}
    in_fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if in_fence or not heading:
            continue
        base = slug(heading.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def test_every_relative_link_resolves():
    problems = []
    for page in pages():
        for number, target in links(page):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue
            file_part, _, fragment = target.partition("#")
            destination = (page.parent / file_part).resolve() if file_part else page
            if not destination.exists():
                problems.append(f"{relative(page)}:{number}: link to {target}: no file {file_part}")
            elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
                problems.append(f"{relative(page)}:{number}: link to {target}: {relative(destination)} has no heading #{fragment}")
    assert not problems, "\n".join(problems)


def test_every_docs_file_is_linked_from_the_readme():
    linked = set()
    for _, target in links(README):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue
        file_part = target.partition("#")[0]
        if file_part:
            linked.add((README.parent / file_part).resolve())
    files = sorted(p for p in DOCS.rglob("*") if p.suffix in (".md", ".png"))
    missing = [relative(p) for p in files if p.resolve() not in linked]
    assert not missing, "README.md links to no " + ", ".join(missing)


def test_every_docs_page_says_who_it_is_for():
    problems = []
    for page in sorted(DOCS.rglob("*.md")):
        lines = [line for line in page.read_text(encoding="utf-8").splitlines() if line.strip()]
        if len(lines) < 2 or not lines[0].startswith("# ") or not lines[1].startswith("For "):
            problems.append(f"{relative(page)}:2: the line after the title does not say who the page is for (\"For ...\")")
    assert not problems, "\n".join(problems)


# --- 3. Commands and flags ---------------------------------------------------

MYTAXI = re.compile(r"(?<![\w/.$-])mytaxi(?![\w-])")
SHELL_BREAK = re.compile(r"\s(?:\||\|\||&&|;)\s|[;`]")
WORD = re.compile(r"^[a-z][a-z0-9-]*$")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def named_commands():
    """(file, line, words after `mytaxi`, flags in the same command) of every `mytaxi` in code."""
    found = []
    for page in pages():
        for number, text, is_code in segments(page):
            if not is_code:
                continue
            starts = [m.end() for m in MYTAXI.finditer(text)]
            for index, start in enumerate(starts):
                end = starts[index + 1] - len("mytaxi") if index + 1 < len(starts) else len(text)
                command = SHELL_BREAK.split(text[start:end], maxsplit=1)[0]
                words = command.split()
                found.append((page, number, words, FLAG.findall(command)))
    return found


def binary():
    path = os.environ.get("MYTAXI_BIN")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("MYTAXI_BIN does not name a built mytaxi binary (make test sets it): "
                    "the commands and flags the docs name are not checked")
    return path


@lru_cache(maxsize=None)
def help_of(path):
    """(exit status, help text) of `mytaxi PATH... --help`."""
    run = subprocess.run([binary(), *path, "--help"], capture_output=True, text=True, timeout=60)
    return run.returncode, run.stdout + run.stderr


@lru_cache(maxsize=None)
def subcommands(path):
    """The subcommands `mytaxi PATH... --help` lists, and the default one."""
    status, text = help_of(path)
    names, default, listing = set(), None, False
    for line in text.splitlines():
        if line.rstrip().endswith("SUBCOMMANDS:"):
            listing = True
            continue
        if listing and not line.strip():
            listing = False
            continue
        entry = re.match(r"^  ([a-z][a-z0-9-]*)(.*)$", line) if listing else None
        if entry:
            names.add(entry.group(1))
            if "(default)" in entry.group(2):
                default = entry.group(1)
    return frozenset(names), default


def resolve(words):
    """The command path the words name, and the first word that names no subcommand where one was expected."""
    words = [word.rstrip(".,:;)'\"") for word in words]
    if words and words[0] == "help":
        words = words[1:]
    path = []
    for word in words:
        if not WORD.match(word):
            break
        children, _ = subcommands(tuple(path))
        if word in children:
            path.append(word)
            continue
        if children:
            return tuple(path), word
        break
    return tuple(path), None


def test_every_command_named_exists():
    binary()
    problems, checked = [], {}
    for page, number, words, _ in named_commands():
        path, unknown = resolve(words)
        where = f"{relative(page)}:{number}"
        if unknown is not None:
            problems.append(f"{where}: `mytaxi {' '.join(path + (unknown,))}`: mytaxi {' '.join(path)} has no subcommand {unknown}".replace("  ", " "))
            continue
        if not path:
            if words and WORD.match(words[0].rstrip(".,:;)")) and words[0] != "help":
                problems.append(f"{where}: `mytaxi {words[0]}`: no such command")
            continue
        if path not in checked:
            checked[path] = help_of(path)[0]
        if checked[path] != 0:
            problems.append(f"{where}: `mytaxi {' '.join(path)} --help` exits {checked[path]}")
    assert not problems, "\n".join(problems)


def test_every_flag_named_exists():
    binary()
    problems = []
    for page, number, words, flags in named_commands():
        path, unknown = resolve(words)
        if unknown is not None or not path or help_of(path)[0] != 0:
            continue  # reported by test_every_command_named_exists
        known = set(FLAG.findall(help_of(path)[1])) | {"--help"}
        _, default = subcommands(path)
        if default:
            known |= set(FLAG.findall(help_of(path + (default,))[1]))
        for flag in flags:
            if flag not in known:
                problems.append(f"{relative(page)}:{number}: `mytaxi {' '.join(path)} {flag}`: "
                                f"`mytaxi {' '.join(path)} --help` lists no {flag}")
    assert not problems, "\n".join(problems)


# --- 4. Endpoints ------------------------------------------------------------

ENDPOINT = re.compile(r"(?<![\w/])(GET|POST|PUT|PATCH|DELETE)\s+(/[^\s`)\]|,;]*)")
BARE_V1 = re.compile(r"(?<![\w.:/])(/v1/[^\s`)\]|,;'\"]*)")
URL_V1 = re.compile(r"https?://[^/\s`'\"]+(/v1/[^\s`)\]|,;'\"]*)")


@lru_cache(maxsize=None)
def operations():
    document = json.loads(OPENAPI.read_text(encoding="utf-8"))
    methods = {"get", "put", "post", "delete", "patch"}
    found = {(method.upper(), path) for path, item in document["paths"].items() for method in item if method in methods}
    return frozenset(found | EXTRA_ROUTES)


def clean(path):
    path = path.split("?", 1)[0].split("#", 1)[0]
    path = path.rstrip(".:'\"")
    return path if path == "/" else path.rstrip("/")


def matches(written, template):
    written_parts, template_parts = written.split("/"), template.split("/")
    if len(written_parts) != len(template_parts):
        return False
    for part, pattern in zip(written_parts, template_parts):
        if pattern.startswith("{") and pattern.endswith("}"):
            if not part:
                return False
        elif part != pattern:
            return False
    return True


def exists(method, path):
    candidates = [(m, t) for m, t in operations() if method is None or m == method]
    literal = [t for _, t in candidates if matches(path, t) and "{" not in t]
    return bool(literal) or any(matches(path, t) for _, t in candidates)


def test_every_endpoint_named_exists():
    problems = []
    for page in pages():
        for number, text, is_code in segments(page):
            for found in ENDPOINT.finditer(text):
                method, path = found.group(1), clean(found.group(2))
                if not exists(method, path):
                    problems.append(f"{relative(page)}:{number}: {method} {path}: not an operation of "
                                    f"{relative(OPENAPI)}")
            if not is_code:
                continue
            rest = ENDPOINT.sub(" ", text)
            bare = [m.group(1) for m in BARE_V1.finditer(rest)] + [m.group(1) for m in URL_V1.finditer(rest)]
            for path in bare:
                path = clean(path)
                if not exists(None, path):
                    problems.append(f"{relative(page)}:{number}: {path}: no path of {relative(OPENAPI)}")
    assert not problems, "\n".join(problems)


# --- 5. Only the product -----------------------------------------------------

FORBIDDEN_ANYWHERE = [
    (re.compile(r"\.\./shared"), "a path outside the repository (../shared)"),
    (re.compile(r"\bSPEC\b"), "a specification the repository does not hold (SPEC)"),
    (re.compile(r"(?<![\w.])/(?:work|home|root|Users|tmp)/"), "a machine path"),
    (re.compile(r"\b(?:pypi\.org|files\.pythonhosted\.org|registry\.npmjs\.org|crates\.io|proxy\.golang\.org|"
                r"swiftpackageindex\.com|deb\.debian\.org)\b", re.I), "a package registry's host name"),
]
FORBIDDEN_IN_TEXT = [
    # A login session is part of the product; a working session is not.
    (re.compile(r"\b(?:this|that|each|every|one|next|last|first|second|third|\w+th|working|work|coding) sessions?\b(?! (?:token|lifetime|cookie|expir))", re.I),
     "a working session: how the work was done is no part of the docs"),
    (re.compile(r"\b(?:earlier|previous|former) (?:run|session|build)s?\b", re.I),
     "a narrative of earlier runs"),
    (re.compile(r"\bnot kept\b|\bwas tried\b|\bwere tried\b", re.I), "what was tried and not kept belongs in commit messages"),
    (re.compile(r"\((?:[A-Z]\d{1,2})(?:\s*[,–-]\s*[A-Z]?\d{1,2})*(?::[^)]*)?\)"), "a requirement id of a specification the repository does not hold"),
]


def test_pages_speak_of_the_product_only():
    problems = []
    for page in pages():
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            for pattern, why in FORBIDDEN_ANYWHERE:
                found = pattern.search(line)
                if found:
                    problems.append(f"{relative(page)}:{number}: '{found.group(0)}': {why}")
        for number, text in text_without_code(page):
            for pattern, why in FORBIDDEN_IN_TEXT:
                found = pattern.search(text)
                if found:
                    problems.append(f"{relative(page)}:{number}: '{found.group(0)}': {why}")
    assert not problems, "\n".join(problems)
