def first():
    return 1


def second():
    return 2


def call_all(*callbacks):
    return [callback() for callback in callbacks]


def call_first(*callbacks):
    return callbacks[0]()


call_all(first, second)
call_first(second)
