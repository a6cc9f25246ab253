"""Effects: whether a command can change the workspace.

``read-only`` is only claimed for programs in the read-only table, used without an option that
writes (``sed -i``, ``find -delete``, ``sort -o``) and without an output redirect to a file.
Anything unknown is ``unknown``, which the tracker treats as a potential mutation. A check
(``pytest``, ``npm run build``) is evidence, not a mutation, unless a flag makes it rewrite
files (``eslint --fix``).
"""

from __future__ import annotations

from collections.abc import Callable

from ._families import rewrites
from ._model import Redirect, Word
from ._vocabulary import Effect
from ._wrappers import program_name

READ_ONLY: Effect = "read-only"
MUTATING: Effect = "mutating"
UNKNOWN: Effect = "unknown"
_ORDER: dict[Effect, int] = {READ_ONLY: 0, UNKNOWN: 1, MUTATING: 2}

READ_ONLY_PROGRAMS = frozenset({
    # POSIX and GNU tools that only read or print
    "ls", "ll", "dir", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "ag", "ack", "find", "fd",
    "fdfind", "tree", "stat", "file", "du", "df", "pwd", "echo", "printf", "true", "false", ":", "which",
    "whereis", "type", "whoami", "id", "groups", "uname", "hostname", "date", "cal", "uptime", "env",
    "printenv", "sort", "uniq", "cut", "tr", "diff", "cmp", "comm", "nl", "less", "more", "most", "jq", "yq",
    "awk", "gawk", "mawk", "sed", "basename", "dirname", "realpath", "readlink", "test", "[", "[[", "sleep",
    "seq", "column", "hexdump", "od", "xxd", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "b2sum",
    "ps", "pgrep", "free", "lsof", "netstat", "ss", "top", "htop", "vmstat", "nproc", "lscpu", "lsblk",
    "locale", "tty", "cd", "pushd", "popd", "export", "set", "unset", "shopt", "alias", "unalias", "local",
    "declare", "typeset", "readonly", "let", "read", "wait", "jobs", "history", "hash", "help", "man",
    "info", "apropos", "whatis", "fold", "fmt", "expand", "unexpand", "rev", "tac", "paste", "join",
    "split", "strings", "look", "expr", "bc", "dc", "factor", "numfmt", "shuf", "yes", "getconf", "ulimit",
    "umask", "times", "caller", "command", "builtin", "source", "shasum", "base64", "base32", "iconv",
    "zcat", "zgrep", "zless", "bzcat", "xzcat", "lz4cat", "zstdcat", "tput", "clear", "reset",
    "exa", "eza", "bat", "batcat", "glow", "delta", "difft", "colordiff", "wdiff", "sdiff",
    "rgrep", "ripgrep", "locate", "mlocate", "plocate", "getent", "last", "w", "who", "users", "finger",
    "ping", "dig", "nslookup", "host", "curl", "wget", "http", "xmllint", "tidy",
})
# `curl`/`wget` read the network; they only write with -o/-O, checked below.

PWSH_READ_ONLY = frozenset({
    "get-childitem", "gci", "get-content", "gc", "get-item", "gi", "get-itemproperty", "gp", "get-location",
    "gl", "test-path", "select-string", "sls", "select-object", "select", "where-object", "where", "?",
    "foreach-object", "%", "sort-object", "sort", "measure-object", "measure", "group-object", "group",
    "format-table", "ft", "format-list", "fl", "format-wide", "fw", "format-custom", "out-string",
    "out-host", "out-null", "out-default", "write-output", "write-host", "write-verbose", "write-warning",
    "write-error", "write-information", "write-debug", "get-command", "gcm", "get-help", "resolve-path",
    "rvpa", "split-path", "join-path", "convert-path", "get-date", "get-process", "gps", "get-service",
    "get-variable", "gv", "get-member", "gm", "get-host", "get-filehash", "compare-object", "diff",
    "convertto-json", "convertfrom-json", "convertto-csv", "convertfrom-csv", "get-alias", "gal",
    "set-location", "sl", "push-location", "pop-location", "get-psdrive", "get-module", "start-sleep",
    "measure-command", "get-error", "get-history", "h", "tee-object",
})

