package clientconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

const (
	envClass  = "org.apache.kafka.common.config.provider.EnvVarConfigProvider"
	fileClass = "org.apache.kafka.common.config.provider.FileConfigProvider"
	dirClass  = "org.apache.kafka.common.config.provider.DirectoryConfigProvider"
)

func TestResolveProperties(t *testing.T) {
	dir := t.TempDir()
	secrets := filepath.Join(dir, "secrets")
	if err := os.Mkdir(secrets, 0o700); err != nil {
		t.Fatal(err)
	}
	kafkatest.WriteFile(t, secrets, "kafka-password", []byte(testSecret+"\n")) // DirectoryConfigProvider keeps the newline
	credFile := kafkatest.WriteFile(t, secrets, "creds.properties", []byte("user=alice\npassword = "+testSecret+"\n"))
	outside := kafkatest.WriteFile(t, dir, "outside.properties", []byte("password=x\n"))
	link := filepath.Join(secrets, "escape.properties")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OT_KAFKA_PASSWORD", testSecret)
	t.Setenv("OT_OTHER", "x")
	providers := map[string]string{
		"config.providers": "env, file,dir", "config.providers.env.class": envClass,
		"config.providers.file.class": fileClass, "config.providers.dir.class": dirClass,
	}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range providers {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name    string
		props   map[string]string
		key     string // the property to check
		want    string // its resolved value
		wantErr string
	}{
		{"env", with("p", "${env:OT_KAFKA_PASSWORD}"), "p", testSecret, ""},
		{"env inside a JAAS line", with("p", `x required password="${env:OT_KAFKA_PASSWORD}";`), "p", `x required password="` + testSecret + `";`, ""},
		{"two placeholders, the first with an empty path", with("p", "${env::OT_OTHER}-${file:"+credFile+":user}"), "p", "x-alice", ""},
		{"two env placeholders in ${env::NAME} form", with("p", `u="${env::OT_OTHER}" p="${env::OT_KAFKA_PASSWORD}"`), "p", `u="x" p="` + testSecret + `"`, ""},
		{"two env placeholders read as one (Kafka's pattern)", with("p", `u="${env:OT_OTHER}" p="${env:OT_KAFKA_PASSWORD}"`), "", "", "or ${env::NAME} when the value"},
		{"env allowed by the pattern (whole name)", with("config.providers.env.param.allowlist.pattern", "OT_KAFKA_.*", "p", "${env:OT_KAFKA_PASSWORD}"), "p", testSecret, ""},
		{"env refused by the pattern (whole name must match)", with("config.providers.env.param.allowlist.pattern", "KAFKA", "p", "${env:OT_KAFKA_PASSWORD}"), "", "", "not allowed by allowlist.pattern"},
		{"env unset", with("p", "${env:OT_NOT_SET}"), "", "", "p: ${env:OT_NOT_SET} cannot be resolved: environment variable OT_NOT_SET is not set"},
		{"env with a path", with("p", "${env:/x:OT_OTHER}"), "", "", "EnvVarConfigProvider takes no path"},
		{"file", with("p", "${file:"+credFile+":password}"), "p", testSecret, ""},
		{"file key missing", with("p", "${file:"+credFile+":nope}"), "", "", "has no key nope"},
		{"file missing", with("p", "${file:"+dir+"/none.properties:x}"), "", "", "no such file"},
		{"file inside allowed.paths", with("config.providers.file.param.allowed.paths", secrets, "p", "${file:"+credFile+":user}"), "p", "alice", ""},
		{"file outside allowed.paths", with("config.providers.file.param.allowed.paths", secrets, "p", "${file:"+outside+":password}"), "", "", "outside allowed.paths"},
		{"symlink out of allowed.paths", with("config.providers.file.param.allowed.paths", secrets, "p", "${file:"+link+":password}"), "", "", "outside allowed.paths"},
		{"dot-dot out of allowed.paths", with("config.providers.file.param.allowed.paths", secrets, "p", "${file:"+secrets+"/../outside.properties:password}"), "", "", "outside allowed.paths"},
		{"allowed.paths must exist", with("config.providers.file.param.allowed.paths", dir+"/nope", "p", "x"), "", "", "must be absolute and exist"},
		{"allowed.paths must be absolute", with("config.providers.dir.param.allowed.paths", "rel", "p", "x"), "", "", "must be absolute and exist"},
		{"dir", with("p", "${dir:"+secrets+":kafka-password}"), "p", testSecret + "\n", ""},
		{"dir refuses a path as the key", with("p", "${dir:"+secrets+":../outside.properties}"), "", "", "is not a file name"},
		{"dir refuses a directory", with("p", "${dir:"+dir+":secrets}"), "", "", "not a readable regular file"},
		{"no such provider", with("p", "${vault:secret/kafka:password}"), "", "", `p: ${vault:secret/kafka:password} cannot be resolved: no config provider named "vault"`},
		{"provider without a class", map[string]string{"config.providers": "env", "p": "${env:OT_OTHER}"}, "", "", `no config provider named "env"`},
		{"no providers at all", map[string]string{"sasl.jaas.config": `x required password="${env:OT_OTHER}";`}, "", "", "sasl.jaas.config: ${env:OT_OTHER} cannot be resolved"},
		{"unknown provider class", map[string]string{"config.providers": "v", "config.providers.v.class": "com.example.Vault"}, "", "", "config.providers.v.class: unsupported config provider"},
		{"no placeholder: unchanged", with("p", "$ {env:X} ${novar}"), "p", "$ {env:X} ${novar}", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveProperties(tt.props)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				var pe *PropertyError
				if !errors.As(err, &pe) || showsSecret(err.Error()) {
					t.Fatalf("error %q: want a *PropertyError without the secret", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got[tt.key] != tt.want {
				t.Fatalf("%s = %q, want %q", tt.key, got[tt.key], tt.want)
			}
			if tt.props[tt.key] == got[tt.key] && strings.Contains(got[tt.key], "${env:O") {
				t.Fatal("placeholder left in place")
			}
		})
	}
}

// TestFromPropertiesResolvesPlaceholders: the password the clients get is the resolved one,
// and an unresolvable placeholder stops FromProperties (it is never sent as a password).
func TestFromPropertiesResolvesPlaceholders(t *testing.T) {
	t.Setenv("OT_KAFKA_PASSWORD", testSecret)
	props := map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "SCRAM-SHA-512",
		"config.providers": "env", "config.providers.env.class": envClass,
		"sasl.jaas.config": `org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="${env:OT_KAFKA_PASSWORD}";`}
	s, err := FromProperties(props, Options{})
	if err != nil || s.SASL == nil || s.SASL.Password != testSecret || len(s.Ignored) != 0 {
		t.Fatalf("SASL %+v, ignored %v, err %v", s.SASL != nil && s.SASL.Password == testSecret, s.Ignored, err)
	}
	props["sasl.jaas.config"] = strings.Replace(props["sasl.jaas.config"], "OT_KAFKA_PASSWORD", "OT_UNSET_PASSWORD", 1)
	s, err = FromProperties(props, Options{})
	if err == nil || !strings.Contains(err.Error(), "sasl.jaas.config: ${env:OT_UNSET_PASSWORD} cannot be resolved") {
		t.Fatalf("error %v", err)
	}
	if s.SASL != nil {
		t.Fatal("SASL was set from an unresolved placeholder")
	}
}

