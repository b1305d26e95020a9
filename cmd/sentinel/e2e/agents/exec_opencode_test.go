package agents

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// opencodeExecWorld is a project, a person whose opencode config (in the
// XDG config dir the sentinel under test also reads) points opencode at a
// fake model, and the environment for `sentinel exec -- opencode`.
type opencodeExecWorld struct {
	dir, cfgHome string
	model        *fakemodel.Server
	env          []string
}

// newOpencodeExecWorld writes the person's opencode config: the fake
// provider, bash set to "ask" (which headless `opencode run` would reject
// and which must not ask a second time after Sentinel), and a plugin of
// theirs, which must not load; the project commits a plugin of its own,
// which must not load either. Either plugin, loaded, writes a marker into
// the project.
func newOpencodeExecWorld(t *testing.T, dir string, script fakemodel.Script) *opencodeExecWorld {
	t.Helper()
	e2etest.NeedOpencode(t)
	w := &opencodeExecWorld{dir: dir, cfgHome: t.TempDir(), model: e2etest.StartModel(t, script)}
	home := t.TempDir()
	writeOpencodeConfig(t, home, w.model)
	cfg := filepath.Join(w.cfgHome, "opencode")
	if err := os.MkdirAll(cfg, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(home, ".config", "opencode", "opencode.json"))
	if err != nil {
		t.Fatal(err)
	}
	var oc map[string]any
	if err := json.Unmarshal(b, &oc); err != nil {
		t.Fatal(err)
	}
	oc["permission"] = map[string]any{"bash": "ask", "edit": "allow"}
	oc["plugin"] = []string{"file://" + filepath.Join(cfg, "theirs.js")}
	if b, err = json.Marshal(oc); err != nil {
		t.Fatal(err)
	}
	e2etest.WriteFile(t, filepath.Join(cfg, "opencode.json"), string(b))
	e2etest.WriteFile(t, filepath.Join(cfg, "theirs.js"), markerPlugin(filepath.Join(w.dir, "person-plugin-ran")))
	e2etest.WriteFile(t, filepath.Join(cfg, "plugin", "theirs-too.js"), markerPlugin(filepath.Join(w.dir, "person-dir-plugin-ran")))
	e2etest.WriteFile(t, filepath.Join(w.dir, ".opencode", "plugin", "repo.js"), markerPlugin(filepath.Join(w.dir, "repo-plugin-ran")))
	e2etest.Git(t, w.dir, "add", ".opencode")
	e2etest.Git(t, w.dir, "commit", "-qm", "a plugin of the project's")
	// The model catalog opencode keeps in its cache, fresh: the run's copy
	// spares it a fetch (models.opencode.ai) at start.
	personHome := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(personHome, ".cache", "opencode", "models.json"), "{}\n")
	// They turned animations off in opencode's TUI (its kv.json): a run
	// keeps it, so opencode's spinners hold still while it waits.
	e2etest.WriteFile(t, filepath.Join(personHome, ".local", "state", "opencode", "kv.json"), `{"animations_enabled": false}`+"\n")
	w.env = []string{"HOME=" + personHome, "XDG_CONFIG_HOME=" + w.cfgHome}
	return w
}

// markerPlugin is an opencode plugin that writes marker when it loads.
func markerPlugin(marker string) string {
	return `import { writeFileSync } from "node:fs"
export const Marker = async () => { writeFileSync(` + "`" + marker + "`" + `, "ran\n"); return {} }
`
}

// exec runs `sentinel exec --plain -- opencode run TASK` in the project.
func (w *opencodeExecWorld) exec(t *testing.T, task string) e2etest.Result {
	t.Helper()
	return e2etest.Sentinel(t, w.dir, w.env, "exec", "--plain", "--allow-host", e2etest.ModelHost(w.model), "--", "opencode", "run", task)
}

// noPluginRan fails if a plugin other than Sentinel's loaded.
func (w *opencodeExecWorld) noPluginRan(t *testing.T) {
	t.Helper()
	for _, m := range []string{"person-plugin-ran", "person-dir-plugin-ran", "repo-plugin-ran"} {
		if _, err := os.Stat(filepath.Join(w.dir, m)); err == nil {
			t.Errorf("%s: a plugin other than Sentinel's ran inside opencode", m)
		}
	}
}