MUTATING_PROGRAMS = frozenset({
    "rm", "rmdir", "mv", "cp", "mkdir", "touch", "chmod", "chown", "chgrp", "ln", "truncate", "dd", "patch",
    "install", "shred", "unlink", "rsync", "scp", "tar", "unzip", "zip", "gzip", "gunzip", "bzip2", "xz",
    "unxz", "7z", "mkfifo", "mknod", "apt", "apt-get", "dpkg", "yum", "dnf", "apk", "brew", "pip", "pip3",
    "pipx", "conda", "gem", "cpan", "composer", "rustup", "kill", "pkill",
    "killall", "systemctl", "service", "reboot", "shutdown", "crontab", "useradd", "userdel", "passwd",
    "docker", "podman", "kubectl", "helm", "terraform", "ansible", "ed", "ex", "vi", "vim", "nvim", "nano",
    "emacs", "code", "black", "isort", "autopep8", "yapf", "rustfmt",
    "2to3", "mktemp", "sponge", "applypatch",
    # PowerShell
    "remove-item", "ri", "del", "erase", "rd", "move-item", "mi", "move", "copy-item", "ci", "copy", "cpi",
    "rename-item", "ren", "rni", "new-item", "ni", "md", "set-content", "sc", "add-content", "ac",
    "out-file", "clear-content", "clc", "set-item", "si", "remove-itemproperty", "set-itemproperty", "sp",
    "new-itemproperty", "expand-archive", "compress-archive", "install-module", "install-package",
    "stop-process", "spps", "start-process", "saps", "invoke-webrequest", "iwr", "export-csv",
})

GIT_READ_ONLY = frozenset({
    "status", "log", "diff", "show", "blame", "rev-parse", "rev-list", "ls-files", "ls-tree", "ls-remote",
    "describe", "shortlog", "grep", "cat-file", "for-each-ref", "show-ref", "merge-base", "name-rev",
    "reflog", "whatchanged", "var", "check-ignore", "check-attr", "count-objects", "version", "help",
    "cherry", "range-diff", "diff-tree", "diff-index", "diff-files", "show-branch", "verify-commit",
    "verify-tag", "fsck", "annotate", "request-pull", "format-patch", "bundle", "archive",
})
GIT_HISTORY = frozenset({
    "add", "commit", "push", "fetch", "tag", "notes", "gc", "prune", "repack", "pack-refs", "update-index",
    "update-ref", "symbolic-ref", "hash-object", "write-tree", "commit-tree", "mktag", "mktree", "replace",
    "maintenance", "credential", "lfs", "send-email", "remote", "config", "branch",
})
"""git subcommands that change the repository's history, index, refs or settings but no file in
the working tree: nothing a check reads changes, so they re-open nothing (``git commit``, ``git push``)."""
GIT_WORKSPACE = frozenset({
    "checkout", "switch", "restore", "reset", "stash", "pull", "merge", "rebase", "cherry-pick", "revert",
    "apply", "am", "clean", "rm", "mv", "submodule", "worktree", "sparse-checkout", "read-tree",
    "checkout-index", "filter-branch", "filter-repo", "bisect", "clone", "init",
})
"""git subcommands that change (or may change) files in the working tree."""
_GIT_RESET_TREE = frozenset({"--hard", "--merge", "--keep", "--recurse-submodules"})
"""``git reset`` options that change the working tree (``--soft`` and ``--mixed`` change the index and HEAD only)."""
_GIT_NEW_BRANCH = frozenset({"-b", "-B", "-c", "-C", "--create", "--force-create", "--orphan"})
"""``git checkout -b NAME`` / ``git switch -c NAME``: a new branch at HEAD, the working tree unchanged."""
GIT_LISTING = {"stash": ("push", "pop", "apply", "drop", "clear", "save", "store", "create", "branch"),
               "submodule": ("update", "add", "init", "deinit", "sync", "absorbgitdirs", "set-branch", "set-url",
                             "foreach")}
