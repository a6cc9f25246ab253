"""Tool-call and conversation events, one small module per type (re-exported by the package)."""
