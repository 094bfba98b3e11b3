import helpers as h
from helpers import square


def test_square():
    assert square(3) == 9
    assert h.cube(2) == 8
