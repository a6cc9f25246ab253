"""The files each family reads at start-up: its configuration and plugins.

A line that writes one of them before running the check decides what the check does
(``printf '[pytest]\\naddopts = --co\\n' > pytest.ini && pytest`` only collects), so such a run is
refused (:mod:`._writes`). Names are basenames, matched wherever the file is written; a family not
listed here is judged by its program (and the files its options name) only.
"""

_PYTHON_START = ("sitecustomize.py", "usercustomize.py")
"""Modules every Python interpreter imports at start-up when they are on its path."""

CONFIGS: dict[str, tuple[str, ...]] = {
    "pytest": ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg", "conftest.py", *_PYTHON_START),
    "unittest": _PYTHON_START,
    "tox": ("tox.ini", "tox.toml", "pyproject.toml", "setup.cfg"),
    "nox": ("noxfile.py",),
    "mypy": ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg", *_PYTHON_START),
    "pyright": ("pyrightconfig.json", "pyproject.toml"),
    "ruff": ("ruff.toml", ".ruff.toml", "pyproject.toml"),
    "flake8": (".flake8", "setup.cfg", "tox.ini", *_PYTHON_START),
    "pylint": (".pylintrc", "pylintrc", "pyproject.toml", "setup.cfg", *_PYTHON_START),
    "black": ("pyproject.toml",),
    "isort": (".isort.cfg", "pyproject.toml", "setup.cfg", "tox.ini", ".editorconfig"),
    "django": ("manage.py", "settings.py", *_PYTHON_START),
    "jest": ("jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs", "jest.config.json",
             "package.json", "babel.config.js", ".babelrc"),
    "vitest": ("vitest.config.ts", "vitest.config.js", "vitest.config.mts", "vitest.config.mjs", "vite.config.ts",
               "vite.config.js", "vite.config.mts", "vite.config.mjs", "vitest.workspace.ts", "package.json"),
    "mocha": (".mocharc.js", ".mocharc.cjs", ".mocharc.json", ".mocharc.yml", ".mocharc.yaml", "package.json"),
    "tsc": ("tsconfig.json",),
    "eslint": ("eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", ".eslintrc",
               ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml", ".eslintignore",
               "package.json"),
    "prettier": (".prettierrc", ".prettierrc.json", ".prettierrc.js", ".prettierrc.yml", ".prettierrc.yaml",
                 "prettier.config.js", ".prettierignore", "package.json"),
    "npm-script": ("package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", "bunfig.toml", "pnpm-workspace.yaml"),
    "go": ("go.mod", "go.work"),
    "golangci-lint": (".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"),
    "cargo": ("Cargo.toml", "config.toml", "build.rs", "rust-toolchain", "rust-toolchain.toml"),
    "maven": ("pom.xml", "settings.xml", "maven.config", "jvm.config"),
    "gradle": ("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "gradle.properties",
               "init.gradle"),
    "make": ("Makefile", "makefile", "GNUmakefile"),
    "dotnet": ("Directory.Build.props", "Directory.Build.targets", "global.json", "nuget.config"),
    "rspec": (".rspec", "spec_helper.rb"),
    "rubocop": (".rubocop.yml",),
    "phpunit": ("phpunit.xml", "phpunit.xml.dist"),
    "phpstan": ("phpstan.neon", "phpstan.neon.dist"),
    "just": ("justfile", "Justfile", ".justfile"),
    "task": ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml"),
    "mise": ("mise.toml", ".mise.toml", ".tool-versions"),
    "deno": ("deno.json", "deno.jsonc"),
}
"""Configuration and plugin files by family name (:data:`._families.FAMILIES`)."""

STARTUP_FILES = frozenset({
    ".profile", ".bash_profile", ".bash_login", ".bash_logout", ".bashrc", ".zshenv", ".zprofile", ".zlogin",
    ".zlogout", ".zshrc", ".inputrc",
})
"""The files a login shell (or zsh, or an interactive shell) reads when it starts or ends."""
