from . import mod
from . import mod as m
from pkg import other
