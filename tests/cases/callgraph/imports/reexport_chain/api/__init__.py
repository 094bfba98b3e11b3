from api.core import load
