package io.sluice.storage.format;

import java.io.IOException;
import java.io.OutputStream;

/** A file format with its codec: how records become the bytes of one file. */
public interface FileFormat {

    /** The file name suffix, e.g. {@code .jsonl.zst}. */
    String extension();

    /** Whether each value must be scanned as JSON (validated, and compacted when it spans lines). */
    boolean needsJson();

    RecordWriter open(OutputStream file) throws IOException;
}
