// Package patch reads a git binary diff into files and hunks, flags files
// that run code later (SECURITY.md layer 4), and builds the sub-patch of
// what a person accepted on the review screen.
//
// It is pure: no I/O, no git, no drawing. Its tests use real git to prove
// that what it builds applies.
package patch
