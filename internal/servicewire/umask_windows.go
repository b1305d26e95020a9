package servicewire

// umask does nothing on Windows: there is no umask; the socket file takes
// its directory's ACL (and the service refuses every peer there anyway,
// see peercred).
func umask(mask int) int { return 0 }
