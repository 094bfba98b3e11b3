import functools


class Report:
    @functools.cached_property
    def total(self):  # runs on the first read only: the value is then the instance's own attribute
        return 42

    @property
    def label(self):  # runs on every read
        return "report"


def read_twice(report):
    return report.total + report.total


def read_label():
    return Report().label


def use():
    report = Report()
    read_twice(report)
    return report.total


use()
read_label()
