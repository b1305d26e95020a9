package acp

import (
	"context"
	"io"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// modeAgent is an in-process ACP agent that records session/set_mode.
type modeAgent struct {
	mu  sync.Mutex
	set []sdk.SessionModeId
}

func (a *modeAgent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}
func (a *modeAgent) Initialize(context.Context, sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	return sdk.InitializeResponse{ProtocolVersion: sdk.ProtocolVersionNumber}, nil
}
func (a *modeAgent) Cancel(context.Context, sdk.CancelNotification) error { return nil }
func (a *modeAgent) CloseSession(context.Context, sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	return sdk.CloseSessionResponse{}, nil
}
func (a *modeAgent) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, nil
}
func (a *modeAgent) NewSession(context.Context, sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	return sdk.NewSessionResponse{SessionId: "s-1"}, nil
}
func (a *modeAgent) Prompt(context.Context, sdk.PromptRequest) (sdk.PromptResponse, error) {
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}
func (a *modeAgent) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, nil
}
func (a *modeAgent) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, nil
}
func (a *modeAgent) SetSessionMode(_ context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.set = append(a.set, p.ModeId)
	return sdk.SetSessionModeResponse{}, nil
}

// A session that starts in an auto-approving mode is set to "default"; one
// already there, or an agent with no "default" mode, is left alone.
func TestSessionIsPutInTheModeThatAsks(t *testing.T) {
	t.Parallel()
	modes := func(current string, ids ...string) *sdk.SessionModeState {
		st := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(current)}
		for _, id := range ids {
			st.AvailableModes = append(st.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(id), Name: id})
		}
		return st
	}
	cases := []struct {
		name  string
		modes *sdk.SessionModeState
		want  []sdk.SessionModeId
	}{
		{"yolo", modes("yolo", "default", "autoEdit", "yolo"), []sdk.SessionModeId{"default"}},
		{"already default", modes("default", "default", "yolo"), nil},
		{"no default mode", modes("build", "build", "plan"), nil},
		{"no modes", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			agent := &modeAgent{}
			toAgentR, toAgentW := io.Pipe()
			toClientR, toClientW := io.Pipe()
			defer toAgentW.Close()
			defer toClientW.Close()
			sdk.NewAgentSideConnection(agent, toClientW, toAgentR)
			var lines []Line
			s := &Session{id: "s-1", client: &client{emit: func(l Line) { lines = append(lines, l) }}}
			s.conn = sdk.NewClientSideConnection(s.client, toAgentW, toClientR)
			if err := s.askingMode(context.Background(), c.modes); err != nil {
				t.Fatal(err)
			}
			agent.mu.Lock()
			defer agent.mu.Unlock()
			if len(agent.set) != len(c.want) || len(c.want) > 0 && agent.set[0] != c.want[0] {
				t.Fatalf("set_mode calls = %v, want %v", agent.set, c.want)
			}
			if (len(lines) > 0) != (len(c.want) > 0) {
				t.Errorf("journal lines = %+v", lines)
			}
		})
	}
}
