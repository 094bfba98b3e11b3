from plugins import Loud

Loud().greet()
