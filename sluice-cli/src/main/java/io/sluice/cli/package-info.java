/**
 * The sluice command.
 */
package io.sluice.cli;
