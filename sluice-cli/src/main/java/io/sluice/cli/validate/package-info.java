/**
 * {@code sluice validate}: a pipeline file checked without running it, and with {@code --connect} against its
 * brokers and storage.
 */
package io.sluice.cli.validate;