func TestPropertiesBootstrap(t *testing.T) {
	t.Setenv("OT_BOOT", "b1:9092, b2:9092")
	got, err := PropertiesBootstrap(map[string]string{"bootstrap.servers": "${env:OT_BOOT},b3:9092",
		"config.providers": "env", "config.providers.env.class": envClass})
	if err != nil || strings.Join(got, " ") != "b1:9092 b2:9092 b3:9092" {
		t.Fatalf("got %q, %v", got, err)
	}
	if got, err := PropertiesBootstrap(map[string]string{"security.protocol": "SSL"}); got != nil || err != nil {
		t.Fatalf("got %q, %v", got, err)
	}
	s, err := FromProperties(map[string]string{"bootstrap.servers": "b:1"}, Options{})
	if err != nil || len(s.Ignored) != 0 {
		t.Fatalf("bootstrap.servers reported as ignored: %v %v", s.Ignored, err)
	}
}

// FuzzResolveProperties: resolving never panics, and an error never quotes a resolved value.
func FuzzResolveProperties(f *testing.F) {
	f.Add("${env:OT_FUZZ}", "env")
	f.Add("a${env:OT_FUZZ}b${env:X}", "env")
	f.Add("${env:A}:${env:B}", "env,file")
	f.Add("${:}${::}${a:b:c:d}", "")
	f.Fuzz(func(t *testing.T, value, names string) {
		if strings.Contains(value+names, "\x01") {
			return // the canary must come from the environment only
		}
		t.Setenv("OT_FUZZ", canary)
		props := map[string]string{"v": value, "config.providers": names}
		for _, n := range strings.Split(names, ",") {
			props["config.providers."+strings.TrimSpace(n)+".class"] = envClass
		}
		out, err := ResolveProperties(props)
		if err != nil {
			if strings.Contains(err.Error(), "\x01") {
				t.Fatalf("error quotes a resolved value: %q", err)
			}
			return
		}
		if placeholder.MatchString(out["v"]) && !strings.Contains(value, "${") {
			t.Fatalf("a placeholder appeared from nowhere: %q", out["v"])
		}
	})
}
