//go:build !linux

package shellscope

// Invoked is false off Linux: only the Linux sandbox shows the wrapper.
func Invoked() (string, bool) { return "", false }

// Main is never reached off Linux.
func Main(real string) int { return 127 }

// ABI is 0 off Linux: no Landlock.
func ABI() int { return 0 }
