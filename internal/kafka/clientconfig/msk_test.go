package clientconfig

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-msk-iam-sasl-signer-go/signer"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

// The AWS access key of AWS's documentation examples.
const (
	awsKeyID  = "AKIAIOSFODNN7EXAMPLE"
	awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
)

func hmacSHA256(key []byte, s string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(s))
	return h.Sum(nil)
}

// sigV4Key derives the signing key as AWS documents Signature Version 4.
func sigV4Key(secret, date, region, service string) []byte {
	k := hmacSHA256([]byte("AWS4"+secret), date)
	k = hmacSHA256(k, region)
	k = hmacSHA256(k, service)
	return hmacSHA256(k, "aws4_request")
}

// awsEscape is SigV4's URI encoding: everything but A-Z a-z 0-9 - _ . ~ is %XX.
func awsEscape(s string) string {
	return strings.NewReplacer("+", "%20", "*", "%2A", "%7E", "~").Replace(url.QueryEscape(s))
}

// presignedSignature recomputes the SigV4 signature of a presigned GET URL that signs only the
// host header, written from AWS's documentation independently of the SDK.
func presignedSignature(secret string, u *url.URL, payloadHash string) string {
	q := u.Query()
	var pairs []string
	for k, vs := range q {
		if k == "X-Amz-Signature" || k == "User-Agent" { // MSK's signer adds User-Agent after signing
			continue
		}
		for _, v := range vs {
			pairs = append(pairs, awsEscape(k)+"="+awsEscape(v))
		}
	}
	slices.Sort(pairs)
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	canonical := strings.Join([]string{"GET", path, strings.Join(pairs, "&"), "host:" + u.Host + "\n", "host", payloadHash}, "\n")
	sum := sha256.Sum256([]byte(canonical))
	amzDate := q.Get("X-Amz-Date")
	cred := strings.SplitN(q.Get("X-Amz-Credential"), "/", 2) // key id / date/region/service/aws4_request
	scope := strings.Split(cred[1], "/")
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + cred[1] + "\n" + hex.EncodeToString(sum[:])
	return hex.EncodeToString(hmacSHA256(sigV4Key(secret, scope[0], scope[1], scope[2]), toSign))
}

// TestSigV4CheckerMatchesAWSExamples pins the test's own SigV4 code to AWS's published
// examples (fixed credentials and time), so that it can judge the MSK signer below.
func TestSigV4CheckerMatchesAWSExamples(t *testing.T) {
	// "Derive a signing key" example of AWS's Signature Version 4 documentation.
	key := sigV4Key("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20120215", "us-east-1", "iam")
	if got := hex.EncodeToString(key); got != "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d" {
		t.Fatalf("signing key %s", got)
	}
	// The presigned URL example of Amazon S3's SigV4 query-string documentation.
	u, _ := url.Parse("https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256" +
		"&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z" +
		"&X-Amz-Expires=86400&X-Amz-SignedHeaders=host")
	if got := presignedSignature(awsSecret, u, "UNSIGNED-PAYLOAD"); got != "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404" {
		t.Fatalf("signature %s", got)
	}
}

// checkMSKToken decodes an MSK IAM token and checks it against the format AWS documents for
// aws-msk-iam-sasl-signer: base64url (no padding) of a SigV4-presigned URL for
// kafka-cluster:Connect on kafka.<region>.amazonaws.com, valid 900 s, signing only the host,
// plus a User-Agent parameter. It returns the query.
func checkMSKToken(t *testing.T, token, region, keyID, secret string, before, after time.Time) url.Values {
	t.Helper()
	if strings.ContainsAny(token, "+/=") {
		t.Fatalf("token is not unpadded base64url: %q", token)
	}
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	signedAt, err := time.Parse("20060102T150405Z", q.Get("X-Amz-Date"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Action": "kafka-cluster:Connect", "X-Amz-Algorithm": "AWS4-HMAC-SHA256", "X-Amz-Expires": "900",
		"X-Amz-SignedHeaders": "host", "X-Amz-Credential": keyID + "/" + signedAt.Format("20060102") + "/" + region + "/kafka-cluster/aws4_request",
	}
	for k, v := range want {
		if q.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, q.Get(k), v)
		}
	}
	if u.Scheme != "https" || u.Host != "kafka."+region+".amazonaws.com" || u.Path != "/" {
		t.Errorf("URL %s://%s%s", u.Scheme, u.Host, u.Path)
	}
	if !strings.HasPrefix(q.Get("User-Agent"), "aws-msk-iam-sasl-signer-go/") {
		t.Errorf("User-Agent %q", q.Get("User-Agent"))
	}
	if signedAt.Before(before.Truncate(time.Second)) || signedAt.After(after) {
		t.Errorf("signed at %v, outside [%v, %v]", signedAt, before, after)
	}
	empty := sha256.Sum256(nil) // the signer signs an empty payload
	if got, sig := presignedSignature(secret, u, hex.EncodeToString(empty[:])), q.Get("X-Amz-Signature"); got != sig {
		t.Errorf("signature %s, recomputed %s", sig, got)
	}
	return q
}

