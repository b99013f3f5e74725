/**
 * {@code sluice produce}: input lines into a topic, every record acknowledged or reported ({@code AtLeastOnceDelivery},
 * with an optional journal), or exactly once through transactions that commit the input position with the records
 * ({@code TransactionalDelivery}); {@code ProduceRun} reads, drains on a signal and reports. See docs/produce.md.
 */
package io.sluice.cli.produce;
