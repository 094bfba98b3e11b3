import importlib

codec = importlib.import_module("codecs_impl.rot")
codec.encode("abc")
