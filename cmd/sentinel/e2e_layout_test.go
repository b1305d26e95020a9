package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// helpers_test.go gives the end-to-end helpers their test names in this
// package and in every package under e2e/: the copies must agree (bar the
// package line), or a test moved between packages means something else.
func TestHelperFilesAgree(t *testing.T) {
	body := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if !strings.HasPrefix(s, "package ") {
			t.Fatalf("%s does not start with its package line", path)
		}
		return s[strings.Index(s, "\n"):]
	}
	want := body("helpers_test.go")
	copies, _ := filepath.Glob(filepath.Join("e2e", "*", "helpers_test.go"))
	pkgs, _ := filepath.Glob(filepath.Join("e2e", "*", "doc.go"))
	if len(copies) == 0 || len(copies) != len(pkgs) {
		t.Fatalf("%d helpers_test.go for %d packages under e2e/: each needs one (copy this package's)", len(copies), len(pkgs))
	}
	for _, c := range copies {
		if body(c) != want {
			t.Errorf("%s differs from helpers_test.go: copy it again (only the package line differs)", c)
		}
	}
}
