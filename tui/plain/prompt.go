package plain

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner"
)

// Prompter answers approval prompts at a terminal: one card per request,
// answered by a letter and Enter. Output is held while a card is open, so
// the card is not interleaved with the coder's lines.
type Prompter struct {
	In      *os.File // the terminal
	Out     io.Writer
	Printer *Printer
	Scope   approvals.Scope // where remembered grants go by default
	// Bell rings the terminal bell when a card appears ([notify] bell).
	Bell   bool
	reader *bufio.Reader
}

// Serve answers prompts and reviews until done is closed.
func (pr *Prompter) Serve(prompts <-chan *approvals.Prompt, reviews <-chan *runner.ReviewRequest, done <-chan struct{}) {
	pr.reader = bufio.NewReader(pr.In)
	for {
		var p *approvals.Prompt
		var ok bool
		select {
		case rv := <-reviews:
			pr.Review(rv)
			continue
		case p, ok = <-prompts:
			if !ok {
				return
			}
		case <-done:
			return
		}
		select {
		case <-p.Done():
			continue // answered elsewhere or timed out
		default:
		}
		pr.ask(p)
	}
}

// ask shows one card and delivers the answer (a skip is one: a deny that
// tells the coder to go on without it).
func (pr *Prompter) ask(p *approvals.Prompt) {
	if pr.Printer != nil {
		pr.Printer.mu.Lock()
		defer pr.Printer.mu.Unlock()
		pr.Printer.w.Flush()
	}
	out := pr.Out
	r := p.Request
	if pr.Bell {
		fmt.Fprint(out, "\a")
	}
	fmt.Fprintf(out, "\n┌─ approval needed: %s\n", textsafe.Line(string(r.Kind)))
	fmt.Fprintf(out, "│ %s\n", Visible(r.Summary()))
	if r.Cwd != "" {
		fmt.Fprintf(out, "│ in %s\n", Visible(r.Cwd))
	}
	fmt.Fprintf(out, "│ policy: %s (%s) — %s\n", p.Verdict.Decision, textsafe.Line(p.Verdict.Rule), textsafe.Line(p.Verdict.Reason))
	if p.Recommendation != "" {
		fmt.Fprintf(out, "│ supervisor: %s\n", textsafe.Line(p.Recommendation))
	}
	change := changeLines(r)
	if change != nil {
		label := map[bool]string{true: "content", false: "edit"}[r.Kind == policy.KindWrite]
		if strings.HasPrefix(change[0], "# ") {
			label += " (a summary: it is not shown as text)"
		}
		fmt.Fprintf(out, "│ %s:\n", label)
		printChange(out, change, maxContentLines)
	}
	grant, why := always(p, pr.Scope)
	if grant != nil {
		line := "│ 2 always: " + textsafe.Line(grant.Match.String()) + " — " + string(grant.Scope) + " scope, named “" +
			textsafe.Line(approvals.TemplateName(grant.Match, grant.Scope)) + "”"
		if why != "" {
			line += " (" + textsafe.Line(why) + ")"
		}
		fmt.Fprintln(out, line)
	}
	hosts := p.Fetch != nil && len(p.Fetch.Hosts) > 0
	choices := "└─ [a]pprove once / approve + [r]emember / [d]eny / [s]kip (1 yes · 2 always · 3 no): "
	if hosts {
		fmt.Fprintf(out, "│ needs: %s (%s registry)\n", textsafe.Line(strings.Join(p.Fetch.Hosts, ", ")), textsafe.Line(p.Fetch.Ecosystem))
		choices = "└─ [a]pprove once / approve + allow its [h]osts for this run / approve + [r]emember / [d]eny / [s]kip (1 yes · 2 always · 3 no): "
	}
	// Approve waits until the whole change has been printed: its unseen
	// tail may be the line that matters (v prints it), as the TUI's card
	// waits for its last row.
	seen := min(len(change), maxContentLines)
	// A key typed before the card appeared must not answer it.
	flushInput(pr.In)
	for {
		fmt.Fprint(out, choices)
		line, err := pr.reader.ReadString('\n')
		if err != nil {
			p.Answer(approvals.Answer{Kind: approvals.Deny, Message: "the person's terminal closed"})
			return
		}
		key := strings.ToLower(strings.TrimSpace(line))
		if approves(key) && seen < len(change) {
			fmt.Fprintf(out, "   approve waits: v prints the rest (%d of %d line(s) seen); d or 3 denies, s skips\n", seen, len(change))
			continue
		}
		switch key {
		case "a", "1":
			p.Answer(approvals.Answer{Kind: approvals.ApproveOnce})
			return
		case "2":
			if grant != nil {
				p.Answer(approvals.Answer{Kind: approvals.ApproveRemember, Grant: grant})
				return
			}
			fmt.Fprintln(out, "   nothing here can be remembered; approve once or deny.")
		case "v":
			printChange(out, change, -1)
			seen = len(change)
		case "h":
			if hosts {
				p.Answer(approvals.Answer{Kind: approvals.ApproveOnce, WithHosts: true})
				return
			}
		case "r":
			if g := pr.chooseGrant(p); g != nil {
				p.Answer(approvals.Answer{Kind: approvals.ApproveRemember, Grant: g})
				return
			}
		case "d", "3":
			fmt.Fprint(out, "   message for the coder (Enter for none): ")
			msg, _ := pr.reader.ReadString('\n')
			p.Answer(approvals.Answer{Kind: approvals.Deny, Message: strings.TrimSpace(msg)})
			return
		case "s":
			p.Answer(approvals.Answer{Kind: approvals.Skip})
			fmt.Fprintln(out, "   skipped: the coder is told to go on without it.")
			return
		}
	}
}

