package eval

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

//go:embed corpus.jsonl
var builtinCorpus []byte

// BuiltinName names the embedded corpus in messages and reports.
const BuiltinName = "built-in corpus.jsonl"

// The categories of the built-in corpus. A corpus of one's own may use
// others.
const (
	Destructive  = "destructive"
	Exfiltrating = "exfiltrating"
	SecretRead   = "secret-reading"
	TestMasking  = "test-masking"
	Persistence  = "persistence/privilege"
	SupplyChain  = "supply-chain"
	Everyday     = "everyday"
)

// Categories lists the built-in corpus's categories, risky ones first.
var Categories = []string{Destructive, Exfiltrating, SecretRead, TestMasking, Persistence, SupplyChain, Everyday}

// Case is one labelled request: what the judge is shown, and the answer a
// careful person would give.
type Case struct {
	ID       string `json:"id"`
	Category string `json:"category"`
	// Label is "allow" or "deny"; Why is the careful person's reason.
	Label string `json:"label"`
	Why   string `json:"why"`
	// Task is the person's task as the coder was given it.
	Task string `json:"task"`
	// Request is the request exactly as the judge receives it.
	Request approvals.Request `json:"request"`
	// PolicyReason is why the policy asked (empty: no rule covers it).
	PolicyReason string `json:"policy_reason,omitempty"`
	// Recent is what the coder did just before, oldest first.
	Recent []Step `json:"recent,omitempty"`
	// Decisions are earlier rows of the run's DECISIONS.md.
	Decisions []Row `json:"decisions,omitempty"`

	// Source is "file:line" of the case.
	Source string `json:"-"`
}

// Step is one event of the coder's recent history: a tool call ("call"), a
// tool's result ("result") or a decision on an earlier request ("decision").
type Step struct {
	Call     string `json:"call,omitempty"`
	Result   string `json:"result,omitempty"`
	Decision string `json:"decision,omitempty"`
}

// Row is one earlier decision, as DECISIONS.md records it.
type Row struct {
	Kind     string `json:"kind"`
	Request  string `json:"request"`
	Decision string `json:"decision"` // allow or deny
	By       string `json:"by"`       // person, supervisor, policy:<rule>, template:<id>
	Reason   string `json:"reason"`
}

// Builtin is the embedded corpus.
func Builtin() ([]Case, error) { return Parse(BuiltinName, bytes.NewReader(builtinCorpus)) }

// Load reads a corpus file (JSON Lines, one case a line).
func Load(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w (pass a JSON Lines file of cases, or none for the built-in corpus)", path, err)
	}
	defer f.Close()
	return Parse(path, f)
}

// Parse reads a corpus: one JSON object a line, blank lines skipped. Any
// fault is one error "name:line: what is wrong (the fix)".
func Parse(name string, r io.Reader) ([]Case, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	var cases []Case
	ids := map[string]string{}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		at := fmt.Sprintf("%s:%d", name, line)
		c, err := parseCase(text)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", at, err)
		}
		if prev, dup := ids[c.ID]; dup {
			return nil, fmt.Errorf("%s: case id %q is already used at %s (ids must be unique)", at, c.ID, prev)
		}
		ids[c.ID] = at
		c.Source = at
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("%s: no cases (one JSON object a line, e.g. {\"id\":…,\"category\":…,\"label\":\"deny\",…})", name)
	}
	return cases, nil
}

func parseCase(text string) (Case, error) {
	var c Case
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return c, fmt.Errorf("not a JSON object at column %d: %v (one case per line)", se.Offset, err)
		}
		return c, fmt.Errorf("%v (fields: id, category, label, why, task, request, policy_reason, recent, decisions)", err)
	}
	if dec.More() {
		return c, errors.New("more than one JSON value on the line (one case per line)")
	}
	switch {
	case strings.TrimSpace(c.ID) == "":
		return c, errors.New("the case has no id")
	case strings.TrimSpace(c.Category) == "":
		return c, fmt.Errorf("case %s has no category (e.g. %s)", c.ID, strings.Join(Categories, ", "))
	case c.Label != "allow" && c.Label != "deny":
		return c, fmt.Errorf("case %s: label %q: want allow or deny", c.ID, c.Label)
	case strings.TrimSpace(c.Why) == "":
		return c, fmt.Errorf("case %s has no why (the reason for its label)", c.ID)
	case strings.TrimSpace(c.Task) == "":
		return c, fmt.Errorf("case %s has no task", c.ID)
	}
	if err := checkRequest(c.Request); err != nil {
		return c, fmt.Errorf("case %s: request: %v", c.ID, err)
	}
	for i, s := range c.Recent {
		n := 0
		for _, v := range []string{s.Call, s.Result, s.Decision} {
			if v != "" {
				n++
			}
		}
		if n != 1 {
			return c, fmt.Errorf("case %s: recent[%d]: want exactly one of call, result or decision", c.ID, i)
		}
	}
	for i, r := range c.Decisions {
		if r.Request == "" || (r.Decision != "allow" && r.Decision != "deny") {
			return c, fmt.Errorf("case %s: decisions[%d]: want a request and a decision of allow or deny", c.ID, i)
		}
	}
	return c, nil
}

func checkRequest(r approvals.Request) error {
	need := ""
	switch r.Kind {
	case policy.KindShell:
		need = "command"
		if r.Command != "" {
			return nil
		}
	case policy.KindRead, policy.KindWrite, policy.KindEdit:
		need = "path"
		if r.Path != "" {
			return nil
		}
	case policy.KindNet:
		need = "url or host"
		if r.URL != "" || r.Host != "" {
			return nil
		}
	case policy.KindMCP, policy.KindOther:
		need = "tool"
		if r.Tool != "" {
			return nil
		}
	default:
		return fmt.Errorf("kind %q: want shell, read, write, edit, net, mcp or other", r.Kind)
	}
	return fmt.Errorf("a %s request needs its %s", r.Kind, need)
}

// Key is what makes two requests the same request: its kind and target.
func (c Case) Key() string {
	r := c.Request
	return strings.Join([]string{string(r.Kind), r.Command, r.Path, r.URL, r.Host, fmt.Sprint(r.Port), r.Tool, string(r.Input)}, "\x00")
}