"""git subcommands that only list with some arguments (``git stash list``, ``git submodule status``)."""
GH_WORKSPACE = frozenset({"checkout", "clone", "download", "sync", "develop", "co"})
"""``gh`` subcommands that write into the working tree (``gh pr checkout``, ``gh repo clone``,
``gh run download``); every other ``gh`` call talks to the host and changes no file here."""
PACKAGE_MANAGERS = {
    "npm": ("install", "i", "ci", "add", "uninstall", "remove", "rm", "update", "up", "dedupe", "prune",
            "link", "rebuild", "init", "publish", "version", "pkg", "audit"),
    "pnpm": ("install", "i", "add", "remove", "rm", "update", "up", "prune", "link", "rebuild", "import",
             "patch-commit", "dedupe", "init", "publish"),
    "yarn": ("install", "add", "remove", "upgrade", "up", "link", "init", "dedupe", "set", "patch-commit"),
    "bun": ("install", "i", "add", "remove", "rm", "update", "link", "init", "create", "pm"),
    "cargo": ("add", "remove", "install", "update", "new", "init", "fix", "clean", "generate-lockfile",
              "vendor", "publish"),
    "go": ("get", "install", "mod", "generate", "clean", "work", "fmt", "fix"),
    "uv": ("add", "remove", "sync", "lock", "pip", "init", "venv", "tool", "python", "build", "publish",
           "self", "cache"),
    "poetry": ("add", "remove", "install", "update", "lock", "init", "new", "build", "publish", "version"),
    "pipenv": ("install", "uninstall", "update", "lock", "sync", "clean"),
    "dotnet": ("add", "remove", "new", "restore", "publish", "pack", "tool", "clean", "workload"),
    "bundle": ("install", "update", "add", "remove", "lock", "clean", "binstubs", "init"),
    "mvn": ("install", "deploy", "clean", "release:prepare"),
    "make": ("install", "clean", "distclean", "uninstall"),
}
_NULL_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "$null", "nul", "NUL", "-"})


def combine(first: Effect, second: Effect) -> Effect:
    """The stronger of two effects: mutating, then unknown, then read-only."""
    return first if _ORDER[first] >= _ORDER[second] else second


def redirect_writes(redirect: Redirect) -> bool:
    """Whether a redirect writes a file (``> out.log``), rather than a descriptor or null."""
    op = redirect.op
    if ">" not in op or op in ("2>&1", "*>&1", "1>&2", ">&-"):
        return False
    if "&" in op and redirect.target is not None and op in (">&", "<&", ">&-"):
        descriptor = redirect.target.value or redirect.target.text
        if descriptor.isdigit() or descriptor == "-":
            return False
    if op.endswith(("&1", "&2")):
        return False
    target = redirect.target
    if target is None:
        return op not in ("2>&1",)
    value = target.value if target.value is not None else target.text
    return value not in _NULL_TARGETS and value.lower() != "$null"


def program_effect(argv: tuple[Word, ...], shell: str) -> Effect:
    """The effect of running ``argv`` (wrappers already removed), not counting redirects."""
    if not argv:
        return READ_ONLY
    head = argv[0].value
    if head is None:
        return UNKNOWN
    name = program_name(head)
    if name in _READ_ARGUMENTS:
        values = [word.value if word.value is not None else word.text for word in argv[1:]]
        effect = _by_arguments(name, values, argv, shell)
        if effect is not None:
            return effect
    if name in _BUILTINS:
        return READ_ONLY
    lowered = name.lower()
    if shell == "pwsh" and lowered in PWSH_READ_ONLY:
        return READ_ONLY
    if name in READ_ONLY_PROGRAMS:
        return READ_ONLY
    if name in MUTATING_PROGRAMS or lowered in MUTATING_PROGRAMS:
        return MUTATING
    return UNKNOWN


def _by_arguments(name: str, values: list[str], argv: tuple[Word, ...], shell: str) -> Effect | None:
    """The effect of a program whose arguments decide it; ``None`` to look it up in the tables."""
    if name == "git":
        return _git(values)
    if name == "gh":
        return MUTATING if any(value in GH_WORKSPACE for value in values[:3]) else READ_ONLY
    if name in _TASK_RUNNERS and any(rewrites(value) for value in values if not value.startswith("-")):
        return MUTATING
    if name in PACKAGE_MANAGERS:
        sub = next((value for value in values if not value.startswith("-")), "")
        if sub in PACKAGE_MANAGERS[name]:
            return MUTATING
    if name == "sed":
        return MUTATING if any(v == "-i" or v.startswith(("-i", "--in-place")) for v in values) else READ_ONLY
    if name in ("find", "fd", "fdfind"):
        writes: tuple[str, ...] = ("-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprintf",
                                   "-fls", "-x", "-X", "--exec", "--exec-batch")
        return UNKNOWN if any(value in writes for value in values) else READ_ONLY
    if name == "sort" and any(v == "-o" or v.startswith(("-o", "--output")) for v in values):
        return MUTATING
    if name in ("curl", "wget"):
        writes = ("-o", "-O", "--output", "--remote-name", "-P", "--directory-prefix", "--output-document")
        return MUTATING if any(v.split("=")[0] in writes for v in values) or name == "wget" else READ_ONLY
    if name == "tee":
        files = [v for v in values if not v.startswith("-") and v not in _NULL_TARGETS]
        return MUTATING if files else READ_ONLY
    if name in ("awk", "gawk", "mawk"):
        program = " ".join(values)
        return UNKNOWN if "system(" in program or "print >" in program or "printf >" in program else READ_ONLY
    if name == "xargs":
        return _xargs(argv, shell)
    if name in _FORMATTERS:
        return _FORMATTERS[name](values)
    return None


