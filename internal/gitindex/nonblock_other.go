//go:build !unix

package gitindex

const oNonblock = 0
