// Package clientconfig turns what the user gave to reach a cluster — bootstrap servers and a
// Kafka client.properties (docs/connect.md) — into Settings: the TLS config, the SASL
// mechanism with its credentials or token source, and the client id, in the terms of no
// client library. internal/kafka/wire builds sarama's and franz-go's configs from the same
// Settings, so both clients connect alike. The package reads Java properties files, resolves
// config providers, parses JAAS, reads PEM, JKS and PKCS12 stores, fetches OIDC tokens, signs
// MSK IAM ones and masks secrets for display. It imports no Kafka client.
package clientconfig