// A hook that cannot reach the broker blocks the call: here the sandbox
// hides the project's run directories (the person's [sandbox] hidden), so
// the hook finds no broker socket. Every call fails closed, nothing is
// written, and the model hears why.
func TestExecOpencodeHookWithoutBrokerFailsClosed(t *testing.T) {
	t.Parallel()
	// A short path: the broker's socket is in the run directory only when
	// its path fits a socket address (else it is under the temp dir).
	dir, err := os.MkdirTemp("", "oc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	e2etest.Git(t, dir, "init", "-q")
	e2etest.WriteFile(t, filepath.Join(dir, "main.txt"), "one\n")
	e2etest.Git(t, dir, "add", "-A")
	e2etest.Git(t, dir, "commit", "-qm", "init")
	w := newOpencodeExecWorld(t, dir, fakemodel.Script{
		fakemodel.Reply(fakemodel.ToolUse("bash", map[string]any{"command": "echo hi > allowed.txt", "description": "d"})),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.ToolUse("write", map[string]any{"filePath": "hello.txt", "content": "x\n"})}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Could not.")}},
		fakemodel.Reply(fakemodel.Text("Nothing more to do.")),
	})
	// The broker's socket goes in a private directory under sentinel's temp
	// dir unless that path is too long for a socket address; then it is in
	// the run directory, which the person's [sandbox] hidden below hides.
	// Its own (50 characters under /tmp, as before): another test process
	// on the machine running this test must not remove it under this run.
	longTmp := filepath.Join("/tmp", fmt.Sprintf("%s%010d", strings.Repeat("t", 40), rand.Uint32())) // long enough for the broker, short enough for the proxy
	if err := os.Mkdir(longTmp, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(longTmp) })
	w.env = append(w.env, "TMPDIR="+longTmp)
	e2etest.WriteFile(t, filepath.Join(w.cfgHome, "sentinel", "config.toml"),
		"[sandbox]\nhidden = ["+e2etest.QuoteTOML(filepath.Join(w.dir, ".sentinel", "runs"))+"]\n")
	res := w.exec(t, "write hello.txt")
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	for _, f := range []string{"allowed.txt", "hello.txt"} {
		if _, err := os.Stat(filepath.Join(w.dir, f)); err == nil {
			t.Errorf("%s was written although no decision could be had:\n%s", f, res.Stdout)
		}
	}
	results := e2etest.ToolResults(w.model)
	if len(results) != 2 {
		t.Fatalf("the model got %d tool results, want 2: %+v\n%s", len(results), results, res.Stdout)
	}
	for _, r := range results {
		if !r.IsError || !strings.Contains(r.Content, "cannot reach the Sentinel broker") {
			t.Errorf("tool result %+v: want an error saying the broker could not be reached", r)
		}
	}
	w.noPluginRan(t)
}

