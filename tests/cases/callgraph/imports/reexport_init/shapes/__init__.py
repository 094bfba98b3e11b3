from shapes.geometry import area

__all__ = ["area"]
