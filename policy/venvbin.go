package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// A Python virtual environment's program directory (.venv/bin, venv/bin,
// their Scripts on Windows, a .tox or .nox environment's bin, or any bin
// beside a pyvenv.cfg): python, pip and every console script there run the
// next time the environment is activated or one of them is run, as its
// activate script does (runlater.toml lists those). A write there is a
// write of a file that runs code later, whatever the sandbox (polcorp9:
// printf '#!/bin/sh…' > .venv/bin/python3 was a plain workspace write).
// internal/runlater.EnvWhy knows the same directories for the review; the
// policy cannot import it (it imports policy), so the venv kinds are here.

// venvProgramDir reports whether d is a virtual environment's program
// directory.
func venvProgramDir(d string) bool {
	base, parent := filepath.Base(d), filepath.Dir(d)
	if base != "bin" && base != "Scripts" {
		return false
	}
	switch filepath.Base(parent) {
	case ".venv", "venv":
		return true
	}
	if gp := filepath.Base(filepath.Dir(parent)); base == "bin" && (gp == ".tox" || gp == ".nox") {
		return true
	}
	_, err := os.Lstat(filepath.Join(parent, "pyvenv.cfg"))
	return err == nil
}

// venvProgramWrite raises a write into a virtual environment's program
// directory to a run-later write; it only tightens f.
func (c *checkEnv) venvProgramWrite(p string, f finding) finding {
	if f.d >= Ask || !venvProgramDir(filepath.Dir(p)) {
		return f
	}
	r := rel(p, c.ws)
	if r == "" || strings.HasPrefix(r, "..") {
		r = p
	}
	return finding{Ask, RulePathWriteLater, "writes " + r + ", a program of a Python virtual environment: it runs when the environment is activated or the program is run"}
}
