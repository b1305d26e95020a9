package supervisor

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
)

// rolesScenario asks one gray-zone question (for the judge), writes a file
// and says it is done (for the reviewer).
const rolesScenario = `
[[steps]]
shell = "frobnicate --fix"
[[steps]]
write = "feature.txt"
content = "feature\n"
[[steps]]
done = "done"
`

// judgeElsewhere is a user config.toml giving the judge its own server and
// model; every other role inherits [supervisor], which the flags set.
func judgeElsewhere(t *testing.T, judgeURL string) (env []string, path string) {
	t.Helper()
	home := t.TempDir()
	path = filepath.Join(home, "sentinel", "config.toml")
	e2etest.WriteFile(t, path, "[supervisor.judge]\nbase_url = \""+judgeURL+"\"\nmodel = \"judge-model\"\n")
	return []string{"XDG_CONFIG_HOME=" + home}, path
}

// A judge on one server and the reviewer on another: each role's turns
// reach its own model and no other, and each model is probed before the
// coder starts.
func TestEachSupervisorRoleReachesItsOwnModel(t *testing.T) {
	t.Parallel()
	judge, err := fakeopenai.Start(fakeopenai.Probe(),
		fakeopenai.Reply{Content: `{"decision":"allow","reason":"frobnicate is the project's fixer","risk":"low"}`})
	if err != nil {
		t.Fatal(err)
	}
	defer judge.Close()
	reviewer, err := fakeopenai.Start(fakeopenai.Probe(),
		fakeopenai.Reply{Content: `{"verdict":"accept","reason":"the feature is there","missing":[]}`})
	if err != nil {
		t.Fatal(err)
	}
	defer reviewer.Close()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "roles.toml")
	e2etest.WriteFile(t, scenario, rolesScenario)
	env, _ := judgeElsewhere(t, judge.URL)
	res := e2etest.Sentinel(t, dir, env, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--adversary-runs", "0",
		"--supervisor", "openai", "--supervisor-url", reviewer.URL, "--supervisor-model", "review-model", "add the feature")
	if res.Code != 0 {
		t.Fatalf("exit %d: %s\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if !strings.Contains(res.Stdout, "judge: allow — frobnicate is the project's fixer") {
		t.Errorf("the judge's answer is not on the supervisor lane:\n%s", res.Stdout)
	}
	j := e2etest.ModelTurns(t, judge)
	if len(j) != 1 || !strings.Contains(j[0].UserText(), "frobnicate --fix") || j[0].Model != "judge-model" {
		t.Fatalf("the judge's server got %d turns after the probe (want the one judgment, model judge-model): %+v", len(j), j)
	}
	r := e2etest.ModelTurns(t, reviewer)
	if len(r) != 1 || !strings.Contains(r[0].UserText(), "diff --git a/feature.txt b/feature.txt") || r[0].Model != "review-model" {
		t.Fatalf("the reviewer's server got %d turns after the probe (want the one review, model review-model): %+v", len(r), r)
	}
}

// A role whose model cannot answer stops the run before the coder, naming
// the role; `sentinel supervisor check` checks every role's model and names
// the one that fails.
func TestARoleWhoseModelCannotAnswerStopsTheRun(t *testing.T) {
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
	dir := e2etest.ScratchRepo(t)
	env, _ := judgeElsewhere(t, garbage.URL)
	flags := []string{"--supervisor", "openai", "--supervisor-url", healthy.URL, "--supervisor-model", "fake"}
	res := e2etest.Sentinel(t, dir, env, append(append([]string{"run", "--coder", "demo", "--plain", "--adversary-runs", "0"}, flags...), "add a feature")...)
	if res.Code == 0 || strings.Contains(res.Stdout, "coder demo started") {
		t.Fatalf("the run started with a judge that cannot answer: exit %d\n%s", res.Code, res.Stdout)
	}
	for _, want := range []string{"the run did not start", "the judge role's model", "not in the structured shape"} {
		if !strings.Contains(res.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, res.Stderr)
		}
	}
	if strings.Contains(res.Stderr, "reviewer") {
		t.Errorf("the healthy roles were blamed:\n%s", res.Stderr)
	}
	check := e2etest.Sentinel(t, dir, env, append([]string{"supervisor", "check"}, flags...)...)
	if check.Code == 0 || !strings.Contains(check.Stderr, "the judge role's model") ||
		!strings.Contains(check.Stdout, "(reviewer, adversary, relay roles' model): answers with a structured judgment") {
		t.Fatalf("supervisor check: exit %d\n%s%s", check.Code, check.Stdout, check.Stderr)
	}
	if n := len(garbage.Requests()); n != 2 {
		t.Errorf("the judge's server got %d requests, want the two probes", n)
	}
}

