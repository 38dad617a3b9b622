package wire

// How both clients connect. sarama speaks what classic and consumer groups need; franz-go's
// kgo speaks the share- and streams-group requests sarama lacks (docs/design-wire.md). Both
// are configured here from the same clientconfig.Settings, so they reach the same brokers
// with the same TLS config, SASL mechanism and credentials or token source.

import (
	"context"
	"fmt"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/clientconfig"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// defaultClientID is client.id when the properties do not set one.
const defaultClientID = "offsettui"

// softwareName and softwareVersion are what kgo tells brokers in ApiVersions (KIP-511).
const softwareName, softwareVersion = "offsettui", "1"

// saramaConfig is sarama's config for cfg: every request bounded by --timeout, TLS and SASL
// from cfg.Client.
func saramaConfig(cfg Config) (*sarama.Config, error) {
	sc := sarama.NewConfig()
	sc.ClientID = clientID(cfg.Client)
	// The highest version sarama knows; every request is then lowered to what the
	// broker advertises in ApiVersions.
	sc.Version = sarama.MaxVersion
	sc.Net.DialTimeout = cfg.Timeout
	sc.Net.ReadTimeout = cfg.Timeout
	sc.Net.WriteTimeout = cfg.Timeout
	sc.Metadata.Full = false
	sc.Metadata.AllowAutoTopicCreation = false
	sc.Admin.Timeout = cfg.Timeout
	if tc := cfg.Client.TLS; tc != nil {
		sc.Net.TLS.Enable, sc.Net.TLS.Config = true, tc
	}
	if a := cfg.Client.SASL; a != nil {
		s := &sc.Net.SASL
		s.Enable, s.Handshake = true, true
		s.Mechanism = sarama.SASLMechanism(a.Mechanism)
		switch a.Mechanism {
		case clientconfig.MechanismOAuthBearer:
			s.TokenProvider = saramaTokens{src: a.Tokens, timeout: cfg.Timeout}
		case clientconfig.MechanismPlain:
			s.User, s.Password = a.User, a.Password
		case clientconfig.MechanismSCRAMSHA256, clientconfig.MechanismSCRAMSHA512:
			s.User, s.Password = a.User, a.Password
			s.SCRAMClientGeneratorFunc = scramGenerator(s.Mechanism)
		default:
			return nil, fmt.Errorf("SASL mechanism %s is not supported", a.Mechanism)
		}
	}
	return sc, sc.Validate()
}

// saramaTokens is sarama's token provider over a token source; sarama's interface takes no
// context, so each fetch gets --timeout.
type saramaTokens struct {
	src     clientconfig.TokenSource
	timeout time.Duration
}

// Token gets a token from the source.
func (t saramaTokens) Token() (*sarama.AccessToken, error) {
	ctx, cancel := context.WithTimeout(context.Background(), t.timeout)
	defer cancel()
	tok, err := t.src.Token(ctx)
	if err != nil {
		return nil, err
	}
	return &sarama.AccessToken{Token: tok.Value, Extensions: tok.Extensions}, nil
}

// kgoOptions are franz-go's options for cfg, seeded with the brokers sarama just learned
// (they answered a moment ago, where a bootstrap server may be down); logf (nil: none) gets
// its log lines. franz-go dials,
// negotiates versions, authenticates and re-authenticates when the broker ends a session
// (KIP-368), closes idle connections and retries a read once on a fresh connection when
// its connection drops; every request is bounded by --timeout.
func kgoOptions(cfg Config, seeds []string, logf func(string, ...any)) ([]kgo.Opt, error) {
	opts := []kgo.Opt{
		kgo.SeedBrokers(seeds...),
		kgo.ClientID(clientID(cfg.Client)),
		kgo.SoftwareNameAndVersion(softwareName, softwareVersion),
		kgo.DialTimeout(cfg.Timeout),
		// kgo takes 100ms to 15m; each request's context carries --timeout itself.
		kgo.RequestTimeoutOverhead(min(max(cfg.Timeout, 100*time.Millisecond), 15*time.Minute)),
		kgo.RetryTimeout(cfg.Timeout),
		kgo.RequestRetries(1),
		// sarama has connected with the same settings before kgo is used, so an EOF is a
		// dropped connection, not a TLS or SASL mistake: retry it as any other.
		kgo.AlwaysRetryEOF(),
	}
	if logf != nil {
		opts = append(opts, kgo.WithLogger(kgoLogger{logf}))
	}
	if tc := cfg.Client.TLS; tc != nil {
		opts = append(opts, kgo.DialTLSConfig(tc))
	}
	if a := cfg.Client.SASL; a != nil {
		m, err := kgoSASL(a)
		if err != nil {
			return nil, err
		}
		opts = append(opts, kgo.SASL(m))
	}
	return opts, nil
}

// kgoSASL is franz-go's mechanism for a.
func kgoSASL(a *clientconfig.SASL) (sasl.Mechanism, error) {
	switch a.Mechanism {
	case clientconfig.MechanismPlain:
		return plain.Auth{User: a.User, Pass: a.Password}.AsMechanism(), nil
	case clientconfig.MechanismSCRAMSHA256:
		return scram.Auth{User: a.User, Pass: a.Password}.AsSha256Mechanism(), nil
	case clientconfig.MechanismSCRAMSHA512:
		return scram.Auth{User: a.User, Pass: a.Password}.AsSha512Mechanism(), nil
	case clientconfig.MechanismOAuthBearer:
		src := a.Tokens
		return oauth.Oauth(func(ctx context.Context) (oauth.Auth, error) {
			tok, err := src.Token(ctx)
			if err != nil {
				return oauth.Auth{}, err
			}
			return oauth.Auth{Token: tok.Value, Extensions: tok.Extensions}, nil
		}), nil
	}
	return nil, fmt.Errorf("SASL mechanism %s is not supported", a.Mechanism)
}

func clientID(s clientconfig.Settings) string {
	if s.ClientID != "" {
		return s.ClientID
	}
	return defaultClientID
}

// kgoLogger sends franz-go's log lines at info and above to --debug.
type kgoLogger struct{ logf func(string, ...any) }

// Level is info: connections, re-authentications, retries.
func (kgoLogger) Level() kgo.LogLevel { return kgo.LogLevelInfo }

// Log writes one line.
func (l kgoLogger) Log(level kgo.LogLevel, msg string, keyvals ...any) {
	l.logf("kgo %s: %s %v", level, msg, keyvals)
}
