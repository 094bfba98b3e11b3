import functools
import itertools


def by_length(word):
    return len(word)


def sort_with(key, words):
    return sorted(words, key=key)


def sort_by_length(words):
    return sorted(words, key=by_length)


def lengths(measure, words):
    return list(map(measure, words))


def longest(measure, words):
    return max(words, key=measure)


def fold(combine, words):
    return functools.reduce(combine, words, "")


def runs(key, words):
    return [list(group) for _, group in itertools.groupby(words, key)]


def plain(words):
    return sorted(words)


def run(options):
    words = ["bb", "a", "ccc"]
    sort_by_length(words)
    plain(words)
    # the callables come from a mapping the index cannot read
    sort_with(options["key"], words)
    lengths(options["key"], words)
    longest(options["key"], words)
    fold(options["fold"], words)
    runs(options["key"], words)


run({"key": by_length, "fold": lambda a, b: a + b})
