def render(names):
    parts = []
    for name in names:
        parts.append(name)
    counts = {}
    counts.setdefault("n", len(parts))
    return ", ".join(parts) + "!".upper() + "{}".format(counts.get("n"))


render(["a", "b"])
