package servicewire

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

const netnsClientEnv = "SERVICEWIRE_TEST_NETNS_CLIENT"

// TestNetNSClient is the client the namespace test starts: one hello.
func TestNetNSClient(t *testing.T) {
	if os.Getenv(netnsClientEnv) == "" {
		t.Skip("run by TestSandboxedPeerIsRefused")
	}
	if err := Do(context.Background(), OpHello, nil, nil); err != nil {
		t.Fatal(err)
	}
}

// A process of this user in another network namespace — what every
// Sentinel sandbox is — that reaches the socket is not served (it could
// answer the approval queue's cards); the same client in the service's
// namespace is.
func TestSandboxedPeerIsRefused(t *testing.T) {
	startService(t, NewMux())
	client := func(newNet bool) error {
		cmd := exec.Command(os.Args[0], "-test.run=^TestNetNSClient$", "-test.count=1")
		cmd.Env = append(os.Environ(), netnsClientEnv+"=1")
		if newNet {
			cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET,
				UidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}},
				GidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}}
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("client (new network namespace: %v): %v: %s", newNet, err, out)
		}
		return err
	}
	if err := client(false); err != nil {
		t.Fatal("the client in the service's own namespace was refused")
	}
	if err := client(true); err == nil {
		t.Fatal("a client in another network namespace was served")
	}
}
