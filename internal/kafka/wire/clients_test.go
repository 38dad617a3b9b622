package wire

// Both clients (sarama, and franz-go's kgo for the requests sarama lacks) configured from
// the same client settings connect alike and send the same credentials.

import (
	"context"
	"crypto/tls"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/clientconfig"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/xdg-go/scram"
)

// testSecret is the password in every test input; no error may contain it, in any letter
// case (see showsSecret).
const testSecret = "Hunter2-s3cret"

func showsSecret(s string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(testSecret))
}

// jaas returns a sasl.jaas.config value for the Plain login module.
func jaas(user, pass string) string {
	return `org.apache.kafka.common.security.plain.PlainLoginModule required username="` + user + `" password="` + pass + `";`
}

// scramJAAS returns a sasl.jaas.config value for the Scram login module.
func scramJAAS(user, pass string) string {
	return `org.apache.kafka.common.security.scram.ScramLoginModule required username="` + user + `" password="` + pass + `";`
}

func TestSCRAMClient(t *testing.T) {
	for _, tt := range []struct {
		mech            sarama.SASLMechanism
		hash, wrongHash scram.HashGeneratorFcn
	}{{sarama.SASLTypeSCRAMSHA256, scram.SHA256, scram.SHA512}, {sarama.SASLTypeSCRAMSHA512, scram.SHA512, scram.SHA256}} {
		t.Run(string(tt.mech), func(t *testing.T) {
			gen := scramGenerator(tt.mech)
			if err := scramExchange(gen(), tt.hash, "u", testSecret, testSecret); err != nil {
				t.Errorf("right password: %v", err)
			}
			err := scramExchange(gen(), tt.hash, "u", testSecret, "wrong")
			if err == nil || showsSecret(err.Error()) {
				t.Errorf("wrong password: %v", err)
			}
			if err := scramExchange(gen(), tt.wrongHash, "u", testSecret, testSecret); err == nil {
				t.Error("a server using the other hash accepted the client")
			}
		})
	}
	// Kafka does not SASLprep passwords, so neither may we: an emoji password must work.
	if err := scramExchange(scramGenerator(sarama.SASLTypeSCRAMSHA256)(), scram.SHA256, "u,=", "pw😀", "pw😀"); err != nil {
		t.Errorf("unprepped credentials: %v", err)
	}
	if scramGenerator(sarama.SASLTypePlaintext) != nil {
		t.Error("a SCRAM generator for PLAIN")
	}
	if _, err := (&scramClient{hash: scram.SHA256}).Step(""); err == nil {
		t.Error("Step before Begin succeeded")
	}
}

// scramExchange runs client against an xdg-go/scram server whose stored password is stored.
func scramExchange(client sarama.SCRAMClient, hash scram.HashGeneratorFcn, user, stored, pass string) error {
	salt := []byte("0123456789abcdef")
	sc, err := hash.NewClientUnprepped(user, stored, "")
	if err != nil {
		return err
	}
	creds, err := sc.GetStoredCredentialsWithError(scram.KeyFactors{Salt: string(salt), Iters: 4096})
	if err != nil {
		return err
	}
	srv, err := hash.NewServer(func(string) (scram.StoredCredentials, error) { return creds, nil })
	if err != nil {
		return err
	}
	conv := srv.NewConversation()
	if err := client.Begin(user, pass, ""); err != nil {
		return err
	}
	msg, err := client.Step("")
	for err == nil && !client.Done() {
		var challenge string
		if challenge, err = conv.Step(msg); err != nil {
			break
		}
		msg, err = client.Step(challenge)
	}
	if err == nil && !conv.Valid() {
		err = errors.New("server did not validate the client")
	}
	return err
}

