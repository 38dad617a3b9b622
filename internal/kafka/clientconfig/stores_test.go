package clientconfig

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

func TestBinaryStores(t *testing.T) {
	pki := kafkatest.NewPKI(t, []string{"broker.test"}, nil)
	dir := t.TempDir()
	st := kafkatest.WriteStores(t, pki, dir, testSecret, "key-"+testSecret)
	jksSamePass := kafkatest.WriteStores(t, pki, t.TempDir(), testSecret, testSecret).JKSKeys
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
		{"JKS truststore", ssl("ssl.truststore.type", "JKS", "ssl.truststore.location", st.JKSTrust, "ssl.truststore.password", testSecret), true, false, ""},
		{"JKS truststore without a type", ssl("ssl.truststore.location", st.JKSTrust, "ssl.truststore.password", testSecret), true, false, ""},
		{"JKS truststore without a password (no integrity check, as the JVM)", ssl("ssl.truststore.location", st.JKSTrust), true, false, ""},
		{"JKS truststore with a wrong password", ssl("ssl.truststore.location", st.JKSTrust, "ssl.truststore.password", "wrong"), false, false, "wrong password"},
		{"PKCS12 truststore", ssl("ssl.truststore.type", "PKCS12", "ssl.truststore.location", st.P12Trust, "ssl.truststore.password", testSecret), true, false, ""},
		{"PKCS12 file with type JKS (the JVM reads it too)", ssl("ssl.truststore.type", "JKS", "ssl.truststore.location", st.P12Trust, "ssl.truststore.password", testSecret), true, false, ""},
		{"PKCS12 truststore with a wrong password", ssl("ssl.truststore.location", st.P12Trust, "ssl.truststore.password", "wrong"), false, false, "wrong password (ssl.truststore.password)"},
		{"PKCS12 keystore used as truststore", ssl("ssl.truststore.location", st.P12Keys, "ssl.truststore.password", testSecret), false, false, ""},
		{"PKCS12 keystore", ssl("ssl.keystore.type", "PKCS12", "ssl.keystore.location", st.P12Keys, "ssl.keystore.password", testSecret,
			"ssl.truststore.location", st.P12Trust, "ssl.truststore.password", testSecret), true, true, ""},
		{"PKCS12 keystore with a wrong password", ssl("ssl.keystore.location", st.P12Keys, "ssl.keystore.password", "nope"), false, false, "wrong password (ssl.keystore.password)"},
		{"PKCS12 keystore with another key password", ssl("ssl.keystore.location", st.P12Keys, "ssl.keystore.password", testSecret, "ssl.key.password", "x"), false, false, "one password"},
		{"JKS keystore with a key password", ssl("ssl.keystore.type", "JKS", "ssl.keystore.location", st.JKSKeys, "ssl.keystore.password", testSecret,
			"ssl.key.password", "key-"+testSecret), false, true, ""},
		{"JKS keystore, key password = store password by default", ssl("ssl.keystore.location", jksSamePass, "ssl.keystore.password", testSecret), false, true, ""},
		{"JKS keystore with a wrong key password", ssl("ssl.keystore.location", st.JKSKeys, "ssl.keystore.password", testSecret, "ssl.key.password", "no"), false, false, "cannot decrypt the key"},
		{"JKS keystore without a password", ssl("ssl.keystore.location", st.JKSKeys), false, false, "ssl.keystore.password: is required for a JKS keystore"},
		{"JKS truststore with type PEM", ssl("ssl.truststore.type", "PEM", "ssl.truststore.location", st.JKSTrust), false, false, "the file is a JKS store, not PEM"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			settings, err := FromProperties(tt.props, Options{})
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
			tc := settings.TLS
			if tt.trust {
				pki.MustVerify(t, tc.RootCAs)
			}
			if tt.clientKey {
				pki.MustBeClientCert(t, tc)
			}
		})
	}
}
