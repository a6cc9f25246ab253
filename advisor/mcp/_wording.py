"""What the executor model reads about witness's MCP tools: the server's instructions and each
tool's description. They are written for the model that calls the tools: when to call, what the
verdict line means, and what to do with the answer."""

from __future__ import annotations

SERVER_NAME = "witness"
"""The name the server gives itself (hosts name its tools ``mcp__<name you configure>__<tool>``)."""

INSTRUCTIONS = (
    "witness checks whether you really verified your work. `advisor` asks a stronger reviewer model, which reads "
    "a compact ledger of this session, for a verdict and advice; `obligations` lists the checks (tests, linters, "
    "type checks, builds) that failed in this session and have not been genuinely re-run since. Call "
    "`obligations` before you claim a check passes, and `advisor` when you are stuck or before you say you are done."
)

ADVISOR = (
    "Ask witness's advisor: a stronger reviewer model that reads a compact ledger of this session (the user's "
    "words, every tool call you made, what witness knows about each check you ran, and the verification "
    "obligations still open) and may read the workspace, read-only, before it answers.\n\n"
    "Call it when you are stuck, before a hard or hard-to-undo decision, and before you tell the user the work is "
    "done. `question` is optional: say what you want judged; without it the advisor reviews where the session "
    "stands.\n\n"
    "The answer opens with a verdict line. `Severity: none` means nothing material is wrong: carry on, with no "
    "changes for the advisor's sake. `Severity: nit` is optional polish. `Severity: concern` means something "
    "material is likely wrong or missing: deal with what it names. `Severity: blocker` means continuing would "
    "ship broken or unverified work: do what it says must happen first. Weigh the advice against what you know; "
    "do not obey it blindly.\n\n"
    "Restate the advisor's verdict and key guidance in your next visible reply to the user, so it is not left "
    "only in this tool result. One call per decision is enough: do not ask again about an unchanged situation."
)

QUESTION = ("What you want the advisor to judge (optional): a decision you face, or whether the work is done and "
            "verified. Leave it out to have the session as a whole reviewed.")

OBLIGATIONS = (
    "List the verification obligations witness records as open in this session: checks (tests, linters, type "
    "checks, builds) that failed and have had no genuine passing re-run since, and what would close each. A "
    "re-run whose exit status is not the check's own (`|| true`, `; echo …`, `| grep …`) does not count, and an "
    "edit after a passing run re-opens its check.\n\n"
    "Call it before you tell the user that tests pass or that the work is done. An empty answer is not an "
    "all-clear: it only means no check run in this session is still failing."
)

UNKNOWN_SESSION = ("witness could not tell which session called it ({reason}); it did not read any session's "
                   "transcript, rather than risk reading another session's.")
"""Said when the calling session cannot be found (then nothing of any session is used)."""
