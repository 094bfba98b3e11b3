def describe():
    return "pkg"
