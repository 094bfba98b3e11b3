def retry(times):
    def decorate(func):
        func.retries = times
        return func

    return decorate


@retry(3)
def fetch():
    return "data"


fetch()
