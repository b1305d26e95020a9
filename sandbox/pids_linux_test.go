package sandbox

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// A fork bomb inside is bounded on both backends: with pids_max 40, a
// program that forks a hundred sleepers gets no more than the limit,
// whoever runs Sentinel (root is bound by the pids cgroup, an ordinary
// user by RLIMIT_NPROC in the sandbox's user namespace too).
func TestForkBombIsBounded(t *testing.T) {
	python := "/usr/bin/python3" // not a version manager's shim: home is not there inside
	if _, err := os.Stat(python); err != nil {
		t.Skip("no /usr/bin/python3 (the test's forker)")
	}
	const limit, tries = 40, 100
	script := `import os, time
n = 0
for i in range(` + strconv.Itoa(tries) + `):
    try:
        if os.fork() == 0:
            time.sleep(120)
            os._exit(0)
        n += 1
    except OSError:
        pass
print("FORKED=%d" % n, flush=True)
`
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			sbx, err := Prepare(Profile{Workspace: t.TempDir(), Net: NetNone, PidsMax: limit}, Options{Mode: mode, Helper: helperBin})
			if err != nil {
				t.Fatal(err)
			}
			defer sbx.Close()
			t.Log(sbx.PidsLimit())
			c, err := sbx.Command(context.Background(), "", python, "-c", script)
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.CombinedOutput() // the helper ends, and the pid namespace with it
			m := regexp.MustCompile(`FORKED=(\d+)`).FindSubmatch(out)
			if m == nil {
				t.Fatalf("no count: %v\n%s", err, out)
			}
			if n, _ := strconv.Atoi(string(m[1])); n >= limit {
				t.Errorf("%d processes forked with pids_max %d under %s", n, limit, mode)
			}
		})
	}
}
