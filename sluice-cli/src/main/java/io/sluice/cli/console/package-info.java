/**
 * What the command prints: results, messages, the live status line, logging set-up, and numbers as people read
 * them.
 */
package io.sluice.cli.console;
