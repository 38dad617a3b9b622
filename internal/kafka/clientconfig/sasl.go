package clientconfig

// SASL for client properties: sasl.mechanism and sasl.jaas.config become Settings.SASL.

import (
	"errors"
	"strings"
)

// Property names and class names of the SASL settings.
const (
	mechKey          = "sasl.mechanism"
	jaasKey          = "sasl.jaas.config"
	loginHandlerKey  = "sasl.login.callback.handler.class"
	clientHandlerKey = "sasl.client.callback.handler.class"

	mechMSKIAM      = "AWS_MSK_IAM"
	mechGSSAPI      = "GSSAPI"
	mskLoginHandler = "software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler"
	mskSASLHandler  = "software.amazon.msk.auth.iam.IAMClientCallbackHandler"
	oidcHandler     = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
	oidcHandlerOld  = "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler"
)

const useMechanisms = "use PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER or AWS_MSK_IAM"

// saslSettings reads sasl.mechanism and sasl.jaas.config. As in Kafka, an unset mechanism
// means GSSAPI, which offsettui does not support.
func saslSettings(p *propReader, o Options) (*SASL, error) {
	raw := p.get(mechKey)
	mech := strings.ToUpper(raw)
	switch mech {
	case MechanismPlain, MechanismSCRAMSHA256, MechanismSCRAMSHA512, MechanismOAuthBearer, mechMSKIAM:
	case "", mechGSSAPI:
		return nil, propErr(mechKey, "GSSAPI (Kerberos, Kafka's default when sasl.mechanism is unset) is not supported; "+useMechanisms)
	default:
		return nil, propErr(mechKey, "unknown or unsupported mechanism %s; %s", shown(mechKey, raw), useMechanisms)
	}
	if p.get("sasl.login.class") != "" {
		return nil, propErr("sasl.login.class", "custom login classes cannot run in offsettui; remove it")
	}
	jaasText := p.get(jaasKey)
	if jaasText == "" {
		return nil, propErr(jaasKey, "is required for SASL (offsettui reads no JAAS file); for PLAIN set it to "+
			`org.apache.kafka.common.security.plain.PlainLoginModule required username="..." password="...";`)
	}
	entry, err := parseJAAS(jaasText)
	if err != nil {
		return nil, propErr(jaasKey, "%v", err)
	}
	if err := checkModule(mech, entry); err != nil {
		return nil, propErr(jaasKey, "%v", err)
	}
	var tokens TokenSource
	switch {
	case mech == mechMSKIAM || mech == MechanismOAuthBearer && p.get(loginHandlerKey) == mskLoginHandler:
		// MSK's IAM listeners take MSK's signed token over OAUTHBEARER, which every client
		// speaks (sarama does not speak AWS_MSK_IAM).
		tokens, err = mskTokens(p, entry, o)
	case mech == MechanismOAuthBearer:
		tokens, err = oidcTokens(p, entry, o)
	default:
		return passwordSASL(mech, p, entry)
	}
	if err != nil {
		return nil, err
	}
	return &SASL{Mechanism: MechanismOAuthBearer, Tokens: tokens}, nil
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
	case MechanismPlain:
		ok = name == "PlainLoginModule" || name == "ScramLoginModule"
	case MechanismSCRAMSHA256, MechanismSCRAMSHA512:
		ok = name == "ScramLoginModule"
	case MechanismOAuthBearer:
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
	case MechanismPlain:
		return "org.apache.kafka.common.security.plain.PlainLoginModule"
	case MechanismOAuthBearer:
		return "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
	case mechMSKIAM:
		return "software.amazon.msk.auth.iam.IAMLoginModule"
	}
	return "org.apache.kafka.common.security.scram.ScramLoginModule"
}

// passwordSASL is PLAIN or SCRAM with the credentials of the JAAS options.
func passwordSASL(mech string, p *propReader, e jaasEntry) (*SASL, error) {
	if h := p.get(clientHandlerKey); h != "" {
		return nil, propErr(clientHandlerKey, "custom SASL callback handlers cannot run in offsettui; remove it for %s", mech)
	}
	if h := p.get(loginHandlerKey); h != "" {
		return nil, propErr(loginHandlerKey, "custom login callback handlers cannot run in offsettui; remove it for %s", mech)
	}
	switch {
	case strings.EqualFold(e.options["tokenauth"], "true"):
		return nil, propErr(jaasKey, "delegation tokens (tokenauth=true) are not supported")
	case e.options["username"] == "":
		return nil, propErr(jaasKey, `has no username="..." option`)
	case e.options["password"] == "":
		return nil, propErr(jaasKey, `has no password="..." option`)
	}
	return &SASL{Mechanism: mech, User: e.options["username"], Password: e.options["password"]}, nil
}
