package approvals

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A second run's coder — a process this run did not start — that reaches
// this run's broker socket is refused, and what it sends is not journaled;
// this run's own process tree is answered.
func TestBrokerAnswersOnlyItsRunsProcessTree(t *testing.T) {
	other := exec.Command("sleep", "60") // stands for this run's process: the test is not in its tree
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })

	r := startBroker(t, BrokerConfig{Peer: InProcessTree(other.Process.Pid)})
	c, err := Dial(r.socket)
	if err == nil {
		err = c.Report(context.Background(), Report{Lane: "coder", Kind: "coder-report", Text: "coder reports: INJECTED"})
		c.Close()
	}
	if err == nil {
		t.Fatal("a process outside the run's tree used its broker")
	}
	if d, _ := AskOnce(context.Background(), r.socket, Request{Kind: "shell", Command: "ls"}); d.Allowed() {
		t.Fatalf("a process outside the run's tree was answered: %+v", d)
	}
	refused := false
	for _, ev := range r.events(t) {
		if strings.Contains(ev.Text, "INJECTED") {
			t.Fatalf("the outsider's report was journaled: %+v", ev)
		}
		refused = refused || strings.Contains(ev.Text, "refused a connection") && strings.Contains(ev.Text, "not this run's process")
	}
	if !refused {
		t.Error("the refusal is not journaled")
	}

	own := startBroker(t, BrokerConfig{Peer: InProcessTree(os.Getpid())})
	c, err = Dial(own.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Report(context.Background(), Report{Lane: "tool", Kind: "tool-result", Text: "own"}); err != nil {
		t.Fatalf("the run's own process was refused: %v", err)
	}
}

// InProcessTree accepts the root and its descendants only.
func TestInProcessTree(t *testing.T) {
	child := exec.Command("sleep", "60")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill(); child.Wait() })
	if err := InProcessTree(os.Getpid())(child.Process.Pid); err != nil {
		t.Errorf("a child: %v", err)
	}
	if err := InProcessTree(child.Process.Pid)(os.Getpid()); err == nil {
		t.Error("the parent of the root was accepted")
	}
	if err := InProcessTree(os.Getpid())(1); err == nil {
		t.Error("init was accepted")
	}
}
