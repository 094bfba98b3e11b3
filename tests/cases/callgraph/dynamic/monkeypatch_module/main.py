import clock


def fake_now():
    return 0


clock.now = fake_now
clock.stamp()
