package kafka

// SASL for --command-config: sasl.mechanism and sasl.jaas.config become sarama's SASL
// settings, and SCRAM runs on xdg-go/scram (sarama ships no SCRAM implementation).

import (
	"errors"
	"fmt"
	"strings"

	"github.com/IBM/sarama"
	"github.com/xdg-go/scram"
)

// applySASL sets cfg.Net.SASL from sasl.mechanism and sasl.jaas.config. As in Kafka, an unset
// mechanism means GSSAPI, which offsettui does not support.
func applySASL(cfg *sarama.Config, p *propReader) error {
	const mechKey, jaasKey = "sasl.mechanism", "sasl.jaas.config"
	const use = "use PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512"
	raw := p.get(mechKey)
	mech := strings.ToUpper(raw)
	switch mech {
	case sarama.SASLTypePlaintext, sarama.SASLTypeSCRAMSHA256, sarama.SASLTypeSCRAMSHA512:
	case "", sarama.SASLTypeGSSAPI:
		return propErr(mechKey, "GSSAPI (Kerberos, Kafka's default when sasl.mechanism is unset) is not supported; "+use)
	case sarama.SASLTypeOAuth:
		return propErr(mechKey, "OAUTHBEARER is not supported; "+use)
	default:
		return propErr(mechKey, "unknown mechanism %s; %s", shown(mechKey, raw), use)
	}
	jaas := p.get(jaasKey)
	if jaas == "" {
		return propErr(jaasKey, "is required for SASL (offsettui reads no JAAS file); set it to "+
			`org.apache.kafka.common.security.plain.PlainLoginModule required username="..." password="...";`)
	}
	user, pass, err := parseJAAS(jaas)
	if err != nil {
		return propErr(jaasKey, "%v", err)
	}
	cfg.Net.SASL.Enable = true
	cfg.Net.SASL.Handshake = true
	cfg.Net.SASL.Mechanism = sarama.SASLMechanism(mech)
	cfg.Net.SASL.User = user
	cfg.Net.SASL.Password = pass
	cfg.Net.SASL.SCRAMClientGeneratorFunc = nil
	if mech != sarama.SASLTypePlaintext {
		cfg.Net.SASL.SCRAMClientGeneratorFunc = scramGenerator(cfg.Net.SASL.Mechanism)
	}
	return nil
}

// scramGenerator returns the sarama SCRAM client factory for a SCRAM mechanism, or nil for
// any other mechanism.
func scramGenerator(mech sarama.SASLMechanism) func() sarama.SCRAMClient {
	var hash scram.HashGeneratorFcn
	switch mech {
	case sarama.SASLTypeSCRAMSHA256:
		hash = scram.SHA256
	case sarama.SASLTypeSCRAMSHA512:
		hash = scram.SHA512
	default:
		return nil
	}
	return func() sarama.SCRAMClient { return &scramClient{hash: hash} }
}

// scramClient adapts an xdg-go/scram conversation to sarama.SCRAMClient.
type scramClient struct {
	hash scram.HashGeneratorFcn
	conv *scram.ClientConversation
}

// Begin starts a conversation. Credentials are not SASLprep-normalised because Kafka does not
// normalise them either (its ScramFormatter uses the password's UTF-8 bytes as they are), so
// a password with, say, an emoji authenticates here exactly as with Kafka's own clients.
func (c *scramClient) Begin(user, password, authzID string) error {
	client, err := c.hash.NewClientUnprepped(user, password, authzID)
	if err != nil { // cannot happen today; never pass on text that might quote the password
		return errors.New("scram: cannot start the conversation")
	}
	c.conv = client.NewConversation()
	return nil
}

// Step answers one server challenge.
func (c *scramClient) Step(challenge string) (string, error) {
	if c.conv == nil {
		return "", errors.New("scram: Step before Begin")
	}
	return c.conv.Step(challenge)
}

// Done reports whether the conversation has finished (successfully or not).
func (c *scramClient) Done() bool { return c.conv != nil && c.conv.Done() }

