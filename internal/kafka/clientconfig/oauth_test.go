package clientconfig

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

// testJWT returns an unsigned JWT-shaped token with the claims (the client never checks the
// signature; the broker does, see the real-broker test).
func testJWT(t *testing.T, claims map[string]any) string {
	t.Helper()
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none"}`)) + "." + enc(payload) + ".c2ln"
}

// tokenServer is an OIDC token endpoint that records what it was asked.
type tokenServer struct {
	*httptest.Server
	mu       sync.Mutex
	auth     []string // Authorization headers seen
	forms    []string // request bodies seen
	fail     bool
	lifetime time.Duration
	now      func() time.Time
	t        *testing.T
}

func newTokenServer(t *testing.T, now func() time.Time) *tokenServer {
	ts := &tokenServer{lifetime: 100 * time.Second, now: now, t: t}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		ts.mu.Lock()
		defer ts.mu.Unlock()
		ts.auth = append(ts.auth, r.Header.Get("Authorization"))
		ts.forms = append(ts.forms, r.PostForm.Encode())
		if ts.fail {
			http.Error(w, `{"error":"temporarily_unavailable"}`, http.StatusServiceUnavailable)
			return
		}
		tok := testJWT(t, map[string]any{"sub": "svc", "exp": ts.now().Add(ts.lifetime).Unix(), "n": len(ts.auth)})
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":%d}`, tok, int(ts.lifetime.Seconds()))
	}))
	t.Cleanup(ts.Close)
	return ts
}

func (ts *tokenServer) requests() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.auth)
}

const oauthModule = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"

func oauthProps(url string, kv ...string) map[string]string {
	m := map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "OAUTHBEARER",
		"sasl.login.callback.handler.class": oidcHandler, "sasl.oauthbearer.token.endpoint.url": url,
		"sasl.jaas.config": oauthModule + ` required clientId="svc" clientSecret="` + testSecret + `+/=" scope="kafka read";`}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func applyOAuth(t *testing.T, props map[string]string, now func() time.Time) *oidcTokenProvider {
	t.Helper()
	s, err := FromProperties(props, Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if s.SASL == nil || s.SASL.Mechanism != MechanismOAuthBearer {
		t.Fatalf("SASL %+v", s.SASL)
	}
	tp, ok := s.SASL.Tokens.(*oidcTokenProvider)
	if !ok {
		t.Fatalf("token source %T", s.SASL.Tokens)
	}
	if now != nil {
		tp.now = now
	}
	return tp
}

func TestOIDCTokenRequest(t *testing.T) {
	basic := func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(s)) }
	tests := []struct {
		name      string
		kv        []string
		wantAuth  string
		wantForm  string
		wantExt   map[string]string
		wantToken bool
	}{
		{"Kafka's default: credentials not URL-encoded", nil, basic("svc:" + testSecret + "+/="), "grant_type=client_credentials&scope=kafka+read", map[string]string{}, true},
		{"header.urlencode=true", []string{"sasl.oauthbearer.header.urlencode", "true"}, basic("svc:" + testSecret + "%2B%2F%3D"), "", nil, true},
		{"properties win over JAAS options (Kafka 4.1+)", []string{"sasl.oauthbearer.client.credentials.client.id", "other",
			"sasl.oauthbearer.client.credentials.client.secret", "s2", "sasl.oauthbearer.scope", "x"}, basic("other:s2"), "grant_type=client_credentials&scope=x", nil, true},
		{"SASL extensions from the JAAS options", []string{"sasl.jaas.config", oauthModule + ` required clientId=svc clientSecret=s extension_logicalCluster="lkc-1";`},
			basic("svc:s"), "grant_type=client_credentials", map[string]string{"logicalCluster": "lkc-1"}, true},
		{"the old handler class name", []string{"sasl.login.callback.handler.class", oidcHandlerOld}, "", "", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTokenServer(t, time.Now)
			tp := applyOAuth(t, oauthProps(ts.URL+"/token", tt.kv...), nil)
			tok, err := tp.Token(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if exp, err := jwtExpiry(tok.Value, "sub"); err != nil || exp.Before(time.Now()) {
				t.Fatalf("token expiry %v %v", exp, err)
			}
			if tt.wantAuth != "" && ts.auth[0] != tt.wantAuth {
				t.Errorf("Authorization %q, want %q", ts.auth[0], tt.wantAuth)
			}
			if tt.wantForm != "" && ts.forms[0] != tt.wantForm {
				t.Errorf("form %q, want %q", ts.forms[0], tt.wantForm)
			}
			if tt.wantExt != nil && fmt.Sprint(tok.Extensions) != fmt.Sprint(tt.wantExt) {
				t.Errorf("extensions %v, want %v", tok.Extensions, tt.wantExt)
			}
		})
	}
}

