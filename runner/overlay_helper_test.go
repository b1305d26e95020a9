package runner

import (
	"context"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/sandbox"
)

// Every git call on an overlay workspace's merged view re-executes the
// overlay helper; sentinel-helper starts in a third of the sentinel
// binary's CPU time, so the run uses it when it sits beside sentinel.
func TestOverlayHelperIsTheSmallHelperWhenBeside(t *testing.T) {
	t.Parallel()
	if reflect.ValueOf(overlayHelper).Pointer() != reflect.ValueOf(helperbin.Path).Pointer() {
		t.Fatal("overlayHelper is not helperbin.Path: the view would re-execute the whole sentinel binary")
	}
}

// sentinel-helper answers the overlay probe and the view as sentinel does.
func TestSentinelHelperAnswersTheOverlayView(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("overlay workspaces are Linux-only")
	}
	bin, err := testbin.SentinelWithHelper()
	if err != nil {
		t.Fatal(err)
	}
	helper := filepath.Join(filepath.Dir(bin), helperbin.Name)
	if err := sandbox.OverlayWorks(context.Background(), bin, sandbox.ModeAuto, t.TempDir(), t.TempDir()); err != nil {
		t.Skipf("overlay not available here: %v", err)
	}
	if err := sandbox.OverlayWorks(context.Background(), helper, sandbox.ModeAuto, t.TempDir(), t.TempDir()); err != nil {
		t.Fatalf("sentinel-helper cannot serve the overlay probe and view: %v", err)
	}
}
