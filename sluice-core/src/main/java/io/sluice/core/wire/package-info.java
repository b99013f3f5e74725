/**
 * Public API: the formats the engine writes for other tools to read (commit metadata, dead-letter headers). They
 * change only with a new version prefix.
 */
package io.sluice.core.wire;
