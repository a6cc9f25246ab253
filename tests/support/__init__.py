"""Test support shared by the suites: a scripted model server on loopback that speaks the
providers' wire formats (OpenAI chat completions and Responses, Anthropic Messages)."""
