package launchd

import (
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/agent.plist")

func TestPlistGolden(t *testing.T) {
	got, err := Plist("/Users/u/go/bin/sentinel & <co>", "/Users/u")
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal([]byte(got), new(struct{})); err != nil {
		t.Fatalf("the plist is not well-formed XML: %v\n%s", err, got)
	}
	file := filepath.Join("testdata", "agent.plist")
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (review, then -update):\n%s", file, got)
	}
	if !strings.Contains(got, "<string>/Users/u/go/bin/sentinel &amp; &lt;co&gt;</string>") {
		t.Errorf("the binary's path is not escaped:\n%s", got)
	}
	if PlistPath("/Users/u") != "/Users/u/Library/LaunchAgents/"+Label+".plist" || Domain(501) != "gui/501" {
		t.Errorf("path %s, domain %s", PlistPath("/Users/u"), Domain(501))
	}
	if _, err := Plist("/Users/u/bin/sentinel\n</string>", "/Users/u"); err == nil {
		t.Error("a path with a line break was rendered")
	}
}
