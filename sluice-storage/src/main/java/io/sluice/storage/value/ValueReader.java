package io.sluice.storage.value;

import io.sluice.core.sink.RecordRejectedException;

/**
 * Decodes record values for the fields one {@link ValueEncoding#reader} was made for.
 *
 * <p>Threading: one thread at a time (the partition's lane); readers reuse their decoding buffers.
 */
@FunctionalInterface
public interface ValueReader {

    /**
     * @param value a value that is not null (tombstones have no fields)
     * @throws RecordRejectedException when the value is not in the encoding, with where and why it stops being so
     */
    ValueFields read(byte[] value) throws RecordRejectedException;
}