// TestMSKTokenFormat signs with fixed credentials through AWS's signer library (which takes
// the time itself: the signing time is read back from the token and checked to be now).
func TestMSKTokenFormat(t *testing.T) {
	before := time.Now().UTC()
	token, _, err := signer.GenerateAuthTokenFromCredentialsProvider(context.Background(), "eu-west-1",
		credentials.NewStaticCredentialsProvider(awsKeyID, awsSecret, "session-token"))
	if err != nil {
		t.Fatal(err)
	}
	q := checkMSKToken(t, token, "eu-west-1", awsKeyID, awsSecret, before, time.Now().UTC())
	if q.Get("X-Amz-Security-Token") != "session-token" {
		t.Errorf("X-Amz-Security-Token %q", q.Get("X-Amz-Security-Token"))
	}
}

// isolateAWS points the AWS SDK at empty files and disables the instance metadata service, so
// only what a test sets is seen.
func isolateAWS(t *testing.T) string {
	dir := t.TempDir()
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
		"AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
		"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_STS"} {
		t.Setenv(k, "")
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	return dir
}

func mskProvider(t *testing.T, props map[string]string, bootstrap ...string) *mskTokenProvider {
	t.Helper()
	s, err := FromProperties(props, Options{Bootstrap: bootstrap, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if s.SASL == nil || s.SASL.Mechanism != MechanismOAuthBearer {
		t.Fatalf("SASL %+v", s.SASL)
	}
	tp, ok := s.SASL.Tokens.(*mskTokenProvider)
	if !ok {
		t.Fatalf("token source %T", s.SASL.Tokens)
	}
	return tp
}

const iamModule = "software.amazon.msk.auth.iam.IAMLoginModule"

func TestMSKIAMCredentialChain(t *testing.T) {
	dir := isolateAWS(t)
	kafkatest.WriteFile(t, dir, "credentials", []byte("[ops]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = "+awsSecret+"\n"))
	sts := fakeSTS(t)
	iam := func(jaasOpts string) map[string]string {
		return map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "AWS_MSK_IAM",
			"sasl.jaas.config": iamModule + " required" + jaasOpts + ";", "sasl.client.callback.handler.class": mskSASLHandler}
	}
	oauthForm := map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "OAUTHBEARER",
		"sasl.jaas.config": oauthModule + " required;", "sasl.login.callback.handler.class": mskLoginHandler,
		"sasl.client.callback.handler.class": mskLoginHandler}
	const mskBroker = "b-1.orders.abc123.c2.kafka.ap-southeast-2.amazonaws.com:9098"
	tests := []struct {
		name      string
		env       map[string]string
		props     map[string]string
		bootstrap string
		region    string
		keyID     string
		wantErr   string
	}{
		{"environment, region from AWS_REGION", map[string]string{"AWS_ACCESS_KEY_ID": awsKeyID, "AWS_SECRET_ACCESS_KEY": awsSecret, "AWS_REGION": "us-east-1"},
			iam(""), "localhost:9098", "us-east-1", awsKeyID, ""},
		{"region from the MSK host name wins", map[string]string{"AWS_ACCESS_KEY_ID": awsKeyID, "AWS_SECRET_ACCESS_KEY": awsSecret, "AWS_REGION": "us-east-1"},
			iam(""), mskBroker, "ap-southeast-2", awsKeyID, ""},
		{"MSK's OAUTHBEARER form", map[string]string{"AWS_ACCESS_KEY_ID": awsKeyID, "AWS_SECRET_ACCESS_KEY": awsSecret},
			oauthForm, mskBroker, "ap-southeast-2", awsKeyID, ""},
		{"named profile (awsProfileName)", nil, iam(` awsProfileName="ops"`), mskBroker, "ap-southeast-2", "AKIDPROFILE", ""},
		{"AWS_PROFILE", map[string]string{"AWS_PROFILE": "ops"}, iam(""), mskBroker, "ap-southeast-2", "AKIDPROFILE", ""},
		{"assumed role (awsRoleArn)", map[string]string{"AWS_ACCESS_KEY_ID": awsKeyID, "AWS_SECRET_ACCESS_KEY": awsSecret, "AWS_ENDPOINT_URL_STS": sts},
			iam(` awsRoleArn="arn:aws:iam::123456789012:role/offsets" awsRoleSessionName="oncall"`), mskBroker, "ap-southeast-2", "ASIAROLE", ""},
		{"no region", map[string]string{"AWS_ACCESS_KEY_ID": awsKeyID, "AWS_SECRET_ACCESS_KEY": awsSecret}, iam(""), "localhost:9098", "", "", "cannot tell the AWS region"},
		{"no credentials", map[string]string{"AWS_REGION": "us-east-1"}, iam(""), "localhost:9098", "", "", "AWS MSK IAM"},
		{"unknown profile", nil, iam(` awsProfileName="nope"`), mskBroker, "", "", "nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			tp := mskProvider(t, tt.props, tt.bootstrap)
			before := time.Now().UTC()
			tok, err := tp.Token(t.Context())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), awsSecret) {
					t.Fatalf("error %v, want one containing %q and no secret", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			secret := awsSecret
			if tt.keyID == "ASIAROLE" {
				secret = "roleSecret"
			}
			checkMSKToken(t, tok.Value, tt.region, tt.keyID, secret, before, time.Now().UTC())
		})
	}
}

