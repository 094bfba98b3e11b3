import ping

ping.ping(2)
