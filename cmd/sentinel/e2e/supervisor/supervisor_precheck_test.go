package supervisor

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
)

// deadURL is a loopback address nothing listens on.
func deadURL(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/v1"
}

// A supervisor that cannot answer stops the run before any coder starts —
// dead, garbage, an error status — with the reason and the fix, and leaves
// the project as it was.
func TestASupervisorThatCannotAnswerStopsTheRunBeforeTheCoder(t *testing.T) {
	t.Parallel()
	garbage, err := fakeopenai.Start(fakeopenai.Reply{Content: "Sure! Go ahead."})
	if err != nil {
		t.Fatal(err)
	}
	defer garbage.Close()
	failing, err := fakeopenai.Start(fakeopenai.Reply{Status: 500})
	if err != nil {
		t.Fatal(err)
	}
	defer failing.Close()
	anthropic, err := fakemodel.Start(fakemodel.Script{fakemodel.Reply(fakemodel.Text("I'd be glad to help!"))})
	if err != nil {
		t.Fatal(err)
	}
	defer anthropic.Close()
	cases := []struct {
		name, backend, url, reason string
		env                        []string
	}{
		{"dead", "openai", deadURL(t), "check the base URL", nil},
		{"garbage", "openai", garbage.URL, "not in the structured shape", nil},
		{"500", "openai", failing.URL, "500", nil},
		{"anthropic garbage", "anthropic", anthropic.URL, "not in the structured shape", []string{"ANTHROPIC_API_KEY=fake"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			before := e2etest.Git(t, dir, "status", "--porcelain")
			res := e2etest.Sentinel(t, dir, c.env, "run", "--coder", "demo", "--plain", "--adversary-runs", "0",
				"--supervisor", c.backend, "--supervisor-url", c.url, "--supervisor-model", "fake", "--supervisor-timeout", "20s", "add a feature")
			if res.Code == 0 {
				t.Fatalf("the run started with a supervisor that cannot answer:\n%s", res.Stdout)
			}
			for _, want := range []string{"the run did not start", c.reason, "sentinel supervisor check"} {
				if !strings.Contains(res.Stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, res.Stderr)
				}
			}
			if strings.Contains(res.Stdout, "coder demo started") {
				t.Errorf("a coder started:\n%s", res.Stdout)
			}
			if _, err := os.Stat(filepath.Join(dir, ".sentinel", "runs")); err == nil {
				t.Error("a run was recorded although none started")
			}
			if after := e2etest.Git(t, dir, "status", "--porcelain"); after != before {
				t.Errorf("the project changed:\n%s\n→\n%s", before, after)
			}
		})
	}
	if n := len(garbage.Requests()); n != 1 {
		t.Errorf("the garbage supervisor got %d requests, want the one probe", n)
	}
}

// `sentinel doctor` exits non-zero when the configured supervisor fails its
// check, and `sentinel supervisor check` reads [supervisor] from the config.
func TestDoctorAndCheckFollowTheConfiguredSupervisor(t *testing.T) {
	t.Parallel()
	garbage, err := fakeopenai.Start(fakeopenai.Reply{Content: "Sure! Go ahead."})
	if err != nil {
		t.Fatal(err)
	}
	defer garbage.Close()
	healthy, err := fakeopenai.Start(fakeopenai.Probe())
	if err != nil {
		t.Fatal(err)
	}
	defer healthy.Close()
	for _, c := range []struct {
		name string
		url  string
		ok   bool
	}{{"garbage", garbage.URL, false}, {"healthy", healthy.URL, true}} {
		t.Run(c.name, func(t *testing.T) {
			cfgHome := t.TempDir()
			e2etest.WriteFile(t, filepath.Join(cfgHome, "sentinel", "config.toml"),
				"[supervisor]\nbackend = \"openai\"\nbase_url = \""+c.url+"\"\nmodel = \"fake\"\n")
			env := []string{"XDG_CONFIG_HOME=" + cfgHome}
			check := e2etest.Sentinel(t, t.TempDir(), env, "supervisor", "check")
			doctor := e2etest.Sentinel(t, t.TempDir(), env, "doctor")
			if c.ok {
				if check.Code != 0 || !strings.Contains(check.Stdout, "answers with a structured judgment") {
					t.Errorf("supervisor check: exit %d\n%s%s", check.Code, check.Stdout, check.Stderr)
				}
				if doctor.Code != 0 && strings.Contains(doctor.Stderr, "supervisor") {
					t.Errorf("doctor: exit %d\n%s", doctor.Code, doctor.Stderr)
				}
				return
			}
			if check.Code == 0 || !strings.Contains(check.Stderr, "not in the structured shape") {
				t.Errorf("supervisor check of a garbage backend: exit %d\n%s%s", check.Code, check.Stdout, check.Stderr)
			}
			if doctor.Code == 0 || !strings.Contains(doctor.Stderr, "configured supervisor fails its check") {
				t.Errorf("doctor with a garbage supervisor: exit %d\n%s", doctor.Code, doctor.Stderr)
			}
		})
	}
}
