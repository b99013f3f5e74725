package io.sluice.cli.quickstart;

/**
 * The quick start's file format, and the DuckDB reader for it. Issue 5 asks for Parquet + zstd; until sluice-storage
 * has the Parquet writer the quick start writes JSON Lines + zstd. {@link #CURRENT} is the one switch: set it to
 * {@link #PARQUET_ZSTD} when {@code parquet} is available in {@link io.sluice.cli.pipeline.FileFormats}.
 */
public enum QuickstartFormat {
    JSONL_ZSTD("jsonl", "zstd", ".jsonl.zst", "read_json", "JSON Lines + zstd", null),
    PARQUET_ZSTD("parquet", "zstd", ".parquet", "read_parquet", "Parquet + zstd", "clickstream.avsc");

    /** The format the quick start uses. */
    public static final QuickstartFormat CURRENT = JSONL_ZSTD;

    /** The pipeline's {@code sink.format} and {@code sink.codec}. */
    public final String format;
    public final String codec;
    /** How file names end. */
    public final String extension;
    /** DuckDB's table function for these files. */
    public final String duckdbReader;
    public final String label;
    /** The Avro schema of the events (a resource next to this class) for formats that need one, or null. */
    public final String schemaResource;

    QuickstartFormat(String format, String codec, String extension, String duckdbReader, String label,
            String schemaResource) {
        this.format = format;
        this.codec = codec;
        this.extension = extension;
        this.duckdbReader = duckdbReader;
        this.label = label;
        this.schemaResource = schemaResource;
    }
}
