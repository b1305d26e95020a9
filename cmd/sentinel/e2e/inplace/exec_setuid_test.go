package inplace

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// In place the coder's files are the person's: a setuid (or setgid) copy
// of a program it left in the project would let every other local user
// run it as the person — as root, when the person ran exec as root. On
// both backends every way to set those bits fails (chmod, install -m,
// cp -a of a setuid program, an open that creates the file with them)
// while an ordinary chmod works, and no file of the project has them
// after the run.
func TestExecCannotLeaveASetuidFile(t *testing.T) {
	for _, backend := range inPlaceBackends(t) {
		t.Run(backend, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			script := strings.Join([]string{
				"cp /usr/bin/id ./suid && chmod 4755 ./suid; chmod u+s,g+s ./suid",
				"install -m 6755 /usr/bin/id ./installed",
				"mkdir -p build && cp /usr/bin/id build/sgid && chmod 2755 build/sgid",
				"for p in /usr/bin/passwd /usr/bin/su /bin/su /usr/bin/mount; do test -u $p && cp -a $p ./kept && break; done",
				"if test -x /usr/bin/python3; then /usr/bin/python3 -c \"import os; os.open('opened', os.O_CREAT | os.O_WRONLY, 0o4755)\"; fi",
				"echo x > plain && chmod 750 plain && echo PLAIN-CHMOD-OK",
			}, "; ")
			res := e2etest.Sentinel(t, dir, nil, "exec", "--plain", "--sandbox", backend, "--", "sh", "-c", script)
			if !strings.Contains(res.Stdout, "PLAIN-CHMOD-OK") {
				t.Fatalf("an ordinary chmod failed in place: exit %d\n%s%s", res.Code, res.Stdout, res.Stderr)
			}
			err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				info, err := d.Info()
				if err != nil {
					return err
				}
				if info.Mode()&(fs.ModeSetuid|fs.ModeSetgid) != 0 && !info.IsDir() {
					t.Errorf("the coder left %s with mode %v", p, info.Mode())
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
