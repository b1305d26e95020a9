//go:build !unix

package gitrest

const nonblock = 0
