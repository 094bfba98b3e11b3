from pkg import mod

mod.start()
