//go:build unix

package servicewire

import "golang.org/x/sys/unix"

func umask(mask int) int { return unix.Umask(mask) }
