/**
 * The commit point: the one step that makes a partition's progress true, and fences members that lost it. Public
 * API: {@link io.sluice.core.commit.CommitPoint} is chosen with
 * {@link io.sluice.core.EngineConfig.Builder#commitPoint}.
 */
package io.sluice.core.commit;
