package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.ConfigProblem;
import io.sluice.cli.config.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A pipeline read from a file: source, processing and sink, validated together, plus the settings as written so that
 * later checks (a format not in this build) can still point at a line of the file.
 *
 * <p>Immutable.
 */
public record Pipeline(String file, SourceConfig source, ProcessingConfig processing, SinkConfig sink,
        Settings settings) {

    public Pipeline {
        InvalidSetting.check(processing.deadLetterTopic() == null
                || !source.topics().contains(processing.deadLetterTopic()), PipelineKeys.DEAD_LETTER_TOPIC,
                "'" + processing.deadLetterTopic() + "' is one of the source topics; dead letters need a topic of "
                        + "their own");
    }

    /** What this build cannot run yet (a pending format or storage backend), where the file names it. */
    public List<ConfigProblem> pending() {
        List<ConfigProblem> pending = new ArrayList<>();
        if (!sink.format().available()) {
            pending.add(new ConfigProblem(settings.at(PipelineKeys.FORMAT), "sink.format: " + sink.format().name()
                    + " is not in this build yet (" + sink.format().pending() + ")"));
        }
        pendingBackend().ifPresent(pending::add);
        return pending;
    }

    /** The location's storage backend, when this build does not have it yet. */
    Optional<ConfigProblem> pendingBackend() {
        StorageBackends.Entry backend = sink.backend();
        return backend.available() ? Optional.empty() : Optional.of(new ConfigProblem(settings.at(PipelineKeys.LOCATION),
                "sink.location: " + backend.scheme() + ":// is not in this build yet (" + backend.pending() + ")"));
    }

    /** Throws the {@link #pending()} problems, if any: for commands about to run the pipeline. */
    public void requireRunnable() throws ConfigException {
        if (!pending().isEmpty()) {
            throw new ConfigException(pending());
        }
    }

    /** One line: what the pipeline reads and where it writes. */
    public String describe() {
        return source.describeTopics() + " of " + String.join(",", source.bootstrapServers()) + " (group "
                + source.group() + ") to " + sink.describe();
    }
}
