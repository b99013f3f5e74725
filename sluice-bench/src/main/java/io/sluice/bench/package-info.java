/**
 * Benchmarks of Sluice against the tools it replaces, each system in its own run, compared by ratios.
 */
package io.sluice.bench;
