//go:build !unix

package gitstore

const oNonblock = 0
