package io.sluice.cli.pipeline;

import io.sluice.core.EngineConfig;
import io.sluice.storage.backend.S3Config;
import io.sluice.storage.format.FormatConfig;
import io.sluice.storage.rolling.RollingPolicy;

/**
 * What the engine and the archive sink use when they are not told otherwise, read from their own builders and
 * defaults, so that a pipeline key's default is written once, where it takes effect, and {@link PipelineKeys} only
 * states it ({@code PipelineDefaultsTest} checks the reference against what the engine and the sink receive).
 *
 * <p>Immutable.
 */
final class Defaults {

    /** Built with placeholders for what the engine requires and has no default for. */
    static final EngineConfig ENGINE = EngineConfig.builder()
            .bootstrapServers("placeholder:9092").groupId("placeholder").topics("placeholder").build();
    static final RollingPolicy ROLLING = RollingPolicy.defaults();
    static final S3Config S3 = S3Config.builder("placeholder").build();
    static final FormatConfig JSONL = FormatConfig.builder().format(FileFormats.JSONL.name()).build();
    static final FormatConfig RAW = FormatConfig.builder().format(FileFormats.RAW.name()).build();

    private Defaults() {
    }
}
