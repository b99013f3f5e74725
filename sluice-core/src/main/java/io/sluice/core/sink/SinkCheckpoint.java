package io.sluice.core.sink;

import java.util.Objects;

/**
 * What a sink made durable for one commit: every record below {@code offset}, described by {@code data} (for
 * example the name of a manifest listing the files written), which the engine stores in the Kafka commit.
 */
public record SinkCheckpoint(long offset, String data) {

    public SinkCheckpoint {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0, not " + offset);
        }
        Objects.requireNonNull(data, "data (use \"\" for none)");
    }
}
