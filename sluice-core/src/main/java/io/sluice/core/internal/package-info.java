/**
 * Not API: the engine's workings (consumer thread and its roles, lanes and worker pool, ledgers, budget, failure
 * handling, meters). They change whenever the engine does; no other module may use them ({@code ApiBoundaryTest}).
 */
package io.sluice.core.internal;
