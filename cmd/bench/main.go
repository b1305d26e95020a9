// Command bench re-measures issue 21's table on this machine: each row as
// a ratio against its anchor measured in the same run, in interleaved
// pairs, medians reported.
//
//	go run ./cmd/bench            # every row
//	go run ./cmd/bench -n 41 -rows hook,sandbox
//
// Rows: hook (sentinel-helper hook and sentinel hook, through a live
// broker, against a trivial Go binary), sandbox (the sentinel binary's
// start alone, then sentinel sandbox run -- true under each backend, in a
// git repository as a person would, against bare bwrap), pane (the coder pane's
// ingest through the terminal emulator, as for Claude Code and Codex, of a
// test log and of Claude Code's recorded output: go test -bench
// IngestFullScreenCoder ./tui), workspace (go test -bench
// Workspace50k ./runner: a 50k-file repo against git worktree add), policy
// (µs per decision), review (the review screen's frame time), memory (peak
// RSS of a run whose coder prints -lines lines, plain). It builds sentinel
// and sentinel-helper into a temp dir first, as go install ./cmd/... would
// lay them out.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/sandbox"
)

func main() {
	n := flag.Int("n", 31, "pairs per row (medians of these)")
	rows := flag.String("rows", "hook,sandbox,pane,workspace,policy,review,memory", "rows to measure, comma-separated; also workspace500k (its first run makes a 500k-file repository)")
	lines := flag.Int("lines", 2_000_000, "lines the coder prints in the memory row")
	flag.Parse()
	dir, err := os.MkdirTemp("", "sentinel-bench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	bins := build(dir)
	// Ratios compress on a busy machine (the anchor slows more than the
	// row): the load is printed so a reader knows which run was quiet.
	fmt.Println("load average at start:", loadAverage())
	defer func() { fmt.Println("load average at end:  ", loadAverage()) }()
	fmt.Printf("%-44s %12s %12s %8s  %s\n", "row", "measured", "anchor", "ratio", "goal")
	for _, r := range strings.Split(*rows, ",") {
		switch strings.TrimSpace(r) {
		case "hook":
			hookRow(bins, *n)
		case "sandbox":
			sandboxRow(bins, *n)
		case "pane":
			// Claude Code and Codex draw through the terminal emulator: that
			// path is the one measured against the goal, on each input.
			goBenches("./tui", "^BenchmarkIngestFullScreenCoder$", "2s", func(name string, m map[string]float64) {
				row("coder pane, emulator, "+name+" (MB/s)", m["MB/s"], 30, m["MB/s"]/30, "≥ 1× (30 MB/s, xterm.js)")
			})
		case "workspace":
			workspaceRow("50k", "3x")
		case "workspace500k": // not in the default rows: the first run makes a 500k-file repository (minutes)
			workspaceRow("500k", "2x")
		case "policy":
			goBench("./policy", "CheckTypical$", "", func(m map[string]float64) {
				row("policy decision (µs)", m["ns/op"]/1e3, 0, 0, "")
			})
		case "review":
			goBench("./tui", "ReviewFrame$", "", func(m map[string]float64) {
				row("review screen frame (ms)", m["ns/op"]/1e6, 1000.0/60, m["ns/op"]/1e6/(1000.0/60), "≤ 1× (a 60 Hz frame)")
			})
		case "memory":
			memoryRow(bins, *lines)
		default:
			fail(fmt.Errorf("-rows: unknown row %q", r))
		}
	}
}

// loadAverage is /proc/loadavg's 1, 5 and 15 minute figures ("?" where
// there is none).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}

// workspaceRow makes a run's workspace as a run does where overlay works
// (the snapshot of the person's tree, then the overlay over the shared
// checkout) beside the clone a run falls back to, in the same run.
func workspaceRow(size, benchtime string) {
	goBench("./runner", "^BenchmarkOverlayWorkspace"+size+"$", benchtime, func(m map[string]float64) {
		v := m["s/snapshot+overlay"]
		row("workspace, "+size+" files, snapshot + overlay (s)", v, m["s/clone-workspace"], v/m["s/clone-workspace"], "< 1 s (anchor: the clone)")
		row("  of which the snapshot, untracked cache (s)", m["s/snapshot"], m["s/snapshot-no-cache"], m["s/snapshot"]/m["s/snapshot-no-cache"], "(anchor: the same snapshot without the cache)")
		row("  the same, CPU (s)", m["cpu-s/snapshot"], m["cpu-s/snapshot-no-cache"], m["cpu-s/snapshot"]/m["cpu-s/snapshot-no-cache"], "")
		row("  floor: lstat of every tracked file (s)", m["s/lstat-every-file"], v, m["s/lstat-every-file"]/v, "(anchor: snapshot + overlay)")
		row("  the floor, CPU (s)", m["cpu-s/lstat-every-file"], m["cpu-s/snapshot"], m["cpu-s/lstat-every-file"]/m["cpu-s/snapshot"], "(anchor: the snapshot's CPU)")
	})
}

type binaries struct{ sentinel, helper, trivial string }

// build puts sentinel and sentinel-helper side by side, and a trivial Go
// program (the anchor of a hook's start), in dir.
func build(dir string) binaries {
	run(exec.Command("go", "build", "-o", dir+"/", "./cmd/sentinel", "./cmd/sentinel-helper"))
	src := filepath.Join(dir, "trivial.go")
	if err := os.WriteFile(src, []byte("package main\n\nfunc main() {}\n"), 0o600); err != nil {
		fail(err)
	}
	triv := exec.Command("go", "build", "-o", filepath.Join(dir, "trivial"), src)
	triv.Env = append(os.Environ(), "GO111MODULE=off", "GOFLAGS=")
	run(triv)
	return binaries{filepath.Join(dir, "sentinel"), filepath.Join(dir, "sentinel-helper"), filepath.Join(dir, "trivial")}
}

// hookRow answers a Bash tool call through a live broker with the helper
// and with sentinel hook, each paired with a trivial Go binary's start.
func hookRow(b binaries, n int) {
	sock := filepath.Join(shortDir(), "b.sock")
	br, err := approvals.NewBroker(approvals.BrokerConfig{SocketPath: sock, RunID: "bench",
		Decider: approvals.DeciderFunc(func(ctx context.Context, p *approvals.Prompt) approvals.Decision {
			return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "person", Reason: "bench"}
		}),
		Context: policy.Context{Workspace: "/w", Cwd: "/w"}})
	if err != nil {
		fail(err)
	}
	br.Start()
	defer br.Close()
	defer os.RemoveAll(filepath.Dir(sock))
	payload := `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"frobnicate --widgets 3"},"tool_use_id":"t"}`
	hook := func(bin string, args ...string) func() {
		return func() {
			c := exec.Command(bin, args...)
			c.Env = []string{approvals.EnvSocket + "=" + sock}
			c.Stdin = strings.NewReader(payload)
			out, err := c.Output()
			if err != nil || !strings.Contains(string(out), `"allow"`) {
				fail(fmt.Errorf("hook: %v %s", err, out))
			}
		}
	}
	trivial := func() { run(exec.Command(b.trivial)) }
	pairs("sentinel-helper hook claude (ms)", n, hook(b.helper, "hook", "claude"), trivial, "≤ 1.5× a trivial Go binary")
	pairs("sentinel hook claude (ms)", n, hook(b.sentinel, "hook", "claude"), trivial, "(without the helper)")
}

