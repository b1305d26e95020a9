package policy

import "testing"

// TestBuiltRunOff: with the sandbox off, a program compiled from the
// workspace's sources and run on the same && chain is allowed, as `go
// run .` is (builtrun_off.go). Shapes from polcorp5/6/9 and polcorp1207
// everyday/cpp. A product run after ; or ||, one compiled from a source,
// header or include directory outside the workspace, and in place still
// ask.
func TestBuiltRunOff(t *testing.T) {
	off := testEnv(t)
	in := off
	in.InPlace = true
	e := Default()
	allow := []string{
		`gcc -Wall -Wextra -std=c11 -o build/demo src/demo.c && ./build/demo`,
		`g++ -std=c++20 -fsanitize=address,undefined -g tests/test_vec.cpp -o build/test_vec && ./build/test_vec`,
		`clang -fsanitize=address -g tests/test_list.c src/list.c -o build/test_list && ./build/test_list`,
		`gcc -Iinclude -I/usr/include/glib-2.0 -o build/x src/a.c && ./build/x --selftest`,
		`go build -o bin/app . && ./bin/app --help`,
		`g++ -MMD -MP -c src/a.cpp -o build/a.o`,
	}
	ask := []string{
		`gcc -o build/x src/a.c; ./build/x`,
		`gcc -o build/x src/a.c || ./build/x`,
		`gcc -o build/x src/a.c | ./build/x`,
		`gcc -o build/x /tmp/evil.c && ./build/x`,
		`gcc -o build/x /usr/share/doc/x.c && ./build/x`, // a readable source, but not the project's
		`gcc -I/tmp/inc -o build/x src/a.c && ./build/x`,
		`gcc -include /tmp/e.h -o build/x src/a.c && ./build/x`,
		`gcc -o build/x src/a.c && ./build/y`,
		`gcc @opts -o build/x src/a.c && ./build/x`,
		`gcc -B/tmp/bin -o build/x src/a.c && ./build/x`,
		`./build/x`,
		`go build -o bin/x github.com/evil/x && ./bin/x`, // a dependency's code: go run github.com/evil/x asks off
		`go build -o bin/x std && ./bin/x`,
	}
	for _, cmd := range allow {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: off}); v.Decision != Allow {
			t.Errorf("off: %q: %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, cmd := range allow[:5] {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: in}); v.Decision == Allow {
			t.Errorf("in place: %q allowed by %s (%s)", cmd, v.Rule, v.Reason)
		}
	}
	for _, cmd := range ask {
		for _, cx := range []Context{off, in} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision == Allow {
				t.Errorf("off (in place %v): %q allowed by %s (%s)", cx.InPlace, cmd, v.Rule, v.Reason)
			}
		}
	}
}
