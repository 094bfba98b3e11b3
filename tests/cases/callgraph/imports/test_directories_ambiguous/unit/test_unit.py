from helpers import square


def test_square():
    assert square(3) == 9
