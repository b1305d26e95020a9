//go:build !amd64

package escapeprobe

// Int80Supported is false: there is no 32-bit int 0x80 entry here.
const Int80Supported = false

// Int80Socket is not available on this architecture.
func Int80Socket(domain, typ, proto int32) int64 { return -38 }
