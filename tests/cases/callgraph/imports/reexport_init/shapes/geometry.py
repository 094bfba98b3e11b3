def area(side):
    return side * side