// sandboxRow runs sentinel sandbox run -- true under each backend, paired
// with bare bwrap.
func sandboxRow(b binaries, n int) {
	bw, err := exec.LookPath("bwrap")
	if err != nil {
		fmt.Println("sandbox: no bwrap on this machine; skipped")
		return
	}
	// Where a person runs it: in their project, a git repository (whose
	// top level and config Sentinel looks up).
	ws := gitRepo("sentinel-bench-ws-")
	defer os.RemoveAll(ws)
	// Each row is also given in CPU time (user and system, of the whole
	// process tree): on a shared machine it moves far less than wall time.
	var bareCPU, cpu []float64
	bare := func() {
		c := exec.Command(bw, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "true")
		run(c)
		bareCPU = append(bareCPU, cpuMS(c))
	}
	// What the sentinel binary's start alone costs (its package
	// initialisation), before any sandbox work: the floor of the rows below.
	start := func() {
		c := exec.Command(b.sentinel, sandbox.HelperArg) // refuses at once (exit 125)
		if err := c.Run(); c.ProcessState == nil {
			fail(fmt.Errorf("%s: %v", b.sentinel, err))
		}
		cpu = append(cpu, cpuMS(c))
	}
	cpuRow := func(name, goal string) {
		var rs []float64
		for i := 1; i < len(cpu) && i < len(bareCPU); i++ { // the first pair warms up
			rs = append(rs, cpu[i]/bareCPU[i])
		}
		row(name, median(cpu[1:]), median(bareCPU[1:]), median(rs), goal)
		bareCPU, cpu = nil, nil
	}
	pairs("sentinel start alone, no work (ms)", n, start, bare, "(the floor of the rows below)")
	cpuRow("  the same, CPU (ms)", "")
	for _, mode := range []string{"bwrap", "ns"} {
		for _, net := range []string{"none", "proxy"} {
			sb := func() {
				c := exec.Command(b.sentinel, "sandbox", "run", "--sandbox", mode, "--net", net, "--workspace", ws, "--", "true")
				c.Dir = ws
				run(c)
				cpu = append(cpu, cpuMS(c))
			}
			pairs("sandbox run --sandbox "+mode+" --net "+net+", in a repo (ms)", n, sb, bare, "≤ 3× bare bwrap")
			cpuRow("  the same, CPU (ms)", "")
		}
	}
}

// cpuMS is the user and system time of a finished command and of the
// descendants it waited for.
func cpuMS(c *exec.Cmd) float64 {
	if c.ProcessState == nil {
		return 0
	}
	return (c.ProcessState.UserTime() + c.ProcessState.SystemTime()).Seconds() * 1e3
}