_BUILTINS = frozenset({"echo", "printf", "true", "false", ":", "cd", "pwd", "export", "set", "unset", "test", "[",
                       "exit", "return", "logout", "shift", "break", "continue", "trap", "wait", "type",
                       "exit-pssession", "throw"})
_FORMATTERS: dict[str, Callable[[list[str]], Effect]] = {
    # Listing and diffing formatters print and change nothing; with their writing flag they rewrite files.
    "gofmt": lambda v: MUTATING if "-w" in v else READ_ONLY,
    "goimports": lambda v: MUTATING if "-w" in v else READ_ONLY,
    "gofumpt": lambda v: MUTATING if "-w" in v else READ_ONLY,
    "shfmt": lambda v: MUTATING if "-w" in v or "--write" in v else READ_ONLY,
    "clang-format": lambda v: MUTATING if "-i" in v else READ_ONLY,
    "terraform": lambda v: MUTATING if "fmt" in v else UNKNOWN,
    "tofu": lambda v: MUTATING if "fmt" in v else UNKNOWN,
    "ruff": lambda v: MUTATING if "format" in v or "--fix" in v else UNKNOWN,
    "prettier": lambda v: MUTATING if "--write" in v or "-w" in v else READ_ONLY,
    "cargo": lambda v: MUTATING if "fmt" in v or "fix" in v else UNKNOWN,
    "dotnet": lambda v: MUTATING if "format" in v else UNKNOWN,
    "biome": lambda v: MUTATING if "--write" in v or "format" in v else UNKNOWN,
    "eslint": lambda v: MUTATING if "--fix" in v else READ_ONLY,
}


_TASK_RUNNERS = frozenset({"mise", "just", "task", "go-task", "nx", "turbo", "pants", "make", "npm", "pnpm", "yarn",
                           "bun"})
"""Programs whose formatting tasks (``mise run fmt``, ``make format``) rewrite files."""

# Programs whose effect depends on their arguments (everything else is a table lookup).
_READ_ARGUMENTS = frozenset({"git", "gh", "sed", "find", "fd", "fdfind", "sort", "curl", "wget", "tee", "awk", "gawk",
                             "mawk", "xargs", *PACKAGE_MANAGERS, *_FORMATTERS, *_TASK_RUNNERS})


def _git(values: list[str]) -> Effect:
    """A git command's effect on the working tree (history, index and refs are not the workspace)."""
    index = 0
    while index < len(values) and values[index].startswith("-"):
        index += 2 if values[index] in ("-C", "-c", "--git-dir", "--work-tree", "--namespace") else 1
    if index >= len(values):
        return READ_ONLY
    sub = values[index]
    rest = values[index + 1 :]
    if sub in GIT_READ_ONLY:
        return READ_ONLY if not any(v.startswith("--output") for v in rest) else MUTATING
    if sub == "reset":
        return MUTATING if any(v in _GIT_RESET_TREE for v in rest) else READ_ONLY
    if sub in ("checkout", "switch") and any(v in _GIT_NEW_BRANCH for v in rest) \
            and len([v for v in rest if not v.startswith("-")]) == 1:
        return READ_ONLY
    if sub in GIT_LISTING:
        return MUTATING if not rest or any(v in GIT_LISTING[sub] for v in rest) else READ_ONLY
    if sub in GIT_HISTORY:
        return READ_ONLY
    return MUTATING


def _xargs(argv: tuple[Word, ...], shell: str) -> Effect:
    index = 1
    with_value = ("-I", "-i", "-n", "-L", "-l", "-P", "-s", "-d", "-E", "-e", "-a", "--arg-file", "--delimiter",
                  "--max-args", "--max-procs", "--max-lines", "--replace", "--max-chars")
    while index < len(argv):
        value = argv[index].value or ""
        if not value.startswith("-"):
            break
        index += 2 if value in with_value else 1
    inner = argv[index:]
    return program_effect(inner, shell) if inner else READ_ONLY
