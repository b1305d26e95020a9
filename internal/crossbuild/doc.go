// Package crossbuild holds one test and no code: that the whole module,
// with its tests, type-checks for the platforms Sentinel ships to besides
// Linux (and its assembly compiles there), so a Linux-only call slipped
// into a shared file fails here rather than on a person's Mac.
package crossbuild
