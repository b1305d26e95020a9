// Package tomlquote writes a Go string as a TOML basic string, for the
// config files Sentinel writes (a starter config, an agent's per-run
// config). It owns quoting only; reading TOML is BurntSushi/toml's.
package tomlquote

import (
	"fmt"
	"strings"
)

// String is s as a TOML basic string: quotes and backslashes escaped,
// control characters as \uXXXX, so no value can end its string early or
// start a new key.
func String(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
