package io.sluice.mirror.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class CursorsTest {

    /** A topic whose partitions all left is forgotten: a pattern's topics come and go for as long as a mirror runs. */
    @Test
    void aTopicIsForgottenWhenItsLastPartitionCloses() {
        Cursors cursors = new Cursors();
        TopicPartition first = new TopicPartition("daily-2026-11-29", 0);
        TopicPartition third = new TopicPartition("daily-2026-11-29", 2);
        cursors.open(first, "copy", 0, CopyBounds.NONE);
        Cursors.Cursor kept = cursors.open(third, "copy", 10, CopyBounds.NONE);
        cursors.open(new TopicPartition("other", 0), "other", 0, CopyBounds.NONE);

        cursors.close(first);
        assertSame(kept, cursors.of("daily-2026-11-29", 2));
        assertThrows(IllegalStateException.class, () -> cursors.of(first));
        assertEquals(2, cursors.topics());
        cursors.close(third);
        assertEquals(1, cursors.topics(), "only the other topic is left");
        assertThrows(IllegalStateException.class, () -> cursors.of(third));
    }
}
