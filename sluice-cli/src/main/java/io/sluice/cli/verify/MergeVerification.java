package io.sluice.cli.verify;

import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.console.Console;
import io.sluice.cli.pipeline.MergeFile;
import io.sluice.merge.audit.MergeAudit;
import io.sluice.merge.audit.MergeAuditReport;

/**
 * {@code sluice verify MERGE.yaml}: every output partition audited against the inputs up to the merge's committed
 * positions (docs/merge.md, "verify"); exit 1 when anything is missing, doubled, changed or out of order.
 *
 * <p>Stateless.
 */
final class MergeVerification {

    private MergeVerification() {
    }

    static int run(MergeFile merge, boolean json, Console console) throws RunFailure {
        MergeAuditReport report;
        try {
            report = MergeAudit.run(merge.config());
        } catch (Exception e) {
            throw new RunFailure("cannot audit merge " + merge.config().name() + ": " + e.getMessage(), e);
        }
        console.result(json ? report.json() : report.text());
        return report.ok() ? ExitStatus.OK : ExitStatus.FAILURE;
    }
}
