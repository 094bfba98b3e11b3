import util as u
from util import triple as t3


def run():
    return u.double(1) + t3(2)


run()
