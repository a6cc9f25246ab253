"""How fast is `shellparse.analyze`, against named baselines, in one run.

Baselines: a bare tree-sitter parse of the same command (parsing alone, with the grammar of the
command's shell); the floor of any analysis written in Python, that parse and then one walk of its
tree reading each node once (its type, byte range and children, and the text of each leaf: what a
converter cannot do without); `shellparse.parse`, the parse and its conversion to the neutral
model, without judging it (the converter's share: what analysis adds beyond it is the judging,
with the parse and conversion of command strings handed to another shell, `sh -c '…'`);
and `bashlex.parse` (a pure-Python bash parser). The floor's share of the analyze/parse ratio is
what Python pays only to read the tree. Every time is the best of `--rounds` calls of one
command (`analyze` with its cache off); ratios are per command, then summarised over a set as
the median ratio and as the ratio of the totals.

Sets:

- `corpus`: the labelled corpus (corpus/commands.jsonl), bash and PowerShell;
- `real`: every distinct command of the real agent sessions (corpus/real_commands.jsonl);
- `shapes`: agent-style shapes (wrappers, `sh -c`, pipelines, long `&&` chains, here-documents,
  PowerShell …) crossed with common checks, reported per shape, worst first.

Then: analyze against bashlex on the corpus and on the real agent commands (the bash commands
bashlex parses); the growth of long chains of checks, `pytest && pytest && … && true` joined by
`&&`, `||`, `;` and newline, 100 → 6,000 checks (linear is 60x; the analysis must stay within 1.2x
of linear); the cache-hit time, and the whole-process time of `witness check` against `python -c
pass`.

Targets: analyze / bare parse at most 4x (median and total) on every set; bashlex / analyze at
least 4x; chains within 1.2x of linear growth. Absolute times on a shared machine are noise; the
ratios are what to compare. Run:

    .venv/bin/python benchmarks/shellparse_bench.py [--rounds N] [--processes N] [--sets corpus,real,shapes]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

import shellparse
from shellparse import Shell

ROOT = Path(__file__).resolve().parent.parent
TARGET_PARSE_RATIO = 4.0
TARGET_BASHLEX_RATIO = 4.0


class Case(NamedTuple):
    """One command of a benchmark set."""

    command: str
    shell: Shell
    shape: str


class Timed(NamedTuple):
    """Best-of-rounds times of one command, in microseconds."""

    case: Case
    analyze: float
    parse: float
    floor: float
    convert: float
    bashlex: float | None


# -- the sets -------------------------------------------------------------------------------------


def jsonl_cases(name: str, shape: str) -> list[Case]:
    with (ROOT / "corpus" / name).open(encoding="utf-8") as handle:
        return [Case(row["command"], row["shell"], shape) for row in map(json.loads, handle)]


BASH_CHECKS = (
    "pytest -q", "npm test", "cargo test --workspace", "go test ./...", "npx tsc --noEmit", "ruff check .",
    "uv run pytest tests/test_api.py -x", "pnpm --filter web run lint", "python -m pytest -x tests/unit",
    "make -C api test", "dotnet test", "mvn -q verify", "bun test", "yarn jest --ci",
)
PWSH_CHECKS = ("npm test", "dotnet test", "pytest -q", "cargo test", "Invoke-Pester -Output Detailed", "go test ./...")
HEREDOC = "python3 - <<'PY'\nimport json, pathlib\ndata = json.loads(pathlib.Path('package.json').read_text())\n" \
          "print(data['scripts'])\nPY"

BASH_SHAPES: dict[str, str] = {
    "simple": "{check}",
    "env-prefix": "CI=1 NODE_ENV=test FORCE_COLOR=0 {check}",
    "wrappers": "time timeout 600 nice -n 10 env CI=1 {check}",
    "cd-and": "cd api && {check}",
    "sh-c": 'sh -c "cd api && {check}"',
    "bash-lc-pipefail": "bash -o pipefail -lc '{check} 2>&1 | tail -20'",
    "reporting-pipe": "{check} 2>&1 | tail -20",
    "grep-pipeline": '{check} 2>&1 | grep -E "passed|failed|error" | head -5',
    "echo-tail": '{check}; echo "exit=$?"',
    "and-chain-10": "cd api && git fetch -q && git status --short && npm ci && npm run build && {check} && cd .. "
                    "&& git diff --stat && echo done && ls",
    "pipestatus": "set -o pipefail; {check} 2>&1 | tee /tmp/check.log; exit ${{PIPESTATUS[0]}}",
    "subshell": "(cd web && {check})",
    "substitution": 'out=$({check} 2>&1); echo "$out" | tail -5',
    "heredoc-shell": "bash <<'EOF'\nset -e\ncd api\n{check}\nEOF",
    "for-loop": 'for d in api web cli; do (cd "$d" && {check}) || exit 1; done',
    "if-else": "if {check}; then echo ok; else echo failed; fi",
    "script-lines": "set -euo pipefail\ncd api\nexport CI=1\nnpm ci --silent\n{check}\n",
    "or-fallback": "{check} || (echo 'retrying'; {check})",
    "pwsh-from-bash": 'pwsh -NoProfile -Command "{check} | Select-Object -Last 20"',
}
PWSH_SHAPES: dict[str, str] = {
    "pwsh-simple": "{check}",
    "pwsh-cmdlet-pipe": "{check} 2>&1 | Select-Object -Last 40",
    "pwsh-report-tail": '{check}; "EXIT=$LASTEXITCODE"',
    "pwsh-location": "Set-Location api; $env:CI = '1'; {check}; exit $LASTEXITCODE",
    "pwsh-script-block": "Measure-Command {{ {check} }} | Out-String",
}
# Commands without a check: agents run these more than anything else.
PLAIN: dict[str, tuple[str, ...]] = {
    "no-check": ("git status --short", "ls -la src", "rg -n 'TODO|FIXME' src | head -20", "cat package.json",
                 "git diff --stat && git log --oneline -5", 'find . -name "*.py" -not -path "./.venv/*" | wc -l',
                 "sed -n '1,80p' src/app.py", "git add -A && git commit -m 'fix: parse flags' && git push"),
    "heredoc-python": (HEREDOC, HEREDOC.replace("python3", "uv run python"), "cat > notes.md <<'EOF'\n# Notes\n"
                       "run `npm test` before pushing\nEOF"),
}


def shape_cases() -> list[Case]:
    cases: list[Case] = []
    for shape, template in BASH_SHAPES.items():
        checks = BASH_CHECKS if shape != "pwsh-from-bash" else PWSH_CHECKS[:4]
        cases.extend(Case(template.format(check=check), "bash", shape) for check in checks)
    for shape, template in PWSH_SHAPES.items():
        cases.extend(Case(template.format(check=check), "pwsh", shape) for check in PWSH_CHECKS)
    for shape, commands in PLAIN.items():
        cases.extend(Case(command, "bash", shape) for command in commands)
    return cases


# -- timing ---------------------------------------------------------------------------------------


def best_of(rounds: int, call: Callable[..., object], *args: Any, clock: Callable[[], int] = time.perf_counter_ns,
            **kwargs: Any) -> float:
    """The best of `rounds` calls of `call(*args, **kwargs)`, in microseconds (of ``clock``)."""
    timer = clock
    best = None
    for _ in range(rounds):
        start = timer()
        call(*args, **kwargs)
        elapsed = timer() - start
        best = elapsed if best is None or elapsed < best else best
    assert best is not None
    return best / 1000


def bare_parsers() -> dict[str, Any]:
    import tree_sitter
    import tree_sitter_bash
    import tree_sitter_pwsh

    return {"bash": tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language())),
            "pwsh": tree_sitter.Parser(tree_sitter.Language(tree_sitter_pwsh.language()))}


def read_tree(parser: Any, data: bytes) -> int:
    """The floor: parse ``data``, then visit every node once, reading what a converter must read."""
    stack = [parser.parse(data).root_node]
    leaves = 0
    while stack:
        node = stack.pop()
        _, start, end, children = node.type, node.start_byte, node.end_byte, node.children
        if children:
            stack.extend(children)
        else:
            leaves += len(data[start:end])
    return leaves


def bashlex_parses(command: str) -> bool:
    import bashlex

    try:
        bashlex.parse(command)
    except Exception:  # bashlex raises many kinds: ParsingError, NotImplementedError, …
        return False
    return True


def measure(cases: Iterable[Case], rounds: int, parsers: dict[str, Any]) -> list[Timed]:
    import bashlex

    timed: list[Timed] = []
    for case in cases:
        command, shell = case.command, case.shell
        data = command.encode("utf-8", "surrogatepass")
        parser = parsers[shell]
        analyze_us = best_of(rounds, shellparse.analyze, command, shell, cache=False)
        parse_us = best_of(rounds, parser.parse, data)
        floor_us = best_of(rounds, read_tree, parser, data)
        convert_us = best_of(rounds, shellparse.parse, command, shell)
        bashlex_us = None
        if shell == "bash" and bashlex_parses(command):
            bashlex_us = best_of(rounds, bashlex.parse, command)
        timed.append(Timed(case, analyze_us, parse_us, floor_us, convert_us, bashlex_us))
    return timed


# -- reporting ------------------------------------------------------------------------------------


class Summary(NamedTuple):
    commands: int
    analyze_median: float
    parse_median: float
    parse_ratio_median: float
    parse_ratio_total: float
    floor_ratio_median: float
    """The floor over the bare parse: what reading the tree once in Python costs."""
    floor_ratio_total: float
    convert_ratio_median: float
    """The conversion (parse included) over the bare parse: the converter's part of analyze/parse."""
    convert_ratio_total: float
    beyond_floor_median: float
    """analyze over the floor: what the analysis costs beyond reading the tree."""
    beyond_floor_total: float
    bashlex_count: int
    bashlex_ratio_median: float | None
    bashlex_ratio_total: float | None


