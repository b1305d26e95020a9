package web

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
)

// browser is a real headless Chromium (Debian's), driven over CDP by
// chromedp.
func browser(t *testing.T) context.Context {
	t.Helper()
	exe, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" { // .ci/run installs it: missing there is a failure, not a skip
			t.Fatal("chromium is not installed (apt-get install -y chromium): the page's browser test needs it")
		}
		t.Skip("chromium is not installed (apt-get install -y chromium): the page's browser test needs it")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.Flag("headless", "new"), chromedp.WSURLReadTimeout(90*time.Second)) // a loaded machine starts chromium slowly
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 90*time.Second) // a hang bound
	t.Cleanup(cancel3)
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// hostile is what a coder may put in a command, a file name and content:
// markup, script, a link, terminal escapes, a bidi override, zero-width.
const (
	hostileCmd  = "echo '<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">' \x1b]0;owned\x07\x1b[2J \u202egnp.exe\u200b <a href=\"javascript:window.pwned=3\">x</a>"
	hostilePath = "/work/ws/<img src=x onerror=window.pwned=4>\u202e.txt"
	hostileBody = "</pre><script>window.pwned=5</script>\n\x1b[31mred\x1b[0m {{.Token}} <b onmouseover=\"window.pwned=6\">b</b>\n"
)

