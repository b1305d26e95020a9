// Package archdoc holds the test that keeps ARCHITECTURE.md, at the
// repository's root, true: every package and file it names exists, and
// every top-level room of the code is on it; and the rules of the whole
// tree that no one package can check: no production file over 500 lines,
// no test that sleeps a fixed time, no test binary that compiles another
// package of the module a second time, no runner in the end-to-end helpers
// (testbuild_test.go). It has no code of its own.
package archdoc
