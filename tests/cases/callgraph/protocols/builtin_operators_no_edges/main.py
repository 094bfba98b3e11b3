def combine(a, b):
    total = a + b
    pairs = {"k": total}
    for key in pairs:
        total += len(key)
    return total if "k" in pairs else 0


combine(1, 2)
