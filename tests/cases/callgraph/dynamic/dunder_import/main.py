def load(name):
    module = __import__(name)
    return module.run()


load("job_a")
