import api

api.load("x")