def summarise(timed: list[Timed]) -> Summary:
    with_bashlex = [t for t in timed if t.bashlex is not None]
    bashlex_median = bashlex_total = None
    if with_bashlex:
        bashlex_median = statistics.median(t.bashlex / t.analyze for t in with_bashlex if t.bashlex is not None)
        bashlex_total = sum(t.bashlex or 0.0 for t in with_bashlex) / sum(t.analyze for t in with_bashlex)
    analyze, parse, floor = (sum(t.analyze for t in timed), sum(t.parse for t in timed),
                             sum(t.floor for t in timed))
    convert = sum(t.convert for t in timed)
    return Summary(
        commands=len(timed),
        analyze_median=statistics.median(t.analyze for t in timed),
        parse_median=statistics.median(t.parse for t in timed),
        parse_ratio_median=statistics.median(t.analyze / t.parse for t in timed),
        parse_ratio_total=analyze / parse,
        floor_ratio_median=statistics.median(t.floor / t.parse for t in timed),
        floor_ratio_total=floor / parse,
        convert_ratio_median=statistics.median(t.convert / t.parse for t in timed),
        convert_ratio_total=convert / parse,
        beyond_floor_median=statistics.median(t.analyze / t.floor for t in timed),
        beyond_floor_total=analyze / floor,
        bashlex_count=len(with_bashlex),
        bashlex_ratio_median=bashlex_median,
        bashlex_ratio_total=bashlex_total,
    )


