"""Scripts that run inside the sandbox, copied there by the evidence verifiers (never imported by dure)."""
