package io.sluice.cli.verify;

import io.sluice.cli.RunFailure;
import io.sluice.cli.pipeline.MirrorFile;
import io.sluice.mirror.audit.MirrorAudit;
import io.sluice.mirror.audit.MirrorAuditConfig;
import io.sluice.mirror.audit.MirrorAuditException;
import io.sluice.mirror.audit.MirrorAuditReport;

/**
 * {@code sluice verify MIRROR.yaml}: the target audited against the source, partition by partition, up to the
 * mirror's progress (or the source's end), docs/mirror-audit.md.
 *
 * <p>Stateless.
 */
final class MirrorVerification {

    private MirrorVerification() {
    }

    static MirrorAuditReport run(MirrorFile mirror, boolean untilSourceEnd) throws RunFailure {
        try {
            return MirrorAudit.run(MirrorAuditConfig.builder(mirror.config()).untilSourceEnd(untilSourceEnd).build());
        } catch (MirrorAuditException e) {
            throw new RunFailure("cannot audit mirror " + mirror.config().name() + ": " + e.getMessage(), e);
        }
    }
}
