def by_length(word):
    return len(word)


def is_short(word):
    return len(word) < 4


def shout(word):
    return word + "!"


words = ["kiwi", "fig", "banana"]
ordered = sorted(words, key=by_length)
short = list(filter(is_short, words))
loud = list(map(shout, words))
