from util import greet

greet("ada")
