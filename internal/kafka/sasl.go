package kafka

// SASL for client properties: sasl.mechanism and sasl.jaas.config become sarama's SASL
// settings. Every setting lands in *sarama.Config (see ApplyProperties).

import (
	"errors"
	"strings"

	"github.com/IBM/sarama"
)

// Property names and class names of the SASL settings.
const (
	mechKey          = "sasl.mechanism"
	jaasKey          = "sasl.jaas.config"
	loginHandlerKey  = "sasl.login.callback.handler.class"
	clientHandlerKey = "sasl.client.callback.handler.class"

	mechMSKIAM      = "AWS_MSK_IAM"
	mskLoginHandler = "software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler"
	mskSASLHandler  = "software.amazon.msk.auth.iam.IAMClientCallbackHandler"
	oidcHandler     = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
	oidcHandlerOld  = "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler"
)

const useMechanisms = "use PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER or AWS_MSK_IAM"

// applySASL sets cfg.Net.SASL from sasl.mechanism and sasl.jaas.config. As in Kafka, an unset
// mechanism means GSSAPI, which offsettui does not support.
func applySASL(cfg *sarama.Config, p *propReader) error {
	raw := p.get(mechKey)
	mech := strings.ToUpper(raw)
	switch mech {
	case sarama.SASLTypePlaintext, sarama.SASLTypeSCRAMSHA256, sarama.SASLTypeSCRAMSHA512, sarama.SASLTypeOAuth, mechMSKIAM:
	case "", sarama.SASLTypeGSSAPI:
		return propErr(mechKey, "GSSAPI (Kerberos, Kafka's default when sasl.mechanism is unset) is not supported; "+useMechanisms)
	default:
		return propErr(mechKey, "unknown or unsupported mechanism %s; %s", shown(mechKey, raw), useMechanisms)
	}
	if p.get("sasl.login.class") != "" {
		return propErr("sasl.login.class", "custom login classes cannot run in offsettui; remove it")
	}
	jaasText := p.get(jaasKey)
	if jaasText == "" {
		return propErr(jaasKey, "is required for SASL (offsettui reads no JAAS file); for PLAIN set it to "+
			`org.apache.kafka.common.security.plain.PlainLoginModule required username="..." password="...";`)
	}
	entry, err := parseJAAS(jaasText)
	if err != nil {
		return propErr(jaasKey, "%v", err)
	}
	if err := checkModule(mech, entry); err != nil {
		return propErr(jaasKey, "%v", err)
	}
	s := &cfg.Net.SASL
	s.Enable, s.Handshake = true, true
	s.User, s.Password, s.SCRAMClientGeneratorFunc, s.TokenProvider = "", "", nil, nil
	s.Mechanism = sarama.SASLMechanism(mech)
	switch {
	case mech == mechMSKIAM || mech == sarama.SASLTypeOAuth && p.get(loginHandlerKey) == mskLoginHandler:
		// MSK's IAM listeners take MSK's signed token over OAUTHBEARER, which sarama speaks.
		s.Mechanism = sarama.SASLTypeOAuth
		return applyMSKIAM(cfg, p, entry)
	case mech == sarama.SASLTypeOAuth:
		return applyOIDC(cfg, p, entry)
	}
	return applyPassword(cfg, p, entry)
}

// checkModule refuses login modules that Kafka's client would refuse for the mechanism.
// PlainLoginModule with SCRAM fails in Kafka (only ScramLoginModule registers the SCRAM SASL
// client); ScramLoginModule with PLAIN works there (the JDK ships a PLAIN client).
func checkModule(mech string, e jaasEntry) error {
	name := e.moduleName()
	switch name {
	case "Krb5LoginModule":
		return errors.New("Krb5LoginModule (GSSAPI, Kerberos) is not supported")
	case "PlainLoginModule", "ScramLoginModule", "OAuthBearerLoginModule", "IAMLoginModule":
	default:
		return errors.New("unsupported login module; for " + mech + " use " + moduleFor(mech))
	}
	ok := false
	switch mech {
	case sarama.SASLTypePlaintext:
		ok = name == "PlainLoginModule" || name == "ScramLoginModule"
	case sarama.SASLTypeSCRAMSHA256, sarama.SASLTypeSCRAMSHA512:
		ok = name == "ScramLoginModule"
	case sarama.SASLTypeOAuth:
		ok = name == "OAuthBearerLoginModule"
	case mechMSKIAM:
		ok = name == "IAMLoginModule"
	}
	if !ok {
		return errors.New(name + " does not work with sasl.mechanism=" + mech + " (Kafka's client refuses it too); use " + moduleFor(mech))
	}
	return nil
}

func moduleFor(mech string) string {
	switch mech {
	case sarama.SASLTypePlaintext:
		return "org.apache.kafka.common.security.plain.PlainLoginModule"
	case sarama.SASLTypeOAuth:
		return "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
	case mechMSKIAM:
		return "software.amazon.msk.auth.iam.IAMLoginModule"
	}
	return "org.apache.kafka.common.security.scram.ScramLoginModule"
}

// applyPassword sets PLAIN and SCRAM credentials from the JAAS options.
func applyPassword(cfg *sarama.Config, p *propReader, e jaasEntry) error {
	if h := p.get(clientHandlerKey); h != "" {
		return propErr(clientHandlerKey, "custom SASL callback handlers cannot run in offsettui; remove it for %s", cfg.Net.SASL.Mechanism)
	}
	if h := p.get(loginHandlerKey); h != "" {
		return propErr(loginHandlerKey, "custom login callback handlers cannot run in offsettui; remove it for %s", cfg.Net.SASL.Mechanism)
	}
	switch {
	case strings.EqualFold(e.options["tokenauth"], "true"):
		return propErr(jaasKey, "delegation tokens (tokenauth=true) are not supported")
	case e.options["username"] == "":
		return propErr(jaasKey, `has no username="..." option`)
	case e.options["password"] == "":
		return propErr(jaasKey, `has no password="..." option`)
	}
	s := &cfg.Net.SASL
	s.User, s.Password = e.options["username"], e.options["password"]
	s.SCRAMClientGeneratorFunc = scramGenerator(s.Mechanism)
	return nil
}
