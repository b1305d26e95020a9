package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProfilerRunsTheScriptOff (off30): python -m cProfile / profile runs
// the script as python does; -s/--sort takes a sort key (polcorp13's
// `python -m cProfile -s cumtime scripts/bench.py` was judged as running a
// script named 'cumtime'), and with the sandbox off a workspace script
// under the profiler is allowed as `python scripts/bench.py` is. Its -o
// file is judged as a write; pdb keeps asking off (its console takes
// Python an agent holding the terminal can type).
func TestProfilerRunsTheScriptOff(t *testing.T) {
	ctx := testEnv(t)
	if err := os.MkdirAll(filepath.Join(ctx.Workspace, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"scripts/bench.py", "scripts/repro.py"} {
		if err := os.WriteFile(filepath.Join(ctx.Workspace, f), []byte("print(1)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkOnOffIn(t, ctx, []onOff{
		{"python -m cProfile -s cumtime scripts/bench.py | head -30", Allow, Allow},
		{"python -m cProfile --sort=tottime scripts/bench.py", Allow, Allow},
		{"python -m cProfile -o prof.out scripts/bench.py", Allow, Allow},
		{"python3 -m profile -s cumtime scripts/bench.py", Allow, Allow},
		{"python -m cProfile -o ~/.bashrc scripts/bench.py", Deny, Deny},
		{"python -m cProfile -s cumtime /tmp/x.py", Allow, Ask}, // the sandbox's own /tmp
		{"echo 'import os' > scripts/bench.py && python -m cProfile scripts/bench.py", Allow, Ask},
		{"python -m pdb -c continue -c q scripts/repro.py", Allow, Ask},
	})
}