// pairs times a and its anchor alternately n times and prints the medians
// and the median of the per-pair ratios.
func pairs(name string, n int, a, anchor func(), goal string) {
	a()
	anchor()
	var as, bs, rs []float64
	for range n {
		t0 := time.Now()
		anchor()
		t1 := time.Now()
		a()
		t2 := time.Now()
		x, y := t2.Sub(t1).Seconds()*1e3, t1.Sub(t0).Seconds()*1e3
		as, bs, rs = append(as, x), append(bs, y), append(rs, x/y)
	}
	row(name, median(as), median(bs), median(rs), goal)
}

// gitRepo makes a temporary git repository with one commit.
func gitRepo(prefix string) string {
	repo, err := os.MkdirTemp("", prefix)
	if err != nil {
		fail(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "--allow-empty", "-m", "init"}} {
		c := exec.Command("git", args...)
		c.Dir = repo
		run(c)
	}
	return repo
}

// memoryRow is the peak RSS of sentinel run --plain whose command coder
// prints lines lines.
func memoryRow(b binaries, lines int) {
	repo := gitRepo("sentinel-bench-repo-")
	defer os.RemoveAll(repo)
	c := exec.Command(b.sentinel, "run", "--plain", "--coder", "command", "print lines", "--", "seq", fmt.Sprint(lines))
	c.Dir = repo
	state, _ := os.MkdirTemp("", "sentinel-bench-state-")
	defer os.RemoveAll(state)
	c.Env = append(os.Environ(), "XDG_STATE_HOME="+state, "XDG_CONFIG_HOME="+state)
	t0 := time.Now()
	c.Run() // its exit status (nothing to land) does not matter here
	mb, ok := peakRSSMB(c.ProcessState)
	if !ok {
		fmt.Println("memory: no resource usage on this system")
		return
	}
	row(fmt.Sprintf("run printing %d lines: peak RSS (MB)", lines), mb, 150, mb/150, "flat, < 150 MB at 10M lines")
	row(fmt.Sprintf("run printing %d lines: wall (s)", lines), time.Since(t0).Seconds(), 0, 0, "")
}

var metricRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([0-9.e+-]+) (\S+)`) })

// goBench runs one go test benchmark of pkg and hands its metrics to show.
func goBench(pkg, name, benchtime string, show func(map[string]float64)) {
	goBenches(pkg, name, benchtime, func(_ string, m map[string]float64) { show(m) })
}

// goBenches runs go test benchmarks of pkg and hands each one's metrics, with
// its sub-benchmark name ("" for none), to show.
func goBenches(pkg, name, benchtime string, show func(string, map[string]float64)) {
	// go test's default 10-minute timeout panicked the 500k workspace row
	// while its repository was still being made (1.5 min for 50k files at
	// load 20): the bound here is on a hang only.
	args := []string{"test", "-run", "^$", "-bench", name, "-benchmem=false", "-timeout", "2h"}
	if benchtime != "" {
		args = append(args, "-benchtime", benchtime)
	}
	out, err := exec.Command("go", append(args, pkg)...).CombinedOutput()
	if err != nil {
		fmt.Printf("%s %s: %v\n%s", pkg, name, err, out)
		return
	}
	shown := false
	for _, l := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(l, "Benchmark") {
			continue
		}
		m := map[string]float64{}
		f := strings.SplitN(l, "\t", 3)
		if len(f) < 3 {
			continue
		}
		for _, kv := range metricRe().FindAllStringSubmatch(f[2], -1) {
			var v float64
			fmt.Sscan(kv[1], &v)
			m[kv[2]] = v
		}
		show(subBench(f[0]), m)
		shown = true
	}
	if !shown {
		fmt.Printf("%s %s: no benchmark line in:\n%s", pkg, name, out)
	}
}

// subBench is a benchmark line's sub-benchmark name, without the top-level
// name and the GOMAXPROCS suffix: "BenchmarkX/claude-code-2 " is
// "claude-code".
func subBench(field string) string {
	name := strings.TrimSpace(field)
	if i := strings.LastIndexByte(name, '-'); i > 0 && strings.Trim(name[i+1:], "0123456789") == "" {
		name = name[:i]
	}
	_, sub, _ := strings.Cut(name, "/")
	return sub
}

func row(name string, v, anchor, ratio float64, goal string) {
	a, r := "", ""
	if anchor > 0 {
		a = fmt.Sprintf("%12.2f", anchor)
	}
	if ratio > 0 {
		r = fmt.Sprintf("%7.2f×", ratio)
	}
	fmt.Printf("%-44s %12.2f %12s %8s  %s\n", name, v, a, r, goal)
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// shortDir is a temp dir with a path short enough for a unix socket.
func shortDir() string {
	d, err := os.MkdirTemp("", "sb")
	if err != nil {
		fail(err)
	}
	return d
}

func run(c *exec.Cmd) {
	if out, err := c.CombinedOutput(); err != nil {
		fail(fmt.Errorf("%s: %v\n%s", strings.Join(c.Args, " "), err, out))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}
