class Session:
    def close(self):
        return True


def open_session():
    return Session()


open_session().close()
