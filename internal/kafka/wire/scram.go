package wire

// SCRAM runs on xdg-go/scram: sarama ships no SCRAM implementation.

import (
	"errors"

	"github.com/IBM/sarama"
	"github.com/xdg-go/scram"
)

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
