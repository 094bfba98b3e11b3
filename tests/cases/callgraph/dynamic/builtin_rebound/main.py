import builtins


def my_len(items):
    return 99


def run():
    return len([1])


builtins.len = my_len
run()
