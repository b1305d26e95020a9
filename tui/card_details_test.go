package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// TestEveryRowOfASmallCardIsReachableBeforeApprove replays #37 F2 at
// 60x15: the host card's policy text ended at "(only a person may" with no
// marker, and a workflow write card dropped its cwd and policy rows (and
// with them the reason). Every word of the card's fields and reason must
// come on screen (scrolled with ], counted) before approve answers; then
// approve works.
func TestEveryRowOfASmallCardIsReachableBeforeApprove(t *testing.T) {
	host := approvals.NewPrompt(approvals.Request{ID: "n1", Kind: policy.KindNet, Host: "proxy.golang.org", Port: 443, Adapter: "proxy", Cwd: testWS + "/cmd/tool"},
		policy.Verdict{Decision: policy.Ask, Rule: "net.new-host", Reason: "the host proxy.golang.org is not allowed by any rule", NeverDelegable: true})
	path := testWS + "/.github/workflows/ci.yml"
	in, _ := json.Marshal(map[string]string{"file_path": path, "content": "name: ci\non: push\n"})
	write := approvals.NewPrompt(approvals.Request{ID: "w1", Kind: policy.KindWrite, Path: path, Cwd: testWS + "/sub/dir", Input: in, Adapter: "claude"},
		policy.Verdict{Decision: policy.Ask, Rule: "path.write-run-later", Reason: "writes .github/workflows/ci.yml, a file that runs code later (CI workflow: runs on push with the repository's secrets)", NeverDelegable: true})
	for name, p := range map[string]*approvals.Prompt{"host": host, "write": write} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, wsInfo(), "dark", 60, 15)
			h.openCard(p)
			v := p.Verdict
			want := strings.Fields(v.Reason + " (only a person may approve) " + v.Rule)
			want = append(want, "sub/dir")
			if p.Request.Kind == policy.KindNet {
				want = []string{"approve)", "rule", "proxy.golang.org:443", "cmd/tool"}
			}
			seen := ""
			missing := func() []string {
				var out []string
				for _, w := range want {
					if !strings.Contains(seen, w) {
						out = append(out, w)
					}
				}
				return out
			}
			for i := 0; i < 30; i++ {
				s := h.screen()
				// whitespace out: a wrapped row continues under a blank label
				seen += strings.Join(strings.Fields(s), "") + "\n"
				if len(missing()) == 0 {
					break
				}
				h.press("a")
				if a, ok := answered(p); ok {
					t.Fatalf("a answered %+v while %q had not been on screen:\n%s", a, missing(), s)
				}
				h.press("]")
			}
			if m := missing(); len(m) > 0 {
				t.Fatalf("at 60x15 %q never came on screen; last screen:\n%s", m, h.screen())
			}
			for i := 0; i < 30; i++ { // the rest of the change, if any
				h.press("]")
			}
			if m := rowsCounter.FindStringSubmatch(h.screen()); m != nil && m[2] != m[3] {
				t.Fatalf("the counter does not reach its end: %s\n%s", m[0], h.screen())
			}
			h.press("a")
			if a, ok := answered(p); !ok || a.Kind != approvals.ApproveOnce {
				t.Fatalf("a after the whole card was shown answered %+v, %v:\n%s", a, ok, h.screen())
			}
		})
	}
}
