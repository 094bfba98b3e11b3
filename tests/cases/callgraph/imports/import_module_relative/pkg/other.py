def h():
    return "h"