def ratio(value: float | None) -> str:
    return f"{value:6.1f}x" if value is not None else "      —"


HEADER = (f"{'set':<22} {'n':>5} {'analyze µs':>10} {'parse µs':>9}   {'analyze/parse':^17}   "
          f"{'floor/parse':^17}   {'convert/parse':^17}   {'analyze/floor':^17}   {'bashlex/analyze':^17} {'(n)':>6}")
SUBHEADER = (f"{'':<22} {'':>5} {'median':>10} {'median':>9}" + f"   {'median':>8} {'total':>8}" * 5)


def row(name: str, summary: Summary) -> str:
    flag = "  over target" if max(summary.parse_ratio_median, summary.parse_ratio_total) > TARGET_PARSE_RATIO else ""
    pairs = ((summary.parse_ratio_median, summary.parse_ratio_total),
             (summary.floor_ratio_median, summary.floor_ratio_total),
             (summary.convert_ratio_median, summary.convert_ratio_total),
             (summary.beyond_floor_median, summary.beyond_floor_total),
             (summary.bashlex_ratio_median, summary.bashlex_ratio_total))
    cells = "".join(f"   {ratio(median):>8} {ratio(total):>8}" for median, total in pairs)
    return (f"{name:<22} {summary.commands:>5} {summary.analyze_median:>10.1f} {summary.parse_median:>9.1f}"
            f"{cells} {summary.bashlex_count:>6}{flag}")


