// Package archdoc holds the test that keeps ARCHITECTURE.md, at the
// repository's root, true: every package and file it names exists, and
// every top-level room of the code is on it. It has no code of its own.
package archdoc
