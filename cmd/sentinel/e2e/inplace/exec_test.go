package inplace

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/runner"
)

// execHome is a throwaway home with credentials in it: an ssh key beside
// known_hosts, and an AWS credentials file.
func execHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(home, ".ssh", "id_ed25519"), "PRIVATE-KEY-BYTES\n")
	e2etest.WriteFile(t, filepath.Join(home, ".ssh", "known_hosts"), "KNOWN-HOSTS-LINE\n")
	e2etest.WriteFile(t, filepath.Join(home, ".aws", "credentials"), "AWS-SECRET-VALUE\n")
	return home
}

// fakeSSHAgent listens on a unix socket and greets each connection, so a
// test can tell the socket was reachable from inside the sandbox.
func fakeSSHAgent(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "agent") // short: a socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "agent.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("AGENT-OK"))
			c.Close()
		}
	}()
	t.Cleanup(func() { l.Close(); <-done; os.RemoveAll(dir) })
	return sock
}

// An in-place exec writes its project and nothing else, cannot read the
// person's credentials or the project's secret files, reaches known_hosts
// but not the ssh agent (the person's config did not ask for it), may
// commit but not plant a hook, and is journaled with what it changed.
func TestExecInPlaceWritesOnlyItsProject(t *testing.T) {
	t.Parallel()
	python := "/usr/bin/python3" // not a version manager's shim: home is not there inside
	if _, err := os.Stat(python); err != nil {
		t.Skip("no /usr/bin/python3 (the test's socket client)")
	}
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, ".env"), "PROJECT-SECRET-VALUE\n")
	e2etest.WriteFile(t, filepath.Join(dir, "config", "prod.pem"), "PEM-SECRET-VALUE\n")
	e2etest.Git(t, dir, "config", "core.hooksPath", ".githooks") // a hooks dir inside the project (husky and the like)
	home := execHome(t)
	other := t.TempDir()
	sock := fakeSSHAgent(t)
	script := strings.Join([]string{
		"echo ok > inplace.txt",
		"echo x > " + filepath.Join(home, "home-write"),
		"echo x > " + filepath.Join(other, "evil"),
		"echo x > /etc/sentinel-exec-evil",
		"cat .env config/prod.pem",
		"cat ~/.ssh/id_ed25519 ~/.aws/credentials",
		"cat ~/.ssh/known_hosts",
		"echo 'echo pwned' > .git/hooks/pre-commit",
		"echo '[core] fsmonitor = evil' >> .git/config",
		"echo 'echo pwned' > .githooks/pre-commit",
		"echo x > .sentinel/templates.toml",
		python + " -c \"import socket,os; s=socket.socket(socket.AF_UNIX); s.connect(os.environ.get('SSH_AUTH_SOCK') or '" + sock + "'); print(s.recv(16).decode())\"",
		"git add inplace.txt && git -c user.name=T -c user.email=t@t commit -qm 'coder commit' && echo COMMITTED",
		"echo ../planted > .git/commondir", // last: it breaks git where it points
		"true",
	}, "; ")
	res := e2etest.Sentinel(t, dir, []string{"HOME=" + home, "SSH_AUTH_SOCK=" + sock}, "exec", "--plain", "--", "sh", "-c", script)
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "inplace.txt")); string(b) != "ok\n" {
		t.Fatalf("the project was not written in place: inplace.txt = %q\n%s", b, res.Stdout)
	}
	for _, p := range []string{filepath.Join(home, "home-write"), filepath.Join(other, "evil"), "/etc/sentinel-exec-evil",
		filepath.Join(dir, ".git", "hooks", "pre-commit"), filepath.Join(dir, ".githooks", "pre-commit"),
		filepath.Join(dir, ".git", "commondir"), filepath.Join(dir, ".sentinel", "templates.toml")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the coder wrote %s outside what in place allows", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".git", "config")); strings.Contains(string(b), "fsmonitor") {
		t.Errorf(".git/config was written in place:\n%s", b)
	}
	for _, secret := range []string{"PRIVATE-KEY-BYTES", "AWS-SECRET-VALUE", "PROJECT-SECRET-VALUE", "PEM-SECRET-VALUE"} {
		if strings.Contains(res.Stdout, secret) {
			t.Errorf("the coder read %s:\n%s", secret, res.Stdout)
		}
	}
	for _, want := range []string{"KNOWN-HOSTS-LINE", "COMMITTED"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("inside, %s is missing (known_hosts and committing must work):\n%s", want, res.Stdout)
		}
	}
	if strings.Contains(res.Stdout, "AGENT-OK") {
		t.Errorf("the coder reached the ssh agent without [sandbox] ssh_agent = true:\n%s", res.Stdout)
	}
	if got := e2etest.Git(t, dir, "log", "-1", "--format=%s"); got != "coder commit" {
		t.Errorf("the coder's commit is not on the branch: %q", got)
	}
	if !strings.Contains(res.Stdout, "sandbox-only: sh is not a known agent") {
		t.Errorf("the run does not say the program is sandbox-only:\n%s", res.Stdout)
	}
	if !strings.Contains(res.Stderr, "inplace.txt") || !strings.Contains(res.Stderr, "file(s) changed in place") {
		t.Errorf("the end does not print what changed:\n%s", res.Stderr)
	}

	// The journal: an exec run, listed and shown, with what changed.
	id := e2etest.LastRun(t, dir)
	p := &runner.Project{Root: dir, GitDir: filepath.Join(dir, ".git")}
	m, err := runner.ReadMeta(p, id)
	if err != nil {
		t.Fatal(err)
	}
	if !m.InPlace || m.Status != runner.StatusDone || !e2etest.Contains(m.Files, "inplace.txt") {
		t.Fatalf("meta: %s", e2etest.JSONOf(m))
	}
	runs := e2etest.Sentinel(t, dir, nil, "runs")
	if !strings.Contains(runs.Stdout, id) || !strings.Contains(runs.Stdout, "exec") {
		t.Errorf("sentinel runs does not list the exec run as one:\n%s%s", runs.Stdout, runs.Stderr)
	}
	show := e2etest.Sentinel(t, dir, nil, "show", id)
	if show.Code != 0 || !strings.Contains(show.Stdout, "in place") {
		t.Errorf("sentinel show: %d\n%s%s", show.Code, show.Stdout, show.Stderr)
	}
}

