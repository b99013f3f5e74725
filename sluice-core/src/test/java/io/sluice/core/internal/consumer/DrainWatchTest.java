package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.DrainAbandonedException;
import io.sluice.core.sink.Sink;
import io.sluice.core.sink.SinkCheckpoint;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/**
 * The drain's watch on a sink that cannot finish: it asks only once the drain started, and when the sink says why, the
 * engine fails once with a {@link DrainAbandonedException} (which lets go of what was not committed), and the sink is
 * asked no more.
 */
class DrainWatchTest {

    private final AtomicReference<String> why = new AtomicReference<>();
    private final AtomicInteger asked = new AtomicInteger();
    private final AtomicInteger letGo = new AtomicInteger();
    private final EngineFailure failure = new EngineFailure(() -> { });
    private final AtomicLong now = new AtomicLong();
    private final DrainWatch watch = new DrainWatch(new SilentSink(), failure, now::get);

    @Test
    void beforeTheDrainTheSinkIsNotAsked() {
        why.set("the target cluster (t:9092) has not answered for 40 s");
        watch.look();
        assertEquals(0, asked.get());
        assertNull(failure.get());
    }

    @Test
    void aSinkThatCanFinishIsWaitedFor() {
        failure.whenFailed(letGo::incrementAndGet);
        watch.arm();
        assertEquals(1, asked.get(), "asked at once when the drain starts");
        assertFalse(watch.gaveUp());
        assertNull(failure.get());
        assertEquals(0, letGo.get());
    }

    @Test
    void aSinkThatCannotFinishFailsTheEngineOnceAndIsAskedNoMore() {
        failure.whenFailed(letGo::incrementAndGet);
        watch.arm();
        why.set("the target cluster (t:9092) has not answered for 40 s");
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));
        watch.look();
        assertEquals(1, asked.get(), "not asked again within 200 ms");
        assertNull(failure.get());
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));
        watch.look();
        assertTrue(watch.gaveUp());
        DrainAbandonedException stop = assertInstanceOf(DrainAbandonedException.class, failure.get());
        assertEquals("the target cluster (t:9092) has not answered for 40 s", stop.why());
        assertEquals(1, letGo.get(), "what was not committed is let go of");
        int asks = asked.get();
        now.addAndGet(TimeUnit.SECONDS.toNanos(1));
        watch.look();
        assertEquals(asks, asked.get(), "given up: the sink is not asked again");
    }

    @Test
    void anEngineThatFailedAlreadyKeepsItsOwnReason() {
        IllegalStateException first = new IllegalStateException("a commit was refused");
        failure.fail(first);
        why.set("the target cluster (t:9092) has not answered for 40 s");
        watch.arm();
        assertEquals(0, asked.get());
        assertEquals(first, failure.get());
    }

    /** A sink whose only answer that matters is {@link #unableToFinish}. */
    private final class SilentSink implements Sink {
        @Override
        public void open(TopicPartition partition, Uuid topicId, long committedOffset, Optional<String> committedData) {
        }

        @Override
        public void write(ConsumerRecord<byte[], byte[]> record) {
        }

        @Override
        public SinkCheckpoint checkpoint(TopicPartition partition, boolean last) {
            return null;
        }

        @Override
        public void committed(TopicPartition partition, SinkCheckpoint checkpoint) {
        }

        @Override
        public void notCommitted(TopicPartition partition, SinkCheckpoint checkpoint, boolean certain) {
        }

        @Override
        public void close(TopicPartition partition, boolean lost) {
        }

        @Override
        public long bufferedBytes(TopicPartition partition) {
            return 0;
        }

        @Override
        public Optional<String> unableToFinish() {
            asked.incrementAndGet();
            return Optional.ofNullable(why.get());
        }
    }
}
