package clientconfig

// AWS MSK IAM: the Java client's AWS_MSK_IAM mechanism (IAMLoginModule) and MSK's OAUTHBEARER
// form (IAMOAuthBearerLoginCallbackHandler) both become MSK's signed OAUTHBEARER token, which
// MSK's IAM listeners accept and every client speaks (sarama does not speak AWS_MSK_IAM, and
// both of offsettui's clients authenticate alike). The token is signed by AWS's own signer
// library with credentials from the standard AWS chain.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-msk-iam-sasl-signer-go/signer"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// mskTokens is the MSK IAM token source of the IAMLoginModule options (awsProfileName,
// awsRoleArn, awsRoleSessionName, awsRoleExternalId, awsStsRegion, and awsRoleAccessKeyId /
// awsRoleSecretAccessKey / awsRoleSessionToken as the credentials that assume the role).
func mskTokens(p *propReader, e jaasEntry, opts Options) (*mskTokenProvider, error) {
	for _, key := range []string{loginHandlerKey, clientHandlerKey} {
		switch p.get(key) {
		case "", mskLoginHandler, mskSASLHandler:
		default:
			return nil, propErr(key, "for MSK IAM use %s (or leave it unset)", mskSASLHandler)
		}
	}
	o := e.options
	tp := &mskTokenProvider{profile: o["awsProfileName"], roleARN: o["awsRoleArn"], sessionName: o["awsRoleSessionName"],
		externalID: o["awsRoleExternalId"], stsRegion: o["awsStsRegion"], timeout: opts.Timeout, region: mskRegion(opts.Bootstrap)}
	if id, secret := o["awsRoleAccessKeyId"], o["awsRoleSecretAccessKey"]; id != "" || secret != "" {
		if id == "" || secret == "" || tp.roleARN == "" {
			return nil, propErr(jaasKey, "awsRoleAccessKeyId and awsRoleSecretAccessKey go together, with awsRoleArn")
		}
		tp.roleBase = credentials.NewStaticCredentialsProvider(id, secret, o["awsRoleSessionToken"])
	}
	if tp.sessionName == "" {
		tp.sessionName = signer.DefaultSessionName
	}
	return tp, nil
}

// mskTokenProvider is the TokenSource of MSK IAM. Credentials are loaded once (the SDK
// caches and refreshes them); every token is signed afresh (valid 15 minutes).
type mskTokenProvider struct {
	profile, roleARN, sessionName, externalID, stsRegion string
	roleBase                                             aws.CredentialsProvider // credentials that assume roleARN, if given in JAAS
	timeout                                              time.Duration

	mu     sync.Mutex
	region string                  // from the bootstrap host names (mskRegion) or the AWS config
	creds  aws.CredentialsProvider // loaded on first use
}

// mskHost matches MSK broker names (provisioned and serverless) and captures the region.
var mskHost = regexp.MustCompile(`\.kafka(?:-serverless)?\.([a-z]{2}(?:-[a-z]+)+-\d+)\.amazonaws\.com(?:\.cn)?$`)

// mskRegion takes the region from the bootstrap host names, as the Java client takes it from
// the broker's host name; "" when none is an MSK host name.
func mskRegion(addrs []string) string {
	for _, a := range addrs {
		host, _, err := net.SplitHostPort(a)
		if err != nil {
			host = a
		}
		if m := mskHost.FindStringSubmatch(strings.ToLower(host)); m != nil {
			return m[1]
		}
	}
	return ""
}

// Token signs a new MSK IAM token.
func (tp *mskTokenProvider) Token(ctx context.Context) (Token, error) {
	ctx, cancel := context.WithTimeout(ctx, tp.timeout)
	defer cancel()
	region, creds, err := tp.credentials(ctx)
	if err != nil {
		return Token{}, fmt.Errorf("AWS MSK IAM: %w", err)
	}
	token, _, err := signer.GenerateAuthTokenFromCredentialsProvider(ctx, region, creds)
	if err != nil {
		return Token{}, fmt.Errorf("AWS MSK IAM: %w", err)
	}
	return Token{Value: token}, nil
}

// credentials loads the AWS config once: profile (awsProfileName or AWS_PROFILE), environment,
// shared files, SSO, web identity, container and instance roles, as every AWS SDK does; then
// assumes awsRoleArn if set.
func (tp *mskTokenProvider) credentials(ctx context.Context) (string, aws.CredentialsProvider, error) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.creds != nil {
		return tp.region, tp.creds, nil
	}
	var opts []func(*config.LoadOptions) error
	if tp.profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(tp.profile))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return "", nil, fmt.Errorf("load the AWS configuration: %w", err)
	}
	if tp.region == "" {
		tp.region = awsCfg.Region
	}
	if tp.region == "" {
		return "", nil, errors.New("cannot tell the AWS region: the bootstrap servers are not MSK host names; set AWS_REGION")
	}
	creds := awsCfg.Credentials
	if tp.roleARN != "" {
		if tp.roleBase != nil {
			awsCfg.Credentials = tp.roleBase
		}
		if awsCfg.Region == "" || tp.stsRegion != "" {
			awsCfg.Region = tp.region
			if tp.stsRegion != "" {
				awsCfg.Region = tp.stsRegion
			}
		}
		assume := stscreds.NewAssumeRoleProvider(sts.NewFromConfig(awsCfg), tp.roleARN, func(o *stscreds.AssumeRoleOptions) {
			o.RoleSessionName = tp.sessionName
			if tp.externalID != "" {
				o.ExternalID = aws.String(tp.externalID)
			}
		})
		creds = aws.NewCredentialsCache(assume)
	}
	if creds == nil {
		return "", nil, errors.New("no AWS credentials found (profile, environment, shared files, SSO, or an instance role)")
	}
	tp.creds = creds
	return tp.region, creds, nil
}