// exec works in a repository with no commits and in a directory that is no
// repository at all; the diff stat then lists the files.
func TestExecWithoutCommitsOrGit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		init func(dir string)
	}{
		{"no commits", func(dir string) { e2etest.Git(t, dir, "init", "-q") }},
		{"no git", func(string) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.init(dir)
			e2etest.WriteFile(t, filepath.Join(dir, "before.txt"), "before\n")
			res := e2etest.Sentinel(t, dir, []string{"HOME=" + t.TempDir()}, "exec", "--plain", "--", "sh", "-c", "echo made > made.txt")
			if res.Code != 0 {
				t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
			}
			if !strings.Contains(res.Stderr, "made.txt") || strings.Contains(res.Stderr, "before.txt") {
				t.Fatalf("the diff stat should list made.txt and only it:\n%s", res.Stderr)
			}
			if len(e2etest.RunIDs(t, dir)) != 1 {
				t.Fatalf("no run journaled in %s", dir)
			}
		})
	}
}

// Bad calls are one-line errors with the right exit status.
func TestExecUsageErrors(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no program", []string{"exec"}, 2, "no program"},
		{"unknown flag", []string{"exec", "--bogus", "--", "true"}, 2, "unknown flag: --bogus"},
		{"bad sandbox", []string{"exec", "--sandbox", "nope", "--", "true"}, 2, `--sandbox "nope"`},
		{"missing program", []string{"exec", "--", "no-such-program-xyz"}, 1, `"no-such-program-xyz" is not installed`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := e2etest.Sentinel(t, dir, nil, tc.args...)
			if res.Code != tc.code || !strings.Contains(res.Stderr, tc.want) || strings.Count(strings.TrimSpace(res.Stderr), "\n") > 0 {
				t.Fatalf("exit %d (want %d), stderr %q (want one line with %q)", res.Code, tc.code, res.Stderr, tc.want)
			}
		})
	}
}

