package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBuiltProgramsRunOff: with the sandbox off, a program in the
// workspace's build output run by its path is the project's own test or
// program, as ctest and `make test` run it (buildoutput_off.go). Shapes
// from polcorp7/8/9/10/13 everyday/cpp and java (GoogleTest filters,
// valgrind, ldd, javac -d out && java -cp out). A text file there, a
// program outside the build folders, one named like a known program, and
// a run after the line wrote a file keep asking.
func TestBuiltProgramsRunOff(t *testing.T) {
	off := testEnv(t)
	on := off
	on.Sandboxed = true
	for f, text := range map[string]string{
		"build/app":              "\x7fELF\x02\x01\x01",
		"build/tests/unit_tests": "\x7fELF\x02\x01\x01",
		"build/helper":           "echo hi\n",
		"build/run.pl":           "#!/usr/bin/perl\nsystem('id');\n",
		"tools/prebuilt":         "\x7fELF\x02\x01\x01",
	} {
		p := filepath.Join(off.Workspace, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/usr/bin/id", filepath.Join(off.Workspace, "build/link")); err != nil {
		t.Fatal(err)
	}
	e := Default()
	for _, line := range []string{
		`cmake --build build --target unit_tests && ./build/tests/unit_tests --gtest_filter='Parser.*'`,
		`cmake --build build && valgrind --leak-check=full ./build/tests/unit_tests 2>&1 | tail -20`,
		`cmake --build build && ASAN_OPTIONS=detect_leaks=1 ./build/app`,
		`cmake --build build && ldd build/app`,
		`cmake --build build -j4 && ./build/not-built-yet --selftest`,
		`cmake --build cmake-build-debug && ./cmake-build-debug/app`,
		`javac -d out src/A.java && java -cp out com.example.Main`,
		`javac -d build/classes src/A.java && java -cp build/classes com.example.Main`,
	} {
		for _, cx := range []Context{off, on} {
			if v := e.Check(Query{Kind: KindShell, Command: line, Context: cx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: %s %s: %s", cx.Sandboxed, line, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	for _, line := range []string{
		`./build/helper`,   // text with no shebang
		`./build/run.pl`,   // an interpreter that asks off
		`./build/link`,     // a link
		`./tools/prebuilt`, // not a build output folder
		`./build/make`,     // named like a known program
		`ldd tools/prebuilt`,
		`echo x > src/a.go && ./build/app`,
		`base64 -d src/a.go > build/app && ./build/app`,
		`cmake --build build; ./build/app2`,
		`java -cp /tmp/out com.example.Main`,
		`java -cp src com.example.Main`,
		`echo x > src/a.go && java -cp out com.example.Main`,
		`./build/app > /etc/x`,
		// an ELF in a build folder need not be the build's (cp /bin/rm
		// build/app earlier): its arguments must be plain (review)
		`cmake --build build && ./build/app -rf ~`,
		`cmake --build build && ./build/app -rf /home`,
		`cmake --build build && ./build/app -c 'import shutil; shutil.rmtree("/home")'`,
		`cmake --build build && ./build/app ../../x`,
		`cmake --build build && ./build/app "$HOME"`,
	} {
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: off}); v.Decision == Allow {
			t.Errorf("off: %q allowed: %s: %s", line, v.Rule, v.Reason)
		}
	}
}
