package realkafka

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"
)

// OAuthKey reads the RSA key scripts/kafka.sh made to sign OAUTHBEARER tokens (its JWKS is
// what the broker verifies them against).
func OAuthKey(t testing.TB) *rsa.PrivateKey {
	t.Helper()
	data, err := os.ReadFile(Env(t, "OFFSETTUI_IT_OAUTH_KEY"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := pem.Decode(data)
	if b == nil {
		t.Fatal("OFFSETTUI_IT_OAUTH_KEY: no PEM block")
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return k.(*rsa.PrivateKey)
}

// OIDCEndpoint serves an OIDC token endpoint for client offsettui/oidc-secret that signs
// RS256 JWTs valid for lifetime with signKey (the broker verifies them against
// scripts/kafka.sh's JWKS), counts the tokens it issues in issued (may be nil), and returns
// its URL. It stops when the test ends.
func OIDCEndpoint(t testing.TB, signKey *rsa.PrivateKey, lifetime time.Duration, issued *atomic.Int32) string {
	t.Helper()
	claims := map[string]any{"iss": Env(t, "OFFSETTUI_IT_OAUTH_ISSUER"), "aud": Env(t, "OFFSETTUI_IT_OAUTH_AUDIENCE"),
		"sub": "offsettui-oauth", "scope": "kafka"}
	kid := Env(t, "OFFSETTUI_IT_OAUTH_KID")
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, secret, ok := r.BasicAuth()
		if !ok || id != "offsettui" || secret != "oidc-secret" || r.FormValue("grant_type") != "client_credentials" {
			http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
			return
		}
		now := time.Now()
		c := map[string]any{"iat": now.Unix(), "exp": now.Add(lifetime).Unix()}
		for k, v := range claims {
			c[k] = v
		}
		token, err := signRS256(signKey, kid, c)
		if err != nil {
			http.Error(w, `{"error":"server_error"}`, http.StatusInternalServerError)
			return
		}
		if issued != nil {
			issued.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":%d}`, token, int(lifetime.Seconds()))
	}))
	t.Cleanup(s.Close)
	return s.URL + "/oauth2/token"
}

// OAuthProperties are client properties for OAUTHBEARER with OIDC client credentials
// (client offsettui with secret) at the token endpoint url.
func OAuthProperties(url, secret string) map[string]string {
	return map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "OAUTHBEARER",
		"sasl.login.callback.handler.class":   "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
		"sasl.oauthbearer.token.endpoint.url": url,
		"sasl.jaas.config": `org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required clientId="offsettui" clientSecret="` +
			secret + `" scope="kafka";`}
}

// signRS256 makes a JWS compact token (RS256) as an OIDC provider does.
func signRS256(key *rsa.PrivateKey, kid string, claims map[string]any) (string, error) {
	enc := base64.RawURLEncoding.EncodeToString
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT", "kid": kid})
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	signing := enc(header) + "." + enc(payload)
	sum := sha256.Sum256([]byte(signing))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return signing + "." + enc(sig), nil
}