// In a real browser: pair a device, see the cards of two runs from two
// projects (and a hostile third), answer one with remember and one with a
// deny and a message, and see each run hear its answer and its card go;
// the hostile card's text is exactly textsafe's and nothing in it ran.
func TestBrowserPairAnswerAndHostileCard(t *testing.T) {
	ctx := browser(t)
	e := newEnv(t, Push{})
	ra := e.ask("run-a", "/src/alpha", shell("npm run test --watch"), askVerdict)
	e.waiting(1)
	rb := e.ask("run-b", "/src/beta", approvals.Request{Kind: policy.KindWrite, Path: "/work/ws/src/app.go", Cwd: "/work/ws",
		Input: json.RawMessage(`{"content":"package app\n"}`)}, policy.Verdict{Decision: policy.Ask, Rule: "path.write", Reason: "a write"})
	e.waiting(2)
	rc := e.ask("run-c", "/src/gamma", shell(hostileCmd), askVerdict)
	e.waiting(3)
	rd := e.ask("run-d", "/src/gamma", approvals.Request{Kind: policy.KindWrite, Path: hostilePath, Cwd: "/work/ws",
		Input: json.RawMessage(mustJSON(t, map[string]string{"content": hostileBody}))}, policy.Verdict{Decision: policy.Ask, Rule: "path.write", Reason: "<b>why</b>"})
	l := e.waiting(4)
	a, b, c, d := l[0].ID, l[1].ID, l[2].ID, l[3].ID

	code, err := e.devs.NewPairCode()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	run(t, ctx, "pair and see four cards",
		chromedp.Navigate(e.url+"/pair?code="+code),
		chromedp.SendKeys("#name", "phone", chromedp.ByQuery),
		chromedp.Click("form.pair button", chromedp.ByQuery),
		chromedp.WaitVisible("#c-"+d, chromedp.ByID),
		chromedp.Evaluate(`document.querySelectorAll("article.card").length`, &n))
	if n != 4 {
		t.Fatalf("%d cards shown, want 4", n)
	}
	if l, _ := e.devs.List(); len(l) != 1 || l[0].Name != "phone" {
		t.Fatalf("paired: %+v", l)
	}

	// The hostile cards: text exactly as textsafe shows it, nothing ran.
	var what, path, content, reason, title string
	var pwned bool
	run(t, ctx, "read the hostile cards",
		chromedp.Text("#c-"+c+" .what", &what, chromedp.ByQuery),
		chromedp.Text("#c-"+d+" .what", &path, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector("#c-`+d+` .content").textContent`, &content),
		chromedp.Text("#c-"+d+" .reason", &reason, chromedp.ByQuery),
		chromedp.Title(&title),
		chromedp.Evaluate(`window.pwned !== undefined || document.querySelectorAll("script").length !== 1 || document.querySelectorAll("img, a[href^=javascript], b[onmouseover]").length !== 0`, &pwned))
	if pwned {
		t.Fatal("something the coder wrote became script or markup")
	}
	if want := textsafe.Strict(hostileCmd); what != want {
		t.Fatalf("the command shows\n%q\nwant\n%q", what, want)
	}
	if want := textsafe.Strict(hostilePath); path != want {
		t.Fatalf("the path shows\n%q\nwant\n%q", path, want)
	}
	var wantContent strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(hostileBody, "\n"), "\n") {
		wantContent.WriteString("+" + textsafe.Line(line) + "\n")
	}
	if content != wantContent.String() {
		t.Fatalf("the content shows\n%q\nwant\n%q", content, wantContent.String())
	}
	if reason != "<b>why</b>" || strings.Contains(title, "owned") {
		t.Fatalf("reason %q, title %q", reason, title)
	}

	// Remember run a's command at its prefix, in the project.
	run(t, ctx, "approve and remember",
		chromedp.Click("#c-"+a+" details.remember summary", chromedp.ByQuery),
		chromedp.Click(`#c-`+a+` input[name=option][value="1"]`, chromedp.ByQuery),
		chromedp.SetValue("#c-"+a+" select[name=scope]", "project", chromedp.ByQuery),
		chromedp.Click("#c-"+a+" button.remember", chromedp.ByQuery),
		chromedp.WaitNotPresent("#c-"+a, chromedp.ByID))
	da := ra.got(t)
	if da.Outcome != approvals.OutcomeAllow || !da.Remember || da.Grant == nil || da.Grant.Scope != approvals.ScopeProject ||
		strings.Join(da.Grant.Match.Prefix, " ") != "npm run test --watch" {
		t.Fatalf("run a got %+v (grant %+v)", da, da.Grant)
	}

	// Deny run b's write with a message.
	run(t, ctx, "deny with a message",
		chromedp.SendKeys("#c-"+b+" textarea[name=message]", "write it under internal/ instead", chromedp.ByQuery),
		chromedp.Click("#c-"+b+" button.deny", chromedp.ByQuery),
		chromedp.WaitNotPresent("#c-"+b, chromedp.ByID),
		chromedp.Evaluate(`document.querySelectorAll("article.card").length`, &n))
	db := rb.got(t)
	if db.Outcome != approvals.OutcomeDeny || db.Message != "write it under internal/ instead" {
		t.Fatalf("run b got %+v", db)
	}
	if n != 2 || !rc.pending() || !rd.pending() {
		t.Fatalf("after two answers: %d cards, the hostile runs pending %v %v", n, rc.pending(), rd.pending())
	}

	// A card answered elsewhere (the queue) leaves the page by itself.
	if err := e.q.Answer(queueDeny(c)); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, "a card answered elsewhere goes", chromedp.WaitNotPresent("#c-"+c, chromedp.ByID))
	rc.got(t)

	// A run that starts now shows up, its state and its journal's last
	// lines live (no reload: the marker survives), as text.
	project := t.TempDir()
	var marker int
	run(t, ctx, "mark the page", chromedp.WaitVisible("#c-"+d, chromedp.ByID), chromedp.Evaluate(`window.marker = 7`, &marker))
	if err := queue.SendReport(e.ctx, queue.Report{Run: "run-e", Project: project, Coder: "claude", State: queue.StateRunning, Started: time.Now()}); err != nil {
		t.Fatal(err)
	}
	jdir := filepath.Join(project, ".sentinel", "runs", "run-e")
	if err := os.MkdirAll(jdir, 0o700); err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(filepath.Join(jdir, "events.jsonl"), "run-e")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	line := "building <script>window.pwned=7</script> \x1b[2J"
	if _, err := j.Append(journal.Coder, "output", line, nil); err != nil {
		t.Fatal(err)
	}
	key := keyOf(project, "run-e")
	var ok bool
	var lines, state string
	run(t, ctx, "the new run's lines arrive",
		chromedp.Poll(`(function(){var l=document.querySelector("#`+key+` .lines"); return !!l && l.textContent.includes("building")})()`, &ok),
		chromedp.Text("#"+key+" .state", &state, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector("#`+key+` .lines").textContent`, &lines),
		chromedp.Evaluate(`window.marker === 7 && window.pwned === undefined`, &ok))
	if !ok || state != queue.StateRunning {
		t.Fatalf("live view: reloaded or ran script (%v), state %q", ok, state)
	}
	if want := textsafe.Line("coder · " + line); lines != want {
		t.Fatalf("the run's lines show %q, want %q", lines, want)
	}
}

func run(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
