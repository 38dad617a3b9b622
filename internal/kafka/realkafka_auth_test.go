package kafka_test

// Authentication against the real broker's SASL_SSL, SSL (mTLS) and OAUTHBEARER listeners
// (scripts/kafka.sh), with Kafka's own CLI as the oracle where it can run.

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/kafka/clientconfig"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

const (
	scramModule = "org.apache.kafka.common.security.scram.ScramLoginModule"
	plainModule = "org.apache.kafka.common.security.plain.PlainLoginModule"
	envProvider = "org.apache.kafka.common.config.provider.EnvVarConfigProvider"
	apiVersions = "org.apache.kafka.tools.BrokerApiVersionsCommand"
)

func kv(pairs ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return m
}

// connect builds a client from client properties (one Metadata round trip) and closes it.
func connect(addr string, props map[string]string) error {
	s, err := clientconfig.FromProperties(props, clientconfig.Options{Bootstrap: []string{addr}, Timeout: 10 * time.Second})
	if err != nil {
		return err
	}
	cl, err := kafka.NewContext(context.Background(), kafka.Config{Client: s, Timeout: 10 * time.Second})
	if err == nil {
		_ = cl.Close()
	}
	return err
}

// kafkaToolConnects runs Kafka's BrokerApiVersionsCommand with props as --command-config and
// reports whether it reached the broker (it prints the broker's API versions).
func kafkaToolConnects(t *testing.T, addr string, props map[string]string, env ...string) (bool, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "client.properties")
	var b strings.Builder
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s\n", k, strings.ReplaceAll(props[k], `\`, `\\`))
	}
	b.WriteString("request.timeout.ms=5000\ndefault.api.timeout.ms=8000\nsocket.connection.setup.timeout.ms=3000\n")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, _ := realkafka.RunToolEnv(t, env, apiVersions, "--bootstrap-server", addr, "--command-config", file)
	return strings.Contains(out, addr+" (id: 1"), out + errOut
}

// TestRealKafkaSASLSSLPasswordFromEnv: SCRAM over TLS whose password comes from ${env:...}
// through config.providers, with the test CA as JKS, PKCS12 and PEM truststores; Kafka's tool
// connects with the same properties.
func TestRealKafkaSASLSSLPasswordFromEnv(t *testing.T) {
	addr := realkafka.Env(t, "OFFSETTUI_IT_SASL_SSL_BOOTSTRAP")
	pass := realkafka.Env(t, "OFFSETTUI_IT_STORE_PASSWORD")
	t.Setenv("OT_IT_KAFKA_PASSWORD", "alice-secret")
	base := func(mech string, kvs ...string) map[string]string {
		p := kv("security.protocol", "SASL_SSL", "sasl.mechanism", mech,
			"config.providers", "env", "config.providers.env.class", envProvider,
			"config.providers.env.param.allowlist.pattern", "OT_IT_.*",
			"sasl.jaas.config", scramModule+` required username="alice" password="${env:OT_IT_KAFKA_PASSWORD}";`)
		for k, v := range kv(kvs...) {
			p[k] = v
		}
		return p
	}
	tests := []struct {
		name    string
		props   map[string]string
		oracle  bool
		wantErr string
	}{
		{"SCRAM-SHA-512, JKS truststore", base("SCRAM-SHA-512", "ssl.truststore.type", "JKS",
			"ssl.truststore.location", realkafka.Env(t, "OFFSETTUI_IT_TRUSTSTORE_JKS"), "ssl.truststore.password", pass), true, ""},
		{"SCRAM-SHA-256, PKCS12 truststore", base("SCRAM-SHA-256", "ssl.truststore.type", "PKCS12",
			"ssl.truststore.location", realkafka.Env(t, "OFFSETTUI_IT_TRUSTSTORE_PKCS12"), "ssl.truststore.password", pass), true, ""},
		{"PLAIN, PEM truststore", base("PLAIN", "ssl.truststore.type", "PEM", "ssl.truststore.location", realkafka.Env(t, "OFFSETTUI_IT_CA_PEM"),
			"sasl.jaas.config", plainModule+` required username="alice" password="${env:OT_IT_KAFKA_PASSWORD}";`), false, ""},
		{"wrong password from env", base("SCRAM-SHA-512", "ssl.truststore.location", realkafka.Env(t, "OFFSETTUI_IT_CA_PEM"),
			"sasl.jaas.config", scramModule+` required username="alice" password="${env:OT_IT_WRONG}";`), false, "SASL"},
		{"env var outside the allow-list", base("SCRAM-SHA-512", "ssl.truststore.location", realkafka.Env(t, "OFFSETTUI_IT_CA_PEM"),
			"config.providers.env.param.allowlist.pattern", "KAFKA_.*"), false, "not allowed by allowlist.pattern"},
		{"no truststore: the system roots do not know the test CA", base("SCRAM-SHA-512"), false, "certificate"},
	}
	t.Setenv("OT_IT_WRONG", "not-alices-password")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := connect(addr, tt.props)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("connect: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("connect: error %v, want one containing %q", err, tt.wantErr)
			case err != nil && strings.Contains(err.Error(), "alice-secret"):
				t.Fatalf("error shows the password: %v", err)
			}
			if tt.oracle {
				if ok, out := kafkaToolConnects(t, addr, tt.props); !ok {
					t.Fatalf("Kafka's tool did not connect with the same properties:\n%s", out)
				}
			}
		})
	}
}

