from models.user import User

u = User("ann")
print(u.greeting())
