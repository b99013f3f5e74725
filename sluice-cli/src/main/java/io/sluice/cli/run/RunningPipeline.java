package io.sluice.cli.run;

import io.sluice.cli.pipeline.Pipeline;
import io.sluice.core.Engine;
import io.sluice.storage.sink.ArchiveSink;

/**
 * What a {@link RunExtension} sees of a started pipeline.
 *
 * <p>Threading: safe for concurrent use.
 */
public interface RunningPipeline {

    Pipeline pipeline();

    Engine engine();

    ArchiveSink sink();

    Progress progress();

    /** Asks the run to drain and stop, as SIGTERM does; {@code reason} is logged. */
    void requestStop(String reason);
}
