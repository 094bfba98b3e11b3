def show(first, second="none"):
    return second.upper()


def spread(items):
    return show(*items)


def spread_kw(options):
    return show("a", **options)


show("a", "b")
spread([1, b"bytes"])
spread_kw({"second": b"kw"})
