/**
 * Not API: named steps of the engine's and sinks' protocols where a test makes the JVM halt or freeze, to prove crash
 * safety at each step. Inert unless the {@code sluice.crash.at} or {@code sluice.pause.at} system properties are set.
 */
package io.sluice.core.crash;
