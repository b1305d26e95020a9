// Package crossbuild holds one test and no code: that the whole module
// builds and vets for the platforms Sentinel ships to besides Linux, so a
// Linux-only call slipped into a shared file fails here rather than on a
// person's Mac.
package crossbuild
