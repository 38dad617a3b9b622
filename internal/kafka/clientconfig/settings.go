package clientconfig

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Settings says how to connect to a cluster and authenticate, for any client library.
type Settings struct {
	// Bootstrap is where to connect first: the servers given to FromProperties, else
	// bootstrap.servers of the properties; empty when neither says.
	Bootstrap []string
	// ClientID is client.id; "" leaves the client's default.
	ClientID string
	// TLS is the TLS config for SSL and SASL_SSL; nil for a plaintext connection.
	TLS *tls.Config
	// SASL is the SASL mechanism and its credentials; nil without SASL.
	SASL *SASL
	// Ignored lists, sorted, the property keys that had no effect: unknown ones and those
	// that do not apply to the chosen security.protocol (ssl.* under SASL_PLAINTEXT).
	// Kafka's tools warn about such keys; the caller should log them. bootstrap.servers and
	// the config.providers keys are never listed.
	Ignored []string
}

// The SASL mechanisms of SASL.Mechanism. AWS_MSK_IAM in the properties becomes
// OAUTHBEARER with MSK's signed token, which MSK's IAM listeners accept.
const (
	MechanismPlain       = "PLAIN"
	MechanismSCRAMSHA256 = "SCRAM-SHA-256"
	MechanismSCRAMSHA512 = "SCRAM-SHA-512"
	MechanismOAuthBearer = "OAUTHBEARER"
)

// SASL is one SASL mechanism with what it authenticates with.
type SASL struct {
	Mechanism string
	// User and Password are PLAIN's and SCRAM's credentials.
	User, Password string
	// Tokens gives OAUTHBEARER's tokens (an OIDC login or MSK IAM).
	Tokens TokenSource
}

// Token is an OAUTHBEARER token with its SASL extensions (RFC 7628).
type Token struct {
	Value      string
	Extensions map[string]string
}

// TokenSource gives OAUTHBEARER tokens. Clients ask it at every authentication (a new
// connection, a re-authentication), possibly concurrently; it keeps a token while it is
// fresh. ctx bounds a fetch, as does the timeout given to FromProperties. Errors never
// contain a token or a secret.
type TokenSource interface {
	Token(ctx context.Context) (Token, error)
}

// Options are what FromProperties needs beside the properties.
type Options struct {
	// Bootstrap, when set, wins over bootstrap.servers (--bootstrap-server, a context's
	// bootstrap-servers). MSK IAM reads the AWS region from these host names.
	Bootstrap []string
	// Timeout bounds each token fetch (OIDC endpoint, AWS credentials); default 10s.
	Timeout time.Duration
}

// FromProperties applies the client properties offsettui supports (docs/connect.md lists
// them): first every ${provider:[path:]key} placeholder is resolved (ResolveProperties), then
// bootstrap.servers, security.protocol, client.id, the ssl.* properties (PEM, JKS and PKCS12
// stores) and the SASL ones: PLAIN and SCRAM (sasl.jaas.config), OAUTHBEARER with the OIDC
// client-credentials login, and AWS MSK IAM. Values are trimmed first, as Kafka's ConfigDef
// does. The error is a *PropertyError and never contains a secret.
func FromProperties(props map[string]string, o Options) (Settings, error) {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	props, err := ResolveProperties(props)
	if err != nil {
		return Settings{}, err
	}
	p := &propReader{props: props, used: map[string]bool{"bootstrap.servers": true}}
	for k := range props {
		if k == providersKey || strings.HasPrefix(k, providersKey+".") {
			p.used[k] = true
		}
	}
	s := Settings{Bootstrap: slices.Clone(o.Bootstrap), ClientID: p.get("client.id")}
	if len(s.Bootstrap) == 0 {
		s.Bootstrap = splitServers(props["bootstrap.servers"])
	}
	protocol := strings.ToUpper(p.get("security.protocol"))
	switch protocol {
	case "", "PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL":
	default:
		return Settings{}, propErr("security.protocol", "invalid value %s; use PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL",
			shown("security.protocol", p.get("security.protocol")))
	}
	if protocol == "SSL" || protocol == "SASL_SSL" {
		if s.TLS, err = tlsConfig(p); err != nil {
			return Settings{}, err
		}
	}
	if strings.HasPrefix(protocol, "SASL_") {
		if s.SASL, err = saslSettings(p, o); err != nil {
			return Settings{}, err
		}
	}
	for k := range props {
		if !p.used[k] {
			s.Ignored = append(s.Ignored, k)
		}
	}
	slices.Sort(s.Ignored)
	return s, nil
}

// PropertiesBootstrap returns the addresses of bootstrap.servers in props (placeholders
// resolved), or none when it is not set.
func PropertiesBootstrap(props map[string]string) ([]string, error) {
	if _, ok := props["bootstrap.servers"]; !ok {
		return nil, nil
	}
	resolved, err := ResolveProperties(props)
	if err != nil {
		return nil, err
	}
	return splitServers(resolved["bootstrap.servers"]), nil
}

func splitServers(list string) []string {
	var addrs []string
	for _, a := range strings.Split(list, ",") {
		if a = strings.TrimSpace(a); a != "" {
			addrs = append(addrs, a)
		}
	}
	return addrs
}

// CheckBootstrap refuses a bootstrap address that is not host:port with a port
// 1-65535, as Kafka's clients do ("localhost" alone is bad input, not a
// connection that fails).
func CheckBootstrap(addrs []string) error {
	for _, a := range addrs {
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			return fmt.Errorf("bootstrap server %q: want host:port (%v)", a, err)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || host == "" {
			return fmt.Errorf("bootstrap server %q: want host:port with a port from 1 to 65535", a)
		}
	}
	return nil
}
