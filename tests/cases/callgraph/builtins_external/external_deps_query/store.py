import json
import os


def save(record):
    return write(json.dumps(record))


def write(text):
    return os.getcwd() + text
