// Package escapeprobe holds the few escape attempts of the sandbox's escape
// suite that Go cannot express directly (a 32-bit int 0x80 system call from
// a 64-bit process). Only tests use it.
package escapeprobe
