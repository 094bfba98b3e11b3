from functools import update_wrapper


def optimizeconst(f):
    def new_func(self, node):
        return f(self, node)

    return update_wrapper(new_func, f)


class Generator:
    @optimizeconst
    def visit_filter(self, node):
        return node

    def visit_block(self, node):
        return self.visit_filter(node)


Generator().visit_block(1)