// TestRealKafkaMTLS: the SSL listener requires a client certificate; a PKCS12 keystore made
// by openssl gives it (the principal is a super user), and Kafka's tool agrees.
func TestRealKafkaMTLS(t *testing.T) {
	addr := realkafka.Env(t, "OFFSETTUI_IT_SSL_BOOTSTRAP")
	pass := realkafka.Env(t, "OFFSETTUI_IT_STORE_PASSWORD")
	withKey := kv("security.protocol", "SSL", "ssl.truststore.location", realkafka.Env(t, "OFFSETTUI_IT_TRUSTSTORE_PKCS12"),
		"ssl.truststore.password", pass, "ssl.keystore.type", "PKCS12", "ssl.keystore.location", realkafka.Env(t, "OFFSETTUI_IT_KEYSTORE_PKCS12"),
		"ssl.keystore.password", pass, "ssl.key.password", pass)
	if err := connect(addr, withKey); err != nil {
		t.Fatalf("mTLS with a PKCS12 keystore: %v", err)
	}
	if ok, out := kafkaToolConnects(t, addr, withKey); !ok {
		t.Fatalf("Kafka's tool did not connect with the same properties:\n%s", out)
	}
	noKey := kv("security.protocol", "SSL", "ssl.truststore.location", realkafka.Env(t, "OFFSETTUI_IT_CA_PEM"))
	if err := connect(addr, noKey); err == nil {
		t.Fatal("connected without a client certificate to a listener that requires one")
	}
}

// TestRealKafkaJAASMatchesKafka: the JAAS lines Kafka's client refuses are refused here, and
// the ones it takes work here, on the same listener (Kafka's tool is the oracle).
func TestRealKafkaJAASMatchesKafka(t *testing.T) {
	addr := realkafka.Env(t, "OFFSETTUI_IT_SASL_BOOTSTRAP")
	tests := []struct{ name, mech, jaas string }{
		{"PlainLoginModule with PLAIN", "PLAIN", plainModule + ` required username="admin" password="admin-secret";`},
		{"ScramLoginModule with PLAIN", "PLAIN", scramModule + ` required username="admin" password="admin-secret";`},
		{"PlainLoginModule with SCRAM", "SCRAM-SHA-256", plainModule + ` required username="admin" password="admin-secret";`},
		{"no final semicolon", "SCRAM-SHA-256", scramModule + ` required username="admin" password="admin-secret"`},
		{"bare-word values", "SCRAM-SHA-512", scramModule + ` required username=admin password=admin-secret;`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			props := kv("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", tt.mech, "sasl.jaas.config", tt.jaas)
			ours := connect(addr, props)
			theirs, out := kafkaToolConnects(t, addr, props)
			if (ours == nil) != theirs {
				t.Fatalf("offsettui connects: %v (%v); Kafka's tool connects: %v\n%s", ours == nil, ours, theirs, out)
			}
			t.Logf("both %s", map[bool]string{true: "connect", false: "refuse"}[theirs])
		})
	}
}

// TestRealKafkaOAuthBearer: OAUTHBEARER end to end. The test serves the OIDC token endpoint,
// signing RS256 JWTs with the key scripts/kafka.sh made; the broker checks them with Kafka's
// own OAuthBearerValidatorCallbackHandler against that key's JWKS.
func TestRealKafkaOAuthBearer(t *testing.T) {
	addr := realkafka.Env(t, "OFFSETTUI_IT_OAUTH_BOOTSTRAP")
	key := realkafka.OAuthKey(t)
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	var issued atomic.Int32
	endpoint := func(signKey *rsa.PrivateKey) string { return realkafka.OIDCEndpoint(t, signKey, time.Hour, &issued) }
	props := realkafka.OAuthProperties
	if err := connect(addr, props(endpoint(key), "oidc-secret")); err != nil {
		t.Fatalf("OAUTHBEARER with a token the broker can verify: %v", err)
	}
	if issued.Load() == 0 {
		t.Fatal("no token was fetched")
	}
	err = connect(addr, props(endpoint(other), "oidc-secret"))
	switch v := realkafka.Env(t, "OFFSETTUI_IT_KAFKA_VERSION"); {
	case strings.HasPrefix(v, "4.1."):
		// Kafka 4.1's broker validator (DefaultJwtValidator built without a key resolver)
		// falls back to ClientJwtValidator, which checks claims but not signatures.
		t.Logf("Kafka %s does not verify OAUTHBEARER signatures: a token from an unknown key gave %v", v, err)
	case err == nil:
		t.Fatal("the broker took a token signed by a key outside its JWKS")
	}
	if err := connect(addr, props(endpoint(key), "wrong")); err == nil || !strings.Contains(err.Error(), "invalid_client") {
		t.Fatalf("refused client credentials: error %v", err)
	}
}
