package hostbin

import (
	"os"
	"testing"
)

// After Sentinel cleans its own environment, what the person's had is
// still known: the end report says whether their next command in the
// place loads a library from it.
func TestThePersonsLoaderEntryIsKnownAfterTheCleaning(t *testing.T) {
	for v, want := range map[string]bool{":/opt/none": true, "/opt/a::/opt/b": true, "/opt/a:": true, "lib:/opt": true, "": false, "/opt/a:/opt/b": false} {
		t.Setenv("LD_LIBRARY_PATH", v)
		droppedMu.Lock()
		dropped = nil
		droppedMu.Unlock()
		KeepLoaderOutOfTheWorkingDir()
		if got := LoaderNamesWorkingDir("LD_LIBRARY_PATH"); got != want {
			t.Errorf("LD_LIBRARY_PATH=%q (now %q): names the working dir = %v, want %v", v, os.Getenv("LD_LIBRARY_PATH"), got, want)
		}
	}
	os.Unsetenv("LD_LIBRARY_PATH")
	droppedMu.Lock()
	dropped = nil
	droppedMu.Unlock()
	if LoaderNamesWorkingDir("LD_LIBRARY_PATH") {
		t.Errorf("unset LD_LIBRARY_PATH names the working dir")
	}
}
