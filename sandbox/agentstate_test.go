package sandbox

import "testing"

// The agent's state is writable to the agent (a writable root) but no
// tool call may write it: Sees says a write there is out of reach, so
// the broker denies a Write, Edit or apply_patch into it at once; reads
// stay as they were. Seen failing without AgentState in Sees' write list.
func TestProfileSeesNoWriteInTheAgentState(t *testing.T) {
	const state = "/h/.cache/sentinel/exec/r1.agent"
	p := Profile{Workspace: "/w/proj", Writable: []string{"/h/.cache/go-build", state}, AgentState: []string{state}}
	for _, c := range []struct {
		path  string
		write bool
		want  bool
	}{
		{state + "/projects/-w-proj/s1.jsonl", true, false},
		{state + "/projects/-w-proj/s1.jsonl", false, true},
		{state, true, false},
		{"/h/.cache/go-build/ab/x", true, true},
		{"/w/proj/main.go", true, true},
	} {
		if got := p.Sees(c.path, c.write); got != c.want {
			t.Errorf("Sees(%s, write %v) = %v, want %v", c.path, c.write, got, c.want)
		}
	}
}

// The agent's state must be a writable root of its own: one that is not
// writable, or lies in the workspace, /tmp or another writable root
// (which Landlock would grant whole), is refused.
func TestAgentStateMustBeAWritableRootOfItsOwn(t *testing.T) {
	for _, c := range []struct {
		name     string
		state    string
		writable []string
		ok       bool
	}{
		{"its own root", "/h/s.agent", []string{"/h/go-build", "/h/s.agent"}, true},
		{"not writable", "/h/s.agent", []string{"/h/go-build"}, false},
		{"in the workspace", "/w/proj/.agent", []string{"/w/proj/.agent"}, false},
		{"in /tmp", "/tmp/h/s.agent", []string{"/tmp/h/s.agent"}, false},
		{"in another writable root", "/h/.cache/s.agent", []string{"/h/.cache", "/h/.cache/s.agent"}, false},
	} {
		if err := checkAgentState([]string{c.state}, "/w/proj", c.writable); (err == nil) != c.ok {
			t.Errorf("%s: checkAgentState = %v, want ok %v", c.name, err, c.ok)
		}
	}
}