// TestClientsConnectAlike connects sarama and franz-go's kgo, both configured from the same
// client properties, to kfake brokers that require SASL, TLS, or both: for every setup both
// connect, or both fail, and no error shows the password.
func TestClientsConnectAlike(t *testing.T) {
	pki := kafkatest.NewPKI(t, []string{"kafka.invalid"}, nil) // the broker listens on 127.0.0.1: a hostname mismatch
	other := kafkatest.NewPKI(t, []string{"kafka.invalid"}, nil)
	dir := t.TempDir()
	ca, otherCA := kafkatest.WriteFile(t, dir, "ca.pem", pki.CAPEM), kafkatest.WriteFile(t, dir, "other.pem", other.CAPEM)
	st := kafkatest.WriteStores(t, pki, dir, testSecret, testSecret)
	users := []kfake.Opt{kfake.EnableSASL(), kfake.Superuser("PLAIN", "alice", testSecret),
		kfake.Superuser("SCRAM-SHA-256", "alice", testSecret), kfake.Superuser("SCRAM-SHA-512", "alice", testSecret)}
	serverTLS := &tls.Config{Certificates: []tls.Certificate{pki.Server}}
	mTLS := &tls.Config{Certificates: []tls.Certificate{pki.Server}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pki.Pool()}
	props := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name    string
		cluster []kfake.Opt
		props   map[string]string
		wantErr string // "" for success; sarama's error contains it
	}{
		// kfake drops the connection on bad credentials (EOF); a real broker answers
		// SASL_AUTHENTICATION_FAILED first, see TestBadPasswordFromARealBrokerShape.
		{"SASL PLAIN", users, props("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN", "sasl.jaas.config", jaas("alice", testSecret)), ""},
		{"SASL SCRAM-SHA-256", users, props("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-256", "sasl.jaas.config", scramJAAS("alice", testSecret)), ""},
		{"SASL SCRAM-SHA-512", users, props("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-512", "sasl.jaas.config", scramJAAS("alice", testSecret)), ""},
		{"PLAIN with a bad password", users, props("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN", "sasl.jaas.config", jaas("alice", testSecret+"x")), "EOF"},
		{"SCRAM-SHA-256 with a bad password", users, props("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-256", "sasl.jaas.config", scramJAAS("alice", testSecret+"x")), "EOF"},
		{"SCRAM-SHA-512 with a bad password", users, props("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-512", "sasl.jaas.config", scramJAAS("alice", testSecret+"x")), "EOF"},
		{"TLS checks the hostname by default", []kfake.Opt{kfake.TLS(serverTLS)}, props("security.protocol", "SSL", "ssl.truststore.location", ca), "127.0.0.1"},
		{"TLS without hostname check", []kfake.Opt{kfake.TLS(serverTLS)}, props("security.protocol", "SSL", "ssl.truststore.location", ca, "ssl.endpoint.identification.algorithm", ""), ""},
		{"TLS without hostname check still checks the CA", []kfake.Opt{kfake.TLS(serverTLS)}, props("security.protocol", "SSL", "ssl.truststore.location", otherCA, "ssl.endpoint.identification.algorithm", ""), "unknown authority"},
		{"TLS without a truststore uses the system roots", []kfake.Opt{kfake.TLS(serverTLS)}, props("security.protocol", "SSL", "ssl.endpoint.identification.algorithm", ""), "unknown authority"},
		{"mTLS", []kfake.Opt{kfake.TLS(mTLS)}, props("security.protocol", "SSL", "ssl.truststore.certificates", string(pki.CAPEM), "ssl.endpoint.identification.algorithm", "",
			"ssl.keystore.certificate.chain", string(pki.ClientPEM), "ssl.keystore.key", string(pki.ClientKeyPEM)), ""},
		{"TLS with a PKCS12 truststore", []kfake.Opt{kfake.TLS(serverTLS)}, props("security.protocol", "SSL", "ssl.truststore.location", st.P12Trust,
			"ssl.truststore.password", testSecret, "ssl.endpoint.identification.algorithm", ""), ""},
		{"TLS with a JKS truststore", []kfake.Opt{kfake.TLS(serverTLS)}, props("security.protocol", "SSL", "ssl.truststore.type", "JKS", "ssl.truststore.location", st.JKSTrust,
			"ssl.truststore.password", testSecret, "ssl.endpoint.identification.algorithm", ""), ""},
		{"mTLS with a PKCS12 keystore", []kfake.Opt{kfake.TLS(mTLS)}, props("security.protocol", "SSL", "ssl.truststore.location", st.P12Trust, "ssl.truststore.password", testSecret,
			"ssl.endpoint.identification.algorithm", "", "ssl.keystore.location", st.P12Keys, "ssl.keystore.password", testSecret), ""},
		{"mTLS with a JKS keystore", []kfake.Opt{kfake.TLS(mTLS)}, props("security.protocol", "SSL", "ssl.truststore.location", st.JKSTrust,
			"ssl.endpoint.identification.algorithm", "", "ssl.keystore.location", st.JKSKeys, "ssl.keystore.password", testSecret), ""},
		{"mTLS without a client certificate", []kfake.Opt{kfake.TLS(mTLS)}, props("security.protocol", "SSL", "ssl.truststore.certificates", string(pki.CAPEM), "ssl.endpoint.identification.algorithm", ""), "certificate required"},
		{"SASL_SSL SCRAM-SHA-512", append([]kfake.Opt{kfake.TLS(serverTLS)}, users...), props("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512",
			"sasl.jaas.config", scramJAAS("alice", testSecret), "ssl.truststore.location", ca, "ssl.endpoint.identification.algorithm", ""), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1)}, tt.cluster...)...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			settings, err := clientconfig.FromProperties(tt.props, clientconfig.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Client: settings, Timeout: 5 * time.Second}
			sErr := saramaConnects(t, c.ListenAddrs(), cfg)
			kErr := kgoConnects(t, c.ListenAddrs(), cfg)
			switch {
			case tt.wantErr == "" && (sErr != nil || kErr != nil):
				t.Fatalf("connect: sarama %v, kgo %v", sErr, kErr)
			case tt.wantErr != "" && (sErr == nil || !strings.Contains(sErr.Error(), tt.wantErr) || kErr == nil):
				t.Fatalf("connect: sarama %v, kgo %v; want both to fail, sarama with %q", sErr, kErr, tt.wantErr)
			case sErr != nil && showsSecret(sErr.Error()), kErr != nil && showsSecret(kErr.Error()):
				t.Fatalf("connect: an error contains the password: sarama %q, kgo %q", sErr, kErr)
			}
			if sErr != nil {
				t.Logf("errors as expected: sarama %v; kgo %v", sErr, kErr)
			}
		})
	}
}

