package clientconfig

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
)

// canary marks text that must never be echoed: fmt's %q escapes \x01, so a raw \x01 in an
// error message can only come from input text copied into it verbatim.
const canary = "\x01Zq9"

var propertiesSeeds = []string{
	"",
	"a=b\nc: d\ne f\n# x\n! y\n",
	"security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n  username=\"u\" password=\"p\\\\\\\"q\";\n",
	"k\\=x\\:y\\ z = \\ v\\t\\u00e9\\uD83D\\uDE00\\\\\r\n  \\\n",
	"a=\\u12G4\n",
	"ssl.truststore.certificates=-----BEGIN CERTIFICATE----- \\\n  MIIB \\\n  -----END CERTIFICATE-----\nssl.endpoint.identification.algorithm=\n",
	"a=caf\xe9\n",
}

// FuzzParseProperties checks that parsing never panics, that what it returns survives a round
// trip through writeProperties, and that an error never quotes a password from the input.
func FuzzParseProperties(f *testing.F) {
	for _, s := range propertiesSeeds {
		f.Add(s, "secret")
	}
	f.Fuzz(func(t *testing.T, body, secret string) {
		props, err := ParseProperties(strings.NewReader(body), "fuzz.properties")
		if err == nil {
			var b strings.Builder
			if err := writeProperties(&b, props); err != nil {
				t.Fatal(err)
			}
			again, err := ParseProperties(strings.NewReader(b.String()), "written")
			if err != nil {
				t.Fatalf("written form does not parse: %v\n%q", err, b.String())
			}
			if !maps.Equal(props, again) {
				t.Fatalf("round trip changed the properties:\n%q\n%q", props, again)
			}
		}
		pass := canary + strings.NewReplacer("\r", "", "\n", "").Replace(secret)
		for _, in := range []string{body + "\npassword=" + pass + "\n", "password=" + pass + "\n" + body, body + "password=" + pass} {
			_, err := ParseProperties(strings.NewReader(in), "fuzz.properties")
			if err != nil && strings.Contains(err.Error(), "\x01") {
				t.Fatalf("error quotes the input: %q", err)
			}
		}
	})
}

// FuzzFromProperties checks that applying any parsed file never panics and that no error
// quotes the value of a property that may hold a secret.
func FuzzFromProperties(f *testing.F) {
	for _, s := range propertiesSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		props, err := ParseProperties(strings.NewReader(body), "fuzz.properties")
		if err != nil {
			return
		}
		for k, v := range props {
			switch {
			case strings.HasSuffix(k, ".location") || strings.HasPrefix(k, "config.providers"):
				delete(props, k) // keep the fuzzer off the file system (/dev/stdin would block)
			case isSecretKey(k):
				props[k] = canary + v
			}
		}
		_, err = FromProperties(props, Options{})
		if err != nil && strings.Contains(err.Error(), "\x01") {
			t.Fatalf("error quotes a secret: %q", err)
		}
	})
}

// FuzzParseJAAS checks that the JAAS parser never panics and never quotes its input.
func FuzzParseJAAS(f *testing.F) {
	f.Add(`org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";`)
	f.Add(`x required a='b\'c' /* d */ e=f // g` + "\n;")
	f.Add(`x required password="\101\7777`)
	f.Fuzz(func(t *testing.T, s string) {
		_, err := parseJAAS(canary + s)
		if err != nil && strings.Contains(err.Error(), "\x01") {
			t.Fatalf("error quotes the input: %q", err)
		}
		_, err = parseJAAS("x required password=" + canary + s)
		if err != nil && strings.Contains(err.Error(), "\x01") {
			t.Fatalf("error quotes the input: %q", err)
		}
	})
}

// writeProperties writes props in sorted order so that ParseProperties reads them back
// unchanged, escaping as java.util.Properties.store does (non-ASCII is written as UTF-8).
func writeProperties(w io.Writer, props map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(props)) {
		if _, err := io.WriteString(w, escapeProperty(k, true)+"="+escapeProperty(props[k], false)+"\n"); err != nil {
			return err
		}
	}
	return nil
}

func escapeProperty(s string, isKey bool) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\' || r == '=' || r == ':' || r == '#' || r == '!' || (r == ' ' && (isKey || i == 0)):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
