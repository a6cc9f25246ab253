"""``witness install`` / ``witness uninstall``: witness's hooks and MCP server in a host's own settings.

The knowledge is a table (:data:`ROWS`): for each host, scope and piece, the settings file, its format, where
the entry goes and the entry itself. :func:`install` writes the entries a host needs, idempotently, changing
only their text (the rest of each file — other settings, layout, comments in TOML and in JSON where the host
allows them — is kept byte for byte); :func:`uninstall` removes them again, so the two give a file back as it
was. A file that cannot be read as the host writes it is refused (``ConfigError``) and left alone.

>>> import pathlib, tempfile
>>> home = pathlib.Path(tempfile.mkdtemp())
>>> [change.action for change in install("claude-code", home=home, program="witness")]
['created']
>>> [change.action for change in install("claude-code", home=home, program="witness")]
['unchanged']
>>> [change.action for change in uninstall("claude-code", home=home)]
['removed']

The public API is this module's ``__all__``.
"""

from ._api import default_program, install, resolve, summary, uninstall
from ._edit import Action, FileChange
from ._table import INSTALL_HOSTS, ROWS, FileFormat, InstallHost, Piece, Row, Scope, rows_for

__all__ = [
    "INSTALL_HOSTS",
    "ROWS",
    "Action",
    "FileChange",
    "FileFormat",
    "InstallHost",
    "Piece",
    "Row",
    "Scope",
    "default_program",
    "install",
    "resolve",
    "rows_for",
    "summary",
    "uninstall",
]
