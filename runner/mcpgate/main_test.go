package mcpgate

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// envRunMain makes the test binary run Main (as `sentinel mcp-gate` would).
const envRunMain = "SENTINEL_MCPGATE_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(envRunMain) != "" {
		os.Exit(Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// gate starts the gate binary in front of a server that records every line
// it gets to a file, and returns the gate's stdin, its stdout and the file.
func startGate(t *testing.T, args ...string) (*exec.Cmd, *bufio.Scanner, func() string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(t.TempDir(), "server-got")
	cmd := exec.Command(exe, append(args, "--", "sh", "-c", `cat > "$0"`, record)...)
	cmd.Env = append(os.Environ(), envRunMain+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); _ = cmd.Wait() })
	if _, err := in.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"drop_tables","arguments":{}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(out), func() string {
		in.Close()
		if err := cmd.Wait(); err != nil {
			t.Fatalf("the gate exited: %v", err)
		}
		b, _ := os.ReadFile(record)
		return string(b)
	}
}

// With no broker to reach, a tool call is denied with the reason and never
// reaches the server; everything else still passes.
func TestGateWithNoBrokerDeniesEveryCall(t *testing.T) {
	_, out, got := startGate(t, "--server", "db", "--socket", filepath.Join(t.TempDir(), "no-broker.sock"))
	if !out.Scan() {
		t.Fatal("the gate did not answer the call")
	}
	var m struct {
		ID     int `json:"id"`
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out.Bytes(), &m); err != nil || m.ID != 1 || !m.Result.IsError || len(m.Result.Content) != 1 ||
		!strings.Contains(m.Result.Content[0].Text, "cannot reach the Sentinel broker") {
		t.Fatalf("answer %s (%v)", out.Text(), err)
	}
	server := got()
	if strings.Contains(server, "drop_tables") || !strings.Contains(server, "notifications/initialized") {
		t.Fatalf("the server got %q", server)
	}
}

// A gate that is not told which server or broker refuses to start.
func TestGateNeedsItsServerAndBroker(t *testing.T) {
	exe, _ := os.Executable()
	for _, args := range [][]string{
		{"--socket", "/x.sock", "--", "true"},
		{"--server", "s", "--socket", "/x.sock"},
		{"--server", "s", "--", "true"},
	} {
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), envRunMain+"=1", "SENTINEL_SOCKET=")
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "sentinel mcp-gate:") {
			t.Errorf("%q: %v\n%s", args, err, out)
		}
	}
}
