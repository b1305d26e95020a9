package procgroup

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
)

// A command whose context ends is ended with its whole group: a child it
// started (as git verify-pack starts git index-pack), which holds its
// output pipe, dies too, and Run returns.
func TestEndGroupOnCancelEndsTheChildToo(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows: Kill ends the process only (see the package doc)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "sleep 300 & echo $! > /dev/stderr; wait")
	EndGroupOnCancel(cmd)
	var out bytes.Buffer // copied by a goroutine: the child holds its pipe
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd.Stdout, cmd.Stderr = &out, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	line, err := bufio.NewReader(r).ReadString('\n')
	child, _ := strconv.Atoi(strings.TrimSpace(line))
	if child == 0 {
		t.Fatalf("the child's pid: %q %v", line, err)
	}
	cancel()
	_ = cmd.Wait()
	if !poll.Until(time.Minute, func() bool { return !Alive(child) }) {
		t.Fatalf("the child %d outlived its command's context", child)
	}
}
