from unittest import mock

import core


def fake():
    return "fake"


def run():
    with mock.patch.multiple("core", fetch=fake):
        core.process()
    name = "sto" + "re"
    with mock.patch.object(core, name, fake):
        core.process()


run()