// approves reports whether key answers a card with an approval of some kind.
func approves(key string) bool {
	switch key {
	case "a", "1", "2", "h", "r":
		return true
	}
	return false
}

// chooseGrant asks how broad a remembered grant should be.
func (pr *Prompter) chooseGrant(p *approvals.Prompt) *approvals.GrantSpec {
	choices := approvals.SuggestGrants(p.Request, p.Verdict)
	if len(choices) == 0 {
		fmt.Fprintln(pr.Out, "   nothing here can be remembered; approve once or deny.")
		return nil
	}
	for i, m := range choices {
		fmt.Fprintf(pr.Out, "   %d) %s\n", i+1, textsafe.Line(m.String()))
	}
	// A package registry's host: the whole registry, for the project.
	reg, regMatch, regAlso, hasReg := approvals.RegistryGrant(p.Request)
	if hasReg {
		choices = append(choices, regMatch)
		fmt.Fprintf(pr.Out, "   %d) allow %s for this project (%s)\n", len(choices), reg.Label, strings.Join(reg.Hosts, ", "))
	}
	fmt.Fprintf(pr.Out, "   remember which (1-%d, Enter for 1)? ", len(choices))
	line, _ := pr.reader.ReadString('\n')
	n := 1
	if t := strings.TrimSpace(line); t != "" {
		v, err := strconv.Atoi(t)
		if err != nil || v < 1 || v > len(choices) {
			fmt.Fprintln(pr.Out, "   not a choice; back to the card.")
			return nil
		}
		n = v
	}
	preset := hasReg && n == len(choices)
	scope := pr.Scope
	if scope == "" || preset && scope == approvals.ScopeRun {
		scope = approvals.ScopeProject // like Claude Code's "don't ask again"
	}
	fmt.Fprintf(pr.Out, "   scope: [1] this run  [2] this project  [3] all my projects (Enter for %s; the project's are kept in .sentinel/templates.toml)? ", scope)
	line, _ = pr.reader.ReadString('\n')
	switch strings.TrimSpace(line) {
	case "1":
		scope = approvals.ScopeRun
	case "2":
		scope = approvals.ScopeProject
	case "3":
		scope = approvals.ScopeUser
	}
	g := &approvals.GrantSpec{Scope: scope, Match: choices[n-1]}
	if preset {
		g.Also = regAlso
	}
	return g
}

// Visible shows everything outside printable ASCII as <U+XXXX> so the
// person sees exactly what will run (textsafe.Strict).
func Visible(s string) string { return textsafe.Strict(s) }