// TestOIDCTokenRefresh: a token is reused until 80% of its lifetime
// (sasl.login.refresh.window.factor), then refreshed; a failed refresh keeps the old token
// while it is valid, and fails after.
func TestOIDCTokenRefresh(t *testing.T) {
	var mu sync.Mutex
	clock := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
	ts := newTokenServer(t, now)
	tp := applyOAuth(t, oauthProps(ts.URL), now)
	first, err := tp.Token(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		advance  time.Duration
		fail     bool
		requests int
		same     bool // the same token as the first
		wantErr  bool
	}{
		{79 * time.Second, false, 1, true, false}, // before 80% of 100s: cached
		{2 * time.Second, false, 2, false, false}, // past 80%: refreshed
		{81 * time.Second, true, 3, false, false}, // refresh fails, the second token is still valid
		{20 * time.Second, true, 4, false, true},  // and now it has expired
		{1 * time.Second, false, 5, false, false}, // the endpoint is back
	}
	for i, s := range steps {
		advance(s.advance)
		ts.mu.Lock()
		ts.fail = s.fail
		ts.mu.Unlock()
		tok, err := tp.Token(t.Context())
		if (err != nil) != s.wantErr {
			t.Fatalf("step %d: error %v", i, err)
		}
		if n := ts.requests(); n != s.requests {
			t.Fatalf("step %d: %d token requests, want %d", i, n, s.requests)
		}
		if err == nil && (tok.Value == first.Value) != s.same {
			t.Fatalf("step %d: same token %v, want %v", i, tok.Value == first.Value, s.same)
		}
	}
}

func TestOIDCConfigErrors(t *testing.T) {
	ts := newTokenServer(t, time.Now)
	tests := []struct {
		name  string
		props map[string]string
		want  string
	}{
		{"no endpoint", oauthProps(""), "sasl.oauthbearer.token.endpoint.url: is required for OAUTHBEARER"},
		{"unsecured login handler", oauthProps(ts.URL, "sasl.login.callback.handler.class",
			"org.apache.kafka.common.security.oauthbearer.internals.unsecured.OAuthBearerUnsecuredLoginCallbackHandler"), "only Kafka's OIDC login"},
		{"no client secret", oauthProps(ts.URL, "sasl.jaas.config", oauthModule+` required clientId="svc";`), `has no clientSecret="..." option`},
		{"bad scheme", oauthProps("ftp://x"), "want an http, https or file URL"},
		{"jwt-bearer grant", oauthProps(ts.URL, "sasl.oauthbearer.jwt.retriever.class", "org.apache.kafka.common.security.oauthbearer.JwtBearerJwtRetriever"), "only the client-credentials and file retrievers"},
		{"bad refresh factor", oauthProps(ts.URL, "sasl.login.refresh.window.factor", "2"), "want a number from 0.5 to 1.0"},
		{"PlainLoginModule for OAUTHBEARER", oauthProps(ts.URL, "sasl.jaas.config", jaas("u", testSecret)), "PlainLoginModule does not work with sasl.mechanism=OAUTHBEARER"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromProperties(tt.props, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || showsSecret(err.Error()) {
				t.Fatalf("error %v, want one containing %q and no secret", err, tt.want)
			}
		})
	}
}

func TestOIDCTokenErrors(t *testing.T) {
	serve := func(body string, status int) string {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprint(w, body)
		}))
		t.Cleanup(s.Close)
		return s.URL
	}
	tests := []struct{ name, url, want string }{
		{"not a JWT", serve(`{"access_token":"opaque-`+testSecret+`","expires_in":60}`, 200), "not a JWT"},
		{"no sub claim", serve(`{"access_token":"`+testJWT(t, map[string]any{"exp": time.Now().Add(time.Hour).Unix()})+`"}`, 200), `no "sub" claim`},
		{"no exp claim", serve(`{"access_token":"`+testJWT(t, map[string]any{"sub": "x"})+`"}`, 200), "no numeric exp claim"},
		{"expired", serve(`{"access_token":"`+testJWT(t, map[string]any{"sub": "x", "exp": 1})+`"}`, 200), "expired token"},
		{"refused", serve(`{"error":"invalid_client"}`, 401), "invalid_client"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tp := applyOAuth(t, oauthProps(tt.url), nil)
			_, err := tp.Token(t.Context())
			if err == nil || !strings.Contains(err.Error(), tt.want) || showsSecret(err.Error()) {
				t.Fatalf("error %v, want one containing %q and no secret", err, tt.want)
			}
		})
	}
}

func TestOIDCFileToken(t *testing.T) {
	tok := testJWT(t, map[string]any{"sub": "svc", "exp": time.Now().Add(time.Hour).Unix()})
	file := kafkatest.WriteFile(t, t.TempDir(), "token", []byte(tok+"\n"))
	tp := applyOAuth(t, oauthProps("file://"+file, "sasl.jaas.config", oauthModule+" required;"), nil)
	got, err := tp.Token(t.Context())
	if err != nil || got.Value != tok {
		t.Fatalf("token %q, %v", got, err)
	}
}
