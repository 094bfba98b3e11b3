"""Task generators, one module per task family (see DESIGN.md, "Task kinds")."""
