//go:build !unix

package runner

const syscallNonblock = 0
