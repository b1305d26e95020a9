package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A descriptor the person's shell (an IDE terminal, a process supervisor,
// `exec 7>>~/.bashrc`) left open without close-on-exec reaches Sentinel,
// and from it every child: Landlock checks a path when it is opened, not a
// write through a descriptor opened outside. The command must start with
// stdin, stdout and stderr only, on both backends.
func TestAnInheritedDescriptorDoesNotReachTheCommand(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	ws := filepath.Join(base, "ws")
	host := filepath.Join(base, "host-file")
	mustWrite(t, filepath.Join(ws, "keep"), "x")
	mustWrite(t, host, "before\n")
	// syscall.Open sets no close-on-exec (os.OpenFile would), as a shell's
	// redirection does not.
	fd, err := syscall.Open(host, syscall.O_WRONLY|syscall.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	const leaked = 200
	if err := syscall.Dup2(fd, leaked); err != nil {
		t.Fatal(err)
	}
	syscall.Close(fd)
	t.Cleanup(func() { syscall.Close(leaked) })
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			sbx, err := Prepare(Profile{Workspace: ws, Net: NetNone}, Options{Mode: mode, Helper: helperBin})
			if err != nil {
				t.Fatal(err)
			}
			defer sbx.Close()
			c, err := sbx.Command(context.Background(), ws, "bash", "-c", `echo "ESCAPED-`+string(mode)+`" >&200 && echo WROTE; ls /proc/self/fd/200 2>/dev/null && echo OPEN200`)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := c.CombinedOutput()
			got, err := os.ReadFile(host)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != "before\n" || strings.Contains(string(out), "WROTE") || strings.Contains(string(out), "OPEN200") {
				t.Errorf("under %s the command wrote through a descriptor it inherited; the host file now holds %q\n%s", mode, got, out)
			}
		})
	}
}
