def helper():
    return 1


def run(code):
    scope = {"helper": helper}
    exec(code, scope)
    return scope["result"]


run("result = helper()")
