package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// sampleFiles is the small project `sentinel demo` creates.
var sampleFiles = map[string]string{
	"go.mod": "module example.com/greet\n\ngo 1.22\n",
	"greet.go": `// Package greet says hello.
package greet

// Greet returns a friendly greeting.
func Greet(name string) string {
	return "Hello, " + name + "!"
}
`,
	"greet_test.go": `package greet

import "testing"

func TestGreet(t *testing.T) {
	if got := Greet("ada"); got != "Hello, ada!" {
		t.Fatalf("Greet(ada) = %q", got)
	}
}
`,
	"README.md":       "# greet\n\nA tiny greeter, used by `sentinel demo`.\n",
	"scripts/lint.sh": "#!/bin/sh\n# Counts exported functions per file: the project's house style check.\nfor f in *.go; do printf '%s: %s exported funcs\\n' \"$f\" \"$(grep -c '^func [A-Z]' \"$f\")\"; done\n",
}

// CreateSample makes the demo's sample project in dir (which must be empty
// or not exist): a committed Go greeter plus one uncommitted change, so the
// demo shows a snapshot of uncommitted work too. written, when not nil, is
// called once the files are written, before git runs (most of the time
// the sample takes): the demo starts the Go build cache seed there.
func CreateSample(ctx context.Context, dir string, written func()) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty (give an empty directory, an existing git repository, or none)", dir)
	}
	for name, body := range sampleFiles {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if filepath.Ext(name) == ".sh" {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			return err
		}
	}
	if written != nil {
		written()
	}
	git := func(args ...string) error {
		_, err := gitCmd{dir: dir}.run(ctx, append([]string{"-c", "user.name=Sentinel Demo", "-c", "user.email=demo@sentinel.invalid",
			"-c", "init.defaultBranch=main"}, args...)...)
		return err
	}
	if err := git("init", "-q"); err != nil {
		return err
	}
	if err := git("add", "-A"); err != nil {
		return err
	}
	if err := git("commit", "-q", "-m", "greet: first version"); err != nil {
		return err
	}
	// Work in progress the person has not committed: it rides along.
	return os.WriteFile(filepath.Join(dir, "README.md"),
		[]byte(sampleFiles["README.md"]+"\nTODO: a louder greeting.\n"), 0o644)
}