def print_sets(sets: dict[str, list[Timed]]) -> None:
    print(f"targets: analyze/parse at most {TARGET_PARSE_RATIO:.0f}x, bashlex/analyze at least "
          f"{TARGET_BASHLEX_RATIO:.0f}x (bashlex: on the bash commands it parses)")
    print("floor: the parse, then one Python walk reading each node once (type, byte range, children, "
          "leaf text);\n  floor/parse is what reading the tree costs, analyze/floor what the analysis adds; "
          "convert: shellparse.parse (parse and conversion, no judging)")
    print(HEADER)
    print(SUBHEADER)
    for name, timed in sets.items():
        for shell in ("bash", "pwsh"):
            part = [t for t in timed if t.case.shell == shell]
            if part:
                print(row(f"{name} ({shell})", summarise(part)))
        if len({t.case.shell for t in timed}) > 1:
            print(row(f"{name} (all)", summarise(timed)))


def print_bashlex(sets: dict[str, list[Timed]]) -> None:
    """analyze against bashlex, set by set: how many times faster, on the commands bashlex parses."""
    print(f"\nanalyze against bashlex (target: at least {TARGET_BASHLEX_RATIO:.0f}x faster), on the bash commands "
          "bashlex parses:")
    for name in ("corpus", "real"):
        timed = [t for t in sets.get(name, []) if t.bashlex is not None]
        if not timed:
            continue
        summary = summarise(timed)
        flag = "" if min(summary.bashlex_ratio_median or 0, summary.bashlex_ratio_total or 0) >= TARGET_BASHLEX_RATIO \
            else "  below target"
        print(f"  {name:<7} {summary.bashlex_count:>5} commands: median {summary.bashlex_ratio_median:5.1f}x, "
              f"total {summary.bashlex_ratio_total:5.1f}x{flag}")


def print_shapes(timed: list[Timed], worst: int) -> None:
    by_shape: dict[str, list[Timed]] = {}
    for item in timed:
        by_shape.setdefault(item.case.shape, []).append(item)
    summaries = sorted(((shape, summarise(items)) for shape, items in by_shape.items()),
                       key=lambda pair: -pair[1].parse_ratio_median)
    print(f"\nshapes, worst analyze/parse first ({len(summaries)} shapes):")
    print(HEADER.replace("set ", "shape"))
    print(SUBHEADER)
    for shape, summary in summaries[:worst]:
        print(row(shape, summary))


def print_worst_commands(name: str, timed: list[Timed], count: int) -> None:
    print(f"\n{name}: the {count} commands with the worst analyze/parse")
    for item in sorted(timed, key=lambda t: -t.analyze / t.parse)[:count]:
        text = " ".join(item.case.command.split())
        text = text if len(text) <= 70 else text[:69] + "…"
        print(f"  {item.analyze / item.parse:6.1f}x  {item.analyze:8.1f} µs  [{item.case.shell}] {text}")


CHAIN_LENGTHS = (100, 500, 1_000, 2_000, 4_000, 6_000)
CHAIN_OPERATORS = ("&&", "||", ";", "\n")
TARGET_CHAIN_GROWTH = 1.2
"""How much faster than linear a chain's time may grow from the shortest to the longest row."""


def chain(checks: int, op: str) -> str:
    """``checks`` checks joined by ``op`` and a last ``true``: `pytest && pytest && … && true`."""
    return (f" {op} " if op != "\n" else op).join(["pytest"] * checks + ["true"])


