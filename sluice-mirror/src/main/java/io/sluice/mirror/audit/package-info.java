/**
 * The mirror audit behind {@code sluice verify}: does the target hold every committed source record exactly once, in
 * order, byte for byte? {@link io.sluice.mirror.audit.MirrorAudit} runs it from a
 * {@link io.sluice.mirror.audit.MirrorAuditConfig} and answers with a {@link io.sluice.mirror.audit.MirrorAuditReport}.
 */
package io.sluice.mirror.audit;
