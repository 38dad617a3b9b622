package clientconfig

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

// testSecret is the password in every test input; no error, log line or ignored list may
// contain it, in any letter case (see showsSecret).
const testSecret = "Hunter2-s3cret"

func showsSecret(s string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(testSecret))
}

func TestParseProperties(t *testing.T) {
	tests := []struct {
		name, in string
		want     map[string]string
	}{
		{"equals", "a=b", map[string]string{"a": "b"}},
		{"UTF-8 byte order mark", "\uFEFFsecurity.protocol=SSL\n", map[string]string{"security.protocol": "SSL"}},
		{"colon", "a: b", map[string]string{"a": "b"}},
		{"whitespace separator", "a   b", map[string]string{"a": "b"}},
		{"whitespace around the separator", "  a \t=\f b", map[string]string{"a": "b"}},
		{"trailing whitespace of a value is kept", "a=b  ", map[string]string{"a": "b  "}},
		{"key only", "a", map[string]string{"a": ""}},
		{"empty value", "a=", map[string]string{"a": ""}},
		{"empty key", "=b", map[string]string{"": "b"}},
		{"a second separator belongs to the value", "a==b\nc = :d", map[string]string{"a": "=b", "c": ":d"}},
		{"separator after a whitespace separator", "a b=c", map[string]string{"a": "b=c"}},
		{"hash and bang comments", "# a=1\n! b=2\n   # c=3\nd=4", map[string]string{"d": "4"}},
		{"blank lines", "\n\n \t \na=1\n\n", map[string]string{"a": "1"}},
		{"continuation drops the next line's indent", "a=one,\\\n    two,\\\n\tthree", map[string]string{"a": "one,two,three"}},
		{"a comment line is not continued", "# note \\\na=1", map[string]string{"a": "1"}},
		{"a continued line starting with # is not a comment", "a=x\\\n  #y", map[string]string{"a": "x#y"}},
		{"continuation onto a blank line ends the value", "a=x\\\n\nb=y", map[string]string{"a": "x", "b": "y"}},
		{"an even number of backslashes does not continue", "a=x\\\\\nb=y", map[string]string{"a": `x\`, "b": "y"}},
		{"a trailing backslash at end of file is dropped", "a=x\\", map[string]string{"a": "x"}},
		{"CRLF and CR line ends", "a=1\r\nb=2\rc=3\r\n", map[string]string{"a": "1", "b": "2", "c": "3"}},
		{"CRLF continuation", "a=1\\\r\n  2", map[string]string{"a": "12"}},
		{"control escapes", `a=\t\n\r\f`, map[string]string{"a": "\t\n\r\f"}},
		{"escaped backslash", `a=C:\\dir`, map[string]string{"a": `C:\dir`}},
		{"escaped separators in a key", `k\=x\:y=v`, map[string]string{"k=x:y": "v"}},
		{"escaped space in a key", `my\ key value`, map[string]string{"my key": "value"}},
		{"escaped leading space in a value", `a=\ b`, map[string]string{"a": " b"}},
		{"unknown escape is the character", `a=\q\"`, map[string]string{"a": `q"`}},
		{"escaped # starts a key", `\#k=v`, map[string]string{"#k": "v"}},
		{"unicode escapes", `a=\u0041\u00e9\u20AC`, map[string]string{"a": "Aé€"}},
		{"surrogate pair", `a=\uD83D\uDE00`, map[string]string{"a": "😀"}},
		{"lone surrogates", `a=\uD83Dx\uDE00`, map[string]string{"a": "\uFFFDx\uFFFD"}},
		{"UTF-8 text", "pässword=grüße", map[string]string{"pässword": "grüße"}},
		{"a later duplicate wins", "a=1\na=2", map[string]string{"a": "2"}},
		{"a typical file", "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n" +
			`sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \` + "\n" +
			`    username="alice" password="p=w";`,
			map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512",
				"sasl.jaas.config": `org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="p=w";`}},
		{"empty file", "", map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseProperties(strings.NewReader(tt.in), "client.properties")
			if err != nil {
				t.Fatalf("ParseProperties: %v", err)
			}
			if !maps.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParsePropertiesLatin1(t *testing.T) {
	// Not valid UTF-8: read as ISO-8859-1, as Kafka reads every properties file.
	got, err := ParseProperties(strings.NewReader("a=caf\xe9"), "x")
	if err != nil || got["a"] != "café" {
		t.Fatalf("got %q, %v; want café", got, err)
	}
}

func TestParsePropertiesErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bad hex in a value", "a=1\npassword=" + testSecret + `\u12G4`, `client.properties:2: malformed \uXXXX escape in the value of "password"`},
		{"short escape at the end", "password=" + testSecret + `\u12`, `client.properties:1: malformed \uXXXX escape in the value of "password"`},
		{"bad escape in a key", "# c\n\nk\\u00=" + testSecret, `client.properties:3: malformed \uXXXX escape in a key`},
		{"the line of the escape in a continued value", "password=" + testSecret + "\\\n  x\\\n  y\\uZZZZ", `client.properties:3: malformed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseProperties(strings.NewReader(tt.in), "client.properties")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want prefix %q", err, tt.want)
			}
			if showsSecret(err.Error()) {
				t.Errorf("error %q contains the secret", err)
			}
		})
	}
	t.Run("too large", func(t *testing.T) {
		big := strings.Repeat("a=b\n", maxPropertiesSize/4+1)
		if _, err := ParseProperties(strings.NewReader(big), "huge"); err == nil || !strings.Contains(err.Error(), "huge: larger than") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("read error", func(t *testing.T) {
		if _, err := ParseProperties(iotest.ErrReader(errors.New("boom")), "f"); err == nil || err.Error() != "read f: boom" {
			t.Fatalf("error %v", err)
		}
	})
}

func TestParseJAAS(t *testing.T) {
	const plain = "org.apache.kafka.common.security.plain.PlainLoginModule"
	tests := []struct{ name, in, user, pass string }{
		{"plain", plain + ` required username="u" password="p";`, "u", "p"},
		{"scram, options reversed", `org.apache.kafka.common.security.scram.ScramLoginModule required password="p" username="u";`, "u", "p"},
		{"escaped quote and backslash", plain + ` required username="u" password="a\"b\\c";`, "u", `a"b\c`},
		{"single quotes", plain + ` required username='u' password='p"q';`, "u", `p"q`},
		{"bare words", plain + ` required username=u password=p-1;`, "u", "p-1"},
		{"extra options ignored", plain + ` required serviceName="kafka" username="u" debug=true password="p" foo="bar";`, "u", "p"},
		{"comments and newlines", plain + " /* c */ required // line\n username = \"u\"\n\tpassword=\"p\" ;", "u", "p"},
		{"shaded module name, flag case", "kafkashaded.org.apache.kafka.common.security.plain.PlainLoginModule REQUIRED username=\"u\" password=\"p\";", "u", "p"},
		{"bare word with digits, dots and dashes", plain + ` required username=u2.x-y password=p;`, "u2.x-y", "p"},
		{"non-ASCII bare word", plain + ` required username=über password=p;`, "über", "p"},
		{"octal and control escapes", plain + ` required username="u" password="\101\tz\7";`, "u", "A\tz\a"},
		{"separators inside quotes", plain + ` required username="u;=" password=" p ";`, "u;=", " p "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := parseJAAS(tt.in)
			u, p := e.options["username"], e.options["password"]
			if err != nil || u != tt.user || p != tt.pass {
				t.Fatalf("got %q %q %v, want %q %q", u, p, err, tt.user, tt.pass)
			}
		})
	}
}

// TestParseJAASRefusesWhatKafkaRefuses: Kafka's JaasConfig (a StreamTokenizer) refuses these.
func TestParseJAASRefusesWhatKafkaRefuses(t *testing.T) {
	const plain = "org.apache.kafka.common.security.plain.PlainLoginModule"
	tests := []struct{ name, in, want string }{
		{"no final semicolon", plain + ` required username="u" password="p"`, "not terminated by ';'"},
		{"empty", " /* nothing */ ", "names no login module"},
		{"no control flag", plain, "no control flag"},
		{"bad control flag", plain + ` mandatory username="u";`, "expected a control flag (required) at character 57"},
		{"value starting with a digit is a number", plain + ` required username=u password=123abc;`, "expected name=value for the option at character 77"},
		{"value with @ unquoted", plain + ` required username=u@corp password=p;`, "expected name=value"},
		{"a lone slash starts a comment", plain + ` required username=u password=a/b;`, "not terminated by ';'"},
		{"two modules", plain + ` required; ` + plain + ` required;`, "has 2 login modules"},
		{"option without value", plain + ` required username=;`, "expected name=value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseJAAS(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// jaas returns a sasl.jaas.config value for the Plain login module.
func jaas(user, pass string) string {
	return `org.apache.kafka.common.security.plain.PlainLoginModule required username="` + user + `" password="` + pass + `";`
}

// scramJAAS returns a sasl.jaas.config value for the Scram login module.
func scramJAAS(user, pass string) string {
	return `org.apache.kafka.common.security.scram.ScramLoginModule required username="` + user + `" password="` + pass + `";`
}

func TestFromProperties(t *testing.T) {
	pki := kafkatest.NewPKI(t, []string{"broker.test"}, nil)
	dir := t.TempDir()
	caFile := kafkatest.WriteFile(t, dir, "ca.pem", pki.CAPEM)
	bothFile := kafkatest.WriteFile(t, dir, "client.pem", append(append([]byte{}, pki.ClientKeyPEM...), pki.ClientPEM...))
	tests := []struct {
		name        string
		props       map[string]string
		wantIgnored []string
		check       func(t *testing.T, s Settings)
	}{
		{"empty is plaintext", nil, nil, func(t *testing.T, s Settings) {
			if s.TLS != nil || s.SASL != nil || s.ClientID != "" || s.Bootstrap != nil {
				t.Errorf("settings %+v", s)
			}
		}},
		{"PLAINTEXT, client.id and bootstrap.servers", map[string]string{"security.protocol": "PLAINTEXT", "client.id": " ops ",
			"bootstrap.servers": " b1:9092, b2:9092 ,"}, nil, func(t *testing.T, s Settings) {
			if s.ClientID != "ops" || s.TLS != nil || !slices.Equal(s.Bootstrap, []string{"b1:9092", "b2:9092"}) {
				t.Errorf("ClientID %q, TLS %v, bootstrap %q", s.ClientID, s.TLS, s.Bootstrap)
			}
		}},
		{"SSL, lowercase, system roots", map[string]string{"security.protocol": "ssl", "sasl.mechanism": "PLAIN", "unknown.key": "x"},
			[]string{"sasl.mechanism", "unknown.key"}, func(t *testing.T, s Settings) {
				if tc := s.TLS; tc == nil || tc.RootCAs != nil || tc.InsecureSkipVerify || s.SASL != nil {
					t.Errorf("TLS %+v, SASL %+v", tc, s.SASL)
				}
			}},
		{"SASL_PLAINTEXT PLAIN", map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
			"sasl.jaas.config": jaas("alice", testSecret), "ssl.truststore.location": "/nowhere"},
			[]string{"ssl.truststore.location"}, func(t *testing.T, s Settings) {
				if a := s.SASL; s.TLS != nil || a == nil || a.Mechanism != MechanismPlain || a.User != "alice" || a.Password != testSecret || a.Tokens != nil {
					t.Errorf("TLS %v, SASL %+v", s.TLS, a)
				}
			}},
		{"SASL_SSL SCRAM-SHA-256", map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-256",
			"sasl.jaas.config": scramJAAS("bob", testSecret)}, nil, func(t *testing.T, s Settings) {
			if a := s.SASL; s.TLS == nil || a == nil || a.Mechanism != MechanismSCRAMSHA256 || a.User != "bob" || a.Password != testSecret {
				t.Errorf("TLS %v, SASL %+v", s.TLS, a)
			}
		}},
		{"SASL_SSL scram-sha-512 lowercase", map[string]string{"security.protocol": "sasl_ssl", "sasl.mechanism": "scram-sha-512",
			"sasl.jaas.config": scramJAAS("bob", testSecret)}, nil, func(t *testing.T, s Settings) {
			if s.SASL == nil || s.SASL.Mechanism != MechanismSCRAMSHA512 {
				t.Errorf("SASL %+v", s.SASL)
			}
		}},
		{"PEM truststore file", map[string]string{"security.protocol": "SSL", "ssl.truststore.type": "PEM", "ssl.truststore.location": caFile,
			"ssl.truststore.password": "x"}, []string{"ssl.truststore.password"}, func(t *testing.T, s Settings) {
			pki.MustVerify(t, s.TLS.RootCAs)
		}},
		{"inline truststore written with continuations", parseProps(t, "security.protocol=SSL\nssl.truststore.type=PEM\n"+
			"ssl.truststore.certificates="+continued(pki.CAPEM)), nil, func(t *testing.T, s Settings) {
			pki.MustVerify(t, s.TLS.RootCAs)
		}},
		{"inline truststore written with \\n escapes", map[string]string{"security.protocol": "SSL", "ssl.truststore.certificates": string(pki.CAPEM)}, nil,
			func(t *testing.T, s Settings) { pki.MustVerify(t, s.TLS.RootCAs) }},
		{"empty endpoint identification verifies the chain only", map[string]string{"security.protocol": "SSL",
			"ssl.endpoint.identification.algorithm": ""}, nil, func(t *testing.T, s Settings) {
			if tc := s.TLS; !tc.InsecureSkipVerify || tc.VerifyConnection == nil {
				t.Errorf("InsecureSkipVerify %v, VerifyConnection set %v", tc.InsecureSkipVerify, tc.VerifyConnection != nil)
			}
		}},
		{"explicit https endpoint identification", map[string]string{"security.protocol": "SSL",
			"ssl.endpoint.identification.algorithm": "HTTPS"}, nil, func(t *testing.T, s Settings) {
			if s.TLS.InsecureSkipVerify {
				t.Error("InsecureSkipVerify")
			}
		}},
		{"mTLS from one PEM keystore file", map[string]string{"security.protocol": "SSL", "ssl.keystore.type": "PEM",
			"ssl.keystore.location": bothFile, "ssl.key.password": testSecret, "ssl.keystore.password": testSecret},
			[]string{"ssl.key.password", "ssl.keystore.password"}, func(t *testing.T, s Settings) {
				pki.MustBeClientCert(t, s.TLS)
			}},
		{"mTLS from inline chain and key", parseProps(t, "security.protocol=SSL\nssl.keystore.type=PEM\n"+
			"ssl.keystore.certificate.chain="+continued(pki.ClientPEM)+"\nssl.keystore.key="+continued(pki.ClientKeyPEM)), nil,
			func(t *testing.T, s Settings) { pki.MustBeClientCert(t, s.TLS) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := FromProperties(tt.props, Options{})
			if err != nil {
				t.Fatalf("FromProperties: %v", err)
			}
			if !slices.Equal(s.Ignored, tt.wantIgnored) {
				t.Errorf("ignored %q, want %q", s.Ignored, tt.wantIgnored)
			}
			tt.check(t, s)
		})
	}
	// --bootstrap-server wins over bootstrap.servers.
	if s, err := FromProperties(map[string]string{"bootstrap.servers": "b:1"}, Options{Bootstrap: []string{"flag:2"}}); err != nil ||
		!slices.Equal(s.Bootstrap, []string{"flag:2"}) {
		t.Errorf("bootstrap %q, %v; want the flag's", s.Bootstrap, err)
	}
}

func TestFromPropertiesErrors(t *testing.T) {
	pki := kafkatest.NewPKI(t, []string{"broker.test"}, nil)
	other := kafkatest.NewPKI(t, []string{"broker.test"}, nil)
	dir := t.TempDir()
	jks := kafkatest.WriteFile(t, dir, "truststore.jks", []byte("\xfe\xed\xfe\xed\x00\x00\x00\x02rest"))
	p12 := kafkatest.WriteFile(t, dir, "keystore.p12", []byte{0x30, 0x82, 0x0a, 0x00, 0x02, 0x01, 0x03})
	empty := kafkatest.WriteFile(t, dir, "empty.pem", []byte("# nothing\n"))
	const plain, scramMod = "org.apache.kafka.common.security.plain.PlainLoginModule", "org.apache.kafka.common.security.scram.ScramLoginModule"
	saslSSL := func(kv ...string) map[string]string {
		m := map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	ssl := func(kv ...string) map[string]string {
		m := saslSSL(kv...)
		m["security.protocol"] = "SSL"
		delete(m, "sasl.mechanism")
		return m
	}
	tests := []struct {
		name  string
		props map[string]string
		key   string
		want  string
	}{
		{"unknown protocol", map[string]string{"security.protocol": "TLS"}, "security.protocol", `invalid value "TLS"; use PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL`},
		{"no mechanism means GSSAPI", saslSSL("sasl.mechanism", "", "sasl.jaas.config", jaas("u", testSecret)), "sasl.mechanism", "GSSAPI (Kerberos, Kafka's default"},
		{"GSSAPI", saslSSL("sasl.mechanism", "GSSAPI"), "sasl.mechanism", "GSSAPI (Kerberos"},
		{"OAUTHBEARER without JAAS", saslSSL("sasl.mechanism", "OAUTHBEARER"), "sasl.jaas.config", "is required for SASL"},
		{"PlainLoginModule with SCRAM", saslSSL("sasl.mechanism", "SCRAM-SHA-512", "sasl.jaas.config", jaas("u", testSecret)), "sasl.jaas.config", "PlainLoginModule does not work with sasl.mechanism=SCRAM-SHA-512"},
		{"JAAS without its final semicolon", saslSSL("sasl.jaas.config", strings.TrimSuffix(jaas("u", testSecret), ";")), "sasl.jaas.config", "not terminated by ';'"},
		{"custom callback handler with PLAIN", saslSSL("sasl.jaas.config", jaas("u", testSecret), "sasl.client.callback.handler.class", "com.example.H"), "sasl.client.callback.handler.class", "cannot run in offsettui"},
		{"unknown mechanism", saslSSL("sasl.mechanism", "SCRAM-SHA-1"), "sasl.mechanism", `unknown or unsupported mechanism "SCRAM-SHA-1"`},
		{"missing jaas", saslSSL("sasl.username", "u", "sasl.password", testSecret), "sasl.jaas.config", "is required for SASL"},
		{"jaas without password", saslSSL("sasl.jaas.config", plain+` required username="u";`), "sasl.jaas.config", "has no password"},
		{"jaas without username", saslSSL("sasl.jaas.config", plain+` required password="`+testSecret+`";`), "sasl.jaas.config", "has no username"},
		{"jaas without control flag", saslSSL("sasl.jaas.config", plain+` username="u" password="`+testSecret+`";`), "sasl.jaas.config", "expected a control flag"},
		{"jaas with Kerberos", saslSSL("sasl.jaas.config", `com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true;`), "sasl.jaas.config", "Krb5LoginModule (GSSAPI, Kerberos) is not supported"},
		{"jaas with OAuth", saslSSL("sasl.jaas.config", `org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;`), "sasl.jaas.config", "OAuthBearerLoginModule does not work with sasl.mechanism=PLAIN"},
		{"jaas with unknown module", saslSSL("sasl.jaas.config", `com.example.`+testSecret+` required username="u" password="p";`), "sasl.jaas.config", "unsupported login module"},
		{"jaas with two modules", saslSSL("sasl.jaas.config", jaas("u", testSecret)+jaas("v", testSecret)), "sasl.jaas.config", "has 2 login modules"},
		{"jaas with an unterminated quote", saslSSL("sasl.jaas.config", plain+` required username="u" password="`+testSecret), "sasl.jaas.config", "not terminated by ';'"},
		{"jaas with an option lacking a value", saslSSL("sasl.jaas.config", plain+` required username="u" password=;`), "sasl.jaas.config", "expected name=value"},
		{"jaas with delegation token", saslSSL("sasl.mechanism", "SCRAM-SHA-256", "sasl.jaas.config", scramMod+` required username="u" password="p" tokenauth="true";`), "sasl.jaas.config", "delegation tokens"},
		{"JKS truststore type", ssl("ssl.truststore.type", "JKS", "ssl.truststore.location", jks), "ssl.truststore.location", "not a readable JKS store"},
		{"unknown truststore type", ssl("ssl.truststore.type", "BCFKS"), "ssl.truststore.type", `unsupported store type "BCFKS"`},
		{"JKS file without a type", ssl("ssl.truststore.location", jks), "ssl.truststore.location", "JKS truststore: not a readable JKS store"},
		{"PEM truststore type with a JKS file", ssl("ssl.truststore.type", "PEM", "ssl.truststore.location", jks), "ssl.truststore.location", "the file is a JKS store, not PEM"},
		{"missing truststore file", ssl("ssl.truststore.location", filepath.Join(dir, "nope.pem")), "ssl.truststore.location", "no such file"},
		{"truststore without certificates", ssl("ssl.truststore.location", empty), "ssl.truststore.location", "no PEM certificate"},
		{"truststore file and inline", ssl("ssl.truststore.location", empty, "ssl.truststore.certificates", string(pki.CAPEM)), "ssl.truststore.location", "not both"},
		{"malformed inline PEM", ssl("ssl.truststore.certificates", "-----BEGIN CERTIFICATE----- !!! -----END CERTIFICATE-----"), "ssl.truststore.certificates", "not valid base64"},
		{"PKCS12 keystore type", ssl("ssl.keystore.type", "PKCS12", "ssl.keystore.location", p12), "ssl.keystore.password", "is required for a PKCS12 keystore"},
		{"PKCS12 keystore file", ssl("ssl.keystore.location", p12, "ssl.keystore.password", testSecret), "ssl.keystore.location", "PKCS12 keystore: not a readable PKCS12 store"},
		{"PEM keystore type with a PKCS12 file", ssl("ssl.keystore.type", "PEM", "ssl.keystore.location", p12), "ssl.keystore.location", "the file is binary (PKCS12 or DER), not PEM"},
		{"chain without key", ssl("ssl.keystore.certificate.chain", string(pki.ClientPEM)), "ssl.keystore.certificate.chain", "must be set together"},
		{"keystore file and inline", ssl("ssl.keystore.location", p12, "ssl.keystore.key", string(pki.ClientKeyPEM), "ssl.keystore.certificate.chain", string(pki.ClientPEM)), "ssl.keystore.location", "not both"},
		{"encrypted key", ssl("ssl.keystore.certificate.chain", string(pki.ClientPEM), "ssl.keystore.key", encryptedKeyPEM, "ssl.key.password", testSecret), "ssl.keystore.key", "encrypted private keys (ssl.key.password) are not supported"},
		{"key of another certificate", ssl("ssl.keystore.certificate.chain", string(pki.ClientPEM), "ssl.keystore.key", string(other.ClientKeyPEM)), "ssl.keystore.key", "private key does not match public key"},
		{"key where the chain should be", ssl("ssl.keystore.certificate.chain", string(pki.ClientKeyPEM), "ssl.keystore.key", string(pki.ClientKeyPEM)), "ssl.keystore.certificate.chain", "no PEM certificate"},
		{"unknown endpoint identification", ssl("ssl.endpoint.identification.algorithm", "ldaps"), "ssl.endpoint.identification.algorithm", `unsupported value "ldaps"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromProperties(tt.props, Options{})
			var pe *PropertyError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want a *PropertyError", err, err)
			}
			if pe.Key != tt.key || !strings.Contains(pe.Msg, tt.want) {
				t.Errorf("error %q, want key %q and %q", err, tt.key, tt.want)
			}
			if showsSecret(err.Error()) {
				t.Errorf("error %q contains the secret", err)
			}
		})
	}
}

// TestErrorsNeverShowSecrets feeds inputs where the secret sits where an error is detected.
func TestErrorsNeverShowSecrets(t *testing.T) {
	bad := []map[string]string{
		{"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN", "sasl.jaas.config": testSecret},
		{"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN", "sasl.jaas.config": `x required ` + testSecret + `="v";`},
		{"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN", "sasl.jaas.config": `x required password=` + testSecret + `=;`},
		{"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN", "sasl.jaas.config": `x required password="` + testSecret + `" /* ` + testSecret},
		{"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN", "sasl.jaas.config": `"` + testSecret + `" required;`},
		{"security.protocol": "SSL", "ssl.keystore.location": "/nonexistent/" + testSecret},
		{"security.protocol": "SSL", "ssl.keystore.location": t.TempDir()}, // a directory: read fails
		{"security.protocol": "SSL", "ssl.keystore.type": testSecret},
		{"security.protocol": "SSL", "ssl.keystore.certificate.chain": "x", "ssl.keystore.key": "-----BEGIN " + testSecret + "-----\n" + testSecret + "\n-----END " + testSecret + "-----"},
		{"security.protocol": "SSL", "ssl.keystore.certificate.chain": "x", "ssl.keystore.key": "-----BEGIN PRIVATE KEY-----" + testSecret},
		{"security.protocol": "SSL", "ssl.keystore.certificate.chain": "x", "ssl.keystore.key": "-----BEGIN PRIVATE KEY-----" + testSecret + "-----END PRIVATE KEY-----"},
		{"security.protocol": "SSL", "ssl.keystore.location": "x", "ssl.keystore.key": testSecret},
		{"security.protocol": "SSL", "ssl.truststore.certificates": "-----BEGIN " + testSecret + "-----"},
	}
	for i, props := range bad {
		s, err := FromProperties(props, Options{})
		if err == nil {
			t.Errorf("input %d: no error", i)
			continue
		}
		if showsSecret(err.Error()) || showsSecret(strings.Join(s.Ignored, " ")) {
			t.Errorf("input %d: error %q shows the secret", i, err)
		}
		for k, v := range RedactedProperties(props) {
			if showsSecret(v) && k != "ssl.truststore.certificates" {
				t.Errorf("input %d: RedactedProperties shows %s", i, k)
			}
		}
	}
}

func TestRedactedProperties(t *testing.T) {
	in := map[string]string{"sasl.jaas.config": "x", "ssl.key.password": "x", "ssl.keystore.key": "x", "my.client.secret": "x",
		"ssl.truststore.password": "", "security.protocol": "SSL", "client.id": "c", "ssl.keystore.password": "${env:KS_PASS}"}
	want := map[string]string{"sasl.jaas.config": "***", "ssl.key.password": "***", "ssl.keystore.key": "***",
		"my.client.secret": "***", "ssl.truststore.password": "", "security.protocol": "SSL", "client.id": "c",
		"ssl.keystore.password": "${env:KS_PASS}"}
	if got := RedactedProperties(in); !maps.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if in["sasl.jaas.config"] != "x" {
		t.Error("RedactedProperties changed its input")
	}
	jaasTests := []struct{ in, want string }{
		{jaas("alice", testSecret), `org.apache.kafka.common.security.plain.PlainLoginModule required password=*** username="alice";`},
		{scramJAAS("alice", "${env:PW}"), `org.apache.kafka.common.security.scram.ScramLoginModule required password="${env:PW}" username="alice";`},
		{oauthModule + ` required clientId=c clientSecret="` + testSecret + `" extension_a="b" weird=yes;`, oauthModule + ` required clientId="c" clientSecret=*** extension_a="b"; (and 1 other options, hidden)`},
		{`x required password="` + testSecret, "***"}, // does not parse: all hidden
	}
	for _, tt := range jaasTests {
		if got := RedactedProperties(map[string]string{"sasl.jaas.config": tt.in})["sasl.jaas.config"]; got != tt.want {
			t.Errorf("JAAS %q: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHasLiteralSecret(t *testing.T) {
	tests := []struct {
		props map[string]string
		want  bool
	}{
		{map[string]string{"security.protocol": "SSL", "ssl.truststore.location": "/ca.pem"}, false},
		{map[string]string{"ssl.keystore.location": "/k.p12", "ssl.keystore.password": "${file:/s.properties:ks}"}, false},
		{map[string]string{"ssl.keystore.password": testSecret}, true},
		{map[string]string{"sasl.jaas.config": scramJAAS("alice", "${env:PW}")}, false},
		{map[string]string{"sasl.jaas.config": scramJAAS("alice", testSecret)}, true},
		{map[string]string{"sasl.jaas.config": "garbage " + testSecret}, true},
	}
	for i, tt := range tests {
		if got := HasLiteralSecret(tt.props); got != tt.want {
			t.Errorf("%d %v: got %v", i, tt.props, got)
		}
	}
}

func TestVerifyChain(t *testing.T) {
	pki := kafkatest.NewPKI(t, []string{"broker.test"}, nil)
	other := kafkatest.NewPKI(t, []string{"broker.test"}, nil)
	verify := verifyChain(pki.Pool())
	if err := verify(tls.ConnectionState{PeerCertificates: []*x509.Certificate{pki.Server.Leaf}}); err != nil {
		t.Errorf("a leaf of the trusted CA, any hostname: %v", err)
	}
	if err := verify(tls.ConnectionState{PeerCertificates: []*x509.Certificate{other.Server.Leaf}}); err == nil {
		t.Error("a leaf of another CA passed")
	}
	if err := verify(tls.ConnectionState{}); err == nil {
		t.Error("no certificate passed")
	}
}

func parseProps(t *testing.T, text string) map[string]string {
	t.Helper()
	props, err := ParseProperties(strings.NewReader(text), "test.properties")
	if err != nil {
		t.Fatal(err)
	}
	return props
}

// continued writes PEM as Kafka's docs show inline PEM in a properties file: one value spread
// over indented lines joined by trailing backslashes.
func continued(pemData []byte) string {
	lines := strings.Split(strings.TrimSpace(string(pemData)), "\n")
	return strings.Join(lines, " \\\n    ")
}

// encryptedKeyPEM has the shape of `openssl pkcs8 -topk8 -v2 aes-256-cbc` output; only the label
// matters.
const encryptedKeyPEM = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQI\n-----END ENCRYPTED PRIVATE KEY-----\n"
