/**
 * {@code sluice verify}: the audit of an archive against Kafka, from a pipeline file or flags.
 */
package io.sluice.cli.verify;
