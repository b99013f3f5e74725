package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.testkit.TestDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/**
 * A topic whose file names a file system cannot take ({@code <topic>+<partition>+<offset><extension>}; Kafka takes
 * names of 249 characters): said when its partition opens, where the run failed at its first roll with "File name too
 * long", and every start the same (a new user's run).
 */
class LongTopicTest {

    @Test
    void aTopicWhoseFileNamesTheFileSystemCannotTakeIsSaidAtOpen() throws Exception {
        Path root = TestDirs.newDir("long-topic");
        LocalBackend backend = new LocalBackend(root);
        ArchiveSink sink = new ArchiveSink(backend, new Layout("{topic}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.ZSTD, false, false), new RollingPolicy(1L << 20, 100, Duration.ofHours(1), 4),
                true);
        String topic = "com.example.payments." + "x".repeat(228);
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> sink.open(new TopicPartition(topic, 0), Uuid.randomUuid(), 0, Optional.empty()));
        assertTrue(refused.getMessage().startsWith("the files of topic " + topic + " (a name of 249 characters) would "
                + "have names of up to 281 bytes, and " + backend.describe() + " takes at most 255 in one name"),
                refused.getMessage());
        sink.open(new TopicPartition("com.example.payments." + "x".repeat(170), 0), Uuid.randomUuid(), 0,
                Optional.empty()); // 223 bytes at most: fine
    }
}
