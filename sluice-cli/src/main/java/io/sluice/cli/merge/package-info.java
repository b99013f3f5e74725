/**
 * {@code sluice merge}: runs a merge file (one time-ordered output from inputs on several clusters) with progress,
 * metrics and a drain, and shows its lag per output partition and input for {@code sluice lag}.
 */
package io.sluice.cli.merge;