// [service] blocked_dirs refuses run and exec in or under a blocked
// directory, through symlinks on either side.
func TestBlockedDirsRefuseLaunches(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	sub := filepath.Join(dir, "sub")
	os.MkdirAll(sub, 0o755)
	links := t.TempDir()
	link := filepath.Join(links, "via-link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	cfgHome := t.TempDir()
	cfgFile := filepath.Join(cfgHome, "sentinel", "config.toml")
	e2etest.WriteFile(t, cfgFile, "[service]\nblocked_dirs = ["+e2etest.QuoteTOML(link)+"]\n")
	env := []string{"XDG_CONFIG_HOME=" + cfgHome, "HOME=" + t.TempDir()}
	for _, args := range [][]string{
		{"exec", "--plain", "--", "sh", "-c", "echo ran > ran.txt"},
		{"run", "--plain", "--coder", "command", "x", "--", "sh", "-c", "echo ran > ran.txt"},
	} {
		res := e2etest.Sentinel(t, sub, env, args...)
		if res.Code == 0 || !strings.Contains(res.Stderr, "blocked") || !strings.Contains(res.Stderr, dir) || !strings.Contains(res.Stderr, cfgFile) {
			t.Errorf("%s in a blocked dir: exit %d, stderr %q (want a refusal naming %s and %s)", args[0], res.Code, res.Stderr, dir, cfgFile)
		}
	}
	if _, err := os.Stat(filepath.Join(sub, "ran.txt")); err == nil {
		t.Fatal("a launch in a blocked directory ran")
	}
	// Elsewhere, launches go on.
	free := e2etest.ScratchRepo(t)
	if res := e2etest.Sentinel(t, free, env, "exec", "--plain", "--", "true"); res.Code != 0 {
		t.Fatalf("exec outside the blocked dirs: exit %d %s", res.Code, res.Stderr)
	}
}

// [exec] writable adds places an in-place run may write, and nothing
// besides: the credential list still wins inside them, and a place that is
// not there is a one-line error before anything runs.
func TestExecWritesWhatConfigAdds(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	home := execHome(t)
	e2etest.WriteFile(t, filepath.Join(home, ".config", "gh", "hosts.yml"), "GH-TOKEN-VALUE\n")
	os.MkdirAll(filepath.Join(home, ".config", "tool"), 0o755)
	shared := t.TempDir()
	sibling := t.TempDir()
	cfgHome := t.TempDir()
	cfgFile := filepath.Join(cfgHome, "sentinel", "config.toml")
	e2etest.WriteFile(t, cfgFile, "[exec]\nwritable = [\"~/.config\", "+e2etest.QuoteTOML(shared)+"]\n")
	env := []string{"XDG_CONFIG_HOME=" + cfgHome, "HOME=" + home}
	script := strings.Join([]string{
		"echo out > " + filepath.Join(shared, "out.txt"),
		"echo tool > ~/.config/tool/state",
		"echo x > " + filepath.Join(sibling, "evil"),
		"cat ~/.config/gh/hosts.yml",
		"echo x > ~/.config/gh/hosts.yml",
		"true",
	}, "; ")
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", script)
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(shared, "out.txt")); string(b) != "out\n" {
		t.Errorf("a configured writable dir was not written: %q\n%s", b, res.Stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".config", "tool", "state")); string(b) != "tool\n" {
		t.Errorf("a configured ~/ writable dir was not written: %q\n%s", b, res.Stdout)
	}
	if _, err := os.Stat(filepath.Join(sibling, "evil")); err == nil {
		t.Error("the coder wrote a directory config does not name")
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".config", "gh", "hosts.yml")); string(b) != "GH-TOKEN-VALUE\n" || strings.Contains(res.Stdout, "GH-TOKEN-VALUE") {
		t.Errorf("a credential inside a writable dir was reached (file now %q):\n%s", b, res.Stdout)
	}

	e2etest.WriteFile(t, cfgFile, "[exec]\nwritable = [\"/no/such/dir-xyz\"]\n")
	res = e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", "echo ran > ran.txt")
	if res.Code == 0 || !strings.Contains(res.Stderr, "/no/such/dir-xyz does not exist") || !strings.Contains(res.Stderr, cfgFile) ||
		strings.Count(strings.TrimSpace(res.Stderr), "\n") > 0 {
		t.Errorf("a missing writable place: exit %d, stderr %q", res.Code, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err == nil {
		t.Error("exec ran with a broken [exec] writable")
	}
}

// In place, a real project builds and tests with the person's Go, and a
// failing test is the exit status the person sees: exec is for hands-on
// work, so the toolchain must work inside it as it does outside.
func TestExecBuildsAndTestsARealGoProject(t *testing.T) {
	t.Parallel()
	goBin, dir := e2etest.CalcProject(t)
	xdg := t.TempDir()
	cache := e2etest.ProjectGoCache(t, xdg, dir)
	e2etest.SeedGoCache(t, cache)
	seeded := cacheEntries(t, cache)
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + xdg}
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", goBin+" test ./... && "+goBin+" build -o calc . && ./calc")
	if res.Code != 0 || !strings.Contains(res.Stdout, "ok") || !strings.Contains(res.Stdout, "sum 5") {
		t.Fatalf("go test and build in place: exit %d\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	if strings.Contains(res.Stdout, "(cached)") {
		t.Errorf("the project's test result came from a cache, not a run:\n%s", res.Stdout)
	}
	if n := cacheEntries(t, cache); n <= seeded {
		t.Errorf("exec's Go build cache is not %s (the seeded one): it holds %d files, as seeded", cache, n)
	}
	if _, err := os.Stat(filepath.Join(dir, "calc")); err != nil {
		t.Errorf("the binary built in place is not in the project: %v", err)
	}
	e2etest.WriteFile(t, filepath.Join(dir, "calc.go"), "package main\n\nfunc Add(a, b int) int { return a - b }\n\nfunc main() {}\n")
	res = e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", goBin, "test", "./...")
	if res.Code != 1 || !strings.Contains(res.Stdout, "FAIL") {
		t.Errorf("a failing go test in place: exit %d, want go's own 1\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
}
