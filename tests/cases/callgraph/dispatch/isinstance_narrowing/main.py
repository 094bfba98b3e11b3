class Cat:
    def sound(self):
        return "meow"


class Dog:
    def sound(self):
        return "woof"


def speak(animal):
    if isinstance(animal, Cat):
        return animal.sound()
    return animal.sound()


speak(Cat())
speak(Dog())
