package io.sluice.cli.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.TopicPipelines;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code verify} of a pipeline that skips the records it cannot write: the records skipped are missing by the
 * pipeline's own choice, and the report's advice (restore the files from a backup) read as if the archive had lost
 * them (a new user's run). A note says so.
 */
class SkippedRecordsTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void theRecordsAPipelineSkipsAreSaidToBeMissingByItsChoice() throws Exception {
        Path pipeline = TopicPipelines.archiving(kafka, Names.unique("skipping"), TestDirs.newDir("skipping"),
                "{topic}/", "processing:\n  on-failure: skip\n", "{\"n\":0}", "not json", "{\"n\":2}");
        assertEquals(ExitStatus.OK, Cli.run("run", pipeline.toString(), "--until-end").status());

        Cli.Result verify = Cli.run("verify", pipeline.toString());

        assertEquals(ExitStatus.FAILURE, verify.status(), verify.out() + verify.err());
        assertTrue(verify.err().contains("note: this pipeline skips the records it cannot write (processing.on-failure: "
                + "skip), so the offsets it skipped are missing here by design"), verify.err());
    }
}
