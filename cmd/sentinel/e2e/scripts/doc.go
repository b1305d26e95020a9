// Package scripts holds sentinel's end-to-end scenarios as testscript
// files: testdata/*.txtar, one scenario a file, each named after what it
// guards. A script drives the real binary (`exec sentinel …`) and its TUI
// under tmux (`tmux-start`, `keys`, `waitscreen 'regex'`, `screen`,
// `pressuntil`, `waitformat`, `signal`, `service-start`; commands_test.go,
// commands_window_test.go, commands_service_test.go), every wait bounded
// as a hang, never timed.
package scripts
