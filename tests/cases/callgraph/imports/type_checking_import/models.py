class Record:
    def save(self):
        return True
