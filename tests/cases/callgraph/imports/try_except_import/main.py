try:
    from fastjson_impl import encode
except ImportError:
    from slowjson import encode


def dump(value):
    return encode(value)


dump([1, 2])