// A person at a terminal with the real opencode's own TUI in place:
// `sentinel exec -- opencode` in a tmux window. They type the task into
// opencode; its tool calls the policy cannot decide (mytool, a program it
// does not know) become Sentinel's cards: they approve `mytool gen` (it
// runs and writes the project) and deny `mytool deploy --prod` with a
// message (it does not run, and the model hears the message as the tool's
// error). opencode itself never asks: Sentinel's chain is the one gate.
//
// It took in TestExecOpencodeBackgroundKillerCannotReachTheHooks (the same
// TUI session in place, cards approved and denied: one opencode TUI start,
// 13-14 CPU-s, fewer). Between the two mytool calls the person approves a
// command that leaves a loop behind (killerLoop) which stops and kills
// every process of opencode's hook five times a second: opencode's plugin
// runs Sentinel's hook as a child of opencode and blocks the call when that
// hook is killed or stopped; with each command in its own scope the loop
// reaches neither the hook nor opencode, so the next call's card stays up
// through three rounds and the person's deny decides it, and the deploy
// card after it still comes up and is decided with the loop still running.
// (Seen failing with opencode out of scopedAgents: the loop killed the
// hook, the card went away and the call was blocked without the person.)
func TestExecOpencodeInTmux(t *testing.T) {
	t.Parallel()
	const denyMsg = "no deploys from a sandbox"
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	bash := func(cmd string) fakemodel.Block {
		return fakemodel.ToolUse("bash", map[string]any{"command": cmd, "description": "scripted by the test"})
	}
	after := func(b fakemodel.Block) fakemodel.Turn {
		return fakemodel.Turn{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{b}}
	}
	w := newOpencodeExecWorld(t, e2etest.ScratchRepo(t), fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Generating."), bash("mytool gen")),
		after(bash(killerLoop("opencode"))),
		after(bash(asked)),
		after(bash("mytool deploy --prod")),
		after(fakemodel.Text("Generated; deploy was refused.")),
		fakemodel.Reply(fakemodel.Text("Understood.")),
	})
	bin := t.TempDir() // on PATH, so shown inside the sandbox
	e2etest.WriteFile(t, filepath.Join(bin, "mytool"), "#!/bin/sh\necho \"mytool $*\" >> mytool.log\n")
	if err := os.Chmod(filepath.Join(bin, "mytool"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(w.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	tm := e2etest.StartSentinel(t, w.dir, env, "exec", "--allow-host", e2etest.ModelHost(w.model), "--", "opencode")
	tm.WaitFor("opencode's prompt", e2etest.Has("Ask anything", "Fake model"))
	tm.Keys("i") // type into the coder
	tm.TypeText("Generate, start the loop, then deploy.")
	tm.Keys("Enter")
	tm.Keys("C-]")

	tm.WaitArmed("the card for mytool gen", e2etest.Has("mytool gen", "[a] approve once"))
	tm.Keys("a")
	tm.WaitArmed("the card for the killer loop", e2etest.Has("pkill -STOP", "[a] approve once"))
	tm.Keys("a")
	killerHolds(t, tm, w.dir, asked)
	tm.WaitArmed("the card for mytool deploy", e2etest.Has("mytool deploy --prod", "[a] approve once"))
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.TypeText(denyMsg)
	tm.Keys("Enter")
	tm.WaitRequests(w.model, 5)

	tm.Keys("D")
	tm.WaitFor("the question whether the coder is done", e2etest.Has("The coder is done"))
	tm.Keys("y")
	// mytool.log, and the loop's killer.log and killer.err.
	tm.WaitFor("the run's end", e2etest.Has("in place: 3 file(s) changed", ": done"))
	tm.Keys("q")
	if s := tm.WaitFor("sentinel to exit", e2etest.Has("SENTINEL-EXITED")); !strings.Contains(s, "SENTINEL-EXITED 0") {
		t.Errorf("sentinel exited with an error:\n%s", s)
	}

	if b, _ := os.ReadFile(filepath.Join(w.dir, "mytool.log")); string(b) != "mytool gen\n" {
		t.Errorf("mytool.log in the project = %q, want only the approved call", b)
	}
	var got []string
	for _, j := range e2etest.ApprovalsOf(t, e2etest.RunEvents(t, w.dir, e2etest.LastRun(t, w.dir))) {
		if j.Request.Adapter == "opencode" {
			got = append(got, j.Request.Command+" → "+string(j.Decision.Outcome)+" by "+j.Decision.By)
		}
	}
	want := "mytool gen → allow by person; " + killerLoop("opencode") + " → allow by person; " +
		asked + " → deny by person; mytool deploy --prod → deny by person"
	if strings.Join(got, "; ") != want {
		t.Errorf("decisions:\n%s\nwant %s", strings.Join(got, "\n"), want)
	}
	var told, toldKiller bool
	for _, r := range e2etest.ToolResults(w.model) {
		told = told || (r.IsError && strings.Contains(r.Content, denyMsg))
		toldKiller = toldKiller || (r.IsError && strings.Contains(r.Content, "not this one"))
	}
	if !told || !toldKiller {
		t.Errorf("the model heard the person's deny of deploy: %v, of %s: %v: %+v", told, asked, toldKiller, e2etest.ToolResults(w.model))
	}
	killerAfter(t, w.dir)
	w.noPluginRan(t)
}
