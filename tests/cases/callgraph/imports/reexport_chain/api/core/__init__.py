from .loader import load as load