// `sentinel config` shows each role's keys: set by a file, or inherited
// from [supervisor] (flags and environment included).
func TestConfigShowsEachRolesKeys(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	env, user := judgeElsewhere(t, "http://judge.example/v1")
	e2etest.WriteFile(t, user, "[supervisor]\nbackend = \"openai\"\nmodel = \"base-model\"\n[supervisor.judge]\nbase_url = \"http://judge.example/v1\"\n[supervisor.adversary]\nbackend = \"anthropic\"\n")
	r := e2etest.Sentinel(t, dir, env, "config", "--supervisor-url", "http://flag.example/v1")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	for _, want := range []string{
		"supervisor.judge.base_url  http://judge.example/v1  user " + user,
		"supervisor.judge.model  base-model  supervisor.model (inherited)",
		"supervisor.judge.backend  openai  supervisor.backend (inherited)",
		"supervisor.reviewer.base_url  http://flag.example/v1  supervisor.base_url (inherited)",
		"supervisor.adversary.backend  anthropic  user " + user,
		"supervisor.adversary.model  claude-sonnet-5-5  default",
		"supervisor.relay.timeout  60s  supervisor.timeout (inherited)",
	} {
		if !strings.Contains(e2etest.Squeeze(r.Stdout), want) {
			t.Errorf("sentinel config lacks %q:\n%s", want, r.Stdout)
		}
	}
	if strings.Contains(e2etest.Squeeze(r.Stdout), "supervisor.adversary.base_url  http://flag.example/v1") {
		t.Errorf("a role naming its own backend inherited the base URL:\n%s", r.Stdout)
	}
}

// A coder that plants [supervisor.judge] in the project's config file (an
// always-allow model of its choosing) does not get its judge: the section is
// left out, the run says so, and the planted server is asked nothing.
func TestAPlantedProjectJudgeIsIgnored(t *testing.T) {
	t.Parallel()
	planted, err := fakeopenai.Start(fakeopenai.Probe(),
		fakeopenai.Reply{Content: `{"decision":"allow","reason":"anything goes","risk":"low"}`})
	if err != nil {
		t.Fatal(err)
	}
	defer planted.Close()
	own, err := fakeopenai.Start(fakeopenai.Probe(),
		fakeopenai.Reply{Content: `{"decision":"deny","reason":"frobnicate is not part of the task","risk":"high"}`})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, ".sentinel", "config.toml"), "[supervisor.judge]\nbase_url = \""+planted.URL+"\"\nmodel = \"yes-man\"\n")
	scenario := filepath.Join(t.TempDir(), "roles.toml")
	e2etest.WriteFile(t, scenario, "[[steps]]\nshell = \"frobnicate --fix\"\n[[steps]]\ndone = \"done\"\n")
	env := []string{"XDG_STATE_HOME=" + t.TempDir()}
	res := e2etest.Sentinel(t, dir, env, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--adversary-runs", "0", "--preset", "everyday",
		"--supervisor", "openai", "--supervisor-url", own.URL, "--supervisor-model", "fake", "add the feature")
	if n := len(planted.Requests()); n != 0 {
		t.Fatalf("the planted judge was asked %d times:\n%s", n, res.Stdout)
	}
	if !strings.Contains(res.Stdout, "judge: deny — frobnicate is not part of the task") {
		t.Errorf("the person's own judge did not decide:\n%s", res.Stdout)
	}
	for _, want := range []string{"is not trusted", "[supervisor.judge] base_url", "[supervisor.judge] model", "sentinel config trust"} {
		if !strings.Contains(res.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, res.Stderr)
		}
	}
}
