package procgroup

import (
	"os/exec"
	"time"
)

// EndGroupOnCancel makes cmd, not yet started (an exec.CommandContext),
// lead a group of its own that is ended whole when its context ends: a
// child it started (git verify-pack runs git index-pack) dies with it,
// and Wait returns soon after even if something still holds its pipes.
func EndGroupOnCancel(cmd *exec.Cmd) {
	Own(cmd)
	cmd.Cancel = func() error { return Kill(cmd.Process.Pid) }
	cmd.WaitDelay = 5 * time.Second
}
