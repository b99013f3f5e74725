/**
 * The bootstrap probe: what each broker address speaks (plain, TLS, SASL, not Kafka), checked before any Kafka client
 * exists so a wrong protocol is said at once; and that check for a pipeline file.
 */
package io.sluice.cli.probe;
