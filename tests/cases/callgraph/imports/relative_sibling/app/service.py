from . import storage
from .validate import check


def handle():
    check("item")
    storage.save("item")