// saramaConnects connects a sarama client as internal/kafka configures it (one Metadata).
func saramaConnects(t *testing.T, addrs []string, cfg Config) error {
	t.Helper()
	sc, err := saramaConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc.Metadata.Retry.Max = 0
	sc.Metadata.Full = true // NewClient then reads the metadata
	client, err := sarama.NewClient(addrs, sc)
	if err == nil {
		_ = client.Close()
	}
	return err
}

// kgoConnects sends one Metadata request through a kgo client configured as internal/kafka
// configures it.
func kgoConnects(t *testing.T, addrs []string, cfg Config) error {
	t.Helper()
	opts, err := kgoOptions(cfg, addrs, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = cl.Request(ctx, kmsg.NewPtrMetadataRequest())
	return err
}

// TestBadPasswordFromARealBrokerShape answers SaslAuthenticate as a real broker does on a bad
// password (error code 58, not a dropped connection) and checks what the user gets to see.
func TestBadPasswordFromARealBrokerShape(t *testing.T) {
	b := sarama.NewMockBroker(t, 1)
	defer b.Close()
	b.SetHandlerByMap(map[string]sarama.MockResponse{
		"SaslHandshakeRequest":    sarama.NewMockSaslHandshakeResponse(t).SetEnabledMechanisms([]string{"PLAIN"}),
		"SaslAuthenticateRequest": sarama.NewMockSaslAuthenticateResponse(t).SetError(sarama.ErrSASLAuthenticationFailed),
	})
	settings, err := clientconfig.FromProperties(map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
		"sasl.jaas.config": jaas("alice", testSecret)}, clientconfig.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := saramaConfig(Config{Client: settings, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Version = sarama.V2_8_0_0
	cfg.ApiVersionsRequest = false // the mock's ApiVersions answer lists no SASL APIs
	cfg.Metadata.Retry.Max = 0
	cfg.Metadata.Full = true // NewClient then reads the metadata
	client, err := sarama.NewClient([]string{b.Addr()}, cfg)
	if err == nil {
		client.Close()
		t.Fatal("connected with a rejected password")
	}
	if !errors.Is(err, sarama.ErrSASLAuthenticationFailed) || showsSecret(err.Error()) {
		t.Fatalf("error %q: want SASL authentication failed, without the password", err)
	}
}

// TestClientsSendTheSameCredentials: both clients, configured from the same settings, send
// the very same SaslAuthenticate bytes, recorded by the fault proxy on their way: PLAIN to
// kfake here, OAUTHBEARER with SASL extensions to the real broker in
// TestRealKafkaClientsSendTheSameCredentials.
func TestClientsSendTheSameCredentials(t *testing.T) {
	k, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.Superuser("PLAIN", "alice", testSecret))
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	sameCredentials(t, k.ListenAddrs(), clientconfig.Settings{SASL: &clientconfig.SASL{Mechanism: clientconfig.MechanismPlain,
		User: "alice", Password: testSecret}})
}

// TestRealKafkaClientsSendTheSameCredentials: the same with OAUTHBEARER and SASL extensions,
// to the real broker's OAUTHBEARER listener, which takes both.
func TestRealKafkaClientsSendTheSameCredentials(t *testing.T) {
	addr := realkafka.Env(t, "OFFSETTUI_IT_OAUTH_BOOTSTRAP")
	props := realkafka.OAuthProperties(realkafka.OIDCEndpoint(t, realkafka.OAuthKey(t), time.Hour, nil), "oidc-secret")
	props["sasl.jaas.config"] = strings.TrimSuffix(props["sasl.jaas.config"], ";") + ` extension_traceId="x1" extension_logicalCluster="lc-1";`
	settings, err := clientconfig.FromProperties(props, clientconfig.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameCredentials(t, []string{addr}, settings)
}

// sameCredentials connects sarama, then kgo, through a fault proxy in front of addrs and
// checks that both connect and that every SaslAuthenticate either sent is the same.
func sameCredentials(t *testing.T, addrs []string, settings clientconfig.Settings) {
	t.Helper()
	m, err := kgoSASL(settings.SASL)
	if err != nil {
		t.Fatal(err)
	}
	p := faultproxy.New(t, addrs, kgo.SASL(m))
	p.Record(kmsg.SASLAuthenticate)
	cfg := Config{Client: settings, Timeout: 10 * time.Second}
	if err := saramaConnects(t, p.Addrs(), cfg); err != nil {
		t.Fatalf("sarama: %v", err)
	}
	fromSarama := authBytes(t, p)
	if err := kgoConnects(t, p.Addrs(), cfg); err != nil {
		t.Fatalf("kgo: %v", err)
	}
	all := authBytes(t, p)
	if len(fromSarama) == 0 || len(all) == len(fromSarama) {
		t.Fatalf("SaslAuthenticate requests: %d from sarama, %d from kgo; want some from each", len(fromSarama), len(all)-len(fromSarama))
	}
	for i, b := range all[1:] {
		if b != all[0] {
			t.Errorf("SaslAuthenticate %d sent %q, the first %q (sarama sent the first %d)", i+1, masked(b), masked(all[0]), len(fromSarama))
		}
	}
}

// bearer is an OAUTHBEARER token in a SASL message.
var bearer = regexp.MustCompile(`auth=Bearer [^\x01]*`)

// masked is a SASL message without its password or token.
func masked(msg string) string {
	return bearer.ReplaceAllString(strings.ReplaceAll(msg, testSecret, "***"), "auth=Bearer ***")
}

// authBytes are the SASL bytes of every SaslAuthenticate the proxy has recorded.
func authBytes(t *testing.T, p *faultproxy.Proxy) []string {
	t.Helper()
	reqs, err := p.Recorded(kmsg.SASLAuthenticate)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range reqs {
		out = append(out, string(r.(*kmsg.SASLAuthenticateRequest).SASLAuthBytes))
	}
	return out
}
