package io.sluice.storage.format;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads back which Kafka records an archived file holds, from the rows themselves rather than from manifests: what the
 * audit trusts. One implementation per format that stores the coordinates; {@link ArchivedFormats} picks it by file
 * name.
 *
 * <p>Threading: stateless; safe for concurrent use.
 */
public interface ArchivedRows {

    /**
     * Calls {@code visitor} with each row's coordinates, in file order.
     *
     * @throws IOException when the file is unreadable (truncated, corrupt, not this format), naming the file and the
     *     row or byte position where reading failed
     */
    void read(Path file, Visitor visitor) throws IOException;

    @FunctionalInterface
    interface Visitor {
        void row(String topic, int partition, long offset);
    }
}
