package main

import (
	"context"
	"fmt"
	"io"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/runner"
)

// trustPlaceFiles trusts, in a place that is not a git repository, the
// .sentinel/policy.toml and templates.toml there as they are now (a run
// there uses them only then; runner/place_trust.go), saying which; n is
// how many it trusted. In a repository only a file a coder wrote
// (config.CoderWrote): the rest is the person's (a committed .sentinel/
// is refused).
func trustPlaceFiles(out io.Writer, root string) (n int, err error) {
	p, err := runner.FindInPlaceProject(context.Background(), root)
	if err != nil {
		return 0, nil
	}
	for _, name := range []string{"policy.toml", "templates.toml"} {
		if p.GitDir != "" && !config.CoderWrote(root, name) {
			continue
		}
		path := config.StateFilePath(root, name)
		sum, present, err := config.HashFile(path)
		if err != nil {
			return n, fmt.Errorf("read %s: %w", path, err)
		}
		if !present {
			continue
		}
		if err := config.TrustFile(root, name, sum); err != nil {
			return n, err
		}
		fmt.Fprintf(out, "trusted %s (sha256 %s): runs in this place now use it (changing the file withdraws the approval)\n", path, sum)
		n++
	}
	return n, nil
}
