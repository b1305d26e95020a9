//go:build !linux

package inside

// Main is Linux-only: elsewhere the sandbox never re-executes a helper.
func Main(args []string) int { return 125 }
