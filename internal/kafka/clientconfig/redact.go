package clientconfig

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// masked replaces a secret wherever client properties are shown.
const masked = "***"

// IsSecretKey reports whether a property's (or JAAS option's) value must never be shown:
// passwords, JAAS configs (they embed passwords), private keys and anything named like a
// secret, token or credential. It errs on the side of hiding (ssl.keystore.location too).
func IsSecretKey(key string) bool {
	k := strings.ToLower(key)
	for _, w := range []string{"password", "jaas", "secret", "key", "token", "credential"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

func isSecretKey(key string) bool { return IsSecretKey(key) }

// onlyPlaceholders reports whether v is made of ${provider:[path:]key} placeholders alone:
// it names where a secret is, not the secret.
func onlyPlaceholders(v string) bool {
	return v != "" && strings.TrimSpace(placeholder.ReplaceAllString(v, "")) == ""
}

// RedactedProperties returns a copy of props safe to show or log: every secret value is
// "***", except values made only of ${...} placeholders; in sasl.jaas.config only the
// secret options are masked (password=***), or the whole value when it does not parse.
func RedactedProperties(props map[string]string) map[string]string {
	out := maps.Clone(props)
	for k, v := range out {
		switch {
		case k == jaasKey:
			out[k] = maskJAAS(v)
		case isSecretKey(k) && v != "" && !onlyPlaceholders(v):
			out[k] = masked
		}
	}
	return out
}

// maskJAAS renders a JAAS config with its secret options masked. Only known login modules
// and option names are shown (a typo could put a password where a name should be); other
// options are counted.
func maskJAAS(v string) string {
	e, err := parseJAAS(v)
	if err != nil {
		return masked
	}
	switch e.moduleName() {
	case "PlainLoginModule", "ScramLoginModule", "OAuthBearerLoginModule", "IAMLoginModule", "Krb5LoginModule":
	default:
		return masked
	}
	var b strings.Builder
	b.WriteString(e.module + " required")
	other := 0
	for _, name := range slices.Sorted(maps.Keys(e.options)) {
		val := e.options[name]
		switch {
		case !knownJAASOption(name):
			other++
		case isSecretKey(name) && !onlyPlaceholders(val):
			b.WriteString(" " + name + "=" + masked)
		default:
			b.WriteString(" " + name + "=\"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(val) + "\"")
		}
	}
	b.WriteString(";")
	if other > 0 {
		b.WriteString(" (and " + strconv.Itoa(other) + " other options, hidden)")
	}
	return b.String()
}

// knownJAASOption: the option names of the login modules offsettui reads.
func knownJAASOption(name string) bool {
	switch name {
	case "username", "password", "tokenauth", "clientId", "clientSecret", "scope", "awsProfileName", "awsRoleArn",
		"awsRoleSessionName", "awsRoleExternalId", "awsStsRegion", "awsDebugCreds", "awsRoleAccessKeyId",
		"awsRoleSecretAccessKey", "awsRoleSessionToken", "awsMaxRetries", "awsMaxBackOffTimeMs":
		return true
	}
	return strings.HasPrefix(name, "extension_") || strings.HasPrefix(name, "ssl.")
}

// HasLiteralSecret reports whether props hold a secret written out (not a ${...}
// placeholder): the caller warns when such a file is readable by others.
func HasLiteralSecret(props map[string]string) bool {
	for k, v := range props {
		if k == jaasKey {
			if maskJAAS(v) != v && strings.Contains(maskJAAS(v), masked) {
				return true
			}
			continue
		}
		if isSecretKey(k) && !strings.HasSuffix(k, ".location") && v != "" && !onlyPlaceholders(v) {
			return true
		}
	}
	return false
}
