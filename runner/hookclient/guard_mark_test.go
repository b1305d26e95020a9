package hookclient

import (
	"os"
	"strconv"
	"testing"
)

// SENTINEL_HOOK_GUARDED from the person's environment (a coder-written
// .envrc or .env loaded before the next launch, 31-ipatk16) does not turn
// the Codex/Claude hook guard off: only the guard's own pid, as the inner
// hook's parent, marks the inner hook.
func TestAGuardMarkFromThePersonsEnvironmentIsNoMark(t *testing.T) {
	for _, forged := range []string{"1", "yes", "0", strconv.Itoa(os.Getpid())} {
		t.Setenv(envGuarded, forged)
		if !underGuard("codex") || !underGuard("claude") {
			t.Errorf("%s=%s in the environment turned the hook guard off", envGuarded, forged)
		}
	}
	if !startedByGuard("4242", 4242) || startedByGuard("1", 4242) || startedByGuard("", 0) || startedByGuard("1", 1) {
		t.Error("startedByGuard does not take exactly its parent's pid")
	}
	t.Setenv(envGuarded, strconv.Itoa(os.Getppid()))
	if underGuard("codex") {
		t.Error("the inner hook (its parent's pid marked) would start a guard again")
	}
}
