package policy

import "testing"

// An output-directory variable is judged by its value (envoutdir.go): a
// directory under the current one is everyday, anywhere else asks.
func TestPol8OutputDirVariables(t *testing.T) {
	checkOnOff(t, []onOff{
		{"CARGO_TARGET_DIR=target/ci cargo build --locked", Allow, Allow},
		{"CARGO_TARGET_DIR=./target-llvm cargo test", Allow, Allow},
		{"CARGO_TARGET_DIR=/tmp/x cargo build", Ask, Ask},
		{"CARGO_TARGET_DIR=../x cargo build", Ask, Ask},
		{"CARGO_TARGET_DIR=~/t cargo build", Ask, Ask},
		{"CARGO_TARGET_DIR=$HOME/t cargo build", Ask, Ask},
		{"CARGO_TARGET_DIR=target/../../x cargo build", Ask, Ask},
		{"CARGO_HOME=./h cargo build", Deny, Deny},
		{"GOCACHE=./c go build ./...", Ask, Ask},
	})
}