// parseJAAS returns the username and password of a sasl.jaas.config value with one Plain or
// Scram login module, e.g.
//
//	org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";
//
// Options may come in any order, values may be quoted with " or ' (with backslash escapes, as
// Java's StreamTokenizer reads them) or bare, and options other than username and password are
// ignored. Errors give character positions, never any text of the value.
func parseJAAS(s string) (user, pass string, err error) {
	toks, err := jaasTokens(s)
	if err != nil {
		return "", "", err
	}
	var module string
	var opts map[string]string
	modules := 0
	for i := 0; i < len(toks); {
		if toks[i].kind != 'w' {
			return "", "", fmt.Errorf("expected a login module class name at character %d", toks[i].pos)
		}
		module, opts = toks[i].text, map[string]string{}
		modules++
		if i++; i >= len(toks) || toks[i].kind != 'w' || !isControlFlag(toks[i].text) {
			return "", "", fmt.Errorf("expected a control flag (required) after the login module name at character %d", toks[i-1].pos)
		}
		for i++; i < len(toks) && toks[i].kind != ';'; i += 3 {
			if toks[i].kind != 'w' {
				return "", "", fmt.Errorf("expected an option name at character %d", toks[i].pos)
			}
			if i+2 >= len(toks) || toks[i+1].kind != '=' || (toks[i+2].kind != 'w' && toks[i+2].kind != 'q') {
				return "", "", fmt.Errorf(`expected name=value for the option at character %d`, toks[i].pos)
			}
			opts[toks[i].text] = toks[i+2].text
		}
		i++ // the ';' (optional at the very end)
	}
	switch {
	case modules == 0:
		return "", "", errors.New("is empty")
	case modules > 1:
		return "", "", fmt.Errorf("has %d login modules; a Kafka client uses exactly one", modules)
	}
	if err := checkLoginModule(module); err != nil {
		return "", "", err
	}
	if strings.EqualFold(opts["tokenauth"], "true") {
		return "", "", errors.New("delegation tokens (tokenauth=true) are not supported")
	}
	if opts["username"] == "" {
		return "", "", errors.New(`has no username="..." option`)
	}
	if opts["password"] == "" {
		return "", "", errors.New(`has no password="..." option`)
	}
	return opts["username"], opts["password"], nil
}

func isControlFlag(w string) bool {
	switch strings.ToLower(w) {
	case "required", "requisite", "sufficient", "optional":
		return true
	}
	return false
}

// checkLoginModule accepts the Plain and Scram login modules under any package (shaded copies
// such as kafkashaded.org.apache.kafka... included): both hand Kafka's SASL client the same
// username and password, so either works with either mechanism, as in Kafka.
func checkLoginModule(class string) error {
	switch class[strings.LastIndexByte(class, '.')+1:] {
	case "PlainLoginModule", "ScramLoginModule":
		return nil
	case "OAuthBearerLoginModule":
		return errors.New("OAuthBearerLoginModule (OAUTHBEARER) is not supported")
	case "Krb5LoginModule":
		return errors.New("Krb5LoginModule (GSSAPI, Kerberos) is not supported")
	}
	return errors.New("unsupported login module; use org.apache.kafka.common.security.plain.PlainLoginModule " +
		"or org.apache.kafka.common.security.scram.ScramLoginModule")
}

// jaasToken is a word ('w'), a quoted string ('q'), '=' or ';'; pos counts characters from 1.
type jaasToken struct {
	kind byte
	text string
	pos  int
}

// jaasTokens splits a JAAS config into tokens, skipping whitespace and // and /* */ comments.
func jaasTokens(s string) ([]jaasToken, error) {
	var toks []jaasToken
	for i := 0; i < len(s); {
		c, pos := s[i], i+1
		switch {
		case c <= ' ':
			i++
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("unterminated /* comment at character %d", pos)
			}
			i += 2 + end + 2
		case c == '=' || c == ';':
			toks = append(toks, jaasToken{c, string(c), pos})
			i++
		case c == '"' || c == '\'':
			text, n, ok := jaasQuoted(s[i:])
			if !ok {
				return nil, fmt.Errorf("unterminated quoted value at character %d", pos)
			}
			toks = append(toks, jaasToken{'q', text, pos})
			i += n
		default:
			j := i
			for j < len(s) && s[j] > ' ' && !strings.ContainsRune(`=;"'`, rune(s[j])) {
				j++
			}
			toks = append(toks, jaasToken{'w', s[i:j], pos})
			i = j
		}
	}
	return toks, nil
}

// jaasQuoted reads a quoted string at the start of s (s[0] is the quote) with
// StreamTokenizer's escapes: \a \b \f \n \r \t \v, octal \ooo, and \x for any other x.
// It returns the text and the number of bytes consumed.
func jaasQuoted(s string) (string, int, bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, true
		case c != '\\' || i+1 == len(s):
			b.WriteByte(c)
			continue
		}
		i++
		if o := s[i]; '0' <= o && o <= '7' {
			v, max := int(o-'0'), 2
			if o > '3' {
				max = 1
			}
			for ; max > 0 && i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '7'; max-- {
				i++
				v = v*8 + int(s[i]-'0')
			}
			b.WriteRune(rune(v))
			continue
		}
		if k := strings.IndexByte("abfnrtv", s[i]); k >= 0 {
			b.WriteByte("\a\b\f\n\r\t\v"[k])
		} else {
			b.WriteByte(s[i])
		}
	}
	return "", 0, false
}
