package escapeprobe

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// The probe must work unconfined, or the escape suite's "blocked" would mean
// nothing. It runs in a child process: some machines (this VM among them)
// fault on int 0x80 altogether.
func TestInt80SocketWorksUnconfined(t *testing.T) {
	if !Int80Supported {
		t.Skip("no int 0x80 on this architecture")
	}
	if os.Getenv("INT80_CHILD") == "1" {
		fmt.Println(Int80Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0))
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestInt80SocketWorksUnconfined$")
	cmd.Env = append(os.Environ(), "INT80_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil && strings.Contains(string(out), "SIGSEGV") {
		t.Skip("int 0x80 faults on this machine: 32-bit system calls are impossible here; TestSeccompFilterDecisions pins the filter's architecture check")
	}
	if err != nil {
		t.Fatalf("probe child failed: %v\n%s", err, out)
	}
	if first := strings.Fields(string(out)); len(first) == 0 || strings.HasPrefix(first[0], "-") {
		t.Fatalf("32-bit socket call failed outside the sandbox: %s", out)
	}
}
