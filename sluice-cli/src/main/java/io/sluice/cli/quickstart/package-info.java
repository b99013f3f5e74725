/**
 * {@code sluice quickstart}: a local broker, a realistic clickstream, its archive audited and summed up.
 */
package io.sluice.cli.quickstart;
