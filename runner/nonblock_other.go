//go:build !unix

package runner

const oNonblock = 0
