package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/runner/agents"
	"github.com/sentinelhq/sentinel/sandbox"
)

// doctorReport is what `sentinel doctor --json` prints.
type doctorReport struct {
	Sandbox     []sandbox.Check `json:"sandbox"`
	Modes       []sandbox.Mode  `json:"modes"`
	Enforceable bool            `json:"enforceable"`
	Agents      []sandbox.Check `json:"agents"`
	// Supervisor is the configured supervisor model's check, when one is
	// configured (--supervisor or [supervisor] in config).
	Supervisor *sandbox.Check `json:"supervisor,omitempty"`
	// View is what a coder's sandbox will show of the person's setup.
	View sandboxView `json:"view"`
	// Helper is which program answers hooks and starts sandboxed commands.
	Helper sandbox.Check `json:"helper"`
	// Inside is what a probe run inside the sandbox found (doctor_inside.go).
	Inside *insideView `json:"inside,omitempty"`
	// MCP are the person's MCP servers started inside (doctor_mcp.go).
	MCP []mcpProbe `json:"mcp_servers,omitempty"`
}

func newDoctorCmd() *cobra.Command {
	var asJSON bool
	var sup supervisorFlags
	doc := &cobra.Command{
		Use:   "doctor",
		Short: "Report what this machine can enforce and which agents are installed",
		Long: `Check the sandbox's building blocks (Landlock, seccomp, user namespaces,
bubblewrap, a trial confined run under each backend, pty) and which coding agent
CLIs are on PATH, each with a fix when missing. Exits 1 when no sandbox backend
works here, or when the configured supervisor model fails its check.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			rep := runDoctor()
			file, root, err := configHere(c.Context())
			if err != nil {
				return err
			}
			if root == "" {
				root, _ = os.Getwd()
			}
			rep.View = doctorView(root)
			if rep.Enforceable {
				in := probeInside(root, rep.View)
				rep.Inside = &in
				rep.MCP = probeMCPServers(root)
			}
			if ck, ok := supervisorDoctorCheck(c.Context(), sup, file.Supervisor); ok {
				rep.Supervisor = &ck
			}
			if asJSON {
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return err
				}
			} else {
				printDoctor(c.OutOrStdout(), rep)
			}
			if !rep.Enforceable {
				return exitError{code: 1, err: fmt.Errorf("no sandbox backend works on this machine; see the fixes above, or run with --sandbox off knowingly")}
			}
			if rep.Supervisor != nil && !rep.Supervisor.OK {
				return exitError{code: 1, err: fmt.Errorf("the configured supervisor fails its check: %s; a run with it would refuse to start", rep.Supervisor.Detail)}
			}
			return nil
		},
	}
	doc.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	sup.register(doc.Flags())
	return doc
}

func runDoctor() doctorReport {
	caps := sandbox.Probe("")
	rep := doctorReport{Sandbox: append(caps.Checks, workspaceCheck()), Modes: caps.Modes, Enforceable: caps.Enforceable(), Helper: helperCheck()}
	for _, a := range agents.All() {
		if !agents.Installable(a) {
			continue
		}
		ck := sandbox.Check{Name: a.Name}
		if p, err := exec.LookPath(a.Name); err == nil {
			ck.OK, ck.Detail = true, a.Title+" at "+p
		} else {
			ck.Detail, ck.Fix = a.Title+" not installed", a.Install
		}
		rep.Agents = append(rep.Agents, ck)
	}
	return rep
}

func printDoctor(w io.Writer, rep doctorReport) {
	section := func(title string, checks []sandbox.Check) {
		fmt.Fprintln(w, title)
		for _, c := range checks {
			mark := "ok     "
			if !c.OK {
				mark = "MISSING"
			}
			fmt.Fprintf(w, "  %s  %-34s %s\n", mark, c.Name, c.Detail)
			if c.Fix != "" {
				fmt.Fprintf(w, "           %-34s fix: %s\n", "", c.Fix)
			}
		}
	}
	section("sandbox", rep.Sandbox)
	if rep.Enforceable {
		modes := make([]string, len(rep.Modes))
		for i, m := range rep.Modes {
			modes[i] = string(m)
		}
		fmt.Fprintf(w, "  => can enforce: %s (--sandbox auto uses %s)\n", strings.Join(modes, ", "), modes[0])
	} else {
		fmt.Fprintln(w, "  => cannot enforce a sandbox here")
	}
	printView(w, rep.View)
	if rep.Inside != nil {
		printInside(w, *rep.Inside)
	}
	printMCP(w, rep.MCP)
	section("hooks", []sandbox.Check{rep.Helper})
	section("agents", rep.Agents)
	if rep.Supervisor != nil {
		section("supervisor model", []sandbox.Check{*rep.Supervisor})
	}
}
