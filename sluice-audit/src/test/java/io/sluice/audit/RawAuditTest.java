package io.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.format.FormatConfig;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * An archive of raw values, whose files hold no Kafka coordinates: the audit vouches for their offsets by the committed
 * manifests' spans, counts and sizes, so a file cut short after its commit is found by its size.
 */
class RawAuditTest {

    @Test
    void aRawArchiveIsCleanAndAFileCutShortIsNotVouchedFor() throws Exception {
        String topic = Names.unique("raw-audit");
        String group = Names.unique("archiver");
        SharedKafka.cluster().createTopic(topic, 2);
        ArchiveRun.produce(topic, 2, 0, 200);
        Path archive = TestDirs.newDir("raw-audit");
        ArchiveRun.archive(topic, group, null, new LocalBackend(archive), 200, 30,
                FormatConfig.builder().format("raw").codec("none").build().fileFormat());

        AuditReport clean = ArchiveRun.audit(topic, group, archive);
        assertEquals(0, clean.exitStatus(), clean.text());

        Path cut;
        try (Stream<Path> files = Files.walk(archive)) {
            cut = files.filter(f -> f.getFileName().toString().endsWith(".raw")).sorted().findFirst().orElseThrow();
        }
        try (FileChannel file = FileChannel.open(cut, StandardOpenOption.WRITE)) {
            file.truncate(file.size() - 3);
        }
        AuditReport damaged = ArchiveRun.audit(topic, group, archive);
        assertEquals(1, damaged.exitStatus(), damaged.text());
        assertTrue(damaged.text().contains(archive.relativize(cut).toString()), damaged.text());
        assertTrue(damaged.text().contains("cut short or changed after it was written"), damaged.text());
    }
}
