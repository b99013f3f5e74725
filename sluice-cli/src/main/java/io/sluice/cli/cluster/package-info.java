/**
 * The Kafka cluster as commands reach it: the flags that name brokers, a group and topics ({@code lag},
 * {@code verify}), and admin access to a pipeline's brokers with short timeouts (the topics a pattern matches).
 */
package io.sluice.cli.cluster;
