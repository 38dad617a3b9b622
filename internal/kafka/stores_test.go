package kafka

import (
	"bytes"
	"crypto/rand"
	"crypto/x509"
	"strings"
	"testing"
	"time"

	"github.com/IBM/sarama"
	"github.com/pavlo-v-chernykh/keystore-go/v4"
	"software.sslmate.com/src/go-pkcs12"
)

// testStores are the test PKI's CA and client key written as JKS and PKCS12 stores by the
// libraries, in the test: no store is checked in.
type testStores struct {
	jksTrust, p12Trust, jksKeys, p12Keys string
}

func writeTestStores(t *testing.T, pki *testPKI, dir, storePass, keyPass string) testStores {
	t.Helper()
	trust := keystore.New()
	if err := trust.SetTrustedCertificateEntry("caroot", keystore.TrustedCertificateEntry{CreationTime: time.Now(),
		Certificate: keystore.Certificate{Type: "X509", Content: pki.ca.Raw}}); err != nil {
		t.Fatal(err)
	}
	var jt bytes.Buffer
	if err := trust.Store(&jt, []byte(storePass)); err != nil {
		t.Fatal(err)
	}
	p12t, err := pkcs12.Modern.EncodeTrustStore([]*x509.Certificate{pki.ca}, storePass)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(pki.client.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	keys := keystore.New()
	if err := keys.SetPrivateKeyEntry("client", keystore.PrivateKeyEntry{CreationTime: time.Now(), PrivateKey: keyDER,
		CertificateChain: []keystore.Certificate{{Type: "X509", Content: pki.client.Leaf.Raw}, {Type: "X509", Content: pki.ca.Raw}}},
		[]byte(keyPass)); err != nil {
		t.Fatal(err)
	}
	var jk bytes.Buffer
	if err := keys.Store(&jk, []byte(storePass)); err != nil {
		t.Fatal(err)
	}
	p12k, err := pkcs12.Modern.WithRand(rand.Reader).Encode(pki.client.PrivateKey, pki.client.Leaf, []*x509.Certificate{pki.ca}, storePass)
	if err != nil {
		t.Fatal(err)
	}
	return testStores{jksTrust: writeFile(t, dir, "trust.jks", jt.Bytes()), p12Trust: writeFile(t, dir, "trust.p12", p12t),
		jksKeys: writeFile(t, dir, "keys.jks", jk.Bytes()), p12Keys: writeFile(t, dir, "keys.p12", p12k)}
}

func TestBinaryStores(t *testing.T) {
	pki := newTestPKI(t, []string{"broker.test"}, nil)
	dir := t.TempDir()
	st := writeTestStores(t, pki, dir, testSecret, "key-"+testSecret)
	jksSamePass := writeTestStores(t, pki, t.TempDir(), testSecret, testSecret).jksKeys
	ssl := func(kv ...string) map[string]string {
		m := map[string]string{"security.protocol": "SSL"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name      string
		props     map[string]string
		trust     bool // RootCAs must trust the test CA
		clientKey bool // Certificates must be the test client's
		wantErr   string
	}{
		{"JKS truststore", ssl("ssl.truststore.type", "JKS", "ssl.truststore.location", st.jksTrust, "ssl.truststore.password", testSecret), true, false, ""},
		{"JKS truststore without a type", ssl("ssl.truststore.location", st.jksTrust, "ssl.truststore.password", testSecret), true, false, ""},
		{"JKS truststore without a password (no integrity check, as the JVM)", ssl("ssl.truststore.location", st.jksTrust), true, false, ""},
		{"JKS truststore with a wrong password", ssl("ssl.truststore.location", st.jksTrust, "ssl.truststore.password", "wrong"), false, false, "wrong password"},
		{"PKCS12 truststore", ssl("ssl.truststore.type", "PKCS12", "ssl.truststore.location", st.p12Trust, "ssl.truststore.password", testSecret), true, false, ""},
		{"PKCS12 file with type JKS (the JVM reads it too)", ssl("ssl.truststore.type", "JKS", "ssl.truststore.location", st.p12Trust, "ssl.truststore.password", testSecret), true, false, ""},
		{"PKCS12 truststore with a wrong password", ssl("ssl.truststore.location", st.p12Trust, "ssl.truststore.password", "wrong"), false, false, "wrong password (ssl.truststore.password)"},
		{"PKCS12 keystore used as truststore", ssl("ssl.truststore.location", st.p12Keys, "ssl.truststore.password", testSecret), false, false, ""},
		{"PKCS12 keystore", ssl("ssl.keystore.type", "PKCS12", "ssl.keystore.location", st.p12Keys, "ssl.keystore.password", testSecret,
			"ssl.truststore.location", st.p12Trust, "ssl.truststore.password", testSecret), true, true, ""},
		{"PKCS12 keystore with a wrong password", ssl("ssl.keystore.location", st.p12Keys, "ssl.keystore.password", "nope"), false, false, "wrong password (ssl.keystore.password)"},
		{"PKCS12 keystore with another key password", ssl("ssl.keystore.location", st.p12Keys, "ssl.keystore.password", testSecret, "ssl.key.password", "x"), false, false, "one password"},
		{"JKS keystore with a key password", ssl("ssl.keystore.type", "JKS", "ssl.keystore.location", st.jksKeys, "ssl.keystore.password", testSecret,
			"ssl.key.password", "key-"+testSecret), false, true, ""},
		{"JKS keystore, key password = store password by default", ssl("ssl.keystore.location", jksSamePass, "ssl.keystore.password", testSecret), false, true, ""},
		{"JKS keystore with a wrong key password", ssl("ssl.keystore.location", st.jksKeys, "ssl.keystore.password", testSecret, "ssl.key.password", "no"), false, false, "cannot decrypt the key"},
		{"JKS keystore without a password", ssl("ssl.keystore.location", st.jksKeys), false, false, "ssl.keystore.password: is required for a JKS keystore"},
		{"JKS truststore with type PEM", ssl("ssl.truststore.type", "PEM", "ssl.truststore.location", st.jksTrust), false, false, "the file is a JKS store, not PEM"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := sarama.NewConfig()
			_, err := ApplyProperties(cfg, tt.props)
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				if showsSecret(err.Error()) {
					t.Fatalf("error %q shows a password", err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			tc := cfg.Net.TLS.Config
			if tt.trust {
				pki.mustVerify(t, tc.RootCAs)
			}
			if tt.clientKey {
				pki.mustBeClientCert(t, tc)
			}
		})
	}
}
