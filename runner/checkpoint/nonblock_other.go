//go:build !unix

package checkpoint

// nonblock: no fifo can be swapped in for a file here.
const nonblock = 0
