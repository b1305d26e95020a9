package agents

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// The real opencode keeps its sessions across in-place runs (31.7): after
// `sentinel exec -- opencode run …`, the next exec's `opencode run
// --continue` continues that session (the model is sent the first run's
// conversation). (`opencode session list` pipes its table through less on
// a terminal, which waits for keys: not usable headless.) The sessions live in the
// project's own store, not in the person's opencode.db: the session the
// person made with opencode directly (and anything else of that file) is
// not seen inside, another project's exec does not see this one's, and the
// person's opencode config, plugins and data are byte for byte as before.
func TestExecOpencodeContinuesTheLastRunsSession(t *testing.T) {
	t.Parallel()
	w := newOpencodeExecWorld(t, e2etest.ScratchRepo(t), fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("The direct answer.")),
		fakemodel.Reply(fakemodel.Text("The first answer: teal-heron.")),
		fakemodel.Reply(fakemodel.Text("The second answer.")),
	})
	personHome := ""
	for _, e := range w.env {
		if v, ok := strings.CutPrefix(e, "HOME="); ok {
			personHome = v
		}
	}

	// The person's own session for this project, made with opencode
	// directly (its plugins load there: their markers are cleared after).
	direct(t, w, "direct question from the person")
	for _, m := range []string{"person-plugin-ran", "person-dir-plugin-ran", "repo-plugin-ran"} {
		os.Remove(filepath.Join(w.dir, m))
	}
	personOpencode := []string{filepath.Join(w.cfgHome, "opencode"), filepath.Join(personHome, ".local", "share", "opencode")}
	before := treeSums(t, personOpencode...)
	if !strings.Contains(before, "opencode.db") {
		t.Fatalf("the direct run left no opencode.db in the person's data dir:\n%s", before)
	}

	inPlace := func(dir string, args ...string) e2etest.Result {
		t.Helper()
		res := e2etest.Sentinel(t, dir, w.env, append([]string{"exec", "--plain", "--allow-host", e2etest.ModelHost(w.model), "--", "opencode"}, args...)...)
		if res.Code != 0 {
			t.Fatalf("opencode %v: exit %d\nstderr: %s\nstdout:\n%s", args, res.Code, res.Stderr, res.Stdout)
		}
		return res
	}
	// --continue from the start: had the run seen the person's opencode.db,
	// it would continue their direct session.
	inPlace(w.dir, "run", "--continue", "first question about the heron")
	inPlace(w.dir, "run", "--continue", "second question")
	// (That another project's store is hidden from this one's run is
	// runner/opencode's TestOtherProjectsStoresAreHidden: a third opencode
	// run here would cost the suite more than it adds.)
	var resumed, leaked bool
	for _, r := range w.model.Requests() {
		texts := r.UserText()
		resumed = resumed || strings.Contains(texts, "second question") && strings.Contains(texts, "first question about the heron")
		leaked = leaked || strings.Contains(texts, "heron") && strings.Contains(texts, "direct question from the person")
	}
	if !resumed {
		t.Errorf("--continue in the next run did not send the first run's conversation (%d requests)", len(w.model.Requests()))
	}
	if leaked {
		t.Error("the person's own session (made with opencode directly) reached a run under sentinel exec")
	}

	// The sessions are in the project's store; the person's opencode
	// (config, plugins, database) is as it was.
	if dbs, _ := filepath.Glob(filepath.Join(personHome, ".local", "share", "sentinel", "opencode", "*", "opencode.db")); len(dbs) != 1 {
		t.Errorf("session stores after runs in one project: %v, want 1", dbs)
	}
	if after := treeSums(t, personOpencode...); after != before {
		t.Errorf("the person's opencode changed under sentinel exec:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	w.noPluginRan(t)
}

// direct runs the real opencode as the person would, outside Sentinel, in
// the project: opencode takes its project from $PWD, not from the
// directory it starts in, so PWD is set (with this process's PWD it made
// its session in the test package's directory and snapshotted the whole
// checkout, about 30 CPU-s a run). Its npm registry is a closed port on
// loopback, as the sandbox's proxy refuses it in the runs under Sentinel:
// the person's config dir is writable here, and opencode would otherwise
// install its plugin package into it from the real registry. npm's fetch
// retries a refused connection (10 s, then 60 s, by its defaults) and
// opencode waits for that install before it starts: with no retries the
// refusal ends the install at once (the run took 70 s longer without).
func direct(t *testing.T, w *opencodeExecWorld, task string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), e2etest.HangBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, "opencode", "run", task)
	cmd.Dir = w.dir
	noNet := "http://127.0.0.1:9"
	cmd.Env = append(append(os.Environ(), w.env...), "PWD="+w.dir,
		"HTTP_PROXY="+noNet, "HTTPS_PROXY="+noNet, "http_proxy="+noNet, "https_proxy="+noNet,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"NPM_CONFIG_REGISTRY="+noNet, "BUN_CONFIG_REGISTRY="+noNet, "NPM_CONFIG_FETCH_RETRIES=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("opencode run (directly): %v\n%s", err, out)
	}
}

// treeSums lists every file under roots (logs aside) with its content's
// hash, one a line.
func treeSums(t *testing.T, roots ...string) string {
	t.Helper()
	var b strings.Builder
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "log" {
				return filepath.SkipDir
			}
			if d.IsDir() {
				b.WriteString(p + "/\n")
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			b.WriteString(p + " " + hex.EncodeToString(sum[:8]) + "\n")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}