def print_chains(rounds: int) -> None:
    first, last = CHAIN_LENGTHS[0], CHAIN_LENGTHS[-1]
    print(f"\nlong chains: analyze of N checks joined by an operator, then `true` (`pytest && … && true`), "
          f"processor time; linear growth from {first} to {last} is {last // first}x, the target at most "
          f"{TARGET_CHAIN_GROWTH:.1f}x that")
    for op in CHAIN_OPERATORS:
        # Processor time: a long row must not be judged by what other processes did to the wall clock.
        times = [best_of(rounds, shellparse.analyze, chain(length, op), cache=False, clock=time.process_time_ns)
                 for length in CHAIN_LENGTHS]
        cells = "  ".join(f"{length:>5}: {us / 1000:8.2f} ms" for length, us in zip(CHAIN_LENGTHS, times, strict=True))
        growth = times[-1] / times[0] / (last / first)
        flag = "  over target" if growth > TARGET_CHAIN_GROWTH else ""
        print(f"  {op.replace(chr(10), 'newline'):<7} {cells}   growth {growth:4.2f}x linear{flag}")


def process_ratio(runs: int) -> tuple[float, float, float]:
    """Median wall time of `witness check` and of `python -c pass`, interleaved; and their ratio."""
    witness = str(Path(sys.executable).with_name("witness"))
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    check = [witness, "check", "--", "cd api && npm test 2>&1 | tail -20"]
    bare = [sys.executable, "-c", "pass"]
    for _ in range(3):  # warm the page cache and write bytecode, as an installed tool has it
        subprocess.run(check, env=env, stdout=subprocess.DEVNULL, check=False)
        subprocess.run(bare, env=env, check=True)
    check_times: list[float] = []
    bare_times: list[float] = []
    for _ in range(runs):
        for command, sink in ((check, check_times), (bare, bare_times)):
            start = time.perf_counter()
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=False)
            sink.append(time.perf_counter() - start)
    check_ms, bare_ms = statistics.median(check_times) * 1000, statistics.median(bare_times) * 1000
    return check_ms, bare_ms, check_ms / bare_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="timings per command (best is kept)")
    parser.add_argument("--processes", type=int, default=40, help="process starts per side (0: skip)")
    parser.add_argument("--sets", default="corpus,real,shapes", help="which sets to time, comma-separated")
    parser.add_argument("--worst", type=int, default=8, help="how many outlier shapes and commands to show")
    options = parser.parse_args()

    wanted = options.sets.split(",")
    available = {"corpus": lambda: jsonl_cases("commands.jsonl", "corpus"),
                 "real": lambda: jsonl_cases("real_commands.jsonl", "real"), "shapes": shape_cases}
    parsers = bare_parsers()
    for warm in ("pytest", "npm test"):  # load both grammars before the first timing
        shellparse.analyze(warm, "bash", cache=False)
        shellparse.analyze(warm, "pwsh", cache=False)
    sets = {name: measure(available[name](), options.rounds, parsers) for name in wanted}
    print_sets(sets)
    print_bashlex(sets)
    if "shapes" in sets:
        print_shapes(sets["shapes"], options.worst)
    for name in ("corpus", "real"):
        if name in sets:
            print_worst_commands(name, sets[name], min(options.worst, 5))
    print_chains(options.rounds)

    timed = [item for items in sets.values() for item in items]
    analyze_hit = statistics.median(best_of(options.rounds, shellparse.analyze, t.case.command, t.case.shell)
                                    for t in timed)
    empty = statistics.median(best_of(options.rounds, lambda: None) for _ in range(200))
    print(f"\nanalyze (cache hit): median {analyze_hit:.2f} µs per command (an empty call: {empty:.2f})")
    if options.processes:
        check_ms, bare_ms, process = process_ratio(options.processes)
        print(f"`witness check` process: median {check_ms:.1f} ms; `python -c pass`: {bare_ms:.1f} ms; "
              f"ratio {process:.2f}x")


if __name__ == "__main__":
    main()
