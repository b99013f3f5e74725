/**
 * {@code sluice run}: a pipeline run until stopped (signals drain it) or to the end offsets with the bounded-run flags.
 */
package io.sluice.cli.run;
