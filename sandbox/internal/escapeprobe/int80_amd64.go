package escapeprobe

// Int80Supported says whether Int80Socket really makes a 32-bit call here.
const Int80Supported = true

// Int80Socket calls socket(domain, typ, proto) through the 32-bit int 0x80
// entry (i386 syscall 359) and returns the kernel's answer: a descriptor or
// a negative errno.
func Int80Socket(domain, typ, proto int32) int64
