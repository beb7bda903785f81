"""How the Swift suites are laid out for `make test`: every suite has the
time limit that names a hang (longer than a pass takes: the parallel pass
starts every test at once, and a test's clock runs from then), and the
tags that choose the passes each mark at least one suite, as
Tools/tagged-suites.py reads them.
"""
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUITE = re.compile(r"^@Suite(?:\((?P<traits>.*)\))?\s*(?:final\s+)?(?:struct|class|enum|actor)\s+(?P<name>\w+)", re.M)
LIMIT = ".timeLimit(.minutes(20))"


def suites():
    for path in sorted((ROOT / "Tests").rglob("*.swift")):
        for match in SUITE.finditer(path.read_text(encoding="utf-8")):
            yield path.relative_to(ROOT), match.group("name"), match.group("traits") or ""


def test_every_suite_has_the_time_limit_of_a_pass():
    found = list(suites())
    assert len(found) > 100, f"only {len(found)} suites found: is the pattern still right?"
    missing = [f"{path}: {name}" for path, name, traits in found if LIMIT not in traits]
    assert not missing, f"suites without {LIMIT}:\n" + "\n".join(missing)


def test_each_pass_tag_marks_a_suite():
    for tag in ["realTimeWaits", "longRunningProcesses"]:
        run = subprocess.run([ROOT / "Tools" / "tagged-suites.py", tag], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert run.stdout.startswith(r"\.(") and run.stdout.strip().endswith(r")\b"), run.stdout
