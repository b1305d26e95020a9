package main

import (
	"fmt"
	"os"
	"os/signal"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

func main() {
	s, err := fakemodel.Start(fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("I will list."), fakemodel.Bash("touch /tmp/fm_marker_ok && ls /")),
		fakemodel.Reply(fakemodel.Text("Done listing.")),
	})
	if err != nil {
		panic(err)
	}
	os.WriteFile("/tmp/fm_url", []byte(s.URL), 0o644)
	fmt.Println(s.URL)
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	for {
		select {
		case <-c:
			goto out
		case <-s.Changed():
		}
	}
out:
	for _, r := range s.Requests() {
		fmt.Printf("MAIN %s %s model=%s stream=%v tools=%d msgs=%d ua=%s beta=%s\n", r.Method, r.Path, r.Model, r.Stream, len(r.Tools), len(r.Messages), r.Header.Get("User-Agent"), r.Header.Get("anthropic-beta"))
		for _, tr := range r.LastToolResults() {
			fmt.Printf("   tool_result %s err=%v %q\n", tr.ToolUseID, tr.IsError, tr.Content)
		}
	}
	for _, r := range s.SideRequests() {
		fmt.Printf("SIDE %s %s model=%s stream=%v sys=%.200q body=%.300s\n", r.Method, r.Path, r.Model, r.Stream, r.System, r.Body)
	}
	for _, r := range s.OtherRequests() {
		fmt.Printf("OTHER %s %s %.300s\n", r.Method, r.Path, r.Body)
	}
}
