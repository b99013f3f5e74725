package io.sluice.core.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.TestDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/**
 * The test sink follows {@link Sink#notCommitted}'s contract, driven call by call as the engine would after a refused
 * commit (a cooperative rebalance refuses it and the partition stays): the engine goes on from the refused
 * checkpoint's offset, so its output must reach the next commit; only at close is what no commit can name removed.
 */
class ChunkFileSinkTest {

    private static final TopicPartition TP = new TopicPartition("t", 0);

    @Test
    void aRefusedCheckpointsRecordsArePublishedByTheNextCommit() throws Exception {
        Path dir = TestDirs.newDir("chunk-sink-refused");
        ChunkFileSink sink = open(dir);
        write(sink, 0, 1, 2);
        SinkCheckpoint refused = sink.checkpoint(TP, false);
        sink.notCommitted(TP, refused, true);
        write(sink, 3, 4);
        SinkCheckpoint next = sink.checkpoint(TP, false);
        assertEquals(new SinkCheckpoint(5, "chunk-3,chunk-5"), next, "the refused chunk rides on the next commit");
        sink.committed(TP, next);
        assertEquals(Map.of("t-0@0", 1, "t-0@1", 1, "t-0@2", 1, "t-0@3", 1, "t-0@4", 1), ChunkFileSink.visible(dir));
        sink.close(TP, false);
        assertEquals(List.of(), pending(dir));
    }

    @Test
    void atCloseChunksOfCertainlyRefusedCommitsGoAndThoseOfUnknownOutcomeStayForRecovery() throws Exception {
        Path dir = TestDirs.newDir("chunk-sink-close");
        ChunkFileSink sink = open(dir);
        write(sink, 0, 1);
        SinkCheckpoint unknown = sink.checkpoint(TP, false);
        sink.notCommitted(TP, unknown, false);
        write(sink, 2);
        SinkCheckpoint refused = sink.checkpoint(TP, true);
        sink.notCommitted(TP, refused, true);
        sink.close(TP, true);
        assertEquals(List.of("chunk-2.pending"), pending(dir), "the unknown commit may be the committed one");
        assertEquals(Map.of(), ChunkFileSink.visible(dir));

        // the next owner learns that the unknown commit was the committed one: it publishes that chunk only
        ChunkFileSink next = new ChunkFileSink(dir);
        next.open(TP, Uuid.ONE_UUID, 2, Optional.of(unknown.data()));
        assertEquals(Map.of("t-0@0", 1, "t-0@1", 1), ChunkFileSink.visible(dir));
        assertEquals(List.of(), pending(dir));
    }

    private static ChunkFileSink open(Path dir) throws Exception {
        ChunkFileSink sink = new ChunkFileSink(dir);
        sink.open(TP, Uuid.ONE_UUID, 0, Optional.empty());
        return sink;
    }

    private static void write(ChunkFileSink sink, long... offsets) {
        for (long offset : offsets) {
            sink.write(new ConsumerRecord<>(TP.topic(), TP.partition(), offset, new byte[0],
                    ("v" + offset).getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static List<String> pending(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir.resolve(TP.toString()))) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".pending")).sorted().toList();
        }
    }
}
