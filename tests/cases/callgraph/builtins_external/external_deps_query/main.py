import store


def handle(request):
    return store.save(request)


handle({"id": 1})
