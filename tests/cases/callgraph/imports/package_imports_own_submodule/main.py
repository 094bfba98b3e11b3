import pkg

pkg.mod.start()
pkg.m.stop()
pkg.other.go()
