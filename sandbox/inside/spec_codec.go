package inside

import (
	"encoding/json"
	"fmt"

	"github.com/sentinelhq/sentinel/internal/flatjson"
)

// A Spec crosses from the sandbox package to the helper once per sandboxed
// start. Written and read by reflection, it cost each side a tenth of a
// millisecond or more: encoding/json works out a struct type's fields on
// its first use, and each process uses it once. These write and read it
// member by member, exactly as encoding/json would (spec_codec_test.go);
// places and denied files, present only on some starts, still go through
// encoding/json.

// EncodeSpec is json.Marshal(sp), byte for byte.
func EncodeSpec(sp Spec) ([]byte, error) {
	w := &flatjson.Writer{}
	w.Open().String("backend", sp.Backend).String("dir", sp.Dir).String("workspace", sp.Workspace).String("tmp", sp.TempDir)
	for _, l := range []struct {
		ss   []string
		name string
	}{{sp.Writable, "writable"}, {sp.Readable, "readable"}, {sp.ReadOnly, "readonly"}, {sp.Hidden, "hidden"}, {sp.Protected, "protected"}, {sp.AgentState, "agent_state"}} {
		if len(l.ss) > 0 {
			w.Strings(l.name, l.ss)
		}
	}
	w.String("net", sp.Net)
	if sp.ProxyPort != 0 {
		w.Int("proxy_port", int64(sp.ProxyPort))
	}
	w.String("empty", sp.Empty).String("root", sp.Root)
	for _, l := range []struct {
		v    any
		n    int
		name string
	}{{sp.Places, len(sp.Places), "places"}, {sp.Links, len(sp.Links), "links"}, {sp.Denied, len(sp.Denied), "denied"}} {
		if l.n > 0 {
			raw, err := json.Marshal(l.v)
			if err != nil {
				return nil, err
			}
			w.Raw(l.name, raw)
		}
	}
	if sp.Report {
		w.Bool("report", true)
	}
	if sp.PidsMax != 0 {
		w.Int("pids_max", int64(sp.PidsMax))
	}
	if sp.PidsCgroup {
		w.Bool("pids_cgroup", true)
	}
	if ov := sp.Overlay; ov != nil {
		w.Name("overlay").Open().String("lower", ov.Lower).String("work", ov.Work)
		if len(ov.Protected) > 0 {
			w.Strings("protected", ov.Protected)
		}
		w.Close()
	}
	return w.Close().Bytes()
}

// DecodeSpec reads what EncodeSpec (or json.Marshal) wrote, as
// json.Unmarshal would.
func DecodeSpec(data []byte) (Spec, error) {
	var sp Spec
	o, err := flatjson.Parse(data)
	if err != nil {
		return sp, err
	}
	if err := o.ReadStrings(
		flatjson.Field{Dst: &sp.Backend, Name: "backend"},
		flatjson.Field{Dst: &sp.Dir, Name: "dir"},
		flatjson.Field{Dst: &sp.Workspace, Name: "workspace"},
		flatjson.Field{Dst: &sp.TempDir, Name: "tmp"},
		flatjson.Field{Dst: &sp.Net, Name: "net"},
		flatjson.Field{Dst: &sp.Empty, Name: "empty"},
		flatjson.Field{Dst: &sp.Root, Name: "root"},
	); err != nil {
		return sp, err
	}
	for _, l := range []struct {
		dst  *[]string
		name string
	}{{&sp.Writable, "writable"}, {&sp.Readable, "readable"}, {&sp.ReadOnly, "readonly"}, {&sp.Hidden, "hidden"}, {&sp.Protected, "protected"}, {&sp.AgentState, "agent_state"}} {
		if *l.dst, err = o.Strings(l.name); err != nil {
			return sp, err
		}
	}
	port, err := o.Int("proxy_port")
	if err != nil {
		return sp, err
	}
	if int64(int(port)) != port {
		return sp, fmt.Errorf("%q is out of range", "proxy_port")
	}
	sp.ProxyPort = int(port)
	if sp.Report, err = o.Bool("report"); err != nil {
		return sp, err
	}
	pids, err := o.Int("pids_max")
	if err != nil {
		return sp, err
	}
	if int64(int(pids)) != pids {
		return sp, fmt.Errorf("%q is out of range", "pids_max")
	}
	sp.PidsMax = int(pids)
	if sp.PidsCgroup, err = o.Bool("pids_cgroup"); err != nil {
		return sp, err
	}
	ov, err := o.Object("overlay")
	if err != nil {
		return sp, err
	}
	if ov != nil {
		sp.Overlay = &OverlaySpec{}
		if err := ov.ReadStrings(flatjson.Field{Dst: &sp.Overlay.Lower, Name: "lower"}, flatjson.Field{Dst: &sp.Overlay.Work, Name: "work"}); err != nil {
			return sp, fmt.Errorf("%q: %w", "overlay", err)
		}
		if sp.Overlay.Protected, err = ov.Strings("protected"); err != nil {
			return sp, fmt.Errorf("%q: %w", "overlay", err)
		}
	}
	for _, l := range []struct {
		dst  any
		name string
	}{{&sp.Places, "places"}, {&sp.Links, "links"}, {&sp.Denied, "denied"}} {
		if raw := o.Raw(l.name); raw != nil {
			if err := json.Unmarshal(raw, l.dst); err != nil {
				return sp, fmt.Errorf("%q: %w", l.name, err)
			}
		}
	}
	return sp, nil
}
