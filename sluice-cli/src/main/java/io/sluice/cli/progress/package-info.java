/**
 * The live progress of a run: readings of the engine and one line (records, rates, lag, time to catch up, files).
 */
package io.sluice.cli.progress;
