package mcpserver

import (
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/policy"
)

// runLaterGuard refuses a file tool's write to a file that runs code later
// on this machine without anyone running it (policy/runlater.toml's auto
// class: .envrc, .vscode/, CI workflows, git hooks, agent settings, cargo
// and pip settings, venv activate scripts…). The file tools act on the
// person's real files, so these stay the person's to change (SECURITY.md,
// "In place is not a copy").
func runLaterGuard(pl Place) error {
	if pl.Rel == "." {
		return nil
	}
	e, ok := policy.WriteRunsLater(filepath.ToSlash(pl.Rel))
	if !ok {
		if envrc, loaded := runlater.LoadedBy(pl.Root, pl.Abs); loaded {
			return &Refusal{Class: ClassReadOnlyPath, Rule: "runs later (loaded by " + envrc + ")",
				Reason: pl.Abs + " runs code later on this machine: " + envrc + " loads it, and direnv runs it on cd with no new direnv allow",
				Use:    "ask the person to change it themselves"}
		}
		return nil
	}
	return &Refusal{Class: ClassReadOnlyPath, Rule: "runs later (" + e.Pattern + ")",
		Reason: pl.Abs + " runs code later on this machine: " + e.Reason,
		Use:    "ask the person to change it themselves"}
}
