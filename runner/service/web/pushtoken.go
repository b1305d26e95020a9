package web

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/atomicfile"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// PushTTL is how long a push's Approve and Deny actions work.
const PushTTL = 10 * time.Minute

// pushPurpose labels the push tokens' HMAC (userstate.Sign), so no other
// record Sentinel signs is ever a push token.
const pushPurpose = "web-push-answer-v1"

// pushClaim is what a push action's token says: this decision, for this
// one request (its id and what it asks), until Exp, once (Nonce; a
// notification's two actions share it, so only one of them ever counts).
type pushClaim struct {
	ID       string `json:"id"`
	Decision string `json:"d"`
	Bind     string `json:"b"`
	Exp      int64  `json:"exp"`
	Nonce    string `json:"n"`
}

// bindOf ties a token to what e asks, not only to its id.
func bindOf(e queue.Entry) string {
	h := sha256.Sum256([]byte(e.Run + "\x00" + e.Project + "\x00" + string(e.Kind) + "\x00" + what(e.Request) + "\x00" + e.Request.Cwd))
	return hex.EncodeToString(h[:12])
}

func newNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// signPush makes the token for c.
func signPush(c pushClaim) (string, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	payload := base64.RawURLEncoding.EncodeToString(b)
	sig, err := userstate.Sign(pushPurpose, []byte(payload))
	if err != nil {
		return "", err
	}
	return payload + "." + sig, nil
}

// usedNonces remembers the nonces spent until their tokens expire, in
// memory and in the state dir (spentFile), so a service restarted within a
// token's ten minutes still refuses it the second time.
type usedNonces struct {
	mu     sync.Mutex
	used   map[string]int64 // nonce → exp
	loaded bool
}

// spentFile is where spent push nonces are kept (state dir): a line
// "NONCE EXP" for each, appended before the answer is applied.
const spentFile = "service/push-spent"

// load reads the spent nonces not yet expired (u.mu held), once.
func (u *usedNonces) load(now time.Time) {
	if u.loaded {
		return
	}
	u.loaded = true
	u.used = map[string]int64{}
	p, err := userstate.Path(spentFile)
	if err != nil {
		return
	}
	b, _ := os.ReadFile(p) // none yet: nothing spent
	for _, line := range strings.Split(string(b), "\n") {
		n, e, ok := strings.Cut(line, " ")
		exp, err := strconv.ParseInt(e, 10, 64)
		if ok && err == nil && now.Unix() < exp {
			u.used[n] = exp
		}
	}
}

// record appends a spent nonce to spentFile; the file is rewritten with
// only the live ones when it has grown past them.
func (u *usedNonces) record(nonce string, exp int64) error {
	p, err := userstate.Path(spentFile)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	if fi, err := os.Stat(p); err == nil && fi.Size() > 64<<10 {
		var b strings.Builder
		for n, e := range u.used {
			fmt.Fprintf(&b, "%s %d\n", n, e)
		}
		return atomicfile.Write(p, []byte(b.String()), 0o600)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s %d\n", nonce, exp)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// errPush is every refusal of a push token: which check failed is not
// told to whoever holds it.
var errPush = errors.New("this action is not valid (expired, used, or not for a waiting request): open the page")

// spend checks token and spends its nonce: a bad signature, an expired
// claim or a nonce already spent is refused. Spending happens before the
// request is looked at, so a token is used at most once whatever follows.
func (u *usedNonces) spend(token string, now time.Time) (pushClaim, error) {
	var c pushClaim
	payload, sig, ok := strings.Cut(token, ".")
	if !ok || len(token) > 2048 || !userstate.Verify(pushPurpose, []byte(payload), sig) {
		return c, errPush
	}
	b, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil || json.Unmarshal(b, &c) != nil || c.Nonce == "" || c.ID == "" {
		return c, errPush
	}
	if now.Unix() >= c.Exp {
		return c, errPush
	}
	if strings.ContainsAny(c.Nonce, " \n") {
		return c, errPush
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.load(now)
	for n, exp := range u.used {
		if now.Unix() >= exp {
			delete(u.used, n)
		}
	}
	if _, spent := u.used[c.Nonce]; spent {
		return c, errPush
	}
	u.used[c.Nonce] = c.Exp
	if err := u.record(c.Nonce, c.Exp); err != nil {
		// Not remembered across a restart: not used now either.
		return c, errPush
	}
	return c, nil
}