// fakeSTS answers AssumeRole for the role the test names, as AWS STS does (query protocol).
func fakeSTS(t *testing.T) string {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.Form.Get("Action") != "AssumeRole" || r.Form.Get("RoleArn") != "arn:aws:iam::123456789012:role/offsets" ||
			r.Form.Get("RoleSessionName") != "oncall" || !strings.Contains(r.Header.Get("Authorization"), awsKeyID) {
			http.Error(w, "unexpected request "+r.Form.Encode(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/xml")
		fmt.Fprintf(w, `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>`+
			`<Credentials><AccessKeyId>ASIAROLE</AccessKeyId><SecretAccessKey>roleSecret</SecretAccessKey>`+
			`<SessionToken>roleToken</SessionToken><Expiration>%s</Expiration></Credentials>`+
			`<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/offsets/oncall</Arn><AssumedRoleId>AROA:oncall</AssumedRoleId></AssumedRoleUser>`+
			`</AssumeRoleResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></AssumeRoleResponse>`,
			time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	}))
	t.Cleanup(s.Close)
	return s.URL
}

func TestMSKConfigErrors(t *testing.T) {
	tests := []struct {
		name  string
		props map[string]string
		want  string
	}{
		{"IAM module with PLAIN", map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN", "sasl.jaas.config": iamModule + " required;"},
			"IAMLoginModule does not work with sasl.mechanism=PLAIN"},
		{"other callback handler", map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "AWS_MSK_IAM", "sasl.jaas.config": iamModule + " required;",
			"sasl.client.callback.handler.class": "com.example.X"}, "for MSK IAM use"},
		{"role key without secret", map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "AWS_MSK_IAM",
			"sasl.jaas.config": iamModule + ` required awsRoleArn="arn:x" awsRoleAccessKeyId="AKID";`}, "go together"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromProperties(tt.props, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
