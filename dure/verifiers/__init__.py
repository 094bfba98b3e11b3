"""Verifiers, one module per verifier, looked up by name (see DESIGN.md, "The contracts")."""
