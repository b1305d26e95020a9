//go:build !unix

package runlater

// oNonblock: opens elsewhere do not wait on a fifo.
const oNonblock = 0
