/**
 * {@code sluice lag}: a consumer group's lag per partition, rates, time to catch up and time left before retention
 * deletes unconsumed records; the command, its reader of the cluster, and the report.
 */
package io.sluice.cli.lag;
