//go:build unix

package mcpserver

import (
	"context"
	"errors"
	"testing"
)

// ipatk17m row 2: with only rg allowed and a file named --pre=sh made by
// edit, `rg -l x *` ran sh on every file (the client's script among them):
// the entry covered the words the line spelled, not those the glob became.
// A glob that may expand to an option is refused in allowlist and strict
// mode; ./*, a glob after --, and programs with no such option pass.
func TestExecRefusesAGlobThatMayExpandToAnOption(t *testing.T) {
	srv, rw := gateServer(t)
	for _, mode := range []string{ModeAllowlist, ModeStrict} {
		srv.cfg.ExecMode = mode
		for _, line := range []string{`git log *`, `git log --ou*`, `tar cf /dev/null *`, `git log -?output=x`, `git log [-]*`, `git log {*,}`,
			// A -- that is an option's value: GNU tar then writes the
			// archive "--" and reads files named --checkpoint=1 and
			// --checkpoint-action=exec=sh x.sh as options (review revin).
			`tar -cf -- *`, `tar cf -- *`, `git -C -- log *`} {
			_, err := srv.gateExec(context.Background(), line, rw)
			var r *Refusal
			if !errors.As(err, &r) || r.Class != ClassNotAllowed {
				t.Errorf("%s mode: %q not refused as not allowed (%v)", mode, line, err)
			}
		}
	}
	srv.cfg.ExecMode = ModeAllowlist
	for _, line := range []string{`git log ./*`, `git log -- *`, `ls *`, `cat *.txt`, `grep -r x *`, `git log --format=%h*`} {
		if _, err := srv.gateExec(context.Background(), line, rw); err != nil {
			t.Errorf("%q refused: %v", line, err)
		}
	}
}
